"""What the pages show, gathered from the engine and the store: boards, runs, question figures.

The question figures are those of /quizstats: bot/domain/questionstats.py's rules over the chat's
answers to the quiz.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from bot.adapters.web.charts import LETTERS as LETTERS  # one alphabet for every chart and page
from bot.adapters.web.formats import shown_language
from bot.commands.learning import quiz_report
from bot.commands.results import ResultSource, quiz_of
from bot.domain import assignment as assigned
from bot.domain.assignment import AssignmentSummary, Place
from bot.domain.hosting import HostAction
from bot.domain.model import ChatRef, Player, Question, Quiz, Reply, Standing
from bot.domain.questionstats import QuestionStats
from bot.domain.records import RunStatus
from bot.engine.standings import period_start
from bot.ports.clock import Clock
from bot.ports.live import LiveEvents
from bot.ports.store import AssignmentRecords, Boards, ChatRecords, QuestionTallies, WebRecords

# a host's press on the big screen: (chat, action, who) -> what to tell them (Engine.host, as an admin)
HostCall = Callable[[ChatRef, HostAction, Player], Awaitable[Reply]]


class PageStore(WebRecords, Boards, QuestionTallies, ChatRecords, AssignmentRecords, Protocol):
    """What the pages read: public boards and past runs, the boards, the question figures,
    a chat's language, and its assignments."""


@dataclass(frozen=True)
class PageSource:
    """What the pages read: the store's roles for them, the clock, the quizzes their runs played,
    and the bot's language for a page that cannot say whose it is."""

    store: PageStore
    clock: Clock
    results: ResultSource
    default_language: str
    live: LiveEvents | None = None  # the runs' events, for the big screen (none: no big screen here)
    host: HostCall | None = None  # the big screen's controls: the engine's host actions


@dataclass(frozen=True)
class RunLine:
    """A line of the run history: a run of the chat's own, or an assignment, one line for all
    its attempts (`assignment_id`; `players` then counts the attempts, `podium` is the top three
    whose runs ended, as the group message shows them)."""

    run_id: int
    started_at: float
    quiz_title: str
    running: bool
    players: int
    podium: tuple[Standing | Place, ...]
    assignment_id: int | None = None
    title_lang: str = ""  # the language the title is written in; "" for a gone quiz's id (its own direction)


@dataclass(frozen=True)
class QuestionFigures:
    number: int
    question: Question
    stats: QuestionStats


async def board_size(source: PageSource, chat_key: str, period: str, quiz_id: str | None) -> int:
    """How many players the board has (the page shows them in pages: bot/adapters/web/paging.py)."""
    return await source.store.board_size(chat_key, period_start(period, source.clock.now()), quiz_id)


async def board_rows(source: PageSource, chat_key: str, period: str, quiz_id: str | None, last: int) -> list[Standing]:
    """The board's first `last` rows: a page reads only as far as it shows."""
    since = period_start(period, source.clock.now())
    return await source.store.leaderboard(chat_key, since, quiz_id, last)


async def played_quizzes(source: PageSource, chat_key: str) -> list[Quiz]:
    """Quizzes the chat played or uploaded, by title, each once."""
    ids = {r.quiz_id for r in await source.store.chat_runs(chat_key, limit=1000)}
    ids |= {q.id for q in await source.results.chat_quizzes.all(chat_key)}
    quizzes = [quiz for i in ids if (quiz := await quiz_of(source.results, chat_key, i))]
    return sorted(quizzes, key=lambda q: (q.title.get("en").casefold(), q.id))


async def run_lines(source: PageSource, chat_key: str, lang: str, limit: int, offset: int) -> list[RunLine]:
    lines = []
    for line in await source.store.chat_history(chat_key, limit, offset):
        quiz = await quiz_of(source.results, chat_key, line.quiz_id)
        title = quiz.title.get(lang) if quiz else line.quiz_id
        written = shown_language(quiz.title, lang, quiz.language) if quiz else ""
        if isinstance(line, AssignmentSummary):
            lines.append(replace(await _assignment_line(source, line, title), title_lang=written))
            continue
        standings = await source.store.run_standings(line.run_id)
        running = line.status is RunStatus.OPEN
        podium = tuple(standings[:3])
        lines.append(RunLine(line.run_id, line.started_at, title, running, len(standings), podium, title_lang=written))
    return lines


async def _assignment_line(source: PageSource, line: AssignmentSummary, title: str) -> RunLine:
    shown = assigned.progress(await source.store.assignment_places(line.id))
    running = line.status is assigned.AssignmentStatus.OPEN
    return RunLine(0, line.created_at, title, running, line.attempts, shown.top, line.id)


async def question_figures(source: PageSource, chat_key: str, quiz: Quiz) -> list[QuestionFigures]:
    """Every question of the quiz with the chat's figures, as /quizstats shows them."""
    stats = await quiz_report(source.store, quiz, chat_key)
    return [QuestionFigures(n, q, s) for n, (q, s) in enumerate(zip(quiz.questions, stats), start=1)]
