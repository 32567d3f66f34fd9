"""Assignments: a quiz each member of a group plays in private, once, until a deadline.

/assign stores the assignment and posts one message in the group with a Start button (a deep
link into the private chat; on Discord a DM). A member's start is an ordinary run in their private
chat whose answers name the group (RunRow.board_chat), so the group's boards and statistics count
them, with the timing and scoring of a live quiz. The group message is edited as members finish,
at most once a minute; at the deadline the podium is posted in the group.

What is owed lives in the assignment's stored row, not in memory, so a restart loses nothing: a
message not posted yet is posted at the next tick, a progress the message does not show yet is
edited in, a deadline passed is closed. The outbox is a run's (PostgreSQL leases its messages
with the run), and an assignment's messages belong to no run: workers sharing a database take the
work by compare-and-set on the row instead, as the scheduler does (`hold_assignment` for a post
or an edit, `end_assignment` for the close), so each deadline's podium is posted by one worker.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from bot.domain import assignment as rules
from bot.domain import extra_time
from bot.domain.assignment import AssignmentRow, AssignmentStatus, Place, Progress
from bot.domain.extra_time import ExtraTime
from bot.domain.model import ChatRef, MessageRef, Player, Quiz, Reply
from bot.engine.run_start import StartOutcome, StartStatus
from bot.ports.chat import ChatAdapter, ChatUnreachable, MemberGroups, MembershipUnknown, MessageBoard
from bot.ports.store import AssignmentRecords, ChatRecords, ExtraTimeRecords, PlayerNames, WebRecords
from bot.texts import render_assign as texts

if TYPE_CHECKING:
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.chats import Chats
    from bot.engine.core import Engine
    from bot.engine.run_start import EngineSettings
    from bot.ports.clock import Clock

log = logging.getLogger("quizhost.assignments")

POLL_SECONDS = 15.0  # members finish and other workers add assignments: look this often


class AssignmentStore(AssignmentRecords, ExtraTimeRecords, ChatRecords, PlayerNames, WebRecords, Protocol):
    """Assignments and their plays, the group made known (and its name, for who is not in it),
    members' extra time."""


class Joined(StrEnum):
    STARTED = "started"
    UNKNOWN = "unknown"  # no such assignment (on this platform), or its quiz is gone
    LATE = "late"  # closed or cancelled, or past its deadline
    REPEATED = "repeated"  # the member started it before: `place` says how they did
    BUSY = "busy"  # a quiz runs in the private chat already
    NOT_PRIVATE = "not_private"  # /start assign_<id> typed in a group: it is played in private
    NOT_MEMBER = "not_member"  # the link reached someone outside the group: it is the group's members' alone
    UNCHECKED = "unchecked"  # the platform could not say whether they are a member: try again


@dataclass(frozen=True)
class Join:
    status: Joined
    assignment: AssignmentRow | None = None
    place: Place | None = None
    started: StartOutcome | None = None


class Assignments:
    def __init__(
        self,
        *,
        store: AssignmentStore,
        engine: Engine,
        chat_quizzes: ChatQuizzes,
        clock: Clock,
        chats: Chats,
        adapters: Mapping[str, ChatAdapter],
        settings: EngineSettings,
    ) -> None:
        """`engine` starts a member's run; `settings` the bot's defaults for a chat's quiz."""
        self.engine, self.store = engine, store
        self.chat_quizzes = chat_quizzes
        self.clock, self.chats, self.adapters = clock, chats, adapters
        self.settings = settings

    # what admins do -------------------------------------------------------------------------

    async def create(self, chat: ChatRef, quiz: Quiz, by: Player, deadline: float) -> AssignmentRow:
        """Store the assignment and post its group message (a failed post is tried again at the next tick)."""
        await self.store.ensure_chat(chat)
        settings = await self.chats.settings(chat)
        now = self.clock.now()
        row = AssignmentRow(
            chat,
            quiz.id,
            tuple(q.id for q in quiz.questions),
            settings.question_seconds or self.settings.question_seconds,
            deadline,
            await self.chats.language_for(chat),
            by.key,
            now,
        )
        row = replace(row, id=await self.store.add_assignment(row))
        await self._post(row, now)
        return row

    async def give_extra(self, row: AssignmentRow, member: Player, factor: float) -> None:
        """`member` gets `factor` times the time on each question of this assignment."""
        await self.store.set_extra_time(ExtraTime(row.chat.key, member.key, factor, row.id, member.name))

    async def cancel(self, chat: ChatRef, assignment_id: int) -> bool:
        """End an open assignment of the chat without a podium; its message says so."""
        row = await self.store.assignment(assignment_id)
        if row is None or row.chat.key != chat.key:
            return False
        if not await self.store.end_assignment(assignment_id, AssignmentStatus.CANCELLED):
            return False
        await self._show_end(replace(row, status=AssignmentStatus.CANCELLED))
        return True

    async def open_in(self, chat: ChatRef) -> list[tuple[AssignmentRow, str, Progress]]:
        """The chat's open assignments, with their quiz's title and progress."""
        listed = []
        for row in await self.store.open_assignments(chat.key):
            listed.append((row, await self.title(row), await self.progress(row)))
        return listed

    # what members do ------------------------------------------------------------------------

    async def join(self, chat: ChatRef, player: Player, assignment_id: int) -> Join:
        """A member's Start, in their private chat: a run of the quiz for the group, or why not."""
        if not chat.is_private:
            return Join(Joined.NOT_PRIVATE)
        row = await self.store.assignment(assignment_id)
        if row is None or row.chat.platform != chat.platform:
            return Join(Joined.UNKNOWN)
        place = await self._place(row, player)
        if place is not None:
            return Join(Joined.REPEATED, row, place)
        if rules.is_late(row, self.clock.now()):
            return Join(Joined.LATE, row)
        quiz = await self._quiz(row)
        if quiz is None:
            return Join(Joined.UNKNOWN, row)
        if (refused := await self._outsider(row, player)) is not None:
            return refused
        if self.engine.run_in(chat) is not None:
            return Join(Joined.BUSY, row)
        await self.store.ensure_player(player)
        if not await self.store.join_assignment(row.id, player.key, self.clock.now()):
            return Join(Joined.REPEATED, row, await self._place(row, player))  # a second press, at once
        factor = extra_time.factor_for(await self.store.player_extra_times(row.chat.key, player.key), row.id)
        started = await self.engine.start_quiz(
            chat, quiz, player, questions=row.question_ids, seconds=row.seconds, board=row.chat.key, time_factor=factor
        )
        if started.status is not StartStatus.STARTED or started.run is None:
            await self.store.set_play_run(row.id, player.key, None)
            return Join(Joined.BUSY, row)
        await self.store.set_play_run(row.id, player.key, started.run.id)
        return Join(Joined.STARTED, row, started=started)

    async def _outsider(self, row: AssignmentRow, player: Player) -> Join | None:
        """Why the player may not play the group's assignment (anyone may hold its link, and a
        play counts on the group's boards); None for a member. Asked last: it costs a request."""
        try:
            if await self.adapters[row.chat.platform].is_member(row.chat, player):
                return None
        except MembershipUnknown as error:
            log.warning("assignment %d: membership of %s unknown (%s)", row.id, player.key, error)
            return Join(Joined.UNCHECKED, row)
        return Join(Joined.NOT_MEMBER, row)

    async def _place(self, row: AssignmentRow, player: Player) -> Place | None:
        return next((p for p in await self.store.assignment_places(row.id) if p.player_key == player.key), None)

    # the group message ----------------------------------------------------------------------

    async def serve(self) -> None:
        while True:
            soonest = await self.tick()
            now = self.clock.now()
            await self.clock.sleep(min(POLL_SECONDS, max(0.0, (soonest or now + POLL_SECONDS) - now)))

    async def tick(self) -> float | None:
        """Post, edit and close what is due; the earliest deadline still open."""
        now = self.clock.now()
        rows = await self.store.open_assignments()
        for row in rows:
            try:
                await self._step(row, now)
            except Exception:  # one broken assignment must not stop the others
                log.exception("assignment %d: its update failed", row.id)
        return min((r.deadline for r in rows if r.deadline > now), default=None)

    async def _step(self, row: AssignmentRow, now: float) -> None:
        if now >= row.deadline:
            await self._close(row, now)
        elif row.message_id is None:
            await self._post(row, now)
        elif rules.may_edit(row, await self.progress(row), now):
            await self._edit(row, now)

    async def _held(self, row: AssignmentRow, now: float) -> AssignmentRow | None:
        """The row as stored now, held by this worker; None when another holds it."""
        if not await self.store.hold_assignment(row.id, now, now + rules.HOLD_SECONDS):
            return None
        return await self.store.assignment(row.id)

    async def _post(self, row: AssignmentRow, now: float) -> None:
        held = await self._held(row, now)
        if held is None:
            return
        shown = await self.progress(held)
        try:
            if held.message_id is not None:  # posted meanwhile
                return
            message = await self._board(held).post(held.chat, await self._message(held, shown, now))
            held = replace(held, message_id=message.message_id, shown=shown.digest, shown_at=now)
        except ChatUnreachable:
            log.warning("assignment %d: %s does not let the bot post; it is cancelled", held.id, held.chat.key)
            await self.store.end_assignment(held.id, AssignmentStatus.CANCELLED)
        finally:
            await self.store.release_assignment(held)

    async def _edit(self, row: AssignmentRow, now: float) -> None:
        held = await self._held(row, now)
        if held is None:
            return
        shown = await self.progress(held)
        try:
            if rules.may_edit(held, shown, now) and held.message_id is not None:  # not done meanwhile
                await self._board(held).edit(
                    MessageRef(held.chat, held.message_id), await self._message(held, shown, now)
                )
                held = replace(held, shown=shown.digest, shown_at=now)
        finally:
            await self.store.release_assignment(held)

    async def _close(self, row: AssignmentRow, now: float) -> None:
        """The deadline: the group message closed, the podium posted, by one worker, once."""
        held = await self._held(row, now)
        if held is None:
            return
        try:
            closed = replace(held, status=AssignmentStatus.CLOSED)
            await self._show_end(closed)
            podium = texts.podium(held.language, await self.title(held), await self.store.assignment_places(held.id))
            await self.adapters[held.chat.platform].send(held.chat, podium)
        except ChatUnreachable:
            log.warning("assignment %d: %s does not let the bot post; closed without a podium", held.id, held.chat.key)
        except Exception:
            await self.store.release_assignment(held)  # tried again at the next tick
            raise
        await self.store.end_assignment(held.id, AssignmentStatus.CLOSED)
        log.info("assignment %d closed in %s", held.id, held.chat.key)

    async def _show_end(self, row: AssignmentRow) -> None:
        """The group message without its Start button (a platform that refuses: logged, not retried)."""
        if row.message_id is None:
            return
        reply = texts.ended_message(row, await self.title(row), await self.progress(row), await self._zone(row))
        try:
            await self._board(row).edit(MessageRef(row.chat, row.message_id), reply)
        except ChatUnreachable:
            raise
        except Exception as error:
            log.warning("assignment %d: its message could not be edited (%s)", row.id, error)

    async def progress(self, row: AssignmentRow) -> Progress:
        return rules.progress(await self.store.assignment_places(row.id))

    async def _message(self, row: AssignmentRow, shown: Progress, now: float) -> Reply:
        settings = await self.chats.settings(row.chat)  # board end: no top three before the podium
        return texts.group_message(row, await self.title(row), shown, now, settings.time_zone, not settings.board_end)

    async def _zone(self, row: AssignmentRow) -> str | None:
        return (await self.chats.settings(row.chat)).time_zone

    async def _quiz(self, row: AssignmentRow) -> Quiz | None:
        return await self.chat_quizzes.find(row.chat.key, row.quiz_id)

    async def group_title(self, row: AssignmentRow) -> str:
        """What the assignment's members belong to, by name: the server of a Discord channel,
        else the group's name as its platform last gave it ("" when it gave none)."""
        adapter = self.adapters[row.chat.platform]
        if isinstance(adapter, MemberGroups) and (name := adapter.members_of(row.chat)):
            return name
        return await self.store.chat_title(row.chat.key)

    async def title(self, row: AssignmentRow) -> str:
        quiz = await self._quiz(row)
        return quiz.title.get(row.language) if quiz else row.quiz_id

    def can_post(self, chat: ChatRef) -> bool:
        """Whether an assignment can be kept in this chat: a group on a platform that edits messages."""
        if chat.is_private:
            return False
        try:
            return isinstance(self.adapters[chat.platform], MessageBoard)
        except KeyError:  # no such platform attached here
            return False

    def _board(self, row: AssignmentRow) -> MessageBoard:
        adapter = self.adapters[row.chat.platform]
        if not isinstance(adapter, MessageBoard):  # /assign is refused where no message can be edited
            raise TypeError(f"{row.chat.platform} cannot edit messages")
        return adapter
