"""A run's report as its page shows it: each question with that run's split, and each player's
answer to each question, from the run's answers (bot/commands/results.py)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapters.web.charts import Chart, split_chart
from bot.adapters.web.figures import LETTERS
from bot.commands.results import Line, RunResults
from bot.domain.model import NO_ANSWER, Question, Standing
from bot.kinds import kind_of


@dataclass(frozen=True)
class QuestionSplit:
    number: int
    question_id: str
    prompt: str  # the question id when the quiz no longer has it
    options: tuple[str, ...]
    answer: int  # the right option (authoring order); -1 when the question is gone
    answers: int  # how many answered it in this run
    chart: Chart | None  # None when the question is gone


@dataclass(frozen=True)
class PlayerAnswers:
    standing: Standing
    cells: tuple[Line | None, ...]  # one per question of the run, None where they did not answer


def questions(results: RunResults, lang: str) -> list[QuestionSplit]:
    by_number: dict[int, list[Line]] = {}
    for line in results.lines:
        by_number.setdefault(line.number, []).append(line)
    shown = []
    for number, (question_id, question) in enumerate(results.questions, start=1):
        answered = [line for line in by_number.get(number, []) if line.given]
        if question is None:
            shown.append(QuestionSplit(number, question_id, question_id, (), -1, len(answered), None))
            continue
        options = tuple(o.get(lang) for o in question.options)
        split = _split(question, answered, len(options))
        of = len(answered) if kind_of(question).split_of_answers else None  # an ordering's: who placed each right
        chart = split_chart(LETTERS, list(options), tuple(split), question.right_options(), of=of)
        shown.append(
            QuestionSplit(
                number, question_id, question.prompt.get(lang), options, question.answer, len(answered), chart
            )
        )
    return shown


def _split(question: Question, answered: list[Line], size: int) -> list[int]:
    """Per option: the answers that count for it, as the kind counts them (a choice, a pick, an
    ordering's option in its right place)."""
    kind, split = kind_of(question), [0] * size
    for line in answered:
        picks = ",".join(map(str, line.picks))
        for pick in kind.chosen_options(NO_ANSWER, picks) if kind.collects_picks else line.picks:
            if pick < size:
                split[pick] += 1
    return split


def players(results: RunResults) -> list[PlayerAnswers]:
    """The players as ranked in the run, each with their answer to every question."""
    count = len(results.questions)
    cells: dict[str, list[Line | None]] = {}
    for line in results.lines:
        row = cells.setdefault(line.player_key, [None] * count)
        if 0 < line.number <= count and line.given:
            row[line.number - 1] = line
    return [PlayerAnswers(s, tuple(cells.get(s.player_key, [None] * count))) for s in results.standings]
