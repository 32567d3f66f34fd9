"""Question statistics read from a store's summaries: the figures of summing every stored answer.

The hand-built answer set of tests/unit/test_questionstats.py (every figure worked out by hand
there) goes into the store as answers of runs; the store's tally must give those figures,
whether the answers were summed when their question closed or stored late into a closed one,
in one chat or over all chats, after a chat moved, and after an older database was upgraded.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Sequence

import asyncpg
import pytest
import yaml

from bot.commands.learning import marking
from bot.domain.model import NO_ANSWER, ChatRef
from bot.domain.questionstats import AnswerFact, Flag, FlagNote, Marking, question_stats, tally
from bot.domain.records import AnswerRow, RunStatus
from bot.domain.schedule import Cadence, Rule, ScheduleRow
from bot.testing.fakes import group, player
from tests.contract.stores.conftest import Implementation
from tests.contract.stores.rows import CHAT, run_row
from tests.engine.test_question_kinds import kinds_quiz
from tests.engine.test_quizstats_every_kind import QUIZ
from tests.unit.test_questionstats import A, B, C, facts

QUESTIONS = ("q1", "q2", "q4", "q5", "fill", "primes", "eth", "pi", "planets", "tabs")


def by_run(given: Sequence[AnswerFact]) -> list[list[AnswerFact]]:
    """A player answers a question once a run: their n-th answer to a question goes into run n."""
    seen: dict[tuple[str, str], int] = {}
    runs: list[list[AnswerFact]] = []
    for f in given:
        n = seen[f.question_id, f.player_key] = seen.get((f.question_id, f.player_key), -1) + 1
        if n == len(runs):
            runs.append([])
        runs[n].append(f)
    return runs


def answer_row(run_id: int, chat: ChatRef, f: AnswerFact) -> AnswerRow:
    return AnswerRow(
        run_id,
        QUESTIONS.index(f.question_id),
        f.question_id,
        f.player_key,
        chat.key,
        "demo",
        f.option,
        f.correct,
        f.elapsed,
        f.points,
        1 if f.correct else 0,
        1000.0,
        f.response,
        f.question_id != "tabs",  # the poll's votes are not scored
    )


async def store_facts(store, given: Sequence[AnswerFact], chat: ChatRef = CHAT) -> None:
    """Each run's answers stored while it is open and summed when it ends; the last run's
    stored after it ended (a direct write into closed questions)."""
    await store.ensure_chat(chat)
    runs = by_run(given)
    for number, answers in enumerate(runs):
        row = dataclasses.replace(run_row(chat), question_ids=QUESTIONS)
        row.id = await store.create_run(row)
        late = number == len(runs) - 1
        if late:
            row.status = RunStatus.FINISHED
            await store.save_run(row)
        for f in answers:
            assert await store.insert_answer(answer_row(row.id, chat, f))
        if not late:
            row.status = RunStatus.FINISHED
            await store.save_run(row)


async def test_the_stores_tally_gives_the_hand_worked_figures(store):
    await store_facts(store, facts())
    stored = await store.quiz_tally("demo", CHAT.key)
    assert stored == tally(facts())
    q1 = question_stats("q1", Marking.one_right(B, 4), stored)
    q2 = question_stats("q2", Marking.one_right(A, 4), stored)
    assert (q1.attempts, q1.right, q1.split, q1.median_seconds) == (10, 4, (0, 4, 5, 1), 6.5)
    assert q1.discrimination == pytest.approx(2 / 3)
    assert q2.flags == (FlagNote(Flag.CHECK_KEY, C),)
    assert (await store.quiz_tally("other", CHAT.key)).questions == {}


def every_kind() -> list[AnswerFact]:
    """Ten players answer a multi question (partial credit), a typed, a numeric and an ordering
    question, and vote in a poll: players 9 and 10 partly right, player 1 alone right when typing."""
    facts = []
    for n in range(1, 11):
        who, partly = f"test:u{n}", n > 8
        given = {
            "primes": ("0" if partly else "0,2", not partly),
            "eth": ("Zürich" if n == 1 else "Geneva", n == 1),
            "pi": ("3.14", True),
            "planets": ("0,1,3,2" if partly else "0,1,2,3", not partly),
        }
        for qid, (response, right) in given.items():
            facts.append(AnswerFact(qid, who, NO_ANSWER, right, 2.0, 900 if right else 300, response))
        facts.append(AnswerFact("tabs", who, 0, False, 1.0, 0))
    return facts


async def test_every_scored_kind_is_credited_from_the_summed_responses(store):
    await store_facts(store, every_kind())
    stored = await store.quiz_tally("demo", CHAT.key)
    assert stored == tally(every_kind())
    assert stored.questions["primes"].responses["test:u9"] == {"0": 1}
    quiz = kinds_quiz(*yaml.safe_load(QUIZ)["questions"])
    stats = {q.id: question_stats(q.id, marking(q), stored) for q in quiz.questions}
    shares = {qid: s.share_right for qid, s in stats.items()}
    assert shares == {"primes": 0.9, "eth": 0.1, "pi": 1.0, "planets": 0.9, "tabs": None}
    flagged = {qid: [note.flag for note in s.flags] for qid, s in stats.items()}
    easy, hard = [Flag.TOO_EASY], [Flag.TOO_HARD]
    assert flagged == {"primes": easy, "eth": hard, "pi": easy, "planets": easy, "tabs": []}
    assert stats["primes"].split == (10, 0, 8, 0) and stats["primes"].right == 8
    assert stats["primes"].discrimination == pytest.approx(1 / 3)  # top three all right; bottom: 9, 10 and one
    assert (stats["tabs"].discrimination, stats["tabs"].split, stats["tabs"].too_few_to_flag) == (None, (10, 0), False)


async def test_over_all_chats_a_players_answers_and_totals_add_up(store):
    other = ChatRef("test", "g2")
    await store_facts(store, facts())
    await store_facts(store, facts()[:12] + every_kind(), other)
    await store_facts(store, every_kind()[:20])
    assert await store.quiz_tally("demo") == tally(facts() + facts()[:12] + every_kind() + every_kind()[:20])
    assert await store.quiz_tally("demo", other.key) == tally(facts()[:12] + every_kind())
    assert await store.stats_chats("demo") == [CHAT.key, other.key]


async def test_a_moved_chat_keeps_its_statistics_schedules_and_time_zone(store):
    old, new = group("g1"), group("g2")
    await store_facts(store, facts()[:15] + every_kind()[:25], old)
    await store_facts(store, facts()[15:] + every_kind()[25:], new)
    await store.update_chat_settings(old, time_zone="Asia/Kolkata")
    await store.add_schedule(ScheduleRow(old, "demo", Rule(Cadence.DAILY, 9, 0), 1000.0, 1, player(1).key))
    await store.move_chat(old.key, new)
    assert await store.quiz_tally("demo", new.key) == tally(facts() + every_kind())  # both chats', added up
    assert await store.stats_chats("demo") == [new.key]
    (moved,) = await store.chat_schedules(new.key)
    assert (moved.chat.key, moved.chat.chat_id) == (new.key, "g2")
    assert (await store.chat_settings(new.key)).time_zone == "Asia/Kolkata"


async def play_group_run(engine, adapter, clock, chat, choices: dict[int, list[str]]):
    """One run in `chat`; `choices[n]` lists, per question, the letter player n presses ('' = none)."""
    await engine.start(chat, "demo", player(1))
    clock.advance(3)
    await engine.run_due()
    for number in range(4):
        for n, letters in choices.items():
            if letters[number]:
                clock.advance(1.5)
                assert (await engine.answer(adapter.token(letters[number]), player(n))).accepted
        clock.advance(30)
        await engine.run_due()  # close
        clock.advance(5)
        await engine.run_due()  # next question (or the podium)


async def test_statistics_sum_the_same_figures_as_the_answers(engine, adapter, clock, store, quiz):
    await play_group_run(
        engine, adapter, clock, group("g1"), {1: ["A", "B", "C", "D"], 2: ["B", "B", "", "A"], 3: ["C", "A", "A", "A"]}
    )
    await play_group_run(engine, adapter, clock, group("g2"), {1: ["D", "D", "D", "D"], 4: ["A", "A", "B", "C"]})
    runs = {1: "test:g1", 2: "test:g2"}
    facts = {
        key: [
            AnswerFact(a.question_id, a.player_key, a.option, a.correct, a.elapsed, a.points)
            for a in await store.run_answers(run_id)
        ]
        for run_id, key in runs.items()
    }
    assert len(facts["test:g1"]) == 11 and len(facts["test:g2"]) == 8
    assert await store.quiz_tally("demo", "test:g1") == tally(facts["test:g1"])
    assert await store.quiz_tally("demo") == tally(facts["test:g1"] + facts["test:g2"])
    assert await store.stats_chats("demo") == ["test:g1", "test:g2"]
    assert (await store.quiz_tally("other")).questions == {}


# an older database: its answers were summed per player and option; the upgrade sums them again
# from the stored answers, a row per player and question


def _before_per_question_rows(migrations: Sequence[str]) -> int:
    return next(i for i, script in enumerate(migrations) if "CREATE TABLE stat_players" in script)


def _old_sqlite(path: str, given: Sequence[AnswerFact]) -> None:
    from storage.sqlite.schema import MIGRATIONS

    conn = sqlite3.connect(path)
    for number, script in enumerate(MIGRATIONS[: _before_per_question_rows(MIGRATIONS)], start=1):
        conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
    conn.execute("INSERT INTO chats(key, platform, chat_id, created_at) VALUES (?, 'test', 'g1', 0)", (CHAT.key,))
    for run_id, answers in enumerate(by_run(given), start=1001):  # above the ids the store gives
        conn.execute(
            "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, "
            "started_by, started_at, status, phase, idx, asked_at, due) VALUES (?, ?, 'demo', 'en', 1, "
            "'[]', 30, 5, 'test:u1', 0, 'finished', 'pausing', 4, 0, 0)",
            (run_id, CHAT.key),
        )
        conn.executemany(
            "INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [dataclasses.astuple(answer_row(run_id, CHAT, f))[:12] for f in answers],  # the old table's columns
        )
    conn.commit()
    conn.close()


async def _old_postgres(url: str, given: Sequence[AnswerFact]) -> None:
    from storage.postgres.schema import MIGRATIONS

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(MIGRATIONS[: _before_per_question_rows(MIGRATIONS)], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_version(version) VALUES ($1)", number)
        await conn.execute(
            "INSERT INTO chats(key, platform, chat_id, created_at) VALUES ($1, 'test', 'g1', 0)", CHAT.key
        )
        for run_id, answers in enumerate(by_run(given), start=1001):  # above the ids the store gives
            await conn.execute(
                "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, "
                "pause, started_by, started_at, status, phase, idx, asked_at, due) VALUES ($1, $2, "
                "'demo', 'en', 1, '{}', 30, 5, 'test:u1', 0, 'finished', 'pausing', 4, 0, 0)",
                run_id,
                CHAT.key,
            )
            rows = [dataclasses.astuple(answer_row(run_id, CHAT, f))[:12] for f in answers]  # the old table's columns
            await conn.executemany(
                "INSERT INTO answers VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
                [(*r[:7], int(r[7]), *r[8:]) for r in rows],
            )
    finally:
        await conn.close()


async def test_an_older_database_is_upgraded_with_its_statistics_summed_from_the_stored_answers(
    store_database: tuple[Implementation, str],
):
    implementation, database = store_database
    if database.startswith("postgresql"):
        await _old_postgres(database, facts())
    else:
        _old_sqlite(database, facts())
    store = await implementation.open(database)
    try:
        assert await store.quiz_tally("demo", CHAT.key) == tally(facts())
        await store_facts(store, facts()[:3])  # and kept up after the upgrade
        assert await store.quiz_tally("demo", CHAT.key) == tally(facts() + facts()[:3])
    finally:
        await store.close()


# a database from before answers that are no one option were summed: the upgrade sums them from
# the stored answers, as exactly as if they had been summed when their questions closed


def _responses_migration(migrations: Sequence[str]) -> int:
    return next(i for i, script in enumerate(migrations) if "CREATE TABLE IF NOT EXISTS stat_responses" in script)


# what the migrations after it add (hosted games, plain text, extra time, the scoring rules, fair
# play), which running them again would refuse
HOSTED_UNDONE = [
    *(f"ALTER TABLE runs DROP COLUMN {name}" for name in ("host_key", "paused_left", "hint_at", "skipped")),
    "ALTER TABLE chats DROP COLUMN host_anyone",
    "ALTER TABLE chats DROP COLUMN plain_text",
    "ALTER TABLE runs DROP COLUMN time_factor",
    *(
        f"ALTER TABLE {table} DROP COLUMN {name}"
        for table in ("chats", "runs")
        for name in ("scoring", "streaks", "board_end")
    ),
    "ALTER TABLE chats DROP COLUMN min_age",
    "ALTER TABLE runs DROP COLUMN min_age",
]


async def _as_before_responses(database: str) -> None:
    if database.startswith("postgresql"):
        from storage.postgres.schema import MIGRATIONS as POSTGRES

        conn = await asyncpg.connect(database)
        try:
            for sql in [*HOSTED_UNDONE, "DROP TABLE stat_responses"]:
                await conn.execute(sql)
            await conn.execute("DELETE FROM schema_version WHERE version > $1", _responses_migration(POSTGRES))
        finally:
            await conn.close()
        return
    from storage.sqlite.schema import MIGRATIONS as SQLITE

    with sqlite3.connect(database) as conn:
        for sql in [*HOSTED_UNDONE, "DROP TABLE stat_responses"]:
            conn.execute(sql)
        conn.execute(f"PRAGMA user_version = {_responses_migration(SQLITE)}")


async def test_the_upgrade_sums_the_stored_responses(store_database: tuple[Implementation, str]):
    implementation, database = store_database
    store = await implementation.open(database)
    await store_facts(store, every_kind())
    await store.close()
    await _as_before_responses(database)
    store = await implementation.open(database)
    try:
        assert await store.quiz_tally("demo", CHAT.key) == tally(every_kind())
        await store_facts(store, every_kind()[:5])  # and kept up after the upgrade
        assert await store.quiz_tally("demo", CHAT.key) == tally(every_kind() + every_kind()[:5])
    finally:
        await store.close()
