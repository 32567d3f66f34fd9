"""Bot text per language from gettext catalogs (.po files read with Babel), with plurals.

Source strings are English and use `{name}` placeholders. Mark them with `t(lang, "...")`
and `tn(lang, "one", "many", n)` so `pybabel extract -k t:2 -k tn:2,3` finds them.
"""
from __future__ import annotations

import gettext as _gettext
import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.model import FALLBACK_LANGUAGE, LANGUAGES

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "quizhost"


def normalise(code: str | None) -> str | None:
    """'hi-IN', 'ur_PK', 'EN' -> a supported language code, or None."""
    if not code:
        return None
    base = code.replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else None


@lru_cache(maxsize=None)
def catalog(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of `lang` (English text itself when there is none)."""
    po = LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == FALLBACK_LANGUAGE or not po.exists():
        return _gettext.NullTranslations()
    with po.open("rb") as fh:
        messages = read_po(fh, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, messages)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def t(lang: str, message: str, **values: object) -> str:
    text = catalog(lang).gettext(message)
    return text.format(**values) if values else text


def tn(lang: str, singular: str, plural: str, n: int, **values: object) -> str:
    text = catalog(lang).ngettext(singular, plural, n)
    return text.format(n=n, **values)
