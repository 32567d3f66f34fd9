"""Message text in a chat's language: the translation, with directional isolates for
right-to-left languages (bot/texts/bidi.py explains where); left-to-right texts get none.
The renderers (render.py and its siblings) write every message through `t` and `tn`."""

from __future__ import annotations

from bot.texts import bidi, i18n

# Placeholders whose values read left to right as a unit (numbers, letters, ids): in an RTL
# line each group of them gets LRI…PDI. Quiz texts are embedded; any other value (names,
# topics, typed codes) is of unknown direction and gets FSI…PDI.
LTR_VALUES = frozenset(
    {
        "letter",
        "number",
        "total",
        "n",
        "count",
        "seconds",
        "points",
        "correct",
        "answered",
        "accuracy",
        "rank",
        "streak",
        "low",
        "high",
        "pause",
        "medal",
        "codes",
        "names",
        "command",
        "percent",
    }
)
EMBEDDED_VALUES = frozenset({"title", "text", "scope", "verdict"})


# message text: the translation, with isolates for RTL languages ---------------------------


def t(lang: str, message: str, **values: object) -> str:
    """Like `bot.texts.i18n.t`, for message text: RTL translations get RLM and isolates (bot/texts/bidi.py)."""
    if not bidi.is_rtl(lang):
        return i18n.t(lang, message, **values)
    return bidi.line(_rtl_text(i18n.template(lang, message), values))


def shown(lang: str, text: i18n.Later | str) -> str:
    """A message marked with `i18n.later`, as message text in `lang`."""
    return i18n.shown(lang, text, t)


def tn(lang: str, singular: str, plural: str, n: int, **values: object) -> str:
    if not bidi.is_rtl(lang):
        return i18n.tn(lang, singular, plural, n, **values)
    return bidi.line(_rtl_text(i18n.plural_template(lang, singular, plural, n), {"n": n, **values}))


def _rtl_text(template: str, values: dict[str, object]) -> str:
    if not values:  # like i18n.t: a text without values is not formatted
        return bidi.isolate_template(template)
    free = {k: bidi.embed if k in EMBEDDED_VALUES else bidi.auto for k in values if k not in LTR_VALUES}
    return bidi.format_rtl(template, values, free)
