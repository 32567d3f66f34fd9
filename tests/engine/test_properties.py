"""Property tests: random sequences of starts, presses, stops, clock jumps and restarts drive
the engine (fake clock, recording adapter, a real SQLite file); the invariants are checked
after every step against what is stored.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bot.content.catalog import Catalog
from bot.domain import session
from bot.domain.model import ChatRef, Player, Quiz
from bot.domain.scoring import points_for
from bot.engine.core import Engine, EngineSettings
from bot.engine.standings import period_start
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player, private
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of

CHATS = (group("g1"), group("g2"), private("p1"))
PLAYERS = tuple(player(n, f"P{n}") for n in range(1, 6))
QUIZZES = (make_quiz("demo", 4), make_quiz("other", 3, options=3, title="Other things"))


@dataclass
class World:
    folder: Path
    clock: FakeClock = field(default_factory=FakeClock)
    adapter: RecordingAdapter = field(default_factory=RecordingAdapter)
    engine: Engine | None = None
    acks: list[tuple[int, int, str, str]] = field(default_factory=list)  # run, number, player, option text

    async def open(self) -> None:
        store = await SqliteStore.open(self.folder / "quiz.db")
        rng = random.Random(len(self.adapter.questions))  # option orders replay alike when hypothesis shrinks
        self.engine = build(
            Catalog.from_quizzes(QUIZZES),
            store,
            self.clock,
            EngineSettings(question_seconds=30, pause_seconds=5),
            rng=rng,
        ).engine
        self.engine.attach(self.adapter)
        await self.engine.resume()

    async def close(self) -> None:
        await house_of(self.engine).store.close()

    def asking(self) -> list:
        return [r for r in self.engine.open_runs() if r.is_asking]


class Play(RuleBasedStateMachine):
    """One chat world; hypothesis picks the next step, the invariants run after each one."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.world = World(Path(self.folder.name))
        self.loop = asyncio.new_event_loop()
        self.run(self.world.open())

    def run(self, work):
        return self.loop.run_until_complete(work)

    def step(self, work, stores: bool = False) -> None:
        """Do one thing, let due timers fire; a step that must not store anything stores nothing."""
        before = _answer_count(self.world)
        self.run(work)
        self.run(self.world.engine.run_due())
        if not stores:
            assert _answer_count(self.world) == before, "a refused or unrelated step stored an answer"

    @initialize(chats=st.sets(st.integers(0, 2), min_size=1), quiz=st.integers(0, 1))
    def first_quizzes(self, chats, quiz):
        """Every example starts with quizzes under way, so presses have questions to hit."""
        for chat in sorted(chats):
            self.run(self.world.engine.start(CHATS[chat], QUIZZES[quiz].id, PLAYERS[chat]))
        self.world.clock.advance(3)
        self.step(asyncio.sleep(0))

    @rule(
        chat=st.integers(0, 2),
        quiz=st.integers(0, 1),
        who=st.integers(0, 4),
        count=st.one_of(st.none(), st.integers(1, 4)),
    )
    def start(self, chat, quiz, who, count):
        self.step(self.world.engine.start(CHATS[chat], QUIZZES[quiz].id, PLAYERS[who], count))

    @precondition(lambda self: self.world.asking())
    @rule(
        pick=st.integers(0, 10), players=st.lists(st.integers(0, 4), min_size=1, max_size=6), choice=st.integers(0, 3)
    )
    def press_open_question(self, pick, players, choice):
        """Players press the open question of some run; repeated players press twice."""
        run = self.world.asking()[pick % len(self.world.asking())]
        card = session.card(run)
        self.step(_presses(self.world, card, [PLAYERS[i] for i in players], choice), stores=True)

    @precondition(lambda self: self.world.adapter.questions)
    @rule(pick=st.integers(0, 100), who=st.integers(0, 4))
    def press_old_question(self, pick, who):
        old = self.world.adapter.questions[pick % len(self.world.adapter.questions)]
        if (old.run_id, old.number) not in {(r.id, r.row.index + 1) for r in self.world.asking()}:
            self.step(_refused(self.world, old.options[0].token, PLAYERS[who]))

    @rule(
        data=st.one_of(
            st.text(max_size=80),
            st.binary(max_size=80),
            st.none(),
            st.builds("qa:{}:{}:{}".format, st.integers(0, 10**13), st.integers(0, 999), st.integers(0, 9)),
        ),
        who=st.integers(0, 4),
    )
    def press_forged(self, data, who):
        asked = {f"qa:{r.id}:{r.row.index + 1}:{c}" for r in self.world.asking() for c in range(10)}
        if data not in asked:
            self.step(_refused(self.world, data, PLAYERS[who]))

    @rule(chat=st.integers(0, 2), who=st.integers(0, 4), admin=st.booleans())
    def stop(self, chat, who, admin):
        self.step(self.world.engine.stop(CHATS[chat], PLAYERS[who], admin))

    @rule(seconds=st.sampled_from([0.5, 1, 3, 5, 12, 29, 31, 300, 86_400 * 3]))
    def clock_jump(self, seconds):
        self.world.clock.advance(seconds)
        self.step(asyncio.sleep(0))

    @rule()
    def restart(self):
        """A clean restart: a new engine on the same file resumes whatever was open."""
        self.run(self.world.close())
        self.step(self.world.open())

    @invariant()
    def stored_state_is_sound(self):
        self.run(_check(self.world))

    def teardown(self) -> None:
        self.run(self.world.close())
        self.loop.close()
        self.folder.cleanup()


Play.TestCase.settings = settings(
    max_examples=30, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_random_play_keeps_every_invariant = Play.TestCase


async def _presses(world: World, card, players: list[Player], choice: int) -> None:
    for n, who in enumerate(players):
        option = card.options[(choice + n) % len(card.options)]
        ack = await world.engine.answer(option.token, who)
        assert ack.text
        if ack.accepted:
            world.acks.append((card.run_id, card.number, who.key, option.text))


async def _refused(world: World, data, who: Player) -> None:
    ack = await world.engine.answer(data, who)
    assert not ack.accepted and ack.text


def _answer_count(world: World) -> int:
    with sqlite3.connect(world.folder / "quiz.db") as conn:
        return conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]


async def _check(world: World) -> None:
    rows, runs = _stored(world)
    keys = [(a["run_id"], a["idx"] + 1, a["player_key"]) for a in rows]
    acked = [a[:3] for a in world.acks]
    assert len(acked) == len(set(acked)), "two presses of one player were accepted on one question"
    assert set(acked) <= set(keys), "an accepted press is not stored"
    texts = {(a["run_id"], a["idx"] + 1, a["player_key"]): a for a in rows}
    for run_id, number, who, option_text in world.acks:
        a = texts[(run_id, number, who)]
        assert _question(a).options[a["option"]].get("en") == option_text, "stored another option"
    _check_scores(rows, runs)
    open_by_chat = [r["chat_key"] for r in runs.values() if r["status"] == "open"]
    assert len(open_by_chat) == len(set(open_by_chat)), "a chat has two runs"
    for chat in CHATS:
        in_memory = world.engine.run_in(chat)
        assert (in_memory is not None) == (chat.key in open_by_chat)
        await _check_boards(world, chat, rows)


def _stored(world: World) -> tuple[list[sqlite3.Row], dict[int, sqlite3.Row]]:
    with sqlite3.connect(world.folder / "quiz.db") as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute("SELECT * FROM answers ORDER BY run_id, idx").fetchall()
        runs = {r["id"]: r for r in conn.execute("SELECT * FROM runs")}
    return rows, runs


def _question(answer: sqlite3.Row):
    quiz: Quiz = next(q for q in QUIZZES if q.id == answer["quiz_id"])
    return next(q for q in quiz.questions if q.id == answer["question_id"])


def _check_scores(rows: list[sqlite3.Row], runs: dict[int, sqlite3.Row]) -> None:
    """Points only for right answers, exactly as bot.domain.scoring says, streaks as the rule says."""
    last: dict[tuple[int, str], tuple[int, int]] = {}  # (run, player) -> (idx, streak) of the previous answer
    for a in rows:
        q = _question(a)
        correct = a["option"] == q.answer
        assert bool(a["correct"]) == correct
        previous_idx, previous_streak = last.get((a["run_id"], a["player_key"]), (-2, 0))
        streak = (previous_streak if previous_idx == a["idx"] - 1 else 0) + 1 if correct else 0
        assert a["streak"] == streak, "streak counts consecutive right answers in the run"
        seconds = runs[a["run_id"]]["seconds"]
        assert 0 <= a["elapsed"] <= seconds
        assert a["points"] == points_for(correct, a["elapsed"], seconds, streak)
        assert correct or a["points"] == 0
        last[(a["run_id"], a["player_key"])] = (a["idx"], a["streak"])


async def _check_boards(world: World, chat: ChatRef, rows: list[sqlite3.Row]) -> None:
    """Every board equals the stored points of its period, player by player."""
    now = world.clock.now()
    for period in ("all", "week", "month"):
        since = period_start(period, now)
        truth: dict[str, int] = {}
        for a in rows:
            if a["chat_key"] == chat.key and (since is None or a["answered_at"] >= since):
                truth[a["player_key"]] = truth.get(a["player_key"], 0) + a["points"]
        board = await house_of(world.engine).store.leaderboard(chat.key, since)
        assert {s.player_key: s.points for s in board} == truth, f"{period} board of {chat.key}"
        assert [s.rank for s in board] == list(range(1, len(board) + 1))
    players = {a["player_key"] for a in rows if a["chat_key"] == chat.key}
    for who in [*[p for p in PLAYERS if p.key in players][:2], PLAYERS[-1]]:
        stats = await house_of(world.engine).store.player_stats(chat.key, who)
        mine = [a for a in rows if a["chat_key"] == chat.key and a["player_key"] == who.key]
        assert (stats.points, stats.answered) == (sum(a["points"] for a in mine), len(mine))
        assert (stats.rank is not None) == bool(mine)
