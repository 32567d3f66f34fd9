"""Reading an uploaded file: the job that runs off the event loop (bot.ports.offload), and
every way it can fail turned into a refusal that names the problem.

`read_upload` runs in a reader process: what it returns crosses the process boundary, so it
is plain picklable data (frozen dataclasses of strings, numbers and tuples).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import PurePath

from bot.content.catalog import QUIZ_SUFFIXES, QuizProblem, load_quiz_text
from bot.content.importers import Malformed, Note, Skipped, import_quiz
from bot.content.importers.common import Problem, decode_text
from bot.content.quiz_check import check_quiz_data
from bot.domain.model import Quiz
from bot.ports.offload import Busy, Failed, Offload, OverMemory, OverTime, Refused
from bot.texts.i18n import Later, later


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
    notes: tuple[Note, ...] = ()  # what imported questions lost (a picture kept in Moodle)


def refused(why: Later | str, where: str = "file") -> UploadOutcome:
    return UploadOutcome(UploadStatus.REFUSED, problems=(Problem(where, why),))


async def read(offload: Offload, name: str, data: bytes, language: str = "en") -> tuple[UploadOutcome, str]:
    """The file's quiz and its stored form, read through `offload`; a read that failed or
    broke a budget is a refusal naming why. `language`: what an imported file's texts are in."""
    try:
        return await offload.run(read_upload, (name, data, language))
    except Refused as error:
        return refused(refusal(error)), ""


def refusal(error: Refused) -> Later:
    """Why a read gave no result, for the file's author."""
    if isinstance(error, OverTime):
        return later("took longer than {seconds} s to read", seconds=f"{error.seconds:g}")
    if isinstance(error, OverMemory):
        return later("needed more than {megabytes} MB of memory to read", megabytes=error.megabytes)
    if isinstance(error, Busy):
        return later("other files are being read just now: send it again in a minute")
    if isinstance(error, Failed):
        return failure(error.kind, error.detail)
    return later("could not be read: {detail}", detail=str(error))


def failure(kind: str, detail: str) -> Later:
    """An importer's exception (its class name and words) as a reason: never a traceback."""
    if kind == "RecursionError":  # json.loads of a file nested 100,000 lists deep
        return later("nested too deeply to read")
    return later("could not be read: {detail}", detail=f"{kind}: {detail}" if kind else detail)


def read_upload(file: tuple[str, bytes] | tuple[str, bytes, str]) -> tuple[UploadOutcome, str]:
    """The quiz in an uploaded file (quizhost YAML or any importer format) and its stored form;
    an imported file's texts are in the language tag the upload names (a quiz file names its own)."""
    name, data, language = file if len(file) == 3 else (*file, "en")
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
        imported = import_quiz(data, name, lang=language)
    except Malformed as error:
        return UploadOutcome(UploadStatus.REFUSED, problems=(error.problem,)), ""
    if imported.quiz is None:
        return UploadOutcome(UploadStatus.EMPTY, skipped=imported.skipped), ""
    return (
        UploadOutcome(UploadStatus.STORED, imported.quiz, imported.skipped, notes=imported.notes),
        json.dumps(imported.data, ensure_ascii=False),
    )


def stored_quiz(stored: tuple[str, str]) -> Quiz | None:
    """A chat quiz as the store keeps it (its JSON, and the source its messages name), checked
    again: the rules may have changed since it was stored."""
    content, source = stored
    parsed, _ = check_quiz_data(json.loads(content))
    return parsed.to_quiz(source=source) if parsed is not None else None


def _placed(problem: QuizProblem) -> Problem:
    """A quiz file check's problem at "12: question 'q1'.answer" (the line, then the place): the
    file name is said once, above the list."""
    return Problem(": ".join(str(p) for p in (problem.line, problem.place) if p not in ("", None)), problem.message)
