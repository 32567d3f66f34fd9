"""Question statistics for authors: how a question was answered and whether it needs fixing.

Pure rules over a tally. A tally is what a store can sum up per question without keeping
every answer at hand: per player, how often they chose each option; per answer time (in
tenths of a second), how many answers took it; per player, the total score in the quiz.
`tally` builds one from plain answer facts (the tests and any small source use it); the
stores read the same shape from their summaries (storage/shared/learning.py).

What reading a tally costs: the split, the share right and the median come from sums per
question (bounded by options and answer times, whatever the number of answers); the
discrimination index ranks the players who answered each question by their total, so it
grows with the players of that quiz, never with how often they played it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property

from bot.domain.model import LETTERS

GROUP_PERCENT = 27  # top and bottom groups of the discrimination index, rounded half up
TOO_EASY = 0.90
TOO_HARD = 0.20
DEAD_OPTION_ATTEMPTS = 30
FLAG_PLAYERS = 10  # a question is flagged once this many players answered it: fewer prove nothing
TENTHS = 10  # answer times are counted in tenths of a second
OPTION_SLOTS = len(LETTERS)  # a player's choices are counted per option, one slot for each possible option


@dataclass(frozen=True)
class AnswerFact:
    question_id: str
    player_key: str
    option: int  # authoring-order index
    correct: bool
    elapsed: float  # seconds
    points: int


@dataclass(frozen=True)
class QuestionTally:
    choices: Mapping[str, tuple[int, ...]]  # player -> answers per option (authoring order), OPTION_SLOTS long
    tenths: Mapping[int, int]  # answer time in tenths of a second -> answers


@dataclass(frozen=True)
class QuizTally:
    totals: Mapping[str, int]  # player -> total points in the quiz
    questions: Mapping[str, QuestionTally] = field(default_factory=dict)

    @cached_property
    def places(self) -> dict[str, int]:
        """Every player's place by total score (ties by key), ranked once for all questions."""
        everyone = set(self.totals).union(*(q.choices for q in self.questions.values()))
        ranked = sorted(everyone, key=lambda p: (-self.totals.get(p, 0), p))
        return {player: place for place, player in enumerate(ranked)}


class Flag(str, Enum):
    TOO_EASY = "too_easy"
    TOO_HARD = "too_hard"
    CHECK_KEY = "check_key"
    DEAD_OPTION = "dead_option"


@dataclass(frozen=True)
class FlagNote:
    flag: Flag
    option: int | None = None  # the option it is about (authoring order), if any


@dataclass(frozen=True)
class QuestionStats:
    question_id: str
    answer: int  # the right option, authoring order
    attempts: int
    right: int
    median_seconds: float | None
    split: tuple[int, ...]  # answers per option, authoring order
    discrimination: float | None  # share right, top group minus bottom group
    flags: tuple[FlagNote, ...]
    players: int = 0  # how many players answered it (each counted once, however often they played)

    @property
    def too_few_to_flag(self) -> bool:
        """Answered, by fewer players than a flag needs (a question with no one right option is
        never flagged: it is never too few)."""
        return self.answer >= 0 and 0 < self.players < FLAG_PLAYERS

    @property
    def share_right(self) -> float | None:
        """None without attempts, or for a question with no one right option (the sums count
        options chosen, not credit: several right, typed, numeric, a poll)."""
        return self.right / self.attempts if self.attempts and self.answer >= 0 else None


def tally(facts: Iterable[AnswerFact]) -> QuizTally:
    """Sum the answer facts of one quiz."""
    totals: dict[str, int] = {}
    choices: dict[str, dict[str, list[int]]] = {}
    tenths: dict[str, dict[int, int]] = {}
    for f in facts:
        totals[f.player_key] = totals.get(f.player_key, 0) + f.points
        choices.setdefault(f.question_id, {}).setdefault(f.player_key, [0] * OPTION_SLOTS)[f.option] += 1
        bucket = tenths.setdefault(f.question_id, {})
        bucket[to_tenths(f.elapsed)] = bucket.get(to_tenths(f.elapsed), 0) + 1
    questions = {
        qid: QuestionTally({player: tuple(row) for player, row in by_player.items()}, tenths[qid])
        for qid, by_player in choices.items()
    }
    return QuizTally(totals, questions)


def to_tenths(seconds: float) -> int:
    """Half a tenth rounds up, as the stores' SQL rounds it (not to even, as round() does)."""
    return int(max(seconds, 0.0) * TENTHS + 0.5)


def question_stats(question_id: str, answer: int, options: int, quiz: QuizTally) -> QuestionStats:
    """The figures and flags of one question (`options` of them, `answer` the right one; below 0
    for a question with none: its answers counted by their times, its split as chosen, no flags).
    No flags either before FLAG_PLAYERS players answered it."""
    t = quiz.questions.get(question_id, QuestionTally({}, {}))
    split = _sum_rows(t.choices.values(), options)
    if answer < 0:
        attempts = sum(t.tenths.values())
        return QuestionStats(question_id, answer, attempts, 0, median_seconds(t.tenths), split, None, ())
    attempts = sum(split)
    top, bottom = _ends(sorted(t.choices, key=quiz.places.__getitem__))
    top_split = _sum_rows((t.choices[p] for p in top), options)
    stats = QuestionStats(
        question_id=question_id,
        answer=answer,
        attempts=attempts,
        right=split[answer],
        median_seconds=median_seconds(t.tenths),
        split=split,
        discrimination=_discrimination(t, top, bottom, answer),
        flags=(),
        players=len(t.choices),
    )
    if stats.players < FLAG_PLAYERS:
        return stats
    return replace(stats, flags=flags(stats, top_split))


def groups(players: list[str], totals: Mapping[str, int]) -> tuple[list[str], list[str]]:
    """The top and bottom 27% (at least one each) of the players who answered the question,
    ranked by their total score in the quiz; none when fewer than two players answered."""
    return _ends(sorted(players, key=lambda p: (-totals.get(p, 0), p)))


def _ends(ranked: list[str]) -> tuple[list[str], list[str]]:
    if len(ranked) < 2:
        return [], []
    size = max(1, (GROUP_PERCENT * len(ranked) + 50) // 100)  # in integers: exact at every half
    return ranked[:size], ranked[-size:]


def median_seconds(tenths: Mapping[int, int]) -> float | None:
    n = sum(tenths.values())
    if n == 0:
        return None
    middle = (_nth(tenths, (n - 1) // 2) + _nth(tenths, n // 2)) / 2
    return middle / TENTHS


def _nth(tenths: Mapping[int, int], index: int) -> int:
    """The `index`-th smallest time (0-based) in a histogram."""
    seen = 0
    for value in sorted(tenths):
        seen += tenths[value]
        if index < seen:
            return value
    raise IndexError(index)


def _sum_rows(rows: Iterable[Sequence[int]], size: int) -> tuple[int, ...]:
    """Answers per option over the rows; options the quiz no longer has (`size` and up) left out."""
    sums = [sum(column) for column in zip(*rows)] or [0] * OPTION_SLOTS
    return tuple(sums[:size])


def _share_right(t: QuestionTally, players: list[str], answer: int) -> float:
    rows = [t.choices[p] for p in players]
    return sum(r[answer] for r in rows) / sum(sum(r) for r in rows)


def _discrimination(t: QuestionTally, top: list[str], bottom: list[str], answer: int) -> float | None:
    if not top:
        return None
    return _share_right(t, top, answer) - _share_right(t, bottom, answer)


def flags(stats: QuestionStats, top_split: tuple[int, ...]) -> tuple[FlagNote, ...]:
    share = stats.share_right
    if share is None:
        return ()
    notes: list[FlagNote] = []
    if share >= TOO_EASY:
        notes.append(FlagNote(Flag.TOO_EASY))
    if share <= TOO_HARD:
        notes.append(FlagNote(Flag.TOO_HARD))
    rival = max((i for i in range(len(top_split)) if i != stats.answer), key=lambda i: top_split[i], default=None)
    if rival is not None and top_split[rival] > top_split[stats.answer]:
        notes.append(FlagNote(Flag.CHECK_KEY, rival))
    if stats.attempts >= DEAD_OPTION_ATTEMPTS:
        notes += [FlagNote(Flag.DEAD_OPTION, i) for i, count in enumerate(stats.split) if count == 0]
    return tuple(notes)
