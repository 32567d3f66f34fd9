"""Choice: one right option among 2 to 10, pressed once."""

from __future__ import annotations

from bot.domain.model import QuestionKind
from bot.kinds.base import INDEX_SHAPE, Kind


class Choice(Kind):
    code = QuestionKind.CHOICE
    summary = "one right option"
    answer_shape = INDEX_SHAPE


KIND = Choice()
