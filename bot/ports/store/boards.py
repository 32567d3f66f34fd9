"""The boards computed from the answers, and what the web pages read (bot/adapters/web/)."""

from __future__ import annotations

from typing import Protocol

from bot.domain.model import Player, PlayerStats, Standing
from bot.domain.records import AnswerRow, PastRun, PlayedChat, RunSummary


class Boards(Protocol):
    """Leaderboards and a player's record, ranked the same way everywhere."""

    async def leaderboard(
        self,
        chat_key: str,
        since: float | None = None,
        quiz_id: str | None = None,
        top: int | None = None,
        player_key: str | None = None,
    ) -> list[Standing]:
        """Every player of the chat with an answer at or after `since` (None: all time), maybe of
        one quiz, ranked by points, then right answers, then the earlier first answer, then
        key. Ranks start at 1. The open question's answers count as soon as they are stored.

        With `top`, only the first `top` of them, then `player_key`'s standing (its rank on the
        whole board) when that player is on the board but not among them."""

    async def board_size(self, chat_key: str, since: float | None = None, quiz_id: str | None = None) -> int:
        """How many players `leaderboard` ranks for the same arguments (the web page's pages)."""

    async def run_standings(self, run_id: int) -> list[Standing]:
        """The players of one run ranked as the leaderboard ranks them."""

    async def player_stats(self, chat_key: str, player: Player) -> PlayerStats:
        """The player's all-time record in the chat: points, answers, right ones, best streak,
        runs played in, and their rank on the all-time board (None before a first answer)."""


class WebRecords(Protocol):
    """The web pages' own (storage/shared/web.py holds the queries of both stores): the links'
    secret, whether a board is public, a chat's past runs."""

    async def web_secret(self, candidate: str) -> str:
        """The secret the web links are signed with: the stored one, or `candidate` stored now
        when the database has none yet (the first of several processes wins; all read the same)."""

    async def set_board_public(self, chat_key: str, public: bool) -> None:
        """Show the chat's leaderboard to anyone with its public link, or stop (the default)."""

    async def board_public(self, chat_key: str) -> bool:
        """Whether the chat's leaderboard has a public link; False for a chat never seen."""

    async def revoke_links(self, chat_key: str, at: float) -> None:
        """Links to the chat's pages issued before `at` stop working (/dashboard revoke); a later
        revocation moves the instant on, an earlier one never back. It stays with a chat that moves."""

    async def links_not_before(self, chat_key: str) -> float:
        """The instant before which the chat's links were revoked; 0.0 when they never were."""

    async def chat_runs(self, chat_key: str, limit: int = 50, offset: int = 0) -> list[RunSummary]:
        """The chat's runs, the latest first, at most `limit` after skipping `offset`; never another chat's."""

    async def run_count(self, chat_key: str) -> int:
        """How many runs the chat has had (open ones included)."""

    async def played_chats(self) -> list[PlayedChat]:
        """Every chat with at least one run (an assignment's private runs count for its group), the
        latest active first."""

    async def chat_title(self, chat_key: str) -> str:
        """The chat's name as its platform last gave it; empty for a chat never seen or without one."""

    async def past_run(self, chat_key: str, run_id: int) -> PastRun | None:
        """That run of that chat, with who stopped it (RunRecords.record_stop); None for an id never
        stored or another chat's run."""

    async def chat_answers(self, chat_key: str, since: float | None = None) -> list[AnswerRow]:
        """Every stored answer of the chat (from `since` on, when given), by run, question index,
        then time of answer: the points of these answers are the points of its boards."""

    async def chat_answers_after(
        self, chat_key: str, after: AnswerRow | None, limit: int, since: float | None = None
    ) -> list[AnswerRow]:
        """The next at most `limit` of `chat_answers` (same order, same `since`) after the answer
        `after` (None: from the first), so a long history is read a page at a time."""
