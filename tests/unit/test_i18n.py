"""Every bot string, as the source uses it today, is translated in every catalog.

The strings are extracted from the source here (Babel's extractor with the `t`/`tn` keywords),
so a new t() call without translations fails this file until the catalogs catch up.
"""

from __future__ import annotations

import re
import string
import unicodedata

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.commands.table import NAMES, descriptions
from bot.texts import i18n
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
TRANSLATED = ("hi", "sn", "ur")
KEYWORDS = {"t": (2,), "tn": (2, 3), "later": (1,)}  # as `pybabel extract -k t:2 -k tn:2,3 -k later:1`
COMMAND_WORD = re.compile(r"/(" + "|".join(sorted((*NAMES, "leaderboard", "stats"), key=len, reverse=True)) + r")\b")
PLURAL_FORMS = {
    "hi": "nplurals=2; plural=(n > 1);",
    "sn": "nplurals=2; plural=(n != 1);",
    "ur": "nplurals=2; plural=(n != 1);",
}


def source_messages() -> dict[str, tuple[str, ...]]:
    """msgid -> (singular, plural?) of every t()/tn() call under bot/."""
    found: dict[str, tuple[str, ...]] = {}
    for _filename, _line, message, _comments, _context in extract_from_dir(
        ROOT / "bot", method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=()
    ):
        forms = message if isinstance(message, tuple) else (message,)
        if all(isinstance(f, str) and f for f in forms):
            found[forms[0]] = forms
    return found


def load(lang: str):
    with (ROOT / "bot" / "texts" / "locales" / lang / "LC_MESSAGES" / "quizhost.po").open("rb") as fh:
        return read_po(fh, locale=lang)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def symbols(text: str) -> list[str]:
    """The emoji and pictographs of a text, which translations keep."""
    return [ch for ch in text if unicodedata.category(ch) == "So"]


SOURCE = source_messages()


def test_the_source_has_bot_strings_and_plurals():
    assert len(SOURCE) > 60
    assert any(len(forms) == 2 for forms in SOURCE.values())


def test_the_template_in_the_repository_has_every_string():
    """Translators work from the template: a string missing there is missing for them.

    (An entry whose string left the source is harmless and goes at the next extraction.)
    """
    with (ROOT / "bot" / "texts" / "locales" / "quizhost.pot").open("rb") as fh:
        pot = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}
    missing = set(SOURCE) - pot
    assert not missing, (
        f"bot/texts/locales/quizhost.pot is stale: re-run the extraction in bot/texts/i18n.py ({missing})"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_bot_string_is_translated(lang):
    catalog = load(lang)
    problems = []
    for msgid, forms in SOURCE.items():
        message = catalog.get(forms if len(forms) > 1 else msgid)
        if message is None:
            message = catalog.get(msgid)
        if message is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if len(forms) == 2 and len(strings) != catalog.num_plurals:
            problems.append(f"plural forms: {msgid!r} has {len(strings)}, needs {catalog.num_plurals}")
        if len(forms) == 2 and not message.pluralizable:
            problems.append(f"not a plural entry: {msgid!r}")
        for translation in strings:
            if not translation.strip():
                problems.append(f"empty: {msgid!r}")
            elif placeholders(translation) != placeholders(forms[-1]) | placeholders(forms[0]):
                problems.append(f"placeholders differ: {msgid!r} -> {translation!r}")
            elif symbols(translation) != symbols(msgid):
                problems.append(f"emoji differ: {msgid!r} -> {translation!r}")
            elif COMMAND_WORD.findall(translation) != COMMAND_WORD.findall(msgid):
                problems.append(f"command names must stay English: {msgid!r} -> {translation!r}")
    assert not problems, f"{lang} catalog:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_declares_its_plural_rule(lang):
    catalog = load(lang)
    assert catalog.plural_forms == PLURAL_FORMS[lang]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogs_answer_in_the_language(lang):
    english = "Locked in: {letter}"
    assert i18n.t(lang, english, letter="B") != english.format(letter="B")
    assert "B" in i18n.t(lang, english, letter="B")


def test_plural_forms_follow_each_language():
    one, many = "{n} quiz played", "{n} quizzes played"
    assert i18n.tn("en", one, many, 1) == "1 quiz played" and i18n.tn("en", one, many, 0) == "0 quizzes played"
    # Hindi (CLDR): 0 and 1 take the singular
    assert i18n.tn("hi", one, many, 0) == "0 प्रश्नोत्तरी खेली"
    assert i18n.tn("hi", one, many, 1) == "1 प्रश्नोत्तरी खेली"
    assert i18n.tn("hi", one, many, 2) == "2 प्रश्नोत्तरियाँ खेलीं"
    # Shona: class 9 singular, class 10 plural agreement
    assert i18n.tn("sn", one, many, 1) == "Bvunzo 1 yatambwa"
    assert i18n.tn("sn", one, many, 5) == "Bvunzo 5 dzatambwa"
    assert i18n.tn("ur", one, many, 1) == "1 کوئز کھیلا"
    assert i18n.tn("ur", one, many, 3) == "3 کوئز کھیلے"


def test_unknown_languages_and_msgids_fall_back_to_english():
    assert i18n.t("fr", "Locked in: {letter}", letter="C") == "Locked in: C"
    assert i18n.t("hi", "A string nobody translated") == "A string nobody translated"


def test_language_codes_are_normalised():
    assert i18n.normalise("hi-IN") == "hi"
    assert i18n.normalise("ur_PK") == "ur"
    assert i18n.normalise("EN-us") == "en"
    assert i18n.normalise("sn") == "sn"
    assert i18n.normalise("fr") is None and i18n.normalise("") is None and i18n.normalise(None) is None


@pytest.mark.parametrize("lang", TRANSLATED)
def test_command_descriptions_are_localised_and_fit_the_menus(lang):
    english, local = descriptions("en"), descriptions(lang)
    assert local.keys() == english.keys()
    for name, text in local.items():
        assert text and text != english[name], name
        assert 3 <= len(text) <= 100  # Discord's limit; Telegram allows 256
        assert not set(text) & {"\u2066", "\u2067", "\u2068", "\u2069", "\u200f"}  # menus get plain text
