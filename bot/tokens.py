"""Button data for answer presses: short (Telegram allows 64 bytes), strict to parse."""
from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "qa"
_PATTERN = re.compile(r"qa:([1-9][0-9]{0,11}):([0-9]{1,3}):([0-9])")


@dataclass(frozen=True)
class AnswerToken:
    run_id: int
    number: int  # 1-based question number in the run
    choice: int  # displayed option position, 0 = A

    def encode(self) -> str:
        return f"{PREFIX}:{self.run_id}:{self.number}:{self.choice}"


def decode(data: str | bytes | None) -> AnswerToken | None:
    """The token in `data`, or None for anything that is not exactly one of ours."""
    if isinstance(data, bytes):
        try:
            data = data.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(data, str) or len(data) > 64:
        return None
    match = _PATTERN.fullmatch(data)
    if not match:
        return None
    run_id, number, choice = (int(g) for g in match.groups())
    return AnswerToken(run_id, number, choice)
