"""What every kind of question provides, and the defaults of the kinds answered by pressing one
option (choice, true or false, poll). Data only: the texts layer words the message ids marked
with `later`, the content layer turns the file checks into its errors, the adapters render the
ways of answering."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from enum import Enum
from typing import Any, ClassVar

from bot.domain.answering import letters, shortened
from bot.domain.kind_rules import Judged
from bot.domain.model import LETTERS, NO_ANSWER, NumericAnswer, Question, QuestionCard, QuestionKind
from bot.domain.records import AnswerRow
from bot.domain.scoring import points_for
from bot.domain.worth import Worth, worth_of

TOP_RESPONSES = 5  # the most common typed or numeric answers a reveal lists
# explicit directional formatting (embeddings, overrides, isolates): one option's right-to-left
# override would run past the separators and show the options after it reversed, in another order
_DIRECTIONAL = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def joined(texts: Iterable[str], separator: str) -> str:
    """Option texts as one line, none able to reorder the others."""
    return separator.join(text.translate(_DIRECTIONAL) for text in texts)


def later(message: str) -> str:
    """A message id for the texts layer to translate when shown (extracted like bot/texts' `later`)."""
    return message


class AnswerWay(Enum):
    """How a chat takes a typed answer: what its card says to do (the adapter that posts the
    card knows which; the kind says the words)."""

    REPLY = "reply"  # a reply to the question (what any chat without a button for it does)
    DEEP_LINK = "deep_link"  # Telegram group: "Answer" opens the private chat with the bot
    MESSAGE = "message"  # a private chat: the next message is the answer
    MODAL = "modal"  # Discord: "Answer" opens a form with one field
    PROMPT = "prompt"  # the terminal: typed at the prompt


class FileProblem(Exception):
    """A quiz file's question that does not fit its kind: `message` with `values` filled in
    (the content layer reports it as a validation error of type `code`)."""

    def __init__(self, message: str, code: str = "question_kind", **values: Any) -> None:
        super().__init__(message)
        self.message, self.code, self.values = message, code, values


class Kind:
    """A kind of question. The defaults are those of one right option among those pressed."""

    code: ClassVar[QuestionKind]
    summary: ClassVar[str]  # what the quiz file's `kind` field description says of it
    has_options: ClassVar[bool] = True  # pressed options; else a typed text
    is_scored: ClassVar[bool] = True  # else a poll: nothing is right, nothing scores
    collects_picks: ClassVar[bool] = False  # presses toggle picks until "Done" or the deadline
    always_shuffled: ClassVar[bool] = False  # the options' order is the answer: a file may not keep it
    # message ids of the options the bot supplies itself (the file gives none); they keep their order
    fixed_options: ClassVar[tuple[str, ...]] = ()
    # what its card says to do (a message id; "" for nothing), by the way the chat takes the answer
    instructions: ClassVar[Mapping[AnswerWay, str]] = {}
    instruction: ClassVar[str] = ""
    # the reveal's line naming the right answer: a message id with {letter} and {text}
    reveal_title: ClassVar[str] = later("Right answer: {letter}) {text}")
    # the same said as a sentence, for screen readers (/settings plain on)
    said_title: ClassVar[str] = later("Right answer: {letter}, {text}.")
    # a kind that collects picks: what a press's ack says of them so far (message ids, {letter})
    picks_message: ClassVar[str] = later("Your picks: {letter}")
    no_picks_message: ClassVar[str] = later("No option picked.")
    # the reveal's bars: a line saying what they count (a message id; "" for the options chosen),
    # and whether each bar is a share of the answers (else of all the bars)
    split_title: ClassVar[str] = ""
    split_of_answers: ClassVar[bool] = False
    said_between: ClassVar[str] = ", "  # between the options an answer names, in a report's cell
    # the quiz file: what `answer` holds (None: the kind has no `answer` key), and the keys only it takes
    answer_shape: ClassVar[str | None] = None
    own_keys: ClassVar[frozenset[str]] = frozenset()

    @property
    def one_option(self) -> bool:
        """Each answer is one option: the split counts answers per option."""
        return self.has_options and not self.collects_picks

    @property
    def writes_options(self) -> bool:
        """Its quiz file entry lists the options."""
        return self.has_options and not self.fixed_options

    def instruction_for(self, way: AnswerWay) -> str:
        return self.instructions.get(way, self.instruction)

    # the quiz file ---------------------------------------------------------------------------

    def check_options(self, option_count: int) -> None:
        if self.writes_options and option_count < 2:
            raise FileProblem(
                "{n} given: at least 2 needed for a {kind} question", kind=self.code.value, n=option_count
            )
        if not self.has_options and option_count:
            raise FileProblem("a {kind} question has no options", kind=self.code.value)

    def check_answer(self, answer: Any, option_count: int) -> None:
        """Raise a FileProblem naming the kind when `answer` does not fit it."""
        if self.answer_shape is None:
            if answer is not None:
                raise FileProblem("a {kind} question has no 'answer' key", kind=self.code.value)
            return
        if answer is None:
            raise FileProblem(
                "'answer' is missing: a {kind} question needs {shape}", kind=self.code.value, shape=self.answer_shape
            )
        self.check_given_answer(answer, option_count)

    def check_given_answer(self, answer: Any, option_count: int) -> None:
        check_index(answer, option_count)

    def check_keys(self, given: Mapping[str, Any]) -> None:
        """A kind that needs one of its own keys says so (the others' keys are checked by the registry)."""

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        """The Question's fields its file entry's `answer` (and `tolerance`) give."""
        return {"answer": int(answer)}

    def identity(
        self, options: tuple[str, ...], accept: tuple[str, ...], answer: Any, tolerance: float | None
    ) -> tuple[str, ...]:
        """What tells an imported question from another with the same prompt (its id is made
        from them): its options, or its answers."""
        return options

    def file_answer(self, question: Question) -> dict[str, Any]:
        """The quiz file keys that write its answer back (the export)."""
        return {"answer": question.answer}

    def estimated_right_text(self, answer: Any, accept: list[str], options: list[str]) -> str:
        """The right answer as the reveal shows it, for a quiz file's size estimate."""
        right = answer if isinstance(answer, list) else [answer]
        return ", ".join(options[i] for i in right)

    # answering and judging ---------------------------------------------------------------------

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        return judged(option == question.answer, elapsed, limit, streak_before)

    def credit(self, question: Question, option: int, response: str) -> float:
        """The share of full credit an answer earns, 0 to 1 (what `judge` scores)."""
        return float(self.judge(question, option, response, 0.0, 1.0, 0).correct)

    def worth(self, question: Question | None, answer: AnswerRow | None) -> Worth:
        """What an answer to the question was worth (None: not answered; a question gone: no share)."""
        if answer is None or question is None or not self.is_scored:
            return worth_of(answer, None)
        return worth_of(answer, self.credit(question, answer.option, answer.response))

    def toggled(self, response: str, option: int) -> str:
        raise NotImplementedError("only a kind that collects picks toggles them")

    def complete(self, question: Question, response: str) -> bool:
        return False

    def arranged(self, shuffled: list[int]) -> list[int]:
        return shuffled

    def said_so_far(self, question: Question, order: tuple[int, ...], response: str) -> str:
        """The picks so far as a press's ack says them."""
        return self.answered_label(question, order, NO_ANSWER, response)

    def said_options(self, option: int, response: str) -> tuple[int, ...]:
        """The options an answer names (authoring indices), in the order a report's cell lists them."""
        return tuple(sorted(self.chosen_options(option, response)))

    def said_texts(self, texts: Iterable[str]) -> str:
        """The texts of the options an answer names, as a report's cell lists them."""
        return joined(texts, "; ")

    def reveal_marks(self, right_letter: str, letters: Iterable[str]) -> dict[str, str]:
        """Each option's mark at the reveal, by its letter: right or not."""
        right = set(right_letter.split(", ")) if right_letter else set()
        return {letter: "✅ " if letter in right else "▫️ " for letter in letters}

    def accepts_text(self, response: str) -> bool:
        return True

    def chosen_options(self, option: int, response: str) -> Collection[int]:
        return (option,) if option >= 0 else ()

    def answered_label(self, question: Question, order: tuple[int, ...], option: int, response: str) -> str:
        return LETTERS[order.index(option)] if 0 <= option < len(order) else ""

    def is_right_response(self, question: Question, text: str) -> bool:
        """Whether a typed answer (as a chart lists it) is right."""
        return False

    # the reveal and the answer key ---------------------------------------------------------------

    def right_answer(self, question: Question, shown: QuestionCard, order: tuple[int, ...]) -> tuple[str, str]:
        right = question.right_options()
        texts = ", ".join(shown.options[pos].text for pos, src in enumerate(order) if src in right)
        return letters(right, order), texts

    def common_responses(self, question: Question, responses: Iterable[str]) -> tuple[tuple[str, int], ...]:
        return ()

    def key_text(self, question: Question, lang: str) -> str:
        """The right answer in a few words, for an admin checking an upload."""
        return ", ".join(question.options[i].get(lang) for i in sorted(question.right_options()))


def judged(correct: bool, elapsed: float, limit: float, streak_before: int) -> Judged:
    """All or nothing: the speed points and the streak bonus when right."""
    streak = streak_before + 1 if correct else 0
    return Judged(correct, points_for(correct, elapsed, limit, streak), streak)


class TextKind(Kind):
    """A kind answered by a typed text, not by options."""

    has_options = False
    reveal_title = later("Right answer: {text}")
    said_title = later("Right answer: {text}.")

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        return {"answer": NO_ANSWER}

    def chosen_options(self, option: int, response: str) -> Collection[int]:
        return ()

    def answered_label(self, question: Question, order: tuple[int, ...], option: int, response: str) -> str:
        return shortened(response)

    def right_answer(self, question: Question, shown: QuestionCard, order: tuple[int, ...]) -> tuple[str, str]:
        return "", self.right_text(question)

    def right_text(self, question: Question) -> str:
        """The right answer as the reveal shows it."""
        raise NotImplementedError

    def key_text(self, question: Question, lang: str) -> str:
        return self.right_text(question)

    def response_key(self, response: str) -> str:
        """A typed answer as a reveal counts it ("" for none)."""
        raise NotImplementedError

    def common_responses(self, question: Question, responses: Iterable[str]) -> tuple[tuple[str, int], ...]:
        seen = Counter(key for key in map(self.response_key, responses) if key)
        ranked = sorted(seen.items(), key=lambda item: (-item[1], item[0]))
        return tuple(ranked[:TOP_RESPONSES])


def check_index(answer: Any, option_count: int) -> None:
    """An option's 0-based index, as a file gives the right one."""
    if isinstance(answer, bool):
        raise FileProblem(
            "expected a whole number (an option's index), but YAML reads this unquoted value as a boolean"
        )
    if isinstance(answer, str) and answer.strip().isdigit():
        raise FileProblem("expected a whole number, found the string {value}: remove the quotes", value=repr(answer))
    if not isinstance(answer, int):
        raise FileProblem("a choice question's answer is {shape}, not {value}", shape=INDEX_SHAPE, value=repr(answer))
    if not 0 <= answer < option_count:
        raise FileProblem(
            "answer {answer} is out of range: {n} options, so 0 to {last} (0-based)",
            code="answer_range",
            answer=answer,
            n=option_count,
            last=option_count - 1,
        )


INDEX_SHAPE = "the 0-based index of the right option"


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


__all__ = ["AnswerWay", "FileProblem", "Judged", "Kind", "NumericAnswer", "TextKind", "joined", "later"]
