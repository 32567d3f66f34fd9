"""Chat quizzes: a quiz a chat's admin uploads, stored in the database, playable in that chat
alone. A bad file stores nothing; the same id again replaces the quiz (a run in progress keeps
the Quiz it started with, in memory; the store keeps only the newest version, so a run that a
restart or another worker resumes after a replacement ends: Engine.adopt)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import PurePath
from typing import Protocol

from bot.content.catalog import QUIZ_SUFFIXES, Catalog, QuizProblem, load_quiz_text
from bot.content.importers import Malformed, Skipped, import_quiz
from bot.content.importers.common import MAX_FILE_BYTES, Problem, decode_text
from bot.content.quizfile import check_quiz_data
from bot.domain.model import ChatRef, Player, Quiz
from bot.domain.records import ChatQuizRow
from bot.ports.clock import Clock
from bot.ports.store import ChatQuizRecords, ChatRecords
from bot.texts.i18n import later


class UploadStatus(StrEnum):
    STORED = "stored"
    REPLACED = "replaced"  # the chat had a quiz with this id: the new one took its place
    REFUSED = "refused"  # `problems` says why; nothing was stored
    EMPTY = "empty"  # no question could be imported: `skipped` says why; nothing was stored
    TAKEN = "taken"  # the id is a shipped quiz's id or alias; nothing was stored


@dataclass(frozen=True)
class UploadOutcome:
    status: UploadStatus
    quiz: Quiz | None = None
    skipped: tuple[Skipped, ...] = ()
    problems: tuple[Problem, ...] = ()  # every one, with its place


def _source(chat_key: str, name: str) -> str:
    return f"{chat_key}/{name}"


class ChatQuizStore(ChatQuizRecords, ChatRecords, Protocol):
    """A chat's quizzes, stored under its chat (made known first)."""


class ChatQuizzes:
    def __init__(self, store: ChatQuizStore, catalog: Catalog, clock: Clock) -> None:
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self._parsed: dict[tuple[str, str], tuple[float, Quiz]] = {}  # parsed once per upload

    async def upload(self, chat: ChatRef, by: Player, name: str, data: bytes, size: int | None = None) -> UploadOutcome:
        """Check the file and store its quiz for `chat`; anything wrong stores nothing.

        `size`: the file's size, when one too big to accept was not even fetched."""
        outcome, content = await self._checked(chat.key, name, data, size)
        if outcome.quiz is None or outcome.status not in (UploadStatus.STORED, UploadStatus.REPLACED):
            return outcome
        await self.store.ensure_chat(chat)
        await self.store.save_chat_quiz(ChatQuizRow(chat.key, outcome.quiz.id, content, by.key, self.clock.now()))
        return outcome

    async def check(self, chat_key: str, name: str, data: bytes, size: int | None = None) -> UploadOutcome:
        """What `upload` would answer for the file, storing nothing (the web form's preview)."""
        outcome, _ = await self._checked(chat_key, name, data, size)
        return outcome

    async def _checked(self, chat_key: str, name: str, data: bytes, size: int | None) -> tuple[UploadOutcome, str]:
        size = len(data) if size is None else size
        if size > MAX_FILE_BYTES:
            too_big = later(
                "{size} bytes: at most {most} (1 MB) are accepted", size=f"{size:,}", most=f"{MAX_FILE_BYTES:,}"
            )
            return UploadOutcome(UploadStatus.REFUSED, problems=(Problem("file", too_big),)), ""
        outcome, content = _read(chat_key, name, data)
        if outcome.quiz is None:
            return outcome, ""
        quiz = outcome.quiz
        if self.catalog.named(quiz.id) is not None:
            return UploadOutcome(UploadStatus.TAKEN, quiz), ""
        replaced = await self.store.chat_quiz(chat_key, quiz.id) is not None
        status = UploadStatus.REPLACED if replaced else UploadStatus.STORED
        return UploadOutcome(status, quiz, outcome.skipped), content

    async def get(self, chat_key: str, quiz_id: str) -> Quiz | None:
        """The chat's own quiz of that id, parsed once per upload (every worker reads the store)."""
        row = await self.store.chat_quiz(chat_key, quiz_id)
        return self._quiz(row) if row else None

    async def replaced_since(self, chat_key: str, quiz_id: str, since: float) -> bool:
        """Whether the chat's quiz of that id was uploaded again after `since`."""
        row = await self.store.chat_quiz(chat_key, quiz_id)
        return row is not None and row.uploaded_at > since

    async def all(self, chat_key: str) -> list[Quiz]:
        return [quiz for row in await self.store.chat_quizzes(chat_key) if (quiz := self._quiz(row))]

    async def remove(self, chat_key: str, quiz_id: str) -> bool:
        self._parsed.pop((chat_key, quiz_id), None)
        return await self.store.delete_chat_quiz(chat_key, quiz_id)

    def _quiz(self, row: ChatQuizRow) -> Quiz | None:
        cached = self._parsed.get((row.chat_key, row.quiz_id))
        if cached and cached[0] == row.uploaded_at:
            return cached[1]
        parsed, _ = check_quiz_data(json.loads(row.content))  # checked when stored: rules may have changed
        if parsed is None:
            return None
        quiz = parsed.to_quiz(source=_source(row.chat_key, row.quiz_id))
        self._parsed[(row.chat_key, row.quiz_id)] = (row.uploaded_at, quiz)
        return quiz


def _read(chat_key: str, name: str, data: bytes) -> tuple[UploadOutcome, str]:
    """The quiz in an uploaded file (quizhost YAML or any importer format) and its stored form."""
    if PurePath(name).suffix.casefold() in QUIZ_SUFFIXES:
        try:
            text = decode_text(data)
        except Malformed as error:
            return UploadOutcome(UploadStatus.REFUSED, problems=(error.problem,)), ""
        quiz, problems, content = load_quiz_text(text, name)
        if quiz is None:
            return UploadOutcome(UploadStatus.REFUSED, problems=tuple(_placed(p) for p in problems)), ""
        return UploadOutcome(UploadStatus.STORED, quiz), json.dumps(content, ensure_ascii=False)
    try:
        imported = import_quiz(data, name)
    except Malformed as error:
        return UploadOutcome(UploadStatus.REFUSED, problems=(error.problem,)), ""
    if imported.quiz is None:
        return UploadOutcome(UploadStatus.EMPTY, skipped=imported.skipped), ""
    return (
        UploadOutcome(UploadStatus.STORED, imported.quiz, imported.skipped),
        json.dumps(imported.data, ensure_ascii=False),
    )


def _placed(problem: QuizProblem) -> Problem:
    """A quiz file check's problem at "12: question 'q1'.answer" (the line, then the place): the
    file name is said once, above the list."""
    return Problem(": ".join(str(p) for p in (problem.line, problem.place) if p not in ("", None)), problem.message)
