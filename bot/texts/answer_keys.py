"""A question's answer key in a few words: what an admin checks after an upload."""

from __future__ import annotations

from bot.domain.model import Question
from bot.kinds import kind_of
from bot.texts.message import t
from bot.texts.textcut import cut

PROMPT_ROOM = 60  # characters of a prompt before the key: enough to tell the questions apart


def answer_key(q: Question, lang: str) -> str:
    """The right options' texts, the accepted answers, the accepted range, or that a poll has none."""
    kind = kind_of(q)
    return kind.key_text(q, lang) if kind.is_scored else t(lang, "A poll: no answer is right.")


def key_line(number: int, q: Question, lang: str) -> str:
    """ "3. Capital of France?: Paris", the prompt on one line and cut short."""
    prompt = cut(" ".join(q.prompt.get(lang).split()), PROMPT_ROOM)
    return t(lang, "{number}. {text}: {answer}", number=number, text=prompt, answer=answer_key(q, lang))
