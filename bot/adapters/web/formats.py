"""How the pages write numbers and times: with the language's grouping (Babel: 22,493 in
English) and in the chat's time zone. Jinja filters, reading `lang` and `zone` from the page."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal
from jinja2 import pass_context
from jinja2.runtime import Context

from bot.domain.model import FALLBACK_LANGUAGE, LocalText
from bot.texts.bidi import is_rtl

FALLBACK = "en"


def number(lang: str, value: float, pattern: str | None = None) -> str:
    return format_decimal(value, format=pattern, locale=_locale(lang))


@pass_context
def num(context: Context, value: float) -> str:
    """{{ points | num }}: 22,493 in English."""
    return number(context["lang"], value)


@pass_context
def tenths(context: Context, value: float) -> str:
    """{{ seconds | tenths }}: one decimal, the language's decimal mark."""
    return number(context["lang"], value, "#,##0.0")


@pass_context
def when(context: Context, instant: float | datetime) -> str:
    """{{ started_at | when }}: the instant in the chat's zone, the zone's short name after it."""
    moment = instant if isinstance(instant, datetime) else datetime.fromtimestamp(instant, context["zone"])
    return moment.astimezone(context["zone"]).strftime("%Y-%m-%d %H:%M %Z")


def shown_language(text: LocalText, lang: str, written: str = FALLBACK_LANGUAGE) -> str:
    """The language `text.get(lang)` is written in: the page's when the quiz is translated into
    it, else the quiz's own (`written`: its `language`, which its default texts, kept under the
    fallback's key, are in; an Urdu quiz shown in an English page is Urdu)."""
    return lang if lang != FALLBACK_LANGUAGE and text.has(lang) else written


@pass_context
def written_in(context: Context, text: LocalText, written: str | None = None) -> str:
    """{{ question.prompt | written_in(quiz.language) }}: the language the page shows that quiz text in."""
    return shown_language(text, context["lang"], written or FALLBACK_LANGUAGE)


def direction(lang: str) -> str:
    """{{ code | direction }}: a language's writing direction, as an HTML dir attribute says it."""
    return "rtl" if is_rtl(lang) else "ltr"


FILTERS: dict[str, Any] = {
    "num": num,
    "tenths": tenths,
    "when": when,
    "written_in": written_in,
    "direction": direction,
}


@lru_cache(maxsize=16)
def _locale(lang: str) -> Locale:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(FALLBACK)
