"""/quiz: which quiz a topic names, and a new run of it in the chat."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.content.catalog import Catalog
from bot.content.chatquizzes import ChatQuizzes
from bot.domain import extra_time, session
from bot.domain.extra_time import NO_EXTRA
from bot.domain.model import (
    PAUSE_SECONDS,
    QUESTION_SECONDS,
    SUGGESTIONS_PER_DAY,
    SUGGESTIONS_WAITING,
    ChatRef,
    Player,
    Quiz,
    QuizInfo,
)
from bot.domain.records import UNTIL_HOST, RunRow
from bot.domain.session import Run
from bot.engine.chats import Chats
from bot.engine.run_table import RunTable
from bot.kinds import kind_of
from bot.ports.clock import Clock
from bot.ports.store import ChatRecords, ExtraTimeRecords, PlayerNames, RunRecords


@dataclass(frozen=True)
class EngineSettings:
    question_seconds: int = QUESTION_SECONDS.default
    pause_seconds: float = PAUSE_SECONDS.default
    default_language: str = "en"
    suggestions_per_day: int = SUGGESTIONS_PER_DAY.default
    suggestions_waiting: int = SUGGESTIONS_WAITING.default


class StartStatus(StrEnum):
    STARTED = "started"
    RUNNING = "running"  # the chat already has a run: `run` is that one (None: it is being set up, `quizzes[0]`)
    CHOICES = "choices"  # several quizzes match the topic: `quizzes`
    UNKNOWN = "unknown"  # none matches: `quizzes` lists them all
    CATALOG = "catalog"  # no topic given: `quizzes` lists them all


@dataclass(frozen=True)
class StartOutcome:
    status: StartStatus
    run: Run | None = None
    quizzes: tuple[QuizInfo, ...] = ()


class StartStore(ChatRecords, PlayerNames, RunRecords, ExtraTimeRecords, Protocol):
    """/quiz: the chat and the player made known, the player's extra time, and the new run stored."""


@dataclass(eq=False)
class RunStarter:
    catalog: Catalog
    chat_quizzes: ChatQuizzes
    store: StartStore
    clock: Clock
    settings: EngineSettings
    chats: Chats
    runs: RunTable
    rng: random.Random

    async def start(
        self,
        chat: ChatRef,
        topic: str,
        by: Player,
        count: int | None = None,
        hosted: bool = False,
        seconds: int | None = None,
    ) -> StartOutcome:
        """/quiz (or /host, `hosted`: `by` paces the run, `seconds` its questions' time limit)
        with the quiz a topic names."""
        topic = topic.strip()
        if not topic:
            return StartOutcome(StartStatus.CATALOG, quizzes=await self.playable(chat))
        if (running := self.runs.by_chat.get(chat.key)) is not None:
            return StartOutcome(StartStatus.RUNNING, run=running)
        own = await self.chat_quizzes.get(chat.key, topic.casefold())  # its id: shipped ids cannot clash
        if own is not None:
            return await self.start_quiz(chat, own, by, count, seconds=seconds, hosted=hosted)
        matches = self.catalog.match(topic)
        if not matches:
            return StartOutcome(StartStatus.UNKNOWN, quizzes=await self.playable(chat))
        if len(matches) > 1:
            return StartOutcome(StartStatus.CHOICES, quizzes=tuple(matches))
        quiz = self.catalog.get(matches[0].id)
        if quiz is None:  # its file broke since the catalog was indexed
            return StartOutcome(StartStatus.UNKNOWN, quizzes=tuple(self.catalog.all()))
        return await self.start_quiz(chat, quiz, by, count, seconds=seconds, hosted=hosted)

    async def playable(self, chat: ChatRef) -> tuple[QuizInfo, ...]:
        """What /quiz offers in this chat: the shipped quizzes, then the chat's own."""
        return (*self.catalog.all(), *await self.chat_quizzes.all(chat.key))

    async def start_quiz(
        self,
        chat: ChatRef,
        quiz: Quiz,
        by: Player,
        count: int | None = None,
        questions: tuple[str, ...] | None = None,
        seconds: int | None = None,
        board: str = "",
        hosted: bool = False,
        time_factor: float | None = None,
    ) -> StartOutcome:
        """Start `quiz` (`count` random questions, or exactly `questions`; `seconds` to answer
        each instead of the chat's setting: a question of the day stays open for hours; `board`
        the key of the chat whose boards count it, when not this one: an assignment's group;
        `time_factor` its player's extra time, else their own rule in a private chat)."""
        if (running := self.runs.by_chat.get(chat.key)) is not None:
            return StartOutcome(StartStatus.RUNNING, run=running)
        if (starting := self.runs.starting.get(chat.key)) is not None:  # another /quiz here is being set up
            return StartOutcome(StartStatus.RUNNING, quizzes=(starting,))
        self.runs.starting[chat.key] = quiz
        try:
            factor = time_factor if time_factor is not None else await self._own_factor(chat, by)
            return await self._create_run(chat, quiz, by, count, questions, seconds, board, hosted, factor)
        finally:
            del self.runs.starting[chat.key]

    async def _create_run(
        self,
        chat: ChatRef,
        quiz: Quiz,
        by: Player,
        count: int | None,
        questions: tuple[str, ...] | None,
        seconds: int | None,
        board: str = "",
        hosted: bool = False,
        time_factor: float = NO_EXTRA,
    ) -> StartOutcome:
        await self.store.ensure_chat(chat)
        await self.store.ensure_player(by)
        settings = await self.chats.fresh_settings(chat.key)
        now = self.clock.now()
        pause = settings.pause_seconds if settings.pause_seconds is not None else self.settings.pause_seconds
        # a run played for a group (an assignment) is scored as the group scores: its rules
        rules = await self.chats.fresh_settings(board) if board else settings
        row = RunRow(
            chat_key=chat.key,
            chat_id=chat.chat_id,
            platform=chat.platform,
            is_private=chat.is_private,
            quiz_id=quiz.id,
            language=await self.chats.language_for(chat, by),
            seed=self.rng.getrandbits(31),
            question_ids=questions or session.pick_questions(quiz, count, self.rng),
            # a hosted game's questions have no time limit (0) unless the host gives one
            seconds=seconds or (0 if hosted else settings.question_seconds or self.settings.question_seconds),
            pause=pause,
            started_by=by.key,
            started_at=now,
            due=UNTIL_HOST if hosted else now + min(pause, 3.0),  # a host posts the first question
            board_chat=board,
            host_key=by.key if hosted else "",
            time_factor=time_factor,
            scoring=rules.scoring,
            streaks=rules.streaks,
            board_end=rules.board_end,
            min_age=rules.min_age,  # how old an account must be to score, as the group asks
        )
        row.id = await self.store.create_run(row)
        run = Run(row, quiz, kind_of)
        self.runs.track(run)
        return StartOutcome(StartStatus.STARTED, run=run)

    async def _own_factor(self, chat: ChatRef, by: Player) -> float:
        """The extra time a player gave their own play, in their private chat (a group's time
        limit is the room's: no factor there)."""
        if not chat.is_private:
            return NO_EXTRA
        return extra_time.factor_for(await self.store.player_extra_times(chat.key, by.key))
