"""Chat quizzes: a quiz a chat's admin uploads, stored in the database, playable in that chat
alone. A bad file stores nothing; the same id again replaces the quiz (a run in progress keeps
the Quiz it started with, in memory; the store keeps only the newest version, so a run that a
restart or another worker resumes after a replacement ends: Engine.adopt)."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from bot.content.catalog import Catalog
from bot.content.importers.common import MAX_FILE_BYTES
from bot.content.reading import UploadOutcome, UploadStatus, read, refused, stored_quiz
from bot.domain.model import ChatRef, Player, Quiz
from bot.domain.records import ChatQuizRow
from bot.ports.clock import Clock
from bot.ports.offload import InProcess, Offload, Refused
from bot.ports.store import ChatQuizRecords, ChatRecords
from bot.texts.i18n import later

__all__ = ["ChatQuizzes", "UploadOutcome", "UploadStatus"]


def _source(chat_key: str, name: str) -> str:
    return f"{chat_key}/{name}"


class ChatQuizStore(ChatQuizRecords, ChatRecords, Protocol):
    """A chat's quizzes, stored under its chat (made known first)."""


class ChatQuizzes:
    def __init__(self, store: ChatQuizStore, catalog: Catalog, clock: Clock, offload: Offload | None = None) -> None:
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self.offload = offload or InProcess()  # files are read through it: the wiring's reader processes
        self._parsed: dict[tuple[str, str], tuple[float, Quiz]] = {}  # parsed once per upload

    async def upload(
        self, chat: ChatRef, by: Player, name: str, data: bytes, size: int | None = None, language: str = "en"
    ) -> UploadOutcome:
        """Check the file and store its quiz for `chat`; anything wrong stores nothing.

        `size`: the file's size, when one too big to accept was not even fetched; `language`: the
        language tag of an imported file's texts (`/upload es`)."""
        outcome, content = await self._checked(chat.key, name, data, size, language)
        if outcome.quiz is None or outcome.status not in (UploadStatus.STORED, UploadStatus.REPLACED):
            return outcome
        await self.store.ensure_chat(chat)
        row = ChatQuizRow(chat.key, outcome.quiz.id, content, by.key, self.clock.now())
        await self.store.save_chat_quiz(row)
        self._keep(row, replace(outcome.quiz, source=_source(chat.key, row.quiz_id)))  # read already: not again
        return outcome

    async def check(self, chat_key: str, name: str, data: bytes, size: int | None = None) -> UploadOutcome:
        """What `upload` would answer for the file, storing nothing (the web form's preview)."""
        outcome, _ = await self._checked(chat_key, name, data, size)
        return outcome

    async def _checked(
        self, chat_key: str, name: str, data: bytes, size: int | None, language: str = "en"
    ) -> tuple[UploadOutcome, str]:
        size = len(data) if size is None else size
        if size > MAX_FILE_BYTES:
            too_big = later(
                "{size} bytes: at most {most} (1 MB) are accepted", size=f"{size:,}", most=f"{MAX_FILE_BYTES:,}"
            )
            return refused(too_big), ""
        outcome, content = await read(self.offload, name, data, language)
        if outcome.quiz is None:
            return outcome, ""
        quiz = outcome.quiz
        if self.catalog.named(quiz.id) is not None:
            return UploadOutcome(UploadStatus.TAKEN, quiz), ""
        replaced = await self.store.chat_quiz(chat_key, quiz.id) is not None
        status = UploadStatus.REPLACED if replaced else UploadStatus.STORED
        return UploadOutcome(status, quiz, outcome.skipped, notes=outcome.notes), content

    async def get(self, chat_key: str, quiz_id: str) -> Quiz | None:
        """The chat's own quiz of that id, parsed once per upload (every worker reads the store).

        Read here, not in a reader: a press or a resumed run must not wait behind uploads, and
        one quiz (at most 500 questions, checked when stored) is quick to read."""
        row = await self.store.chat_quiz(chat_key, quiz_id)
        return (self._hit(row) or self._keep(row, stored_quiz(self._stored(row)))) if row else None

    async def find(self, chat_key: str, quiz_id: str) -> Quiz | None:
        """The quiz of that id the chat plays: a shipped one, else the chat's own (an upload
        may not take a shipped quiz's id, so the two never disagree)."""
        return self.catalog.get(quiz_id) or await self.get(chat_key, quiz_id)

    async def replaced_since(self, chat_key: str, quiz_id: str, since: float) -> bool:
        """Whether the chat's quiz of that id was uploaded again after `since`."""
        row = await self.store.chat_quiz(chat_key, quiz_id)
        return row is not None and row.uploaded_at > since

    async def all(self, chat_key: str) -> list[Quiz]:
        """Every quiz of the chat. A chat may hold many large ones, none parsed yet after a
        restart: those are read off the event loop, one per job (each is quick)."""
        quizzes = []
        for row in await self.store.chat_quizzes(chat_key):
            if quiz := self._hit(row) or self._keep(row, await self._read_stored(row)):
                quizzes.append(quiz)
        return quizzes

    async def remove(self, chat_key: str, quiz_id: str) -> bool:
        self._parsed.pop((chat_key, quiz_id), None)
        return await self.store.delete_chat_quiz(chat_key, quiz_id)

    async def _read_stored(self, row: ChatQuizRow) -> Quiz | None:
        try:
            return await self.offload.run(stored_quiz, self._stored(row))
        except Refused:  # no reader for it: read here, as it was checked when stored, rather than lose it
            return stored_quiz(self._stored(row))

    def _stored(self, row: ChatQuizRow) -> tuple[str, str]:
        return row.content, _source(row.chat_key, row.quiz_id)

    def _hit(self, row: ChatQuizRow) -> Quiz | None:
        cached = self._parsed.get((row.chat_key, row.quiz_id))
        return cached[1] if cached and cached[0] == row.uploaded_at else None

    def _keep(self, row: ChatQuizRow, quiz: Quiz | None) -> Quiz | None:
        if quiz is not None:
            self._parsed[(row.chat_key, row.quiz_id)] = (row.uploaded_at, quiz)
        return quiz
