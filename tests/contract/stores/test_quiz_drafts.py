"""Quizzes written in the chat, in the store: one draft per author (replaced, read back after a
restart, dropped), and share codes (one per quiz, the first code kept, unknown codes None)."""

from __future__ import annotations

from bot.domain.model import ChatRef
from bot.domain.records import DraftRow, QuizShare, Suggestion, SuggestionStatus


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


async def test_a_draft_changes_only_from_what_its_author_last_read(store):
    """Two messages of one author at once read the same draft: the first change is stored, the
    second is refused (it would drop the first) and is made again from the draft as it is now."""
    assert await store.change_draft(draft("test:1"), None) is True
    assert await store.change_draft(draft("test:1", at=9.0), None) is False, "one draft per author"
    read = await store.draft("test:1")
    first = draft("test:1", '[{"id": "q1"}]', at=2.0)
    second = draft("test:1", '[{"id": "q2"}]', at=2.0)
    assert await store.change_draft(first, read) is True
    assert await store.change_draft(second, read) is False
    assert await store.draft("test:1") == first
    assert await store.change_draft(second, first) is True
    assert await store.draft("test:1") == second
    assert await store.change_draft(draft("test:2"), draft("test:2")) is False, "no draft to change"
    assert await store.draft("test:2") is None


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


def suggestion(chat: str, player: str, at: float, content: str = '{"prompt": "p"}') -> Suggestion:
    return Suggestion(chat, 0, player, player.title(), content, at)


async def test_a_draft_may_be_a_suggestion_to_a_group(store):
    await store.save_draft(DraftRow("test:1", "", "[]", 0, 1.0, target="test:-5"))
    assert (await store.draft("test:1")).target == "test:-5"


async def test_suggestions_are_numbered_per_group_and_decided_once(store):
    assert await store.add_suggestion(suggestion("test:-1", "test:bob", 10.0)) == 1
    assert await store.add_suggestion(suggestion("test:-1", "test:cy", 11.0)) == 2
    assert await store.add_suggestion(suggestion("test:-2", "test:bob", 12.0)) == 1  # another group counts apart
    assert [s.number for s in await store.open_suggestions("test:-1")] == [1, 2]
    assert await store.decide_suggestion("test:-1", 1, SuggestionStatus.APPROVED, '{"prompt": "edited"}') is True
    assert await store.decide_suggestion("test:-1", 1, SuggestionStatus.REJECTED, "x") is False  # decided already
    assert await store.decide_suggestion("test:-1", 9, SuggestionStatus.REJECTED, "x") is False
    decided = await store.suggestion("test:-1", 1)
    assert (decided.status, decided.content, decided.player_name) == (
        SuggestionStatus.APPROVED,
        '{"prompt": "edited"}',
        "Test:Bob",
    )
    assert [s.number for s in await store.open_suggestions("test:-1")] == [2]
    assert await store.open_suggestions("test:-3") == []


async def test_a_members_suggestions_are_counted_since_a_time(store):
    for at in (5.0, 10.0, 20.0):
        await store.add_suggestion(suggestion("test:-1", "test:bob", at))
    await store.add_suggestion(suggestion("test:-1", "test:cy", 20.0))
    await store.add_suggestion(suggestion("test:-2", "test:bob", 20.0))
    assert await store.suggested_since("test:-1", "test:bob", 10.0) == 2
    assert await store.suggested_since("test:-1", "test:bob", 0.0) == 3
    assert await store.suggested_since("test:-1", "test:dee", 0.0) == 0


async def test_a_group_that_changes_its_id_keeps_its_suggestions_and_shares(store):
    old, new = ChatRef("test", "-1", title="group"), ChatRef("test", "-100", title="supergroup")
    await store.ensure_chat(old)
    await store.add_suggestion(suggestion(old.key, "test:bob", 1.0))
    await store.share_quiz(QuizShare("code1", old.key, "space"))
    await store.save_draft(DraftRow("test:cy", "", "[]", 0, 1.0, target=old.key))
    await store.move_chat(old.key, new)
    assert [s.number for s in await store.open_suggestions(new.key)] == [1]
    assert await store.open_suggestions(old.key) == []
    assert await store.shared_quiz("code1") == QuizShare("code1", new.key, "space")
    assert (await store.draft("test:cy")).target == new.key
