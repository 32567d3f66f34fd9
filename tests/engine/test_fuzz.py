"""Fuzz: random bytes and strings at the token decoder, the command parser, every command and
every button. Each gets a clear reply, nothing raises, and nothing changes unless the input
was a valid command that legitimately changes something (and its reply says so).
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands.core import MAX_ARGS, Caller, Commands, parse
from bot.commands.table import ALIASES, NAMES
from bot.content.catalog import Catalog
from bot.domain.model import LANGUAGES, PAUSE_SECONDS, QUESTION_SECONDS, Ack, Reply
from bot.domain.tokens import decode
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import group, make_quiz, player, private
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
junk = st.one_of(
    st.text(max_size=120),
    st.binary(max_size=120).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["", " ", "\x00", "/", "@", "qa:", "qp:", "ql:", "‮", "🥇" * 40, "x" * 5000]),
)
# words the commands know, so random arguments sometimes form real ones
words = st.sampled_from(
    [
        "demo",
        "other",
        "week",
        "month",
        "all",
        "time",
        "pause",
        "5",
        "20",
        "301",
        "-1",
        "en",
        "hi",
        "ur",
        "sn",
        "xx",
        "quiz_demo",
        "0",
        "999",
        "things",
    ]
)
args_text = st.one_of(
    st.lists(words, max_size=3).map(" ".join), junk, st.lists(st.one_of(words, junk), max_size=4).map(" ".join)
)


@given(
    st.one_of(
        st.none(),
        st.integers(),
        st.binary(max_size=100),
        st.text(max_size=100),
        st.builds("qa:{}:{}:{}".format, st.integers(-5, 10**14), st.integers(-5, 5000), st.integers(-5, 20)),
    )
)
@FUZZ
def test_the_token_decoder_answers_none_or_a_token_it_can_write_back(data):
    token = decode(data)
    if token is not None:
        text = data.decode("ascii") if isinstance(data, bytes) else data
        assert token.encode() == text and len(text.encode()) <= 64
        assert token.run_id >= 1 and token.number >= 0 and 0 <= token.choice <= 9


@given(junk, st.one_of(st.none(), st.text(max_size=40)))
@FUZZ
def test_the_command_parser_never_raises(text, bot_name):
    parsed = parse(text, bot_name)
    if parsed is not None:
        name, args = parsed
        assert name.isascii() and name == name.lower() and 1 <= len(name) <= 32
        assert len(args) <= MAX_ARGS


@given(
    st.lists(
        st.tuples(
            st.sampled_from([*NAMES, *ALIASES, "nope", "QUIZ", "a" * 40]), args_text, st.booleans(), st.booleans()
        ),
        min_size=1,
        max_size=8,
    )
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_command_with_random_arguments_replies_and_changes_only_what_it_says(calls):
    asyncio.run(_with_engine(_commands, calls))


@given(
    st.lists(
        st.tuples(
            st.one_of(
                junk,
                st.builds("qp:{}".format, args_text),
                st.builds("ql:{}".format, args_text),
                st.builds("qa:{}:{}:{}".format, st.integers(0, 99), st.integers(0, 99), st.integers(0, 9)),
            ),
            st.booleans(),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    )
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_button_data_replies_and_changes_nothing_unless_it_says_so(presses):
    asyncio.run(_with_engine(_presses, presses))


async def _with_engine(body, items) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "fuzz.db")
        catalog = Catalog.from_quizzes([make_quiz("demo", 4), make_quiz("other", 3, title="Other things")])
        engine = build(catalog, store, FakeClock(), EngineSettings(question_seconds=30, pause_seconds=5)).engine
        try:
            await body(house_of(engine).commands, Path(folder) / "fuzz.db", items)
        finally:
            await store.close()


async def _commands(commands: Commands, db: Path, calls) -> None:
    for name, args, in_group, admin in calls:
        caller = Caller(group() if in_group else private(), player(1, "Fuzzy"), is_admin=admin)
        before = _snapshot(db)
        reply = await commands.handle(name, args, caller)
        _check_reply(reply)
        _check_changes(before, _snapshot(db), reply, caller, name, args)


async def _presses(commands: Commands, db: Path, presses) -> None:
    for data, in_group, admin in presses:
        caller = Caller(group() if in_group else private(), player(2, "Presser"), is_admin=admin)
        before = _snapshot(db)
        reply = await commands.press(data, caller)
        _check_reply(reply)
        if isinstance(reply, Ack):
            assert not reply.accepted, "random data was taken as an answer"
        name = {"qp": "quiz", "ql": "language"}.get(data[:2], "press") if data[2:3] == ":" else "press"
        _check_changes(before, _snapshot(db), reply, caller, name, data[3:])


def _check_reply(reply) -> None:
    assert isinstance(reply, (Reply, Ack))
    assert reply.text.strip(), "an empty reply"
    assert reply.language in LANGUAGES


def _snapshot(db: Path) -> dict:
    with sqlite3.connect(db) as conn:
        return {
            "runs": conn.execute("SELECT id, chat_key, status FROM runs ORDER BY id").fetchall(),
            "answers": conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0],
            "settings": {
                k: (lang, sec, pause)
                for k, lang, sec, pause in conn.execute(
                    "SELECT key, language, question_seconds, pause_seconds FROM chats"
                )
            },
        }


def _check_changes(before: dict, after: dict, reply, caller: Caller, name: str, args: str) -> None:
    name = ALIASES.get(name, name)
    assert after["answers"] == before["answers"], f"/{name} {args!r} stored an answer"
    new_runs = [r for r in after["runs"] if r not in before["runs"] and r[0] not in {b[0] for b in before["runs"]}]
    ended = [r for r in before["runs"] if r not in after["runs"]]
    started = getattr(reply, "kind", "") == "start"
    assert len(new_runs) == (1 if started else 0), f"/{name} {args!r}: runs {new_runs} vs reply {reply.text!r}"
    if ended:
        assert name == "stop" and reply.kind == "text", f"/{name} {args!r} ended a run"
    changed = {k for k in after["settings"] if before["settings"].get(k, (None,) * 3) != after["settings"][k]}
    for key in changed:
        assert name in ("language", "settings") and reply.kind != "error", f"/{name} {args!r} changed settings"
        assert caller.chat.is_private or caller.is_admin, "a settings change by a member"
        language, seconds, pause = after["settings"][key]
        assert language in (None, *LANGUAGES)
        assert seconds is None or seconds in QUESTION_SECONDS
        assert pause is None or pause in PAUSE_SECONDS
