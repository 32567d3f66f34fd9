"""Schedules and the first statistics migration on a real SQLite file (the statistics themselves:
tests/contract/stores/test_statistics.py, review decks: test_review_decks.py there, on both stores)."""

import sqlite3

from bot.domain.model import ChatRef
from bot.domain.schedule import Cadence, Rule, ScheduleRow, ScheduleStatus


async def test_a_schedule_time_is_claimed_once(store):
    chat = ChatRef("tg", "-100", title="Group")
    row = ScheduleRow(
        chat, "pipeline", Rule(Cadence.DAILY, 9, 0), next_due=1000.0, seed=5, created_by="tg:1", questions=1
    )
    sid = await store.add_schedule(row)
    assert [s.id for s in await store.due_schedules(1000.0)] == [sid]
    assert await store.due_schedules(999.0) == []
    wins = [await store.claim_schedule(sid, 1000.0, 87400.0, frozenset({"q3"})) for _ in range(2)]
    assert wins == [True, False]  # the second caller saw the time already moved on
    (stored,) = await store.chat_schedules(chat.key)
    assert (stored.next_due, stored.asked, stored.is_daily_question) == (87400.0, frozenset({"q3"}), True)
    await store.set_schedule_status(sid, ScheduleStatus.PAUSED)
    assert await store.due_schedules(10**9) == [] and await store.next_schedule_due() is None
    assert await store.remove_schedules(chat.key, sid + 1) == 0
    assert await store.remove_schedules(chat.key) == 1


def test_the_statistics_migration_backfills_from_stored_answers(tmp_path):
    from storage.sqlite.schema import MIGRATIONS

    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    mine = next(i for i, script in enumerate(MIGRATIONS) if "CREATE TABLE stat_choices" in script)
    for number, script in enumerate(MIGRATIONS[:mine], start=1):
        conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
    conn.execute("INSERT INTO chats(key, platform, chat_id, created_at) VALUES ('tg:1', 'tg', '1', 0)")
    conn.execute(
        "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
        "started_at, status, phase, idx, asked_at, due) VALUES (1, 'tg:1', 'demo', 'en', 1, '[]', 30, 5, "
        "'tg:9', 0, 'finished', 'pausing', 0, 0, 0)"
    )
    conn.execute("INSERT INTO answers VALUES (1, 0, 'q1', 'tg:9', 'tg:1', 'demo', 2, 0, 4.25, 0, 0, 10)")
    conn.commit()
    conn.close()
    conn = sqlite3.connect(db)
    conn.executescript(f"BEGIN;\n{MIGRATIONS[mine]}\nPRAGMA user_version={mine + 1};\nCOMMIT;")
    assert conn.execute("SELECT * FROM stat_choices").fetchall() == [("demo", "tg:1", "q1", "tg:9", 2, 1)]
    assert conn.execute("SELECT tenths, answers FROM stat_times").fetchall() == [(43, 1)]
    conn.close()
