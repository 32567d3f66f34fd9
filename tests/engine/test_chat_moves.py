"""A chat that changes its id (a Telegram group upgraded to a supergroup) keeps everything."""

from __future__ import annotations

from bot.app.platforms import telegram_adapter
from bot.domain.model import ChatRef
from bot.testing.fakes import player
from tests.support.house import house_of


async def test_a_quiz_in_progress_and_the_leaderboard_follow_the_chat_to_its_new_id(engine, adapter, quiz, clock):
    old, new = ChatRef("test", "-100", title="Group"), ChatRef("test", "-100200", title="Group")
    ann, bob = player(1, "Ann"), player(2, "Bob")
    await house_of(engine).chats.update(old, language="sn")
    await engine.start(old, "demo", ann)
    clock.advance(3)
    await engine.run_due()
    assert (await engine.answer(adapter.token(adapter.right_letter(quiz)), ann)).accepted
    clock.advance(30)
    await engine.run_due()  # question 1 closes in the old chat

    await house_of(engine).chats.move(old, new)
    await house_of(engine).chats.move(old, new)  # Telegram may say it twice (service message, then an error)

    assert engine.run_in(old) is None and engine.run_in(new) is not None
    clock.advance(5)
    await engine.run_due()
    assert adapter.questions[-1].chat.chat_id == "-100200" and adapter.questions[-1].number == 2
    assert (await engine.answer(adapter.token(adapter.right_letter(quiz)), bob)).accepted
    board, _ = await house_of(engine).standings.leaderboard(new, "all", None)
    assert [(s.name, s.points) for s in board] == [("Ann", 1000), ("Bob", 1000)]
    assert (await house_of(engine).standings.leaderboard(old, "all", None))[0] == []
    assert (await house_of(engine).chats.settings(new)).language == "sn"


async def test_moving_into_a_chat_with_its_own_history_adds_the_boards_up(engine, adapter, quiz, clock, store):
    old, new = ChatRef("test", "-1"), ChatRef("test", "-2")
    for chat in (old, new):
        await engine.start(chat, "demo", player(1, "Ann"), count=1)
        clock.advance(3)
        await engine.run_due()
        await engine.answer(adapter.token(adapter.right_letter(quiz)), player(1, "Ann"))
        clock.advance(30)
        await engine.run_due()
    await house_of(engine).chats.move(old, new)
    board, _ = await house_of(engine).standings.leaderboard(new, "all", None)
    assert [(s.name, s.correct, s.answered) for s in board] == [("Ann", 2, 2)]
    stats = await house_of(engine).standings.player_stats(new, player(1, "Ann"))
    assert (stats.answered, stats.correct, stats.quizzes) == (2, 2, 2)


async def test_telegram_saying_chat_migrated_on_a_send_moves_the_chat_and_sends_there(engine, tmp_path):
    from telegram.error import ChatMigrated

    from bot.app.settings import Settings

    settings = Settings(_env_file=None, telegram_bot_token="123:TEST", quizhost_db=tmp_path / "x.db")
    adapter = telegram_adapter(settings)
    adapter._commands = house_of(engine).commands
    old = ChatRef("test", "-77", title="Old group")
    await engine.start(old, "demo", player(1))
    tried = []

    async def send(chat: ChatRef) -> str:
        tried.append(chat.chat_id)
        if chat.chat_id == "-77":
            raise ChatMigrated(-10077)
        return "sent"

    assert await adapter._following_moves(old, send) == "sent"
    assert tried == ["-77", "-10077"]
    assert engine.run_in(old) is None and engine.run_in(ChatRef("test", "-10077")) is not None
