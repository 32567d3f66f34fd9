"""Acks: the private answer to a press or a typed answer, in the chat's language; and how each
kind of question is answered, as its card and its acks say it."""

from __future__ import annotations

from bot.domain.model import QuestionKind
from bot.kinds import AnswerWay, kind_of
from bot.texts.message import t

# acks: the private answer to a press ---------------------------------------------------


def ack_locked(lang: str, letter: str) -> str:
    return t(lang, "Locked in: {letter}", letter=letter)


def ack_repeated(lang: str, letter: str) -> str:
    return t(lang, "You already answered {letter}", letter=letter)


def ack_refused(lang: str, reason: object) -> str:
    value = getattr(reason, "value", reason)
    if value == "out_of_range":
        return t(lang, "That is not one of the options.")
    if value == "repeated":
        return t(lang, "You already answered this question.")
    if value == "no_picks":
        return t(lang, "Pick at least one option first.")
    if value == "wrong_kind":
        return t(lang, "This question is not answered that way.")
    if value == "not_a_number":
        return t(lang, "That is not a number. Try again.")
    if value == "paused":
        return t(lang, "The host paused the game: answer once it goes on.")
    return t(lang, "This question is closed.")


def ack_picks(lang: str, letters: str) -> str:
    """A toggle on a select-all-that-apply question: the picks so far."""
    if not letters:
        return t(lang, "No option picked.")
    return t(lang, "Your picks: {letter}", letter=letters)


def ack_done(lang: str, letters: str) -> str:
    return t(lang, "Your answer: {letter}", letter=letters)


def ack_step(lang: str, kind: QuestionKind, said: str, final: bool = False) -> str:
    """A press on a kind that collects picks: the picks (an ordering's order) so far as the kind
    says them, or the answer once final (an order complete in a group)."""
    if final:
        return ack_done(lang, said)
    rules = kind_of(kind)
    return t(lang, rules.picks_message, letter=said) if said else t(lang, rules.no_picks_message)


def ack_text_locked(lang: str, answer: str) -> str:
    """A typed or numeric answer taken (`answer` as the player typed it)."""
    return t(lang, "Locked in: {answer}", answer=answer)


def ack_repeated_text(lang: str, answer: str) -> str:
    return t(lang, "You already answered: {answer}", answer=answer)


def ack_not_a_number(lang: str, answer: str) -> str:
    return t(lang, "Not a number: {answer}. Try again, for example 3.14", answer=answer)


def answer_instruction(lang: str, kind: QuestionKind, way: AnswerWay = AnswerWay.REPLY) -> str:
    """How a question of this kind is answered, as its card says (empty for one right option);
    a typed one as `way` takes it."""
    instruction = kind_of(kind).instruction_for(way)
    return t(lang, instruction) if instruction else ""


def ack_ended(lang: str) -> str:
    return t(lang, "This quiz has ended.")


def ack_invalid(lang: str) -> str:
    return t(lang, "This button is not valid.")


def ack_handled_already(lang: str) -> str:
    """What a request posted again gets (Discord's endpoint): it was handled once, and changes nothing now."""
    return t(lang, "This was handled already.")


def ack_not_saved(lang: str) -> str:
    return t(lang, "Your answer was not saved. Please press again.")


# a typed question's "Answer" deep link, opened in the private chat (bot/commands/typed.py) ----


def link_unsigned(lang: str) -> str:
    return t(
        lang,
        "This Answer link is from an older version of the bot and no longer works: "
        "reply to the question in the group instead.",
    )


def link_outsider(lang: str) -> str:
    return t(lang, "This question is for the members of its group only.")


def link_unchecked(lang: str) -> str:
    return t(lang, "I could not check that you are in the group just now. Please try again in a minute.")


def answered_where(lang: str, number: int, group: str) -> str:
    """Which question a message in the private chat went to: the player may hold several."""
    if not group:
        return t(lang, "(question {number})", number=number)
    return t(lang, "(question {number} in {group})", number=number, group=group)
