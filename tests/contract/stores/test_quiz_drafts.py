"""Quizzes written in the chat, in the store: one draft per author (replaced, read back after a
restart, dropped), and share codes (one per quiz, the first code kept, unknown codes None)."""

from __future__ import annotations

from bot.domain.records import DraftRow, QuizShare


def draft(owner: str, content: str = "[]", replacing: int = 0, at: float = 1.0) -> DraftRow:
    return DraftRow(owner, "Space facts", content, replacing, at)


async def test_one_draft_per_author_replaced_and_dropped(store):
    await store.save_draft(draft("test:1", "[]"))
    await store.save_draft(draft("test:2", '[{"id": "q1"}]'))
    await store.save_draft(draft("test:1", '[{"id": "q1", "prompt": "Pluto?"}]', replacing=1, at=2.0))
    assert await store.draft("test:1") == draft("test:1", '[{"id": "q1", "prompt": "Pluto?"}]', 1, 2.0)
    assert (await store.draft("test:2")).content == '[{"id": "q1"}]'
    assert await store.delete_draft("test:1") is True
    assert await store.delete_draft("test:1") is False
    assert await store.draft("test:1") is None
    assert await store.draft("test:2") is not None


async def test_a_draft_survives_a_restart(store_factory):
    store = await store_factory.open()
    await store.save_draft(draft("test:1", '[{"id": "q1"}]'))
    store = await store_factory.restart(store)
    assert (await store.draft("test:1")).content == '[{"id": "q1"}]'


async def test_a_quiz_keeps_its_first_share_code(store):
    first = await store.share_quiz(QuizShare("abc123", "test:1", "space"))
    again = await store.share_quiz(QuizShare("zzz999", "test:1", "space"))
    assert first == again == QuizShare("abc123", "test:1", "space")
    other = await store.share_quiz(QuizShare("def456", "test:1", "birds"))
    assert other.code == "def456"
    assert await store.shared_quiz("abc123") == first
    assert await store.shared_quiz("zzz999") is None
