"""What a run tells the big screen (bot/ports/live.py): its question once posted, answers counted
as they come, its close, its podium; published after the state that makes each true is stored
(RunSteps.save), so a screen never runs ahead of the chat.

A question's event holds what its message shows (never which option is right); the close
brings the split, the right answer and the run's top five. Counting is throttled: a screen
needs "N of M answered" a few times a second, not once per press of a hundred players.

Only a chat someone watches gets events (`LiveEvents.watched`): a run nobody looks at reads no
standings for a screen and publishes nothing. When a chat becomes watched, its open run's state
is published again (`shown`), so the viewer who came sees it at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.domain import owed, session
from bot.domain.model import MediaKind, QuestionCard, Reply, Reveal, Standing
from bot.domain.records import MessageKind, OutboxMessage, Phase, RunStatus
from bot.domain.session import Run
from bot.domain.teams import TeamStanding, shown_score
from bot.engine import podium
from bot.engine.podium import PodiumStore
from bot.engine.teams import Teams
from bot.ports.clock import Clock
from bot.ports.live import LiveEvents, LiveKind

log = logging.getLogger("quizhost.engine")

COUNT_EVERY = 0.25  # seconds between two "N of M answered" of one run (the last answer always counts)
TOP = 5  # the players a close shows
PODIUM_ROWS = 10
# what a round's standings notice adds to its key (bot/domain/owed.py round_notice): the board between rounds
ROUND_STANDINGS = "round-standings"


class LiveStore(PodiumStore, Protocol):
    """A run's standings, for its close and its podium."""


@dataclass(eq=False)
class Broadcast:
    events: LiveEvents
    store: LiveStore
    clock: Clock
    teams: Teams | None = None  # a run with teams shows their standings beside its players'
    _counted: dict[int, tuple[int, float]] = field(default_factory=dict)  # run -> (count, when) published
    _counting: set[asyncio.Task[None]] = field(default_factory=set)  # counts being published

    async def saved(self, run: Run, send: Sequence[OutboxMessage], done: Sequence[str]) -> None:
        """The events a stored step makes true: a question posted (its key settled), a close, a
        podium. Never raises: a screen that misses an event must not stop the run."""
        if not self.events.watched(run.row.chat_key):
            return
        try:
            if run.is_asking and owed.key(run, MessageKind.QUESTION) in done:
                await self._publish(run, LiveKind.QUESTION, self._question(run, session.card(run)))
            for message in send:
                if message.kind is MessageKind.CLOSE and message.made is not None:
                    await self._publish(run, LiveKind.CLOSED, await self._closed(run, message.made[1]))
                elif message.kind is MessageKind.PODIUM:
                    await self._publish(run, LiveKind.PODIUM, await self._podium(run))
                elif message.kind is MessageKind.NOTICE and message.made is not None:
                    await self._notice(run, message)
        except Exception:
            log.exception("run %d: a live event was not published", run.id)

    async def asking(self, run: Run) -> None:
        """A run taken up again (a restart, a worker's runs taken over) shows its open question
        again, and that it is paused: a screen in memory lost what it had."""
        if not self.events.watched(run.row.chat_key):
            return
        try:
            await self._publish(run, LiveKind.QUESTION, self._question(run, session.card(run)))
            if run.row.paused_left is not None:
                data = {"number": run.row.index + 1, "left": run.row.paused_left}
                await self._publish(run, LiveKind.PAUSED, data)
        except Exception:
            log.exception("run %d: a live event was not published", run.id)

    async def shown(self, run: Run | None) -> None:
        """The chat became watched: what its open run (if any) shows now, its question (and that
        it is paused) or, between two questions, its standings (before its first: nothing yet)."""
        if run is None:
            return
        if run.is_asking:
            await self.asking(run)
            return
        last_closed = run.row.index if run.row.phase is Phase.PAUSING else run.row.index - 1
        if last_closed < 0:
            return  # no question closed yet: the first one's event comes when it is posted
        where = (run.row.index, run.row.phase)
        try:
            standings = await self._standings(run)
            if (run.row.index, run.row.phase) != where:
                return  # the run moved on while they were read: its own events show it
            data = {
                "run": run.id,
                "title": run.quiz.title.get(run.row.language),
                "standings": _rows(standings[:PODIUM_ROWS]),
                "teams": await self._board_teams(run, standings),
            }
            await self._publish(run, LiveKind.ROUND, data)
        except Exception:
            log.exception("run %d: a live event was not published", run.id)

    def count_soon(self, run: Run) -> None:
        """An answer came: "N of M answered", at most every COUNT_EVERY seconds (and the last),
        published beside the press (which does not wait for it)."""
        if not self.events.watched(run.row.chat_key):
            return
        answered, players = len(run.answers), _players(run)
        before, when = self._counted.get(run.id, (-1, 0.0))
        now = self.clock.now()
        if answered == before or (now - when < COUNT_EVERY and answered < players):
            return
        self._counted[run.id] = (answered, now)
        data = {"run": run.id, "number": run.row.index + 1, "answered": answered, "players": players}
        task = asyncio.get_running_loop().create_task(self._count(run, data))
        self._counting.add(task)
        task.add_done_callback(self._counting.discard)

    async def _count(self, run: Run, data: dict[str, Any]) -> None:
        try:
            await self._publish(run, LiveKind.ANSWERED, data)
        except Exception:
            log.exception("run %d: a live count was not published", run.id)

    async def _publish(self, run: Run, kind: LiveKind, data: dict[str, Any]) -> None:
        if kind is LiveKind.PODIUM:
            self._counted.pop(run.id, None)
        await self.events.publish(run.row.chat_key, run.id, kind, data, self.clock.now())

    def _question(self, run: Run, card: QuestionCard) -> dict[str, Any]:
        self._counted[run.id] = (0, 0.0)
        return {
            "run": run.id,
            "lang": card.language,
            "rtl": card.direction_rtl,
            "title": card.quiz_title,
            "number": card.number,
            "total": card.total,
            "prompt": card.prompt,
            "options": [{"letter": o.letter, "text": o.text} for o in card.options],
            "kind": str(card.kind),
            "picture": _picture(run, card),
            "deadline": card.deadline,
            "seconds": card.seconds,
            "answered": len(run.answers),
            "players": _players(run),
        }

    async def _closed(self, run: Run, reveal: Reveal) -> dict[str, Any]:
        standings = await self._standings(run)
        return {
            "run": run.id,
            "number": reveal.card.number,
            "right_letter": reveal.right_letter,
            "right_text": reveal.right_text,
            "explanation": reveal.explanation,
            "letters": [o.letter for o in reveal.card.options],
            "counts": list(reveal.counts),
            "responses": [list(r) for r in reveal.responses],
            "answered": len(reveal.answers),
            "players": _players(run),
            "top": _rows(standings[:TOP]),
            "teams": await self._board_teams(run, standings),
        }

    async def _notice(self, run: Run, message: OutboxMessage) -> None:
        """A notice of the host's (paused, resumed, the hint) or a round's standings, told apart
        by what its key adds to the question's notice key (bot/domain/owed.py)."""
        what = message.key.removeprefix(owed.key(run, MessageKind.NOTICE)).split(":")[1:2]
        number = run.row.index + 1
        if what == ["paused"]:
            await self._publish(run, LiveKind.PAUSED, {"number": number, "left": run.row.paused_left or 0.0})
        elif what == ["resumed"]:
            await self._publish(run, LiveKind.RESUMED, {"number": number, "deadline": run.row.due})
        elif what == ["hint"]:
            hint = run.question.hint
            await self._publish(
                run, LiveKind.HINT, {"number": number, "hint": hint.get(run.row.language) if hint else ""}
            )
        elif what == [ROUND_STANDINGS]:
            await self._publish(run, LiveKind.ROUND, await self._round(run, message.made[1]))

    async def _round(self, run: Run, reply: Reply) -> dict[str, Any]:
        """The board between rounds: the chat's message's title (the round's name) and the standings."""
        standings = await self.store.run_standings(run.id)
        return {
            "run": run.id,
            "title": reply.title,
            "standings": _rows(standings[:PODIUM_ROWS]),
            "teams": await self._teams(run, standings),
        }

    async def _podium(self, run: Run) -> dict[str, Any]:
        """The chat's podium, as ranked there (its teams from the points)."""
        reason = run.row.status
        assert reason is not RunStatus.OPEN, "a podium comes once its run ended"
        ended = await podium.final(self.store, run, reason)
        standings = ended.standings
        return {
            "run": run.id,
            "title": run.quiz.title.get(run.row.language),
            "reason": str(run.row.status),
            "standings": _rows(standings[:PODIUM_ROWS]),
            "teams": await self._teams(run, ended.points_order),
        }

    async def _standings(self, run: Run) -> list[Standing]:
        """The run's standings before its podium: none where they are hidden until then (/settings
        board end)."""
        return [] if run.row.board_end else await self.store.run_standings(run.id)

    async def _board_teams(self, run: Run, standings: Sequence[Standing]) -> list[dict[str, Any]]:
        """The teams beside the standings before the podium: none where those are hidden."""
        return [] if run.row.board_end else await self._teams(run, standings)

    async def _teams(self, run: Run, standings: Sequence[Standing]) -> list[dict[str, Any]]:
        """The run's teams ranked (none without teams): what a team scores, not who is in it."""
        return _team_rows(await self.teams.ranked(run, standings)) if self.teams is not None else []


def _players(run: Run) -> int:
    """M of "N of M answered": who has answered in this run so far, and who answers now."""
    return len(run.players | run.answers.keys())


def _picture(run: Run, card: QuestionCard) -> dict[str, Any] | None:
    """A picture beside the quiz file, named by the quiz and the question's place in it (the page
    serves it through its own link); a picture at a URL only by its words (the page loads from
    its own site alone)."""
    if card.media is None or card.media.kind is not MediaKind.IMAGE:
        return None
    if card.media.is_url:
        return {"alt": card.media.alt}
    number = next(i for i, q in enumerate(run.quiz.questions, 1) if q.id == run.question.id)
    return {"quiz": run.quiz.id, "number": number, "alt": card.media.alt}


def _rows(standings: Sequence[Standing]) -> list[dict[str, Any]]:
    return [{"rank": s.rank, "name": s.name, "points": s.points, "correct": s.correct} for s in standings]


def _team_rows(teams: Sequence[TeamStanding]) -> list[dict[str, Any]]:
    return [{"rank": s.rank, "name": s.name, "points": shown_score(s.score), "members": s.members} for s in teams]
