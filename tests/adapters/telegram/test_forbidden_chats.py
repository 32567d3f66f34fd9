"""A chat that removed the bot: whatever send the platform refuses as forbidden (not only the
scheduler's own post) pauses the chat's schedules, once, with a log line. End to end through
real PTB against the fake Bot API, and through the engine's outbox with a recording adapter."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from bot.commands.core import Caller
from bot.domain.schedule import ScheduleStatus
from bot.ports.chat import ChatUnreachable
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import Call
from bot.testing.fakes import RecordingAdapter, group, player, private
from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401  (fixtures)
from tests.engine.test_review import ANN, group_run_with_misses, review
from tests.engine.test_schedules import make_engine
from tests.support import telegram_harness as th
from tests.support.house import house_of

KICKED = "Forbidden: bot was kicked from the group chat"


async def test_a_group_that_removes_the_bot_after_the_announcement_pauses_its_schedules(fake, tmp_path, caplog):
    clock = FakeClock(datetime(2026, 6, 1, 8, 59, tzinfo=UTC).timestamp())
    chat = fake.group(-1071, "Leavers")
    ann_user = fake.user(71, "Ann")
    ann = th.Member(fake, chat, ann_user)
    fake.make_admin(chat, ann_user)
    fake.expected_refusals.add(KICKED)

    async def removed_after_the_announcement(call: Call, done: bool) -> None:
        if done and call.method == "sendMessage" and "Scheduled quiz" in str(call.params.get("text")):
            fake.remove_bot(chat)  # between the scheduler's post and the quiz's first question

    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        listed = await ann.says("/schedule daily 09:00 tiny")
        assert listed.text == "⏰ Scheduled\n\n#1 daily 09:00: the quiz Tiny <Quiz> & Co; next 2026-06-01 09:00 UTC"
        fake.around = removed_after_the_announcement
        with caplog.at_level(logging.WARNING, "quizhost.schedule"):
            clock.advance(60)  # 09:00: announced, then the question goes out through the outbox
            await fake.wait_for(lambda: "its schedules are paused" in caplog.text, what="the schedules paused")
        fake.around = None
        refused = [c for c in fake.calls if c.status == 403]
        assert refused and all(c.params["chat_id"] == chat["id"] for c in refused)
        assert "reply_markup" in refused[0].params  # the refused send was the question, not the announcement
        assert fake.questions(chat) == []
        assert "telegram:-1071 does not let the bot post; its schedules are paused (1)" in caplog.text
        assert caplog.text.count("its schedules are paused") == 1  # retries do not repeat it

        fake.remove_bot(chat, removed=False)  # added back: the admin sees why nothing came
        listing = await ann.says("/schedule")
        assert "#1 daily 09:00: the quiz Tiny <Quiz> & Co; next 2026-06-02 09:00 UTC" in listing.text
        assert "paused: I could not post here" in listing.text


class ClosedChat(RecordingAdapter):
    """The platform refuses every question post as forbidden; other sends go through."""

    async def post_question(self, card):
        raise ChatUnreachable(card.chat.key)


async def test_a_refused_question_of_a_manual_quiz_pauses_the_chats_schedules_too(store, caplog):
    clock = FakeClock(datetime(2026, 6, 1, 6, tzinfo=UTC).timestamp())
    engine = make_engine(store, clock, ClosedChat())
    commands = house_of(engine).commands
    admin = Caller(group(), player(1, "Admin"), is_admin=True)
    await commands.handle("schedule", "daily 09:00 demo", admin)
    await commands.handle("schedule", "weekly mon 18:00 demo 1", admin)
    await commands.handle("schedule", "daily 09:00 demo", Caller(group("g2"), player(1), is_admin=True))
    with caplog.at_level(logging.WARNING, "quizhost.schedule"):
        await commands.handle("quiz", "demo", admin)
        clock.advance(5)
        await engine.run_due()
        await house_of(engine).sender.flush_due()
    assert "test:g1 does not let the bot post; its schedules are paused (2)" in caplog.text
    assert [s.status for s in await store.chat_schedules(group().key)] == [ScheduleStatus.PAUSED] * 2
    assert [s.status for s in await store.chat_schedules(group("g2").key)] == [ScheduleStatus.ACTIVE]


class Blocked(RecordingAdapter):
    """The player blocked the bot: posts to their private chat are refused as forbidden."""

    async def post_question(self, card):
        if card.chat.is_private:
            raise ChatUnreachable(card.chat.key)
        return await super().post_question(card)


async def test_a_review_card_refused_in_a_private_chat_pauses_its_schedules(
    engine, adapter, quiz, clock, store, caplog
):
    await group_run_with_misses(engine, adapter, quiz, clock)
    commands = house_of(engine).commands
    ann = Caller(private(), ANN)
    await commands.handle("schedule", "daily 09:00 demo 1", ann)  # a question of the day in her own chat
    engine.attach(Blocked())  # then Ann blocks the bot
    with caplog.at_level(logging.WARNING, "quizhost.schedule"):
        assert (await review(commands, clock)).text.startswith("2 cards are due")
    assert "test:p1 does not let the bot post; its schedules are paused (1)" in caplog.text
    (paused,) = await store.chat_schedules(private().key)
    assert paused.status is ScheduleStatus.PAUSED
