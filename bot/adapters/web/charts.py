"""SVG bar charts drawn on the server: how a question's answers split over its options.

Geometry only; the template writes the SVG (escaped text, presentation attributes, no
script, no inline style), so the page needs no JavaScript and passes a strict CSP.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 320  # viewBox units; the SVG scales to the page
LABEL = 34  # left margin for the option letter
BAR_HEIGHT = 22
GAP = 8
BAR_ROOM = WIDTH - LABEL - 70  # room for the count and share at the bar's end


@dataclass(frozen=True)
class Bar:
    letter: str
    text: str
    count: int
    share: int  # percent of the answers, rounded
    right: bool
    y: int
    width: int  # the bar's length in viewBox units


@dataclass(frozen=True)
class Chart:
    bars: tuple[Bar, ...]
    height: int
    label_x: int = LABEL
    text_gap: int = 6

    @property
    def width(self) -> int:
        return WIDTH


def split_chart(letters: str, options: list[str], split: tuple[int, ...], answer: int) -> Chart:
    total = sum(split)
    top = max(split, default=0) or 1
    bars = tuple(
        Bar(
            letters[i],
            options[i],
            count,
            round(100 * count / total) if total else 0,
            i == answer,
            y=i * (BAR_HEIGHT + GAP),
            width=max(1, round(BAR_ROOM * count / top)) if count else 0,
        )
        for i, count in enumerate(split)
    )
    return Chart(bars, height=len(bars) * (BAR_HEIGHT + GAP))
