"""A question's answer key in a few words: what an admin checks after an upload."""

from __future__ import annotations

from bot.domain.answering import numeric_text
from bot.domain.model import Question, QuestionKind
from bot.texts.message import t
from bot.texts.textcut import cut

PROMPT_ROOM = 60  # characters of a prompt before the key: enough to tell the questions apart


def answer_key(q: Question, lang: str) -> str:
    """The right options' texts, the accepted answers, the accepted range, or that a poll has none."""
    if q.kind is QuestionKind.POLL:
        return t(lang, "A poll: no answer is right.")
    if q.kind is QuestionKind.TYPED:
        return " / ".join(q.accepted)
    if q.kind is QuestionKind.NUMERIC:
        return numeric_text(q.numeric) if q.numeric else ""
    return ", ".join(q.options[i].get(lang) for i in sorted(q.right_options()))


def key_line(number: int, q: Question, lang: str) -> str:
    """ "3. Capital of France?: Paris", the prompt on one line and cut short."""
    prompt = cut(" ".join(q.prompt.get(lang).split()), PROMPT_ROOM)
    return t(lang, "{number}. {text}: {answer}", number=number, text=prompt, answer=answer_key(q, lang))
