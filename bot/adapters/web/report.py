"""A run's report as its page shows it: each question with that run's split, and each player's
answer to each question, from the run's answers (bot/commands/results.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.adapters.web.charts import Figure, question_figure
from bot.commands.results import Line, RunResults
from bot.domain.model import FALLBACK_LANGUAGE, Question, Standing
from bot.domain.records import AnswerRow
from bot.domain.session import option_order
from bot.kinds import kind_of


@dataclass(frozen=True)
class QuestionSplit:
    number: int
    question_id: str
    prompt: str  # the question id when the quiz no longer has it
    question: Question | None  # None when the question is gone
    answers: int  # how many answered it in this run
    figure: Figure | None  # None when the question is gone
    skipped: bool = False  # its host skipped it: nobody's answer was kept


@dataclass(frozen=True)
class PlayerAnswers:
    standing: Standing
    cells: tuple[Line | None, ...]  # one per question of the run (None: not asked of them)
    team: str = ""  # a run with teams: the player's team


def questions(results: RunResults, answers: list[AnswerRow], lang: str) -> list[QuestionSplit]:
    """Each question of the run with its figure (as the quiz page draws it: charts.py) over this
    run's answers: `answers`, the run's stored answers."""
    by_number: dict[int, list[AnswerRow]] = {}
    for answer in answers:
        by_number.setdefault(answer.index + 1, []).append(answer)
    shown = []
    written = results.quiz.language if results.quiz else FALLBACK_LANGUAGE  # what its untranslated text is in
    for number, (question_id, question) in enumerate(results.questions, start=1):
        answered, skipped = by_number.get(number, []), number - 1 in results.run.skipped
        if question is None:
            shown.append(QuestionSplit(number, question_id, question_id, None, len(answered), None, skipped))
            continue
        split, responses = _split(answered, len(question.options)), _responses(answered)
        figure = question_figure(question, lang, split, responses, _shown(results.run.seed, question), written)
        prompt = question.prompt.get(lang)
        shown.append(QuestionSplit(number, question_id, prompt, question, len(answered), figure, skipped))
    return shown


def _shown(seed: int, question: Question) -> tuple[int, ...]:
    """The options as the run showed them, as the engine orders a card (bot/domain/session.py)."""
    return tuple(kind_of(question).arranged(option_order(seed, question)))


def _split(answered: list[AnswerRow], size: int) -> tuple[int, ...]:
    """Per option (authoring order): the answers that chose it (a choice, a true/false, a poll)."""
    split = [0] * size
    for answer in answered:
        if 0 <= answer.option < size:
            split[answer.option] += 1
    return tuple(split)


def _responses(answered: list[AnswerRow]) -> Counter[str]:
    """What was typed or picked, counted, as the store counts a quiz's (QuestionTallies.quiz_responses)."""
    return Counter(answer.response for answer in answered if answer.response)


def players(results: RunResults) -> list[PlayerAnswers]:
    """The players as ranked in the run, each with their line for every question asked of them
    (answered or not)."""
    count = len(results.questions)
    cells: dict[str, list[Line | None]] = {}
    teams: dict[str, str] = {}
    for line in results.lines:
        row = cells.setdefault(line.player_key, [None] * count)
        if 0 < line.number <= count:
            row[line.number - 1] = line
        if line.team:
            teams[line.player_key] = line.team
    return [
        PlayerAnswers(s, tuple(cells.get(s.player_key, [None] * count)), teams.get(s.player_key, ""))
        for s in results.standings
    ]
