"""An assignment's page: its quiz and deadline, who finished it, who started and stopped, who has
not started (of the members the store has seen in the group), and the combined accuracy.

Admin links only, as the run history that links to it: it names every member. An assignment of
another chat is not there (404), as another chat's run is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from aiohttp import web

from bot.adapters.web import texts
from bot.adapters.web.figures import PageSource
from bot.adapters.web.formats import number, shown_language
from bot.adapters.web.ids import id_in
from bot.adapters.web.pages import Pages
from bot.commands.results import RunResults, quiz_of, run_results
from bot.commands.summary import Summary, attempts_summary
from bot.commands.weblinks import Scope
from bot.domain import assignment as rules
from bot.domain.assignment import AssignmentRow, Attempt
from bot.domain.model import Question
from bot.domain.worth import Record, record_of
from bot.kinds import records, scored_count


@dataclass(frozen=True)
class AttemptLine:
    """An attempt as the page lists it, with its record over the questions its run asked."""

    attempt: Attempt
    record: Record

    @property
    def accuracy(self) -> float | None:
        return self.record.accuracy if self.record.asked else None


@dataclass(frozen=True)
class AssignmentView:
    row: AssignmentRow
    title: str
    finished: tuple[AttemptLine, ...]
    stopped: tuple[AttemptLine, ...]  # still playing, or stopped before the end
    not_started: tuple[tuple[str, str], ...]  # (player key, name)
    summary: Summary | None  # the attempts as one class (bot/commands/summary.py); None for none
    asked: tuple[tuple[str, Question | None], ...]  # the assignment's questions, by place
    written: str = ""  # the quiz's own language; "" for a quiz gone (its title is its id)
    title_lang: str = ""  # the language `title` is shown in

    @property
    def combined(self) -> float | None:
        """The finished attempts' share right, every question of every one counted once."""
        return rules.combined_accuracy([line.record for line in self.finished])


async def assignment_view(source: PageSource, chat_key: str, assignment_id: int, lang: str) -> AssignmentView | None:
    """The assignment of this chat with everyone's attempt; None when the chat has none of that id."""
    store = source.store
    row = await store.assignment(assignment_id)
    if row is None or row.chat.key != chat_key:
        return None
    quiz = await quiz_of(source.results, chat_key, row.quiz_id)
    kept = {q.id: q for q in quiz.questions} if quiz else {}
    attempts = await store.assignment_attempts(assignment_id)
    lines = {a.player_key: await _line(source, row, kept, a) for a in attempts}
    roll = rules.roll(row, attempts, await store.members_seen(chat_key))
    return AssignmentView(
        row,
        quiz.title.get(lang) if quiz else row.quiz_id,
        tuple(lines[a.player_key] for a in roll.finished),
        tuple(lines[a.player_key] for a in roll.stopped),
        roll.not_started,
        attempts_summary(await _reports(source, chat_key, attempts, lang)),
        tuple((qid, kept.get(qid)) for qid in row.question_ids),
        quiz.language if quiz else "",
        shown_language(quiz.title, lang, quiz.language) if quiz else "",
    )


async def _reports(source: PageSource, chat_key: str, attempts: list[Attempt], lang: str) -> list[RunResults]:
    """Each attempt's run read as its report reads it: one member's answers each, at most one
    attempt a member, so the page reads what the class answered and no more."""
    found = [await run_results(source.results, chat_key, a.run_id, lang) for a in attempts]
    return [r for r in found if r is not None]


async def _line(source: PageSource, row: AssignmentRow, kept: dict[str, Question], attempt: Attempt) -> AttemptLine:
    """The attempt's record: every scored question its run asked counts (one not answered: 0),
    partial credit by its share (bot/domain/worth.py)."""
    asked = [kept.get(qid) for qid in row.question_ids[: attempt.asked(len(row.question_ids))]]
    answers = await source.results.store.run_answers(attempt.run_id)
    found = records(answers, asked).get(attempt.player_key)
    return AttemptLine(attempt, found or record_of([], scored_count(asked)))


def percent(lang: str, share: float | None) -> str:
    """A share as the language writes a percentage ("67%"); a dash for none."""
    return "–" if share is None else number(lang, share, "#,##0%")


class AssignmentPages:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.source = pages.source

    def routes(self) -> list[web.RouteDef]:
        return [web.get(r"/c/{token}/assignments/{assignment_id:\d+}", self.assignment)]

    async def assignment(self, request: web.Request) -> web.Response:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.pages.view(link.chat_key)
        shown = await assignment_view(self.source, link.chat_key, id_in(request, "assignment_id"), view.lang)
        if shown is None:
            raise web.HTTPNotFound()
        values = {
            "A": texts.assignment(view.lang),
            "P": texts.report(view.lang),
            "Q": texts.questions(view.lang),
            "B": texts.board(view.lang),
            "flag": partial(texts.flag, view.lang, option=""),
            "shown": shown,
            "percent": lambda share: percent(view.lang, share),
            "status": texts.assignment_status(view.lang, shown.row.status),
        }
        return self.pages.render(request, "assignment.html", view, link, values)
