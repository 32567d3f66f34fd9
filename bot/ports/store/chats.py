"""Chats, players and a chat's own quizzes: what the store keeps of who plays where."""

from __future__ import annotations

from typing import Protocol

from bot.domain.model import ChatRef, Player
from bot.domain.records import ChatQuizRow, ChatSettings, DraftRow, QuizShare, Suggestion, SuggestionStatus

# what update_chat_settings sets
CHAT_SETTINGS = frozenset(
    {"language", "question_seconds", "pause_seconds", "time_zone", "close_notice", "host_anyone", "plain_text"}
    | {"scoring", "streaks", "board_end", "min_age"}
)


class ChatRecords(Protocol):
    """A chat's row: made on first use, its settings, and its move to a new id."""

    async def ensure_chat(self, chat: ChatRef) -> None:
        """Store the chat if it is new; cheap when called again (for every start)."""

    async def chat_settings(self, chat_key: str) -> ChatSettings:
        """The chat's stored settings; all None for a chat never configured or never seen."""

    async def update_chat_settings(self, chat: ChatRef, **fields: object) -> None:
        """Set some of CHAT_SETTINGS (None clears one), creating the chat if needed.

        An unknown name raises ValueError and changes nothing.
        """

    async def move_chat(self, old_key: str, new: ChatRef) -> None:
        """The chat got a new id: its settings, runs, answers and boards move to `new.key` in
        one transaction. A run already open under the new key stays and the old one stays
        behind under the old key. Moving twice (or a chat never seen) changes nothing."""


class PlayerNames(Protocol):
    """The players' display names, as the boards show them."""

    async def ensure_player(self, player: Player) -> None:
        """Store the player and keep their display name current (the latest call wins)."""

    async def player_names(self, keys: set[str]) -> dict[str, str]:
        """Stored display names of those keys; unknown keys are left out."""


class ChatQuizRecords(Protocol):
    """The quizzes a chat uploaded (bot/content/chatquizzes.py).

    Added with uploads (issue #12) to both stores; a new Store implementation needs them too:
    one table keyed by (chat_key, quiz_id), and move_chat takes a chat's quizzes along."""

    async def save_chat_quiz(self, quiz: ChatQuizRow) -> None:
        """Store a chat's quiz, replacing the one with the same chat and id (an upload again)."""

    async def chat_quiz(self, chat_key: str, quiz_id: str) -> ChatQuizRow | None:
        """That chat's quiz of that id; None when the chat has none by that id (whatever other chats have)."""

    async def chat_quizzes(self, chat_key: str) -> list[ChatQuizRow]:
        """Every quiz of that chat, by id; never another chat's."""

    async def delete_chat_quiz(self, chat_key: str, quiz_id: str) -> bool:
        """Delete that chat's quiz: True if there was one. Answers and boards of it stay."""


class QuizDrafts(Protocol):
    """Quizzes written in the chat (issue #23): each author's draft, and the codes of the links
    that share a saved quiz. Added to both stores with the same migration."""

    async def save_draft(self, draft: DraftRow) -> None:
        """Store the author's draft, replacing the one they had (one draft per author)."""

    async def change_draft(self, draft: DraftRow, before: DraftRow | None) -> bool:
        """Store the author's draft in place of `before` (None: they had none), in one step, only
        if their draft is still `before`: False, and nothing stored, when another message of
        theirs changed it meanwhile (several come at once: a dozen polls forwarded together)."""

    async def draft(self, owner_key: str) -> DraftRow | None:
        """The author's draft; None when they have none open."""

    async def delete_draft(self, owner_key: str) -> bool:
        """Drop the author's draft (saved or abandoned): True if there was one."""

    async def share_quiz(self, share: QuizShare) -> QuizShare:
        """Give the chat's quiz a share code: the code it had already, if it had one, else this one."""

    async def shared_quiz(self, code: str) -> QuizShare | None:
        """The quiz a share code names; None for an unknown code."""


class SuggestionRecords(Protocol):
    """Questions members suggest to a group (/suggest), numbered per group, until an admin decides."""

    async def add_suggestion(self, suggestion: Suggestion) -> int:
        """Queue it as open under the group's next number (its `number` is ignored); that number."""

    async def suggestion(self, chat_key: str, number: int) -> Suggestion | None:
        """The group's suggestion of that number, open or decided; None when there is none."""

    async def open_suggestions(self, chat_key: str) -> list[Suggestion]:
        """The group's suggestions still waiting for an admin, oldest first; never another group's."""

    async def decide_suggestion(self, chat_key: str, number: int, status: SuggestionStatus, content: str) -> bool:
        """Approve or reject an open suggestion, keeping `content` (as an admin edited it): False
        when it was not open (decided already, or none), and then nothing changes."""

    async def suggested_since(self, chat_key: str, player_key: str, since: float) -> int:
        """How many suggestions the player made to the group since `since`, whatever became of them."""
