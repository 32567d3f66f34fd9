"""Every kind of question, by its code: what the rest of the bot asks instead of comparing codes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.domain.model import DEFAULT_KIND, Question, QuestionKind
from bot.kinds import choice, multi, numeric, ordering, poll, truefalse, typed
from bot.kinds.base import FileProblem, Kind

# in the order the quiz format lists them
KINDS: Mapping[QuestionKind, Kind] = {
    k.code: k for k in (m.KIND for m in (choice, multi, truefalse, typed, numeric, poll, ordering))
}
DEFAULT = KINDS[DEFAULT_KIND]  # a quiz file's question without `kind`


def kind_of(what: Question | QuestionKind) -> Kind:
    """The kind of a question (or of a card's or a reveal's `kind`)."""
    return KINDS[what.kind if isinstance(what, Question) else what]


def by_right_options(count: int) -> Kind:
    """The kind of a question with options of which `count` are right, as a poll composer or an
    import gives it: a poll (none), a choice (one) or a multi (several)."""
    if count == 0:
        return poll.KIND
    return choice.KIND if count == 1 else multi.KIND


def check_keys(kind: Kind, given: Mapping[str, Any]) -> None:
    """A file entry's keys that belong to another kind (`accept` on a choice question), or a
    key its own kind needs."""
    kind.check_keys(given)
    for key, value in given.items():
        if value is None or value == [] or key in kind.own_keys:
            continue
        owner = next(k for k in KINDS.values() if key in k.own_keys)
        raise FileProblem("'{key}' is for {kind} questions", key=key, kind=owner.code.value)
