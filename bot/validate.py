"""`quizhost validate`: every problem in the given quiz files, without starting a bot."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from bot.catalog import (QuizProblem, default_quiz_folders, find_quiz_files, load_quiz_files,
                         strict_problems)


def validate_paths(paths: Sequence[Path], strict: bool = False) -> list[QuizProblem]:
    """Problems in the files and folders given (default: the shipped quizzes).

    Strict also asks for every text in every language, which a playable quiz need not have.
    """
    files, problems = find_quiz_files(list(paths) or default_quiz_folders())
    quizzes, found = load_quiz_files(files)
    problems += found
    if strict:
        problems += [p for quiz in quizzes.values() for p in strict_problems(quiz)]
    return problems

