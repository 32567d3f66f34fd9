"""Ordering ("put these in order", Kahoot's puzzle): the options are pressed in the order the
player puts them; a second press of a placed option takes it back (those after it move up).

A quiz file lists the options in their right order (no `answer` key); the bot always shuffles
them, never into the right order itself. An answer is stored as the authoring indices in the
order placed ("2,0,1"). In a private chat "Done" submits it; a group has no "Done", so there an
order is final once every option is placed, and whatever was placed by the deadline counts.
Scored all or nothing (`scoring: all`, the default) or by the share of places right (`scoring:
partial`: that share of the speed points, the streak bonus only when all are right). The reveal
shows the right order, each option marked with its place; its bars count, per option, the
answers that put it in its right place. A review card plays the same way ("Done" submits),
right only when the whole order is. A report's cell lists the order placed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from bot.domain.kind_rules import Judged
from bot.domain.model import LETTERS, NO_ANSWER, Question, QuestionCard, QuestionKind
from bot.domain.scoring import partial_points
from bot.kinds.base import FileProblem, Kind, joined, later

ARROW = " → "
PENDING = "…"  # where the options still to place would go, in a press's ack


def in_order(texts: Iterable[str]) -> str:
    """Option texts as one line, first to last, none able to reorder the others."""
    return joined(texts, ARROW)


def placed_of(response: str) -> tuple[int, ...]:
    """The authoring indices in a stored order ("2,0,1"), in the order placed."""
    return tuple(int(p) for p in response.split(",") if p.strip().isdigit())


def in_right_place(response: str) -> frozenset[int]:
    """The options an order put in their right place (the file lists them in the right order)."""
    return frozenset(src for pos, src in enumerate(placed_of(response)) if pos == src)


def order_letters(placed: Iterable[int], order: tuple[int, ...]) -> str:
    """Options (authoring indices) as the letters shown, in the order given: "B → A → C"."""
    position = {src: pos for pos, src in enumerate(order)}
    return ARROW.join(LETTERS[position[src]] for src in placed if src in position)


class Ordering(Kind):
    code = QuestionKind.ORDERING
    summary = "put the options in order (listed in the right order)"
    collects_picks = True
    always_shuffled = True
    instruction = later("Put these in order: press them first to last (press one again to take it back)")
    reveal_title = later("Right order: {letter}")
    said_title = later("Right order: {text}.")
    picks_message = later("Your order: {letter}")
    no_picks_message = later("No option placed.")
    split_title = later("Put in its right place:")
    split_of_answers = True
    said_between = ARROW
    own_keys = frozenset({"scoring"})

    # the quiz file ---------------------------------------------------------------------------

    def check_options(self, option_count: int) -> None:
        if option_count < 2:
            raise FileProblem("{n} given: an ordering question puts at least 2 options in order", n=option_count)

    def check_answer(self, answer: Any, option_count: int) -> None:
        if answer is not None:
            raise FileProblem("an ordering question has no 'answer' key: list its options in the right order")

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        return {"answer": NO_ANSWER}

    def file_answer(self, question: Question) -> dict[str, Any]:
        return {"scoring": "partial"} if question.partial else {}

    def estimated_right_text(self, answer: Any, accept: list[str], options: list[str]) -> str:
        return in_order(options)

    # answering and judging ---------------------------------------------------------------------

    def toggled(self, response: str, option: int) -> str:
        placed = placed_of(response)
        kept = tuple(i for i in placed if i != option) if option in placed else (*placed, option)
        return ",".join(str(i) for i in kept)

    def complete(self, question: Question, response: str) -> bool:
        return len(placed_of(response)) >= len(question.options)

    def arranged(self, shuffled: list[int]) -> list[int]:
        solved = len(shuffled) > 1 and shuffled == sorted(shuffled)
        return [*shuffled[1:], shuffled[0]] if solved else shuffled

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        credit = self.credit(question, option, response)
        full = credit >= 1
        streak = streak_before + 1 if full else 0
        return Judged(full, partial_points(credit, elapsed, limit, streak), streak)

    def credit(self, question: Question, option: int, response: str) -> float:
        size = len(question.options)
        credit = len(in_right_place(response) & set(range(size))) / size if size else 0.0
        return credit if question.partial else float(credit >= 1)

    def chosen_options(self, option: int, response: str) -> Collection[int]:
        """What the split counts: the options the answer put in their right place."""
        return in_right_place(response)

    def said_options(self, option: int, response: str) -> tuple[int, ...]:
        return placed_of(response)

    def said_texts(self, texts: Iterable[str]) -> str:
        return in_order(texts)

    def answered_label(self, question: Question, order: tuple[int, ...], option: int, response: str) -> str:
        return order_letters(placed_of(response), order)

    def said_so_far(self, question: Question, order: tuple[int, ...], response: str) -> str:
        """ "B → A → …" while options are left to place."""
        said = order_letters(placed_of(response), order)
        return said if not said or self.complete(question, response) else f"{said}{ARROW}{PENDING}"

    # the reveal and the answer key ---------------------------------------------------------------

    def right_answer(self, question: Question, shown: QuestionCard, order: tuple[int, ...]) -> tuple[str, str]:
        position = {src: pos for pos, src in enumerate(order)}
        right = range(len(question.options))
        return order_letters(right, order), in_order(shown.options[position[i]].text for i in right)

    def reveal_marks(self, right_letter: str, letters: Iterable[str]) -> dict[str, str]:
        """Each option marked with its place in the right order: "2. B) …"."""
        return {letter: f"{place}. " for place, letter in enumerate(right_letter.split(ARROW), start=1)}

    def key_text(self, question: Question, lang: str) -> str:
        return in_order(o.get(lang) for o in question.options)


KIND = Ordering()
