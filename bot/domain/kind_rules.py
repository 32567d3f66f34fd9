"""What a run needs of a kind of question, without naming one: each kind (bot/kinds/) provides
these rules, and the engine hands a run the lookup (`Run.kind_of`), so that the session judges,
counts and reveals any kind the same way."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import NamedTuple, Protocol

from bot.domain.model import Question, QuestionCard, QuestionKind


class Judged(NamedTuple):  # made on every press: a tuple is made in half a frozen dataclass's time
    """An answer's score: `correct` is full credit; `streak` counts it when right (a poll keeps
    the player's streak as it was)."""

    correct: bool
    points: int
    streak: int


class KindRules(Protocol):
    """How questions of one kind are answered, judged and revealed."""

    @property
    def has_options(self) -> bool:
        """Answered by pressing its options; else by a typed text."""

    @property
    def is_scored(self) -> bool:
        """Its answers score and move streaks; else the split is the point."""

    @property
    def collects_picks(self) -> bool:
        """A press toggles an option in the player's picks, final at "Done" (private chats) or
        at the deadline; else the first press is the answer."""

    def toggled(self, response: str, option: int) -> str:
        """A press on `option` (authoring index) of a kind that collects picks: the picks so far
        (an answer's stored response) with it changed."""

    def complete(self, question: Question, response: str) -> bool:
        """Picks a group's player cannot change any more (a group has no "Done"): an order with
        every option placed; never a multi question's, whose picking ends at the deadline."""

    def arranged(self, shuffled: list[int]) -> list[int]:
        """The options' display order made from a shuffle (an ordering's is never the right order)."""

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        """Score one answer, given the player's right answers in a row before it."""

    def credit(self, question: Question, option: int, response: str) -> float:
        """The share of full credit an answer earns, 0 to 1 (partly right: between)."""

    def accepts_text(self, response: str) -> bool:
        """Whether a typed answer can be judged (a number, where one is asked); else the player
        may try again."""

    def chosen_options(self, option: int, response: str) -> Collection[int]:
        """The options (authoring indices) an answer counts for in the split."""

    def answered_label(self, question: Question, order: tuple[int, ...], option: int, response: str) -> str:
        """What a player answered as the others see it: a letter, "A, C", or their text shortened."""

    def right_answer(self, question: Question, shown: QuestionCard, order: tuple[int, ...]) -> tuple[str, str]:
        """(right letters, right text) of a reveal."""

    def common_responses(self, question: Question, responses: Iterable[str]) -> tuple[tuple[str, int], ...]:
        """The most common typed answers, normalised, with their counts (none for option kinds)."""


KindOf = Callable[[QuestionKind], KindRules]
