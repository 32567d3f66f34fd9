"""Review decks, question statistics and schedules on a real SQLite file."""
import sqlite3

from bot.leitner import ReviewCard
from bot.model import ChatRef
from bot.questionstats import AnswerFact, tally
from bot.schedule import Cadence, Rule, ScheduleRow, ScheduleStatus
from bot.testing.fakes import group, player


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
    await play_group_run(engine, adapter, clock, group("g1"),
                         {1: ["A", "B", "C", "D"], 2: ["B", "B", "", "A"], 3: ["C", "A", "A", "A"]})
    await play_group_run(engine, adapter, clock, group("g2"), {1: ["D", "D", "D", "D"], 4: ["A", "A", "B", "C"]})
    runs = {1: "test:g1", 2: "test:g2"}
    facts = {key: [AnswerFact(a.question_id, a.player_key, a.option, a.correct, a.elapsed, a.points)
                   for a in await store.run_answers(run_id)] for run_id, key in runs.items()}
    assert len(facts["test:g1"]) == 11 and len(facts["test:g2"]) == 8
    assert await store.quiz_tally("demo", "test:g1") == tally(facts["test:g1"])
    assert await store.quiz_tally("demo") == tally(facts["test:g1"] + facts["test:g2"])
    assert await store.stats_chats("demo") == ["test:g1", "test:g2"]
    assert (await store.quiz_tally("other")).questions == {}


async def test_a_moved_chat_keeps_its_statistics_schedules_and_time_zone(engine, adapter, clock, store):
    await play_group_run(engine, adapter, clock, group("g1"), {1: ["A", "B", "C", "D"]})
    await play_group_run(engine, adapter, clock, group("g2"), {2: ["A", "A", "A", "A"]})
    before = await store.quiz_tally("demo")
    await store.update_chat_settings(group("g1"), time_zone="Asia/Kolkata")
    await store.add_schedule(ScheduleRow(group("g1"), "demo", Rule(Cadence.DAILY, 9, 0), 1000.0, 1, "test:u1"))
    await engine.move_chat(group("g1"), group("g2"))
    assert await store.quiz_tally("demo", "test:g2") == before  # both chats' answers, added up
    assert await store.stats_chats("demo") == ["test:g2"]
    (moved,) = await store.chat_schedules("test:g2")
    assert moved.chat.key == "test:g2" and moved.chat.chat_id == "g2"
    assert (await store.chat_settings("test:g2")).time_zone == "Asia/Kolkata"


async def test_a_review_deck_keeps_one_card_per_question_and_forgets_removed_ones(store):
    await store.put_review_cards([ReviewCard("tg:1", "pipeline", "q1", 1, 100.0),
                                  ReviewCard("tg:1", "pipeline", "q2", 1, 100.0),
                                  ReviewCard("tg:2", "pipeline", "q1", 1, 100.0)])
    await store.put_review_cards([ReviewCard("tg:1", "pipeline", "q1", 3, 500.0)])
    await store.remove_review_card("tg:1", "pipeline", "q2")
    assert await store.review_deck("tg:1") == [ReviewCard("tg:1", "pipeline", "q1", 3, 500.0)]
    assert len(await store.review_deck("tg:2")) == 1


async def test_a_schedule_time_is_claimed_once(store):
    chat = ChatRef("tg", "-100", title="Group")
    row = ScheduleRow(chat, "pipeline", Rule(Cadence.DAILY, 9, 0), next_due=1000.0, seed=5, created_by="tg:1",
                      questions=1)
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
    from storage.schema import MIGRATIONS

    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    mine = next(i for i, script in enumerate(MIGRATIONS) if "CREATE TABLE stat_choices" in script)
    for number, script in enumerate(MIGRATIONS[:mine], start=1):
        conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
    conn.execute("INSERT INTO chats(key, platform, chat_id, created_at) VALUES ('tg:1', 'tg', '1', 0)")
    conn.execute("INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
                 "started_at, status, phase, idx, asked_at, due) VALUES (1, 'tg:1', 'demo', 'en', 1, '[]', 30, 5, "
                 "'tg:9', 0, 'finished', 'pausing', 0, 0, 0)")
    conn.execute("INSERT INTO answers VALUES (1, 0, 'q1', 'tg:9', 'tg:1', 'demo', 2, 0, 4.25, 0, 0, 10)")
    conn.commit()
    conn.close()
    conn = sqlite3.connect(db)
    conn.executescript(f"BEGIN;\n{MIGRATIONS[mine]}\nPRAGMA user_version={mine + 1};\nCOMMIT;")
    assert conn.execute("SELECT * FROM stat_choices").fetchall() == [("demo", "tg:1", "q1", "tg:9", 2, 1)]
    assert conn.execute("SELECT tenths, answers FROM stat_times").fetchall() == [(43, 1)]
    conn.close()
