"""`quizhost validate`: every problem in the given quiz files, without starting a bot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.content import media
from bot.content.catalog import QuizProblem, default_quiz_folders, find_quiz_files, load_quiz_files, strict_problems
from bot.domain.answering import media_view
from bot.domain.model import FALLBACK_LANGUAGE, Media, MediaKind, Quiz


@dataclass(frozen=True)
class Validation:
    """What `validate` found: the files read, how many gave a playable quiz, every problem, and
    what is worth fixing but plays all the same (warnings)."""

    files: int
    loaded: int
    problems: tuple[QuizProblem, ...]
    warnings: tuple[QuizProblem, ...] = ()

    @property
    def failed(self) -> int:
        return self.files - self.loaded


def validate(paths: Sequence[Path], strict: bool = False) -> Validation:
    """Problems in the files and folders given (default: the shipped quizzes).

    Strict also asks for every text in every language, which a playable quiz need not have.
    """
    files, problems = find_quiz_files(list(paths) or default_quiz_folders())
    quizzes, found = load_quiz_files(files)
    problems += found
    problems += [p for quiz in quizzes.values() for p in media_problems(quiz)]
    if strict:
        problems += [p for quiz in quizzes.values() for p in strict_problems(quiz)]
    warnings = tuple(w for quiz in quizzes.values() for w in undescribed_pictures(quiz))
    return Validation(len(files), len(quizzes), tuple(problems), warnings)


def media_problems(quiz: Quiz) -> list[QuizProblem]:
    """Pictures beside the quiz that are missing, too large or not pictures, by question."""
    found = []
    for question in quiz.questions:
        for where, medium in (("media", question.media), ("explanation_media", question.explanation_media)):
            view = media_view(medium, quiz, FALLBACK_LANGUAGE)
            if view is not None and (problem := media.problem(view)) is not None:
                found.append(QuizProblem(quiz.source, f"question {question.id}: {where}", problem))
    return found


def undescribed_pictures(quiz: Quiz) -> list[QuizProblem]:
    """Pictures without `alt`: a screen reader can say nothing of them (Discord's alt text, a
    plain-text chat's caption), by question."""
    return [
        QuizProblem(quiz.source, f"question {question.id}: {where}", "a picture without alt: describe it in `alt`")
        for question in quiz.questions
        for where, medium in (("media", question.media), ("explanation_media", question.explanation_media))
        if medium is not None and medium.kind is MediaKind.IMAGE and not _described(medium)
    ]


def _described(medium: Media) -> bool:
    return medium.alt is not None and bool(medium.alt.get(FALLBACK_LANGUAGE).strip())


def validate_paths(paths: Sequence[Path], strict: bool = False) -> list[QuizProblem]:
    return list(validate(paths, strict).problems)
