"""Chat quizzes in the store: saved per chat, replaced by id, listed and deleted, never seen
from another chat, and taken along when a chat changes its id."""

from __future__ import annotations

from bot.domain.model import ChatRef
from bot.domain.records import ChatQuizRow


def row(chat: str, quiz_id: str, content: str = '{"id": "x"}', at: float = 1.0) -> ChatQuizRow:
    return ChatQuizRow(chat, quiz_id, content, "test:1", at)


async def test_saved_per_chat_replaced_by_id_listed_and_deleted(store):
    await store.save_chat_quiz(row("test:a", "capitals", "v1"))
    await store.save_chat_quiz(row("test:a", "birds", "b"))
    await store.save_chat_quiz(row("test:a", "capitals", "v2", at=2.0))
    assert await store.chat_quiz("test:a", "capitals") == row("test:a", "capitals", "v2", at=2.0)
    assert [q.quiz_id for q in await store.chat_quizzes("test:a")] == ["birds", "capitals"]
    assert await store.delete_chat_quiz("test:a", "birds") is True
    assert await store.delete_chat_quiz("test:a", "birds") is False
    assert [q.quiz_id for q in await store.chat_quizzes("test:a")] == ["capitals"]


async def test_another_chat_neither_sees_nor_deletes_them(store):
    await store.save_chat_quiz(row("test:a", "capitals", "a's"))
    assert await store.chat_quiz("test:b", "capitals") is None
    assert await store.chat_quizzes("test:b") == []
    assert await store.delete_chat_quiz("test:b", "capitals") is False
    await store.save_chat_quiz(row("test:b", "capitals", "b's"))
    assert (await store.chat_quiz("test:a", "capitals")).content == "a's"


async def test_a_chat_that_changes_its_id_keeps_its_quizzes(store):
    old, new = ChatRef("test", "-1", title="group"), ChatRef("test", "-100", title="supergroup")
    await store.ensure_chat(old)
    await store.save_chat_quiz(row(old.key, "capitals"))
    await store.move_chat(old.key, new)
    assert [q.quiz_id for q in await store.chat_quizzes(new.key)] == ["capitals"]
    assert await store.chat_quizzes(old.key) == []
