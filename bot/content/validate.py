"""`quizhost validate`: every problem in the given quiz files, without starting a bot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.content.catalog import QuizProblem, default_quiz_folders, find_quiz_files, load_quiz_files, strict_problems


@dataclass(frozen=True)
class Validation:
    """What `validate` found: the files read, how many gave a playable quiz, every problem."""

    files: int
    loaded: int
    problems: tuple[QuizProblem, ...]

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
    if strict:
        problems += [p for quiz in quizzes.values() for p in strict_problems(quiz)]
    return Validation(len(files), len(quizzes), tuple(problems))


def validate_paths(paths: Sequence[Path], strict: bool = False) -> list[QuizProblem]:
    return list(validate(paths, strict).problems)
