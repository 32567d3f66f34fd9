"""Bot text per language from gettext catalogs (.po files read with Babel), with plurals.

Source strings are English and use `{name}` placeholders. Mark them with `t(lang, "...")`
and `tn(lang, "one", "many", n)` so extraction finds them; after adding or changing one,
refresh the template and translate the new entries in every catalog:

    pybabel extract -F babel.cfg -k t:2 -k tn:2,3 -k later:1 --no-default-keywords --omit-header --no-location \
        --no-wrap -o bot/texts/locales/quizhost.pot bot/
    pybabel update -i bot/texts/locales/quizhost.pot -d bot/texts/locales -D quizhost \
        --no-fuzzy-matching --no-wrap --ignore-obsolete

tests/unit/test_i18n.py fails until every catalog translates every string.

Two `t`s: this one gives plain text, for command menus, button labels and anything a
platform shows outside a message (Telegram setMyCommands, Discord command localisations).
`bot.texts.render.t` takes the same arguments and also places directional isolates for
right-to-left languages: use it for message text. Both are found by the extraction above.

`later("...", **values)` marks a message written before its reader's language is known (an
importer's reason for skipping a question); `shown(lang, text)` translates it when shown.
"""

from __future__ import annotations

import gettext as _gettext
import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.domain.model import FALLBACK_LANGUAGE, LANGUAGES, is_plain, spoken
from bot.texts.plain import undecorated

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "quizhost"


def normalise(code: str | None) -> str | None:
    """'hi-IN', 'ur_PK', 'EN' -> a supported language code, or None."""
    if not code:
        return None
    base = code.replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else None


@cache
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


def template(lang: str, message: str) -> str:
    """The translation of `message` with its placeholders still in it (English if none), without
    decorative emoji where `lang` is plain (bot/texts/plain.py)."""
    return _as_written(lang, catalog(spoken(lang)).gettext(message))


def plural_template(lang: str, singular: str, plural: str, n: int) -> str:
    return _as_written(lang, catalog(spoken(lang)).ngettext(singular, plural, n))


def _as_written(lang: str, text: str) -> str:
    return undecorated(text) if is_plain(lang) else text


def t(lang: str, message: str, **values: object) -> str:
    """`message` in `lang`, its `{placeholders}` filled; any msgid works, English if untranslated."""
    text = template(lang, message)
    return text.format(**values) if values else text


def tn(lang: str, singular: str, plural: str, n: int, **values: object) -> str:
    """The plural form for `n` (available as `{n}`), per the catalog's Plural-Forms rule."""
    return plural_template(lang, singular, plural, n).format(n=n, **values)


@dataclass(frozen=True)
class Later:
    """A message to translate once its reader is known: the msgid and its values (which may be
    `Later` too). Text a file wrote only ever fills a placeholder, never becomes a template."""

    message: str
    values: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:  # English: the command line, logs
        return shown(FALLBACK_LANGUAGE, self)


def later(message: str, **values: object) -> Later:
    """`message` marked for translation when shown (extracted like `t`)."""
    return Later(message, tuple(values.items()))


def shown(lang: str, text: Later | str, translate: Callable[..., str] = t) -> str:
    """`text` in `lang`; a plain str is already final (the quiz file checks' English).
    `translate` is `t` here, or `bot.texts.render.t` for message text."""
    if isinstance(text, str):
        return text
    values = {name: shown(lang, value, translate) if isinstance(value, Later) else value for name, value in text.values}
    return translate(lang, text.message, **values)
