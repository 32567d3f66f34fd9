"""A chat's results, answer by answer: one run's (its report on the web page) or the chat's whole
history (the downloads, `quizhost results`).

Every line is one question asked of one player of a run: a stored answer, or "not answered" for
a question the run asked that the player did not answer (0 points) once they had joined it (with
the first question they answered: those before were not asked of them), or "skipped by the host"
for a question its host skipped (nobody's answer is kept; it counts in no accuracy). So the points of the lines
add up to the boards exactly: the boards are sums of the same answers (storage/shared/boards.py).
Letters are those the player saw: a run shuffles each question's options by its seed. Times are
in the chat's zone.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol
from zoneinfo import ZoneInfo

from bot.domain.fairplay import faster_than_reading, reading_allowed, reading_seconds, scoring_members
from bot.domain.model import LETTERS, Question, Quiz, Standing
from bot.domain.records import AnswerRow, PastRun
from bot.domain.session import option_order, question_limit
from bot.domain.teams import Played, TeamScores, team_scores
from bot.domain.worth import SKIPPED, Verdict, Worth
from bot.domain.zones import zone
from bot.kinds import kind_of, worth_of_answer
from bot.ports.store import Boards, ChatRecords, PlayerNames, RunRecords, TeamRecords, WebRecords

if TYPE_CHECKING:
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes

YIELD_EVERY = 2000  # answers made into lines between two turns of the event loop
PAGE_ANSWERS = 2000  # answers a download reads from the store at a time
_NO_TEAM: tuple[str, float | None] = ("", None)  # a run without teams, or a player in none


class ResultStore(WebRecords, RunRecords, Boards, PlayerNames, ChatRecords, TeamRecords, Protocol):
    """A chat's runs, their answers and standings, the players' names, the chat's zone, and the
    teams of runs that had them."""


@dataclass(frozen=True)
class ResultSource:
    """Where a chat's results are read: the store, and the quizzes their runs played."""

    store: ResultStore
    catalog: Catalog
    chat_quizzes: ChatQuizzes


@dataclass(frozen=True)
class Line:
    """One question asked of one player of a run (everyone who answered any of its questions),
    as a download's row and the run report's cell show it: their answer, or "not answered"."""

    run_id: int
    started: datetime  # the run's start, in the chat's zone
    quiz_id: str
    quiz_title: str
    number: int  # the question's place in its run, from 1
    question_id: str
    question: str
    player: str
    player_key: str
    picks: tuple[int, ...]  # authoring-order indices of the chosen options (none: typed, numeric, not answered)
    letter: str  # the chosen options' letters as the player saw them (shuffled per run), or what was typed
    chosen: str  # the chosen options' texts ('' when the quiz no longer has them), or what was typed
    worth: Worth
    scored: bool  # the question counts in accuracy (a poll's does not)
    seconds: float | None  # None: not answered
    points: int
    answered: datetime | None  # in the chat's zone; None: not answered
    team: str = ""  # the player's team in a run with teams (bot/engine/teams.py), else empty
    team_score: float | None = None  # that team's score at the run's end, as its podium gave it
    # right sooner than its prompt and options can be read (bot/domain/fairplay.py): flagged, still scored
    too_fast: bool = False

    @property
    def given(self) -> bool:
        """The player answered it (a vote included)."""
        return self.worth.verdict not in (Verdict.UNANSWERED, Verdict.SKIPPED)

    @property
    def skipped(self) -> bool:
        """Its host skipped the question: answered by nobody, scored for nobody."""
        return self.worth.verdict is Verdict.SKIPPED


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
    standings = tuple(await store.run_standings(run_id))
    maker = _LineMaker(source, chat_key, lang, await chat_zone(source, chat_key))
    await maker.known(run, standings)
    lines = await maker.of(await store.run_answers(run_id)) + maker.rest()
    quiz = maker.quizzes.get(run.quiz_id)
    names = await store.player_names({run.started_by, run.stopped_by} - {""})
    return RunResults(
        run,
        quiz.quiz if quiz else None,
        tuple((qid, quiz.questions.get(qid) if quiz else None) for qid in run.question_ids),
        tuple(lines),
        standings,
        names.get(run.started_by, run.started_by),
        names.get(run.stopped_by, run.stopped_by),
    )


async def chat_results(source: ResultSource, chat_key: str, lang: str, since: float | None = None) -> list[Line]:
    """Every question asked of the chat's players (from `since` on), by run and question."""
    return [line async for page in chat_result_pages(source, chat_key, lang, since) for line in page]


async def chat_result_pages(
    source: ResultSource, chat_key: str, lang: str, since: float | None = None, size: int | None = None
) -> AsyncGenerator[list[Line], None]:
    """`chat_results` a page of about `size` lines (default PAGE_ANSWERS answers, and the rows of
    the questions they leave behind unanswered) at a time, read from the store as they are asked
    for: a download of a long history holds one page and one run's players, never the whole."""
    store = source.store
    size = size or PAGE_ANSWERS
    lines = _LineMaker(source, chat_key, lang, await chat_zone(source, chat_key), since)
    answers = await store.chat_answers_after(chat_key, None, size, since)
    while answers:
        yield await lines.of(answers)
        answers = await store.chat_answers_after(chat_key, answers[-1], size, since)
    if rest := lines.rest():
        yield rest


@dataclass(frozen=True)
class _KeptQuiz:
    quiz: Quiz
    questions: dict[str, Question]  # by id


# what an answer says, whoever gave it: the question's prompt, the picks, their letters and
# texts, its worth, whether the question scores, and for a right answer the seconds its question
# takes to read (0: not right)
_Told = tuple[str, tuple[int, ...], str, str, Worth, bool, float]


class _Reading:
    """The run whose answers are being made into lines: its players (by key, their names), the
    question being read, who answered it, and the option orders its questions were shown in."""

    def __init__(
        self,
        run_id: int | None,
        run: PastRun | None,
        players: dict[str, str],
        whole: bool = True,
        teams: TeamScores | None = None,
    ) -> None:
        self.run_id, self.run, self.players = run_id, run, players
        self.teams = teams or {}  # a run with teams: each member's team and its score
        # False: the run's earlier answers are left out (a download from a day the run began
        # before), so no question of it is said to be unanswered
        self.whole = whole and run is not None
        self.index = -1  # the question being read, 0-based
        self.seen: set[str] = set()  # the players who answered it
        # the players who answered it or an earlier one: a player joins a run at the first question
        # they answer, and the questions before it were not asked of them (bot/domain/ranking.py)
        self.joined: set[str] = set()
        self.orders: dict[str, tuple[int, ...]] = {}  # question id -> displayed position -> authoring index
        self.told: dict[tuple[str, int, str, bool, bool, bool], _Told] = {}  # by what an answer holds


class _LineMaker:
    """Answers into lines, a run at a time (the store gives them by run), with a "not answered"
    line for every question the run asked one of its players, since they joined, that they did
    not answer; the quizzes
    the runs played kept from page to page (a few per chat)."""

    def __init__(
        self, source: ResultSource, chat_key: str, lang: str, where: ZoneInfo, since: float | None = None
    ) -> None:
        self.source, self.chat_key, self.lang, self.where, self.since = source, chat_key, lang, where, since
        self.quizzes: dict[str, _KeptQuiz | None] = {}
        self.reading = _Reading(None, None, {})
        self.made = 0

    async def known(self, run: PastRun, standings: tuple[Standing, ...]) -> None:
        """Read that run's answers next: its players are those standings'."""
        await self._keep_quiz(run)
        teams = await self._teams(run.run_id, run, standings)
        self.reading = _Reading(run.run_id, run, {s.player_key: s.name for s in standings}, teams=teams)

    async def of(self, answers: list[AnswerRow]) -> list[Line]:
        lines: list[Line] = []
        for a in answers:
            if a.run_id != self.reading.run_id:
                lines += self.rest()
                await self._read(a.run_id)
            lines += self._passed(a.index)
            self.reading.seen.add(a.player_key)
            lines.append(self.line(a))
            self.made += 1
            if self.made % YIELD_EVERY == 0:  # a run's or a page's answers are many: other pages and presses go on
                await asyncio.sleep(0)
        return lines

    def rest(self) -> list[Line]:
        """The lines of the run being read that its answers left: the questions it asked after
        the last one answered."""
        run = self.reading.run
        return self._passed(run.asked) if run else []

    async def _read(self, run_id: int) -> None:
        store = self.source.store
        run = await store.past_run(self.chat_key, run_id)
        if run is not None:
            await self._keep_quiz(run)
        standings = await store.run_standings(run_id)
        players = {s.player_key: s.name for s in standings}
        whole = run is not None and (self.since is None or run.started_at >= self.since)
        self.reading = _Reading(run_id, run, players, whole, await self._teams(run_id, run, standings))

    async def _teams(
        self, run_id: int, run: PastRun | None, standings: list[Standing] | tuple[Standing, ...]
    ) -> TeamScores:
        lineup = await self.source.store.run_lineup(run_id)
        if lineup is None:
            return {}
        if run is not None:  # as the run counted them
            lineup = scoring_members(lineup, run.min_age, run.started_at)
        return team_scores(lineup, {s.player_key: Played(s.points, s.correct, s.answered) for s in standings})

    async def _keep_quiz(self, run: PastRun) -> None:
        if run.quiz_id not in self.quizzes:
            quiz = await quiz_of(self.source, self.chat_key, run.quiz_id)
            self.quizzes[run.quiz_id] = _KeptQuiz(quiz, {q.id: q for q in quiz.questions}) if quiz else None

    def _passed(self, index: int) -> list[Line]:
        """Moving on to question `index`: a line for each player of the run who did not answer
        each question left behind."""
        reading, lines = self.reading, []
        while reading.index < index:
            reading.joined |= reading.seen
            if reading.index >= 0 and reading.whole and reading.run is not None:
                run, left = reading.run, reading.index
                missed = (p for p in reading.players if p in reading.joined and p not in reading.seen)
                lines += [self.unanswered(run, left, p) for p in missed]
            reading.index += 1
            reading.seen = set()
        return lines

    def line(self, a: AnswerRow) -> Line:
        reading = self.reading
        # most answers of a run say the same few things: each is worked out once per run
        key = (a.question_id, a.option, a.response, a.correct, a.scored, a.points > 0)
        if (told := reading.told.get(key)) is None:
            told = reading.told[key] = self._told(a)
        question, picks, letter, chosen, worth, scored, read_in = told
        team, team_score = reading.teams.get(a.player_key, _NO_TEAM)
        return Line(
            run_id=a.run_id,
            started=datetime.fromtimestamp(reading.run.started_at if reading.run else a.answered_at, self.where),
            quiz_id=a.quiz_id,
            quiz_title=self._title(a.quiz_id),
            number=a.index + 1,
            question_id=a.question_id,
            question=question,
            player=reading.players.get(a.player_key, a.player_key),
            player_key=a.player_key,
            picks=picks,
            letter=letter,
            chosen=chosen,
            worth=worth,
            scored=scored,
            seconds=round(a.elapsed, 2),
            points=a.points,
            answered=datetime.fromtimestamp(a.answered_at, self.where),
            team=team,
            team_score=team_score,
            too_fast=faster_than_reading(a.elapsed, read_in),
        )

    def _told(self, a: AnswerRow) -> _Told:
        """What the answer says, whoever gave it: the prompt, the picks, letters and texts, its worth."""
        question = self._question(a.question_id)
        picks, letter, chosen = said(question, a, self.lang, self._order(question))
        prompt = question.prompt.get(self.lang) if question else a.question_id
        # as the run stored it, as the boards count it and the verdict says (a vote or not), even
        # when the question has become another kind since
        worth = worth_of_answer(question, a)
        read_in = 0.0  # seconds to read the question (in the language the run asked it in), if right
        if question is not None and worth.verdict is Verdict.RIGHT:
            read_in = reading_allowed(reading_seconds(question, self._shown_in()), self._limit(question))
        return prompt, picks, letter, chosen, worth, a.scored, read_in

    def _shown_in(self) -> str:
        run = self.reading.run
        return run.language if run is not None else self.lang

    def _limit(self, question: Question) -> int:
        """The seconds the run gave `question`; 0 when its host paced it, or the run is gone."""
        run = self.reading.run
        return question_limit(question, run.seconds, run.time_factor) if run is not None else 0

    def unanswered(self, run: PastRun, index: int, player_key: str) -> Line:
        question_id = run.question_ids[index] if index < len(run.question_ids) else ""
        question = self._question(question_id)
        team, team_score = self.reading.teams.get(player_key, _NO_TEAM)
        skipped = index in run.skipped
        return Line(
            run_id=run.run_id,
            started=datetime.fromtimestamp(run.started_at, self.where),
            quiz_id=run.quiz_id,
            quiz_title=self._title(run.quiz_id),
            number=index + 1,
            question_id=question_id,
            question=question.prompt.get(self.lang) if question else question_id,
            player=self.reading.players.get(player_key, player_key),
            player_key=player_key,
            picks=(),
            letter="",
            chosen="",
            worth=SKIPPED if skipped else worth_of_answer(question, None),
            scored=not skipped and (kind_of(question).is_scored if question else True),
            seconds=None,
            points=0,
            answered=None,
            team=team,
            team_score=team_score,
        )

    def _title(self, quiz_id: str) -> str:
        kept = self._kept()
        return kept.quiz.title.get(self.lang) if kept else quiz_id

    def _kept(self) -> _KeptQuiz | None:
        run = self.reading.run
        return self.quizzes.get(run.quiz_id) if run else None

    def _question(self, question_id: str) -> Question | None:
        kept = self._kept()
        return kept.questions.get(question_id) if kept else None

    def _order(self, question: Question | None) -> tuple[int, ...]:
        """The question's options as this run showed them: displayed position -> authoring index."""
        if question is None or self.reading.run is None:
            return ()
        orders = self.reading.orders
        if question.id not in orders:
            shuffled = option_order(self.reading.run.seed, question)
            orders[question.id] = tuple(kind_of(question).arranged(shuffled))
        return orders[question.id]


def said(
    question: Question | None, answer: AnswerRow, lang: str, order: tuple[int, ...] = ()
) -> tuple[tuple[int, ...], str, str]:
    """What a player answered: the options picked (authoring order), their letters as the player
    saw them (`order`: displayed position -> authoring index; authoring letters without one), their
    texts in the same order; a typed or numeric answer as typed."""
    kind = kind_of(question) if question is not None else None
    if kind is not None:
        picks = kind.said_options(answer.option, answer.response)
    else:
        picks = (answer.option,) if answer.option >= 0 else ()
    if not picks:
        return (), answer.response, answer.response
    # without an order, the authoring order's letters; with one, an option it lacks (the quiz
    # has fewer since the run) was shown under a letter no one can tell, so it is given none
    position = {src: pos for pos, src in enumerate(order)} if order else {i: i for i in picks}
    between = kind.said_between if kind is not None else ", "  # an ordering's: " → "
    # picks that make a set are listed as the options were shown; an ordering's, as placed
    shown = sorted(picks, key=lambda i: position.get(i, i)) if between == ", " else list(picks)
    letters = between.join(_letter(position[i]) for i in shown if i in position)
    options = question.options if question else ()
    join = kind.said_texts if kind is not None else "; ".join
    texts = join(options[i].get(lang) for i in shown if i < len(options))
    return picks, letters, texts


def _letter(position: int) -> str:
    return LETTERS[position] if position < len(LETTERS) else str(position + 1)
