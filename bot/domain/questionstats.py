"""Question statistics for authors: how a question was answered and whether it needs fixing.

Pure rules over a tally. A tally is what a store can sum up per question without keeping
every answer at hand: per player, how often they chose each option, and how often they gave
each answer that is no one option (a select-all-that-apply question's picks, a typed text, a
number, an order); per answer time (in tenths of a second), how many answers took it; per
player, the total score in the quiz. `tally` builds one from plain answer facts (the tests and
any small source use it); the stores read the same shape from their summaries
(storage/shared/statistics.py).

Every scored kind gets a share right and a discrimination index from what its answers were
worth (a right answer counts 1, a partly right one its share, as the kind credits it: a
`Marking` carries that rule, so the domain knows no kind); a poll gets neither, nor flags.

What reading a tally costs: the split, the share right and the median come from sums per
question (bounded by options, answer times and each player's distinct answers, whatever the
number of answers); the discrimination index ranks the players who answered each question by
their total, so it grows with the players of that quiz, never with how often they played it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property

from bot.domain.model import LETTERS, NO_ANSWER

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
    option: int  # authoring-order index, NO_ANSWER for an answer that is no one option
    correct: bool
    elapsed: float  # seconds
    points: int
    response: str = ""  # what an answer that is no one option said (AnswerRow.response)


@dataclass(frozen=True)
class QuestionTally:
    choices: Mapping[str, tuple[int, ...]]  # player -> answers per option (authoring order), OPTION_SLOTS long
    tenths: Mapping[int, int]  # answer time in tenths of a second -> answers
    # player -> each answer that is no one option (picks "0,2", a text, a number, an order) -> how often
    responses: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


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


_NO_CHOICES = (0,) * OPTION_SLOTS  # the choices of a player who chose no option


def _no_credit(option: int, response: str) -> float:
    return 0.0


def _no_picks(response: str) -> Collection[int]:
    return ()


@dataclass(frozen=True)
class Marking:
    """What the statistics need of a question's kind (bot/commands/learning.py asks the kinds)."""

    options: int  # the options its split counts, authoring order (0: no split)
    answer: int = NO_ANSWER  # the one right option, or NO_ANSWER: then no "check the key"
    rights: frozenset[int] = frozenset()  # the options the split marks right
    scored: bool = True  # a poll is not: no share right, no discrimination, no flags
    credit: Callable[[int, str], float] = _no_credit  # an answer's worth (option, response), 0 to 1
    picks: Callable[[str], Collection[int]] = _no_picks  # the options a response chose, for the split

    @classmethod
    def one_right(cls, answer: int, options: int) -> Marking:
        """A question answered with one option, `answer` the right one."""
        return cls(options, answer, frozenset({answer}), credit=lambda option, _: float(option == answer))


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
    answer: int  # the one right option, authoring order (NO_ANSWER: none, or several)
    attempts: int
    right: int  # answers fully right
    median_seconds: float | None
    split: tuple[int, ...]  # answers per option, authoring order (a multi question: answers that picked it)
    discrimination: float | None  # share right, top group minus bottom group
    flags: tuple[FlagNote, ...]
    players: int = 0  # how many players answered it (each counted once, however often they played)
    worth: float = 0.0  # the answers' credit summed: right ones 1 each, partly right ones their share
    scored: bool = True  # False for a poll
    rights: frozenset[int] = frozenset()  # the options the split marks right

    @property
    def too_few_to_flag(self) -> bool:
        """Answered, by fewer players than a flag needs (a poll is never flagged: it is never too few)."""
        return self.scored and 0 < self.players < FLAG_PLAYERS

    @property
    def share_right(self) -> float | None:
        """The answers' average worth; None without attempts, or for a poll."""
        return self.worth / self.attempts if self.attempts and self.scored else None


def tally(facts: Iterable[AnswerFact]) -> QuizTally:
    """Sum the answer facts of one quiz."""
    totals: dict[str, int] = {}
    choices: dict[str, dict[str, list[int]]] = {}
    responses: dict[str, dict[str, dict[str, int]]] = {}
    tenths: dict[str, dict[int, int]] = {}
    for f in facts:
        totals[f.player_key] = totals.get(f.player_key, 0) + f.points
        row = choices.setdefault(f.question_id, {}).setdefault(f.player_key, [0] * OPTION_SLOTS)
        if f.option >= 0:
            row[f.option] += 1
        else:
            given = responses.setdefault(f.question_id, {}).setdefault(f.player_key, {})
            given[f.response] = given.get(f.response, 0) + 1
        bucket = tenths.setdefault(f.question_id, {})
        bucket[to_tenths(f.elapsed)] = bucket.get(to_tenths(f.elapsed), 0) + 1
    questions = {
        qid: QuestionTally(
            {player: tuple(row) for player, row in by_player.items()}, tenths[qid], responses.get(qid, {})
        )
        for qid, by_player in choices.items()
    }
    return QuizTally(totals, questions)


def to_tenths(seconds: float) -> int:
    """Half a tenth rounds up, as the stores' SQL rounds it (not to even, as round() does)."""
    return int(max(seconds, 0.0) * TENTHS + 0.5)


class _Credits:
    """What a question's answers were worth, as its marking credits them: each option's worth
    once, each distinct response's once, however many players chose or gave it."""

    def __init__(self, marking: Marking) -> None:
        self.marking = marking
        self.options = [marking.credit(i, "") for i in range(marking.options)] if marking.scored else []
        self._responses: dict[str, float] = {}

    def of(self, response: str) -> float:
        if response not in self._responses:
            self._responses[response] = self.marking.credit(NO_ANSWER, response) if self.marking.scored else 0.0
        return self._responses[response]

    def worth(self, chosen: Sequence[int], given: Mapping[str, int]) -> float:
        """Answers per option and per response, worth together."""
        return sum(n * w for n, w in zip(chosen, self.options)) + sum(n * self.of(r) for r, n in given.items())

    def right(self, chosen: Sequence[int], given: Mapping[str, int]) -> int:
        """How many of them were worth full credit."""
        options = sum(n for n, w in zip(chosen, self.options) if w >= 1)
        return options + sum(n for r, n in given.items() if self.of(r) >= 1)

    def share(self, t: QuestionTally, players: list[str]) -> float:
        """The share right of these players' answers together, from their sums."""
        chosen = _sum_rows((t.choices.get(p, _NO_CHOICES) for p in players), self.marking.options)
        given = _summed(t.responses[p] for p in players if p in t.responses)
        answers = sum(chosen) + sum(given.values())  # none: they chose only options the quiz no longer has
        return self.worth(chosen, given) / answers if answers else 0.0


def question_stats(question_id: str, marking: Marking, quiz: QuizTally) -> QuestionStats:
    """The figures and flags of one question, its answers counted and credited as `marking`
    says; none of a poll's flags, share right or discrimination. No flags either before
    FLAG_PLAYERS players answered it."""
    t = quiz.questions.get(question_id, QuestionTally({}, {}))
    size, credits = marking.options, _Credits(marking)
    chosen = _sum_rows(t.choices.values(), size)
    given = _summed(t.responses.values())
    answered = t.choices.keys() | t.responses.keys()
    stats = QuestionStats(
        question_id=question_id,
        answer=marking.answer,
        attempts=sum(chosen) + sum(given.values()),
        right=credits.right(chosen, given) if marking.scored else 0,
        median_seconds=median_seconds(t.tenths),
        split=_split(chosen, given, marking),
        discrimination=None,
        flags=(),
        players=len(answered),
        worth=credits.worth(chosen, given),
        scored=marking.scored,
        rights=marking.rights,
    )
    if not marking.scored:
        return stats
    top, bottom = _ends(sorted(answered, key=quiz.places.__getitem__))
    stats = replace(stats, discrimination=credits.share(t, top) - credits.share(t, bottom) if top else None)
    if stats.players < FLAG_PLAYERS:
        return stats
    top_split = _sum_rows((t.choices.get(p, _NO_CHOICES) for p in top), size)
    return replace(stats, flags=flags(stats, top_split))


def _summed(by_player: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each response's answers over the players."""
    total: dict[str, int] = {}
    for given in by_player:
        for response, n in given.items():
            total[response] = total.get(response, 0) + n
    return total


def _split(chosen: tuple[int, ...], given: Mapping[str, int], marking: Marking) -> tuple[int, ...]:
    """Answers per option: the options chosen, and the options each response picked (a multi
    question's: each answer counts once for every option it picked)."""
    split = list(chosen)
    for response, n in given.items():
        for option in set(marking.picks(response)) & set(range(len(split))):
            split[option] += n
    return tuple(split)


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


def flags(stats: QuestionStats, top_split: tuple[int, ...]) -> tuple[FlagNote, ...]:
    """Too easy or too hard by the share right; for a question of one right option, a wrong one
    the top group chose more often ("check the key"); options nobody chose in many answers."""
    share = stats.share_right
    if share is None:
        return ()
    notes: list[FlagNote] = []
    if share >= TOO_EASY:
        notes.append(FlagNote(Flag.TOO_EASY))
    if share <= TOO_HARD:
        notes.append(FlagNote(Flag.TOO_HARD))
    if stats.answer >= 0:
        rival = max((i for i in range(len(top_split)) if i != stats.answer), key=top_split.__getitem__, default=None)
        if rival is not None and top_split[rival] > top_split[stats.answer]:
            notes.append(FlagNote(Flag.CHECK_KEY, rival))
    if stats.attempts >= DEAD_OPTION_ATTEMPTS:
        notes += [FlagNote(Flag.DEAD_OPTION, i) for i, count in enumerate(stats.split) if count == 0]
    return tuple(notes)
