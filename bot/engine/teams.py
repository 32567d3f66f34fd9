"""Teams: a chat's line-up (/teams, its join buttons, /join) and its part in the chat's next run.

The line-up is stored (storage/shared/teams.py) with the id of its message, which is edited as
players join (on a platform that edits messages: `MessageBoard`; the terminal shows it as a
reply). The chat's next run adopts it when its first question is posted, which locks it; a
player who first answers after that is placed in the smallest team at the close. Each close
adds the team standings to the reveal (in a quiz of rounds, the round's standings message shows
them instead), and the podium ranks the teams before the players.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from bot.domain import fairplay
from bot.domain import teams as rules
from bot.domain.model import ChatRef, MessageRef, Player, Reply, Reveal, Standing
from bot.domain.session import Run
from bot.domain.teams import Lineup, Played, TeamScoring, TeamStanding
from bot.ports.chat import ChatAdapter, ChatUnreachable, MessageBoard
from bot.ports.clock import Clock
from bot.ports.store import Boards, TeamRecords
from bot.texts import render_teams as texts

log = logging.getLogger("quizhost.teams")


class TeamStore(TeamRecords, Boards, Protocol):
    """The line-ups, and the boards their runs' standings and `/teams balanced` read."""


class JoinStatus(StrEnum):
    JOINED = "joined"
    LOCKED = "locked"  # its run has posted its first question
    STALE = "stale"  # no such line-up (replaced, turned off, or another chat's)
    NO_TEAM = "no_team"  # a team number the line-up does not have


@dataclass(frozen=True)
class Joined:
    status: JoinStatus
    team: str = ""


def played(standings: Sequence[Standing]) -> dict[str, Played]:
    return {s.player_key: Played(s.points, s.correct, s.answered) for s in standings}


class Teams:
    def __init__(self, *, store: TeamStore, clock: Clock, adapters: Mapping[str, ChatAdapter]) -> None:
        """`adapters`: the engine's by platform, where the line-up's message is posted and edited."""
        self.store, self.clock, self.adapters = store, clock, adapters
        self._by_run: dict[int, Lineup | None] = {}  # the runs held here: the line-up each adopted
        # a lock per chat while someone holds or waits on it (an edit of its line-up's message)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._waiting: set[int] = set()  # line-ups whose message has an edit waiting to start
        self._tasks: set[asyncio.Task[None]] = set()

    # the chat's side: /teams, the join buttons, /join ---------------------------------------

    async def open(self, chat: ChatRef, names: tuple[str, ...], scoring: TeamScoring, lang: str) -> Lineup:
        """A new open line-up for the chat's next run, posted with its join buttons where the
        platform edits messages (its id stored); the terminal shows it as the command's reply."""
        replaced = await self.store.open_lineup(chat.key)
        lineup_id = await self.store.new_lineup(chat.key, names, scoring, self.clock.now())
        lineup = Lineup(lineup_id, chat.key, names, scoring)
        if (board := self._board(chat)) is not None:
            message = await board.post(chat, texts.lineup_message(lang, lineup))
            await self.store.lineup_message(lineup_id, message.message_id)
            lineup = replace(lineup, message_id=message.message_id)
        if replaced is not None:  # its buttons would only be refused now: they go
            async with self._edits(chat.key):
                await self._edit(chat, replaced.message_id, texts.replaced_message(lang))
        return lineup

    async def repost(self, chat: ChatRef, lineup: Lineup, lang: str) -> None:
        """The open line-up posted again at the foot of the chat (a bare /teams while one is
        open), its earlier message without buttons: the edits follow the new one."""
        board = self._board(chat)
        if board is None:
            return
        message = await board.post(chat, texts.lineup_message(lang, lineup))
        await self.store.lineup_message(lineup.id, message.message_id)
        async with self._edits(chat.key):
            await self._edit(chat, lineup.message_id, texts.moved_message(lang))

    def posts(self, chat: ChatRef) -> bool:
        """Whether the line-up is a message of its own here (else the command's reply shows it)."""
        return self._board(chat) is not None

    async def open_lineup(self, chat: ChatRef) -> Lineup | None:
        return await self.store.open_lineup(chat.key)

    async def join(self, chat: ChatRef, player: Player, lineup_id: int, team: int, lang: str) -> Joined:
        """A join button pressed (or /join typed): the player is in `team` until the lock."""
        lineup = await self.store.lineup(lineup_id)
        if lineup is None or lineup.chat_key != chat.key:
            return Joined(JoinStatus.STALE)
        if not 1 <= team <= len(lineup.names):
            return Joined(JoinStatus.NO_TEAM)
        if lineup.locked or not await self.store.join_team(
            lineup_id, player.key, player.name, team, False, self.clock.now()
        ):
            return Joined(JoinStatus.LOCKED)
        self.show(chat, lineup_id, lang)
        return Joined(JoinStatus.JOINED, lineup.names[team - 1])

    async def balance(self, chat: ChatRef) -> Lineup | None:
        """The open line-up's players placed by their accuracy on the chat's boards (a snake
        draft, the best first); None when no line-up is open."""
        lineup = await self.store.open_lineup(chat.key)
        if lineup is None:
            return None
        board = {s.player_key: s for s in await self.store.leaderboard(chat.key)}

        def strength(key: str) -> tuple[float, int]:
            s = board.get(key)
            return (-s.accuracy, -s.answered) if s is not None else (0.0, 0)

        ranked = sorted((m.player_key for m in lineup.members), key=strength)  # stable: join order on a tie
        await self.store.place_teams(lineup.id, rules.snake_draft(ranked, len(lineup.names)))
        return await self.store.lineup(lineup.id)

    async def drop(self, chat: ChatRef, lang: str) -> bool:
        lineup = await self.store.open_lineup(chat.key)
        if lineup is None:
            return False
        dropped = await self.store.drop_lineup(chat.key)
        async with self._edits(chat.key):  # after an edit of the line-up under way, not before it
            await self._edit(chat, lineup.message_id, texts.off_message(lang))
        return dropped

    def show(self, chat: ChatRef, lineup_id: int, lang: str) -> None:
        """Bring the line-up's message up to date, in the background: a press is answered at
        once, not after an edit that a group's flood limit may hold back a minute. While an edit
        waits, more joins add none: the one waiting reads the line-up as it is when it runs."""
        if lineup_id in self._waiting or self._board(chat) is None:
            return
        self._waiting.add(lineup_id)
        task = asyncio.ensure_future(self._show(chat, lineup_id, lang))
        self._tasks.add(task)
        task.add_done_callback(self._shown)

    async def _show(self, chat: ChatRef, lineup_id: int, lang: str) -> None:
        async with self._edits(chat.key):  # one edit of a chat's line-up at a time, in order
            self._waiting.discard(lineup_id)  # a join from now on may not be in what is read next
            lineup = await self.store.lineup(lineup_id)
            if lineup is not None:
                await self._edit(chat, lineup.message_id, texts.lineup_message(lang, lineup))

    def _shown(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("editing a line-up failed", exc_info=task.exception())

    async def _edit(self, chat: ChatRef, message_id: str | None, reply: Reply) -> None:
        board = self._board(chat)
        if board is None or message_id is None:
            return
        try:
            await board.edit(MessageRef(chat, message_id), reply)
        except ChatUnreachable:
            log.warning("%s: the teams message could not be edited (the bot cannot post there)", chat.key)
        except Exception as error:  # an edit the platform refuses: the next join tries again
            log.warning("%s: the teams message could not be edited (%s)", chat.key, error)

    def _edits(self, chat_key: str) -> asyncio.Lock:
        return self._locks.setdefault(chat_key, asyncio.Lock())

    def _board(self, chat: ChatRef) -> MessageBoard | None:
        adapter = self.adapters.get(chat.platform)
        return adapter if isinstance(adapter, MessageBoard) else None

    # the run's side: adopted at the first question, standings at each close and at the end ---

    async def adopt(self, run: Run) -> None:
        """The run's first question is posted: the chat's open line-up is the run's, locked (a
        group's; and the terminal's, which plays a trivia night at one keyboard)."""
        lineup = self._by_run[run.id] = self._scorers(run, await self.store.adopt_lineup(run.row.chat_key, run.id))
        if lineup is not None:  # its buttons go: the message says the teams are locked
            _known(run, lineup)
            self.show(run.chat, lineup.id, run.row.language)

    async def taken_up(self, run: Run) -> None:
        """A run taken up again at its first question (a restart, another worker): the lock its
        post made, made now if a kill came between the two (the line-up would stay open)."""
        if run.row.index == 0 and await self.store.run_lineup(run.id) is None:
            await self.adopt(run)

    async def resumed(self, run: Run) -> None:
        """A run continued here (a restart, or taken over): its teams' members are known again."""
        if (lineup := await self._lineup(run)) is not None:
            _known(run, lineup)

    async def at_close(self, run: Run, reveal: Reveal) -> Reveal:
        """The reveal with who was placed in a team just now, and the team standings unless the
        quiz has rounds (then they are shown between rounds only: `between_rounds`)."""
        lineup = await self._lineup(run)
        if lineup is None:
            return reveal
        lineup, late = await self._place_late(run, lineup)
        lang = run.row.language
        if run.quiz.rounds or run.row.board_end:  # no team standings here (/settings board end: none until the podium)
            return replace(reveal, teams=texts.placed_lines(lang, late))
        teams = rules.standings(lineup, played(await self.store.run_standings(run.id)))
        return replace(reveal, teams=texts.reveal_lines(lang, teams, late))

    async def between_rounds(self, run: Run, standings: Sequence[Standing]) -> tuple[TeamStanding, ...]:
        """The teams ranked for a round's standings message; () for a run without teams."""
        lineup = await self._lineup(run)
        return tuple(rules.standings(lineup, played(standings))) if lineup is not None else ()

    async def at_end(self, run: Run, standings: Sequence[Standing]) -> tuple[TeamStanding, ...]:
        """The teams ranked for the podium; () for a run without teams. The run is forgotten here."""
        lineup = await self._lineup(run)
        self._by_run.pop(run.id, None)
        return tuple(rules.standings(lineup, played(standings))) if lineup is not None else ()

    async def ranked(self, run: Run, standings: Sequence[Standing]) -> list[TeamStanding]:
        """The run's teams ranked from its players' `standings` (the big screen); [] without teams."""
        lineup = await self._lineup(run)
        return rules.standings(lineup, played(standings)) if lineup is not None else []

    async def _lineup(self, run: Run) -> Lineup | None:
        if run.id not in self._by_run:  # resumed after a restart, or taken over from another worker
            self._by_run[run.id] = self._scorers(run, await self.store.run_lineup(run.id))
        return self._by_run[run.id]

    def _scorers(self, run: Run, lineup: Lineup | None) -> Lineup | None:
        return fairplay.scoring_members(lineup, run.row.min_age, run.row.started_at) if lineup is not None else None

    async def _place_late(self, run: Run, lineup: Lineup) -> tuple[Lineup, list[tuple[str, str]]]:
        """Who answered the closed question and is in no team goes to the smallest one."""
        late: list[tuple[str, str]] = []
        for key in sorted(k for k in run.answers if lineup.team_of(k) is None):
            team = rules.smallest_team(lineup)
            name = run.names.get(key, key)
            await self.store.join_team(lineup.id, key, name, team, True, self.clock.now())
            lineup = replace(lineup, members=(*lineup.members, rules.Member(key, name, team, late=True)))
            late.append((name, lineup.names[team - 1]))
        self._by_run[run.id] = lineup
        return lineup, late


def _known(run: Run, lineup: Lineup) -> None:
    """The teams' members count as the run's known players: a question closes early once every
    one of them has answered (the first one too)."""
    run.players |= {m.player_key for m in lineup.members}
