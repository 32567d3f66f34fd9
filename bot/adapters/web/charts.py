"""SVG bar charts drawn on the server: how a question's answers split over its options.

Geometry only; the template writes the SVG (escaped text, presentation attributes, no
script, no inline style), so the page needs no JavaScript and passes a strict CSP.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat

from bot.adapters.web.formats import shown_language
from bot.domain.model import FALLBACK_LANGUAGE, NO_ANSWER, Question
from bot.kinds import kind_of

WIDTH = 320  # viewBox units; the SVG scales to the page
LABEL = 34  # left margin for the option letter
BAR_HEIGHT = 22
GAP = 8
BAR_ROOM = WIDTH - LABEL - 70  # room for the count and share at the bar's end
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


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


@dataclass(frozen=True)
class Listed:
    """A line of the list under a chart: an option, or one of the most common typed answers."""

    text: str
    right: bool
    lang: str = ""  # the language an option is written in; "" for what a player typed (its own direction)
    seen: str = ""  # an ordering's option: the letter a run's players saw it under


@dataclass(frozen=True)
class Figure:
    chart: Chart
    listed: tuple[Listed, ...]
    numbering: str  # the list's: "A" (options, by letter) or "1" (answers, by rank)
    # an ordering's shares of places right and of orders right (percent): the tallies count
    # options chosen, not orders
    positions_right: int | None = None
    fully_right: int | None = None
    accepted: str = ""  # a typed or numeric question's accepted answer(s), as its answer key words them


def question_figure(
    question: Question,
    lang: str,
    split: tuple[int, ...],
    responses: Mapping[str, int],
    shown: Sequence[int] = (),
    written: str = FALLBACK_LANGUAGE,
) -> Figure:
    """How a question's answers split, by its kind: the options (one right, several right, or
    none for a poll), or the most common typed or numeric answers with the right ones marked.
    `split`: answers per option (authoring order); `responses`: what was typed or picked, counted;
    `shown`: the order one run showed the options in (displayed position -> authoring index), so
    its report letters them as its players saw them (default: the file's order); `written`: the
    quiz's own language (what its options are in where they have no translation into `lang`).
    Every share is of the players who answered: a typed question's chart shows only its most
    common answers, and a select-all answer picks several options."""
    kind = kind_of(question)
    answers = sum(responses.values())
    if not kind.has_options:
        ranked = kind.common_responses(question, (r for response, n in responses.items() for r in repeat(response, n)))
        texts = [text for text, _ in ranked]
        right_ranks = {i for i, text in enumerate(texts) if kind.is_right_response(question, text)}
        chart = split_chart("12345", texts, tuple(n for _, n in ranked), right_ranks, of=answers)
        listed = tuple(Listed(t, i in right_ranks) for i, t in enumerate(texts))
        return Figure(chart, listed, "1", accepted=kind.key_text(question, lang))
    if kind.always_shuffled:  # the order is the answer
        return _places_figure(question, lang, responses, shown, written)
    if kind.collects_picks:  # each pick counts for its option: the bars say how often each was picked
        counts = [0] * len(question.options)
        for response, n in responses.items():
            for index in set(kind.chosen_options(NO_ANSWER, response)) & set(range(len(counts))):
                counts[index] += n
        split = tuple(counts)
    order = list(shown) or list(range(len(question.options)))
    rights = {position for position, index in enumerate(order) if index in question.right_options()}
    options = [question.options[index] for index in order]
    texts = [o.get(lang) for o in options]
    chart = split_chart(
        LETTERS, texts, tuple(split[i] for i in order), rights, of=answers if kind.collects_picks else None
    )
    listed = tuple(Listed(o.get(lang), i in rights, shown_language(o, lang, written)) for i, o in enumerate(options))
    return Figure(chart, listed, "A")


def _places_figure(
    question: Question, lang: str, responses: Mapping[str, int], shown: Sequence[int], written: str
) -> Figure:
    """An ordering's options in the right order, each bar the answers that put it in its place;
    beside them the share of places right and of orders right (the tallies count options chosen,
    not orders). With `shown`, each option names the letter the players saw it under."""
    kind, size = kind_of(question), len(question.options)
    counts, places, whole = [0] * size, 0, 0
    for response, n in responses.items():
        right = set(kind.chosen_options(NO_ANSWER, response)) & set(range(size))
        for index in right:
            counts[index] += n
        places, whole = places + len(right) * n, whole + (n if len(right) == size else 0)
    answers = sum(responses.values())
    options = [o.get(lang) for o in question.options]  # the right order
    numbers = [str(place) for place in range(1, size + 1)]
    chart = split_chart(numbers, options, tuple(counts), range(size), of=answers)
    seen = {index: LETTERS[position] for position, index in enumerate(shown)}
    listed = tuple(  # the list itself is the answer
        Listed(o.get(lang), False, shown_language(o, lang, written), seen.get(i, ""))
        for i, o in enumerate(question.options)
    )
    if not answers:
        return Figure(chart, listed, "1")
    return Figure(chart, listed, "1", round(100 * places / (answers * size)), round(100 * whole / answers))


def split_chart(
    letters: Sequence[str], options: list[str], split: tuple[int, ...], rights: Collection[int], of: int | None = None
) -> Chart:
    """Bars of `split`, each with its share of `of` answers (default: of the split's sum)."""
    total = sum(split) if of is None else of
    top = max(split, default=0) or 1
    bars = tuple(
        Bar(
            letters[i],
            options[i],
            count,
            round(100 * count / total) if total else 0,
            i in rights,
            y=i * (BAR_HEIGHT + GAP),
            width=max(1, round(BAR_ROOM * count / top)) if count else 0,
        )
        for i, count in enumerate(split)
    )
    return Chart(bars, height=len(bars) * (BAR_HEIGHT + GAP))
