"""The answer write path: group commit, a failed commit, duplicates in a batch, the board
summaries (migration 2 on an old database, live answers, closes), WAL checkpoints."""

from __future__ import annotations

import asyncio
import os
import sqlite3

from bot.domain.records import Phase, RunRow
from bot.engine.standings import period_start
from bot.testing.fakes import group, player
from storage.shared.group_commit import IDLE_RUNS
from storage.sqlite.schema import MIGRATIONS
from storage.sqlite.store import SqliteStore
from tests.contract.stores.rows import answer, stored_run

NOW = 1_764_000_000.0

NOT_SAVED = "Your answer was not saved. Please press again."


async def start_and_ask(engine, clock, chat=None):
    outcome = await engine.start(chat or group(), "demo", player(1))
    clock.advance(3)
    await engine.run_due()
    return outcome.run


async def test_many_presses_share_few_commits_and_each_is_stored_before_its_ack(engine, adapter, clock, store):
    await start_and_ask(engine, clock)
    commits = store.commits
    acks = await asyncio.gather(*(engine.answer(adapter.token("A"), player(n)) for n in range(1, 41)))
    assert all(a.accepted for a in acks)
    assert store.commits - commits < 10, "forty presses, each committed alone"
    assert len(await store.run_answers(adapter.questions[-1].run_id)) == 40


async def test_a_failed_commit_tells_every_waiting_player_and_lets_them_press_again(engine, adapter, clock, store):
    await start_and_ask(engine, clock)
    with sqlite3.connect(store.path) as side:  # the disk refuses: every insert fails
        side.execute("CREATE TRIGGER refuse BEFORE INSERT ON answers BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    acks = await asyncio.gather(*(engine.answer(adapter.token("B"), player(n)) for n in range(1, 4)))
    assert [(a.accepted, a.text) for a in acks] == [(False, NOT_SAVED)] * 3
    assert await store.run_answers(adapter.questions[-1].run_id) == []
    with sqlite3.connect(store.path) as side:
        side.execute("DROP TRIGGER refuse")
    again = await engine.answer(adapter.token("B"), player(1))
    assert again.accepted and again.text == "Locked in: B"
    clock.advance(30)
    await engine.run_due()  # the close does not wait for the failed writes forever
    assert [s.name for s in adapter.reveals[-1][1].answers] == ["Player 1"]


async def test_run_states_from_many_closes_share_commits(store):
    chat_rows = []
    for n in range(30):
        chat = group(f"g{n}")
        await store.ensure_chat(chat)
        row = _run_row(chat)
        row.id = await store.create_run(row)
        chat_rows.append(row)
    commits = store.commits
    for row in chat_rows:
        row.phase, row.index = Phase.ASKING, 0
    await asyncio.gather(*(store.save_run(row) for row in chat_rows))
    # no press waits, so they go several a commit (IDLE_RUNS), yet not a whole deadline's at once
    assert store.commits - commits <= -(-30 // IDLE_RUNS) + 1
    assert {r.phase for r in await store.open_runs()} == {Phase.ASKING}


async def test_boards_count_live_answers_and_closed_ones_once(engine, adapter, clock, store):
    chat = group()
    run = await start_and_ask(engine, clock, chat)
    await engine.answer(adapter.token(adapter.right_letter(run.quiz)), player(1))
    await engine.answer(adapter.token(adapter.wrong_letter(run.quiz)), player(2))
    live = await _points(store, chat)
    assert live == {"test:u1": 1000, "test:u2": 0}, "the open question counts at once"
    clock.advance(30)
    await engine.run_due()  # closes: the answers move into the summaries
    assert await _points(store, chat) == live
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT SUM(points) FROM board_totals").fetchone()[0] == 1000
        assert db.execute("SELECT SUM(points) FROM board_days").fetchone()[0] == 1000


async def test_migration_2_summarises_an_old_database_but_not_its_open_question(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:  # a database as the first release left it
        db.executescript(f"BEGIN; {MIGRATIONS[0]} PRAGMA user_version=1; COMMIT;")
        db.execute("INSERT INTO chats(key, platform, chat_id, created_at) VALUES ('test:g1', 'test', 'g1', 0)")
        db.execute(
            "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, "
            "started_by, started_at, status, phase, idx, asked_at, due) VALUES "
            "(1, 'test:g1', 'demo', 'en', 1, '[]', 30, 5, 'x', 0, 'finished', 'pausing', 1, 0, 0), "
            "(2, 'test:g1', 'demo', 'en', 1, '[]', 30, 5, 'x', 0, 'open', 'asking', 1, 0, 99)"
        )
        for run, idx, who, points in ((1, 0, "a", 900), (1, 1, "b", 700), (2, 0, "a", 500), (2, 1, "a", 600)):
            db.execute(
                "INSERT INTO answers VALUES (?, ?, 'q', ?, 'test:g1', 'demo', 0, 1, 1, ?, 1, ?)",
                (run, idx, f"test:{who}", points, 86_400 * 20 + idx),
            )
    store = await SqliteStore.open(path)
    try:
        assert await _points(store, group("g1")) == {"test:a": 2000, "test:b": 700}
        with sqlite3.connect(path) as db:  # run 2's open question (idx 1) is live, not summarised
            assert db.execute("SELECT SUM(points) FROM board_totals").fetchone()[0] == 2100
        row = next(r for r in await store.open_runs() if r.id == 2)
        row.phase, row.due = Phase.PAUSING, 100.0
        await store.save_run(row)  # the question closes
        assert await _points(store, group("g1")) == {"test:a": 2000, "test:b": 700}
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT SUM(points) FROM board_totals").fetchone()[0] == 2700
        week = await store.leaderboard("test:g1", period_start("week", 86_400 * 20 + 5))
        assert sum(s.points for s in week) == 2700
    finally:
        await store.close()


async def test_checkpoints_run_beside_the_writer(engine, adapter, clock, store):
    await start_and_ask(engine, clock)
    await asyncio.gather(*(engine.answer(adapter.token("C"), player(n)) for n in range(1, 30)))
    await store.checkpointer.checkpoint()
    with sqlite3.connect(store.path) as db:
        busy, log, done = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and log == done


async def test_the_wal_starts_over_though_the_writer_never_pauses(store):
    """SQLite writes the WAL from its start again only after a checkpoint that nothing was
    written during; answers committed back to back beside the checkpoints never leave one."""
    store.checkpointer.restart_frames = 100
    run = await stored_run(store)
    pressing = True

    async def press(first: int) -> None:
        for n in range(first, first + 1000):
            await store.submit_answer(answer(run.id, f"test:p{n}", NOW + n))

    async def checkpoint_while_pressing() -> None:
        while pressing:
            await store.checkpointer.checkpoint()
            await asyncio.sleep(0.005)  # as the checkpointer's loop does (storage/sqlite/checkpoint.py)

    checkpoints = asyncio.get_running_loop().create_task(checkpoint_while_pressing())
    await asyncio.gather(*(press(first) for first in range(0, 4000, 1000)))
    pressing = False
    await checkpoints
    assert len(await store.run_answers(run.id)) == 4000
    wal_mib = os.path.getsize(f"{store.path}-wal") / 2**20
    # 38 MiB when the WAL never starts over; 3 to 16 MiB when it does, by how the machine's load
    # spaces the checkpoints between the commits: half the first is the line between them
    assert wal_mib < 19, f"the WAL grew to {wal_mib:.1f} MiB"


async def _points(store: SqliteStore, chat) -> dict[str, int]:
    return {s.player_key: s.points for s in await store.leaderboard(chat.key)}


def _run_row(chat) -> RunRow:
    return RunRow(
        chat_key=chat.key,
        chat_id=chat.chat_id,
        platform=chat.platform,
        is_private=False,
        quiz_id="demo",
        language="en",
        seed=7,
        question_ids=("q1", "q2"),
        seconds=30,
        pause=5,
        started_by="test:u1",
        started_at=0.0,
    )
