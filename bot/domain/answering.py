"""The pieces of an answer the kinds of question share (bot/kinds/ judges them): picks of
options as stored and shown, a typed text as stored and shortened, numbers as a reveal writes
them; and where a question's media and its script's direction are. Pure."""

from __future__ import annotations

import os.path
from collections.abc import Iterable

from bot.domain.model import FALLBACK_LANGUAGE, LETTERS, Media, MediaView, NumericAnswer, Question, Quiz, spoken
from bot.domain.scoring import MAX_TYPED

# a multi answer whose player pressed "Done" (a private chat): its picks are final and the
# question closes (AnswerRow.option; NO_ANSWER while the player is still picking)
PICKS_DONE = -2
SHOWN_TYPED = 40  # characters of a typed answer a reveal shows

# the languages whose script runs right to left, by their primary subtag (a quiz's `language`)
RTL_SCRIPTS = frozenset({"ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb", "syr", "arc", "ku-arab"})


# a select-all-that-apply question's picks ----------------------------------------------------


def picks_of(response: str) -> frozenset[int]:
    """The authoring indices in a stored multi response ("0,2")."""
    return frozenset(int(p) for p in response.split(",") if p.strip().isdigit())


def picks_response(picks: Iterable[int]) -> str:
    return ",".join(str(i) for i in sorted(set(picks)))


def toggled(response: str, index: int) -> str:
    """The picks with option `index` (authoring order) switched on or off."""
    return picks_response(picks_of(response) ^ {index})


def letters(picks: Iterable[int], order: tuple[int, ...]) -> str:
    """Picks (authoring indices) as the letters players see, in display order: "A, C"."""
    chosen = set(picks)
    return ", ".join(LETTERS[pos] for pos, src in enumerate(order) if src in chosen)


# typed and numeric answers ---------------------------------------------------------------------


def typed_response(text: str) -> str:
    """A typed answer as stored: stripped, at most MAX_TYPED characters."""
    return text.strip()[:MAX_TYPED]


def shortened(text: str, limit: int = SHOWN_TYPED) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def number_text(number: float) -> str:
    """A number as a reveal shows it: no ".0" on whole numbers, no float noise."""
    return f"{number:.10g}"


def numeric_text(numeric: NumericAnswer) -> str:
    """ "3.14 ± 0.005" for a value with a tolerance, "1990 to 1999" for a range, "42" exactly."""
    if numeric.value is not None:
        tolerance = max(numeric.value - numeric.low, numeric.high - numeric.value)
        if tolerance <= 0:
            return number_text(numeric.value)
        return f"{number_text(numeric.value)} ± {number_text(round(tolerance, 12))}"
    if numeric.low == numeric.high:
        return number_text(numeric.low)
    return f"{number_text(numeric.low)} – {number_text(numeric.high)}"


# media and direction ----------------------------------------------------------------------------


def media_view(media: Media | None, quiz: Quiz, lang: str) -> MediaView | None:
    """A medium as adapters show it: a URL as it is, a file by its absolute path beside the quiz
    file (a path join; nothing is read here)."""
    if media is None:
        return None
    alt = media.alt.get(lang) if media.alt is not None else ""
    if media.is_url:
        return MediaView(media.kind, media.src, alt)
    folder = os.path.dirname(os.path.abspath(quiz.source)) if quiz.source else os.path.abspath(".")
    return MediaView(media.kind, os.path.normpath(os.path.join(folder, media.src)), alt)


def content_rtl(quiz: Quiz, question: Question, lang: str) -> bool:
    """Whether the question shows in a right-to-left script: its translation into `lang` where
    it has one, else the quiz's default texts, in the quiz's own language."""
    lang = spoken(lang)
    shown = lang if lang != FALLBACK_LANGUAGE and question.prompt.has(lang) else quiz.language
    tag = shown.lower().replace("_", "-")
    return tag in RTL_SCRIPTS or tag.split("-")[0] in RTL_SCRIPTS
