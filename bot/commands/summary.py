"""The teacher's summary of a run, as Kahoot's report opens: how hard each question was, how
each player did, who needs help and who did not finish. Pure data from the run's lines
(bot/commands/results.py); the run report page and the .xlsx word and lay it out.

Each line is one question asked of one player of the run, answered or not, so every number is
of the questions asked, never only of those answered. A poll's question is no one's accuracy
and has no share right. A partly right answer counts its share.

`RunTally` takes a run's lines one at a time and keeps only sums per question and per player,
so a download sums each run as it streams past (bot/commands/sheets.py) without holding it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.commands.results import Line, RunResults
from bot.domain.fairplay import SEVERAL_TOO_FAST
from bot.domain.questionstats import FLAG_PLAYERS, TOO_EASY, TOO_HARD, Flag

NEEDS_HELP = 0.5  # a player's accuracy under this: the teacher should look at their answers


@dataclass(frozen=True)
class QuestionSummary:
    number: int  # its place in the run, from 1
    question_id: str
    prompt: str
    players: int  # the players of the run it was asked of
    answered: int  # of them, those who answered it
    share_right: float | None  # mean credit over `players`; None for a poll or a skipped question
    flags: tuple[Flag, ...]  # too easy or too hard, only from FLAG_PLAYERS players on
    skipped: bool = False  # its host skipped it: scored for nobody


@dataclass(frozen=True)
class PlayerSummary:
    player_key: str
    name: str
    accuracy: float | None  # credit over the scored questions asked; None when none was
    points: int
    not_answered: int  # questions asked they did not answer (polls included)
    last_answered: int  # the number of the last question they answered, 0 for none
    too_fast: int = 0  # right answers sooner than their question can be read (bot/domain/fairplay.py)

    @property
    def needs_help(self) -> bool:
        return self.accuracy is not None and self.accuracy < NEEDS_HELP


@dataclass(frozen=True)
class TeamSummary:
    """A team of a run with teams: its members who played, its score as the podium gave it, and
    its accuracy (credit over the scored questions asked of its members)."""

    team: str
    members: tuple[str, ...]
    score: float
    accuracy: float | None


@dataclass(frozen=True)
class Summary:
    run_id: int  # 0: several runs' (an assignment's attempts)
    quiz_title: str
    started: datetime  # in the chat's zone
    asked: int  # questions asked
    questions: tuple[QuestionSummary, ...]  # hardest first; polls last, in their order
    players: tuple[PlayerSummary, ...]  # most points first
    # the last question asked that a finisher answers: a poll after the last scored one is not
    # required (a vote is no one's accuracy), so skipping it is not leaving before the end
    finish_line: int = 0
    teams: tuple[TeamSummary, ...] = ()  # a run with teams: the best score first

    @property
    def needs_help(self) -> tuple[PlayerSummary, ...]:
        """Accuracy under NEEDS_HELP, lowest first."""
        return tuple(sorted((p for p in self.players if p.needs_help), key=lambda p: (p.accuracy or 0.0, p.name)))

    @property
    def did_not_finish(self) -> tuple[PlayerSummary, ...]:
        """Left before the end: the last question asked (and maybe more before it) unanswered."""
        return tuple(p for p in self.players if p.last_answered < (self.finish_line or self.asked))

    @property
    def too_fast(self) -> tuple[PlayerSummary, ...]:
        """Several right answers sooner than their questions can be read, the most first: flagged
        for the teacher to look at, never unscored."""
        several = (p for p in self.players if p.too_fast >= SEVERAL_TOO_FAST)
        return tuple(sorted(several, key=lambda p: -p.too_fast))


@dataclass
class _QuestionSums:
    number: int
    question_id: str
    prompt: str
    scored: bool = True
    players: int = 0
    answered: int = 0
    credit: float = 0.0
    skipped: bool = False


@dataclass
class _PlayerSums:
    name: str
    scored: int = 0
    credit: float = 0.0
    points: int = 0
    not_answered: int = 0
    last_answered: int = 0
    too_fast: int = 0


@dataclass
class _TeamSums:
    score: float
    members: dict[str, str] = field(default_factory=dict)  # key -> name, in the order first seen
    scored: int = 0
    credit: float = 0.0


@dataclass
class RunTally:
    """A run's lines summed up as they come, in any order (or several runs' of one quiz: an
    assignment's attempts, its questions told apart by id)."""

    run_id: int  # 0: several runs'
    quiz_title: str
    started: datetime
    questions: dict[str, _QuestionSums] = field(default_factory=dict)  # by id
    players: dict[str, _PlayerSums] = field(default_factory=dict)  # by key, in the order first seen
    teams: dict[str, _TeamSums] = field(default_factory=dict)  # by name, a run with teams

    def add(self, line: Line) -> None:
        if line.team and line.team_score is not None:
            self._add_team(line, line.team_score)
        q = self.questions.get(line.question_id)
        if q is None:
            q = self.questions[line.question_id] = _QuestionSums(line.number, line.question_id, line.question)
        p = self.players.setdefault(line.player_key, _PlayerSums(line.player))
        q.scored = q.scored and line.scored
        q.players += 1
        if line.skipped:  # nobody's answer, no accuracy, not "not answered" either
            q.skipped = True
            return
        p.points += line.points
        p.too_fast += line.too_fast
        if line.given:
            q.answered += 1
            p.last_answered = max(p.last_answered, line.number)
        else:
            p.not_answered += 1
        if line.scored:
            q.credit += line.worth.credit
            p.scored += 1
            p.credit += line.worth.credit

    def _add_team(self, line: Line, score: float) -> None:
        team = self.teams.setdefault(line.team, _TeamSums(score))
        team.members.setdefault(line.player_key, line.player)
        if line.scored:
            team.scored += 1
            team.credit += line.worth.credit

    def summary(self, asked: int | None = None) -> Summary:
        """`asked`: the questions the run asked, when known (else the last one with a line)."""
        asked = max((q.number for q in self.questions.values()), default=0) if asked is None else asked
        questions = [_question(q) for q in self.questions.values()]
        # hardest first, ties in the run's order; polls (no share) after, in the run's order
        questions.sort(key=lambda q: (q.share_right is None, q.share_right or 0.0, q.number))
        players = [
            PlayerSummary(
                key,
                p.name,
                p.credit / p.scored if p.scored else None,
                p.points,
                p.not_answered,
                p.last_answered,
                p.too_fast,
            )
            for key, p in self.players.items()
        ]
        players.sort(key=lambda p: -p.points)  # stable: ties keep the order the lines came in (the standings')
        scored = [q.number for q in questions if q.share_right is not None and q.number <= asked]
        finish_line = max(scored, default=asked)
        teams = sorted(
            (
                TeamSummary(name, tuple(t.members.values()), t.score, t.credit / t.scored if t.scored else None)
                for name, t in self.teams.items()
            ),
            key=lambda t: -t.score,
        )
        return Summary(
            self.run_id,
            self.quiz_title,
            self.started,
            asked,
            tuple(questions),
            tuple(players),
            finish_line=finish_line,
            teams=tuple(teams),
        )


def _question(q: _QuestionSums) -> QuestionSummary:
    share = q.credit / q.players if q.scored and q.players else None
    return QuestionSummary(
        q.number, q.question_id, q.prompt, q.players, q.answered, share, _flags(share, q.players), q.skipped
    )


def _flags(share: float | None, players: int) -> tuple[Flag, ...]:
    """As bot/domain/questionstats.py flags a question, from as many players on."""
    if share is None or players < FLAG_PLAYERS:
        return ()
    return (Flag.TOO_EASY,) * (share >= TOO_EASY) + (Flag.TOO_HARD,) * (share <= TOO_HARD)


def run_summary(results: RunResults) -> Summary:
    """The summary of one run's report; its players in the standings' order, the points tied."""
    tally = _tally(results.run.run_id, results)
    ranked = {s.player_key: s.rank for s in results.standings}
    for line in sorted(results.lines, key=lambda line: ranked.get(line.player_key, len(ranked))):
        tally.add(line)
    return tally.summary(results.run.asked)


def attempts_summary(attempts: Sequence[RunResults]) -> Summary | None:
    """The summary of an assignment's attempts (each a run of its quiz, by one member) as one
    class: each question over everyone it was asked of, each member over their attempts, and
    "did not finish" whoever left theirs before the quiz's last question. None for no attempt."""
    if not attempts:
        return None
    in_order = sorted(attempts, key=lambda r: r.run.started_at)
    tally = _tally(0, in_order[0])
    for results in in_order:
        for line in results.lines:
            tally.add(line)
    return tally.summary(max(len(r.run.question_ids) for r in attempts))


def _tally(run_id: int, results: RunResults) -> RunTally:
    """A tally headed with the run's quiz and start (in its lines' zone; UTC without a line)."""
    run, first = results.run, results.lines[0] if results.lines else None
    title = first.quiz_title if first else results.quiz.title.get(run.language) if results.quiz else run.quiz_id
    zone = first.started.tzinfo if first else UTC
    return RunTally(run_id, title, datetime.fromtimestamp(run.started_at, zone))
