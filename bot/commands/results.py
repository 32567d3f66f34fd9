"""A chat's results, answer by answer: one run's (its report on the web page) or the chat's whole
history (the downloads, `quizhost results`).

Every line is one stored answer, so the points of the lines add up to the boards exactly: the
boards are sums of the same answers (storage/shared/boards.py). Times are in the chat's zone.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol
from zoneinfo import ZoneInfo

from bot.domain.model import LETTERS, Question, Quiz, Standing
from bot.domain.records import AnswerRow, PastRun
from bot.domain.zones import zone
from bot.kinds import kind_of
from bot.ports.store import Boards, ChatRecords, PlayerNames, RunRecords, WebRecords

if TYPE_CHECKING:
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes

YIELD_EVERY = 2000  # answers made into lines between two turns of the event loop
PAGE_ANSWERS = 2000  # answers a download reads from the store at a time


class ResultStore(WebRecords, RunRecords, Boards, PlayerNames, ChatRecords, Protocol):
    """A chat's runs, their answers and standings, the players' names and the chat's zone."""


@dataclass(frozen=True)
class ResultSource:
    """Where a chat's results are read: the store, and the quizzes their runs played."""

    store: ResultStore
    catalog: Catalog
    chat_quizzes: ChatQuizzes


@dataclass(frozen=True)
class Line:
    """One answer, as a download's row and the run report's cell show it."""

    run_id: int
    started: datetime  # the run's start, in the chat's zone
    quiz_id: str
    quiz_title: str
    number: int  # the question's place in its run, from 1
    question_id: str
    question: str
    player: str
    player_key: str
    picks: tuple[int, ...]  # authoring-order indices of the chosen options (none: typed, numeric)
    letter: str  # the chosen options' letters in authoring order, or what the player typed
    chosen: str  # the chosen options' texts ('' when the quiz no longer has them), or what was typed
    right: bool
    seconds: float
    points: int
    answered: datetime  # in the chat's zone


@dataclass(frozen=True)
class RunResults:
    run: PastRun
    quiz: Quiz | None  # None: the quiz is gone (a chat's upload deleted since)
    questions: tuple[tuple[str, Question | None], ...]  # the run's questions in order: id, and the question if kept
    lines: tuple[Line, ...]
    standings: tuple[Standing, ...]
    started_by: str  # names (the key when the name was never stored)
    stopped_by: str  # empty when nobody /stop-ped it


async def quiz_of(source: ResultSource, chat_key: str, quiz_id: str) -> Quiz | None:
    """The chat's own quiz of that id, else the shipped one."""
    return await source.chat_quizzes.find(chat_key, quiz_id)


def day_start(text: str, where: ZoneInfo) -> float:
    """A date written YYYY-MM-DD as the instant that day starts in the zone; ValueError otherwise."""
    return datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=where).timestamp()


async def chat_zone(source: ResultSource, chat_key: str) -> ZoneInfo:
    store = source.store
    return zone((await store.chat_settings(chat_key)).time_zone)


async def run_results(source: ResultSource, chat_key: str, run_id: int, lang: str) -> RunResults | None:
    """The run's report; None for a run that is not this chat's."""
    store = source.store
    run = await store.past_run(chat_key, run_id)
    if run is None:
        return None
    quiz = await quiz_of(source, chat_key, run.quiz_id)
    kept = {q.id: q for q in quiz.questions} if quiz else {}
    maker = _LineMaker(source, chat_key, lang, await chat_zone(source, chat_key))
    maker.known(run)
    lines = await maker.of(await store.run_answers(run_id))
    names = await store.player_names({run.started_by, run.stopped_by} - {""})
    return RunResults(
        run,
        quiz,
        tuple((qid, kept.get(qid)) for qid in run.question_ids),
        tuple(lines),
        tuple(await store.run_standings(run_id)),
        names.get(run.started_by, run.started_by),
        names.get(run.stopped_by, run.stopped_by),
    )


async def chat_results(source: ResultSource, chat_key: str, lang: str, since: float | None = None) -> list[Line]:
    """Every answer of the chat (from `since` on), by run and question."""
    return [line async for page in chat_result_pages(source, chat_key, lang, since) for line in page]


async def chat_result_pages(
    source: ResultSource, chat_key: str, lang: str, since: float | None = None, size: int | None = None
) -> AsyncGenerator[list[Line], None]:
    """`chat_results` a page of at most `size` lines (default PAGE_ANSWERS) at a time, read from
    the store as they are asked for: a download of a long history holds one page, never the whole."""
    store = source.store
    size = size or PAGE_ANSWERS
    lines = _LineMaker(source, chat_key, lang, await chat_zone(source, chat_key))
    answers = await store.chat_answers_after(chat_key, None, size, since)
    while answers:
        yield await lines.of(answers)
        answers = await store.chat_answers_after(chat_key, answers[-1], size, since)


class _LineMaker:
    """Answers into lines; the runs and quizzes they name kept from page to page (a few per
    chat), the players' names read per page."""

    def __init__(self, source: ResultSource, chat_key: str, lang: str, where: ZoneInfo) -> None:
        self.source, self.chat_key, self.lang, self.where = source, chat_key, lang, where
        self.runs: dict[int, PastRun | None] = {}
        self.quizzes: dict[str, Quiz | None] = {}

    def known(self, run: PastRun) -> None:
        self.runs[run.run_id] = run

    async def of(self, answers: list[AnswerRow]) -> list[Line]:
        store = self.source.store
        for run_id in sorted({a.run_id for a in answers} - set(self.runs)):
            self.runs[run_id] = await store.past_run(self.chat_key, run_id)
        for run in self.runs.values():
            if run is not None and run.quiz_id not in self.quizzes:
                self.quizzes[run.quiz_id] = await quiz_of(self.source, self.chat_key, run.quiz_id)
        names = await store.player_names({a.player_key for a in answers})
        lines = []
        for n, a in enumerate(answers, start=1):
            if n % YIELD_EVERY == 0:  # a run's or a page's answers are many: other pages and presses go on meanwhile
                await asyncio.sleep(0)
            lines.append(self.line(a, names))
        return lines

    def line(self, a: AnswerRow, names: dict[str, str]) -> Line:
        run, lang, where = self.runs.get(a.run_id), self.lang, self.where
        quiz = self.quizzes.get(run.quiz_id) if run else None
        question = next((q for q in quiz.questions if q.id == a.question_id), None) if quiz else None
        picks, letter, chosen = said(question, a, lang)
        return Line(
            run_id=a.run_id,
            started=datetime.fromtimestamp(run.started_at if run else a.answered_at, where),
            quiz_id=a.quiz_id,
            quiz_title=quiz.title.get(lang) if quiz else a.quiz_id,
            number=a.index + 1,
            question_id=a.question_id,
            question=question.prompt.get(lang) if question else a.question_id,
            player=names.get(a.player_key, a.player_key),
            player_key=a.player_key,
            picks=picks,
            letter=letter,
            chosen=chosen,
            right=a.correct,
            seconds=round(a.elapsed, 2),
            points=a.points,
            answered=datetime.fromtimestamp(a.answered_at, where),
        )


def said(question: Question | None, answer: AnswerRow, lang: str) -> tuple[tuple[int, ...], str, str]:
    """What a player answered: the options picked (authoring order), their letters, their texts;
    a typed or numeric answer as typed."""
    kind = kind_of(question) if question is not None else None
    if kind is not None:
        picks = kind.said_options(answer.option, answer.response)
    else:
        picks = (answer.option,) if answer.option >= 0 else ()
    if not picks:
        return (), answer.response, answer.response
    options = question.options if question else ()
    between = kind.said_between if kind is not None else ", "  # an ordering's: " → "
    letters = between.join(LETTERS[i] if i < len(LETTERS) else str(i + 1) for i in picks)
    join = kind.said_texts if kind is not None else "; ".join
    texts = join(options[i].get(lang) for i in picks if i < len(options))
    return picks, letters, texts
