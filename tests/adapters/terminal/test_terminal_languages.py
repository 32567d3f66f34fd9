"""`quizhost play <quiz> --lang <code>`: a whole piped game in Hindi, Shona and Urdu, nothing in English.

Each game is a real subprocess with its own database; the output is read as a player would
(directional marks of Urdu lines removed, see bot/texts/bidi.py).
"""

from __future__ import annotations

import json
import os
import re
import string
import subprocess
import sys
from functools import cache, lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from bot.content.catalog import Catalog, default_quiz_folders
from bot.texts import bidi, i18n
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
ANSWERS = "a\nb\nc\nd\na\nb\nc\nd\n"
AFTER = "/stats\n/help\n"
# per language: the question header, the ack, the end of a quiz, the stats title
EXPECTED = {
    "hi": ("प्रश्न {n}/8", "उत्तर दर्ज:", "🏁 प्रश्नोत्तरी समाप्त", "📊 इस चैट में आप"),
    "sn": ("Mubvunzo {n}/8", "Mhinduro yanyorwa:", "🏁 Bvunzo yapera", "📊 Iwe pano"),
    "ur": ("سوال {n}/8", "جواب محفوظ:", "🏁 کوئز ختم", "📊 اس چیٹ میں آپ"),
}


def play(tmp_path: Path, *args: str, stdin: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZHOST_", "TELEGRAM_", "DISCORD_"))}
    env.update(QUIZHOST_DB=str(tmp_path / "play.db"), NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


@cache
def shipped():
    return Catalog.load(default_quiz_folders())


@lru_cache(maxsize=1)
def english_phrases() -> tuple[tuple[str, str], ...]:
    """(msgid, fixed English phrase) of every bot string: the text between its placeholders."""
    phrases = []
    for _f, _l, message, _c, _ctx in extract_from_dir(
        ROOT / "bot", method_map=[("**.py", "python")], keywords={"t": (2,), "tn": (2, 3)}, comment_tags=()
    ):
        for msgid in message if isinstance(message, tuple) else (message,):
            for literal, *_ in string.Formatter().parse(msgid):
                phrase = literal.strip(" ·:.,()!")
                if len(phrase) >= 6 and any(c.isalpha() for c in phrase) and not phrase.startswith("/"):
                    phrases.append((msgid, phrase))
    return tuple(phrases)


# Latin words a Hindi or Urdu screen may show: option letters, command names and their
# keywords, language codes and names, quiz ids
COMMAND_WORDS = {
    *"ABCDEFGHIJ",
    "quiz",
    "quizzes",
    "leaderboard",
    "stats",
    "stop",
    "language",
    "settings",
    "help",
    "quit",
    "start",
    "upload",
    "remove",
    "dashboard",
    "board",
    "screen",  # /screen: the big screen's link
    "week",
    "month",
    "all",
    "time",
    "pause",
    "notify",  # /settings notify on|off: typed as is, like time and pause
    "assign",
    "until",  # /assign <quiz> until <date>: typed as is
    "on",
    "off",
    "en",
    "hi",
    "sn",
    "ur",
    "quizhost",
    "newquiz",  # the commands of writing a quiz in the chat and suggesting questions
    "suggest",
    "suggestions",
    "English",
    "chiShona",
    "pipeline",
    "training",
    "stacks",
    "kinds",  # the kinds tour's id, kinds-tour
    "tour",
    "trivia",  # the trivia night's id, trivia-night
    "night",
    # the commands of reviews, statistics and schedules, and time zone names (IANA, never translated)
    "review",
    "quizstats",
    "schedule",
    "tz",
    "Asia",
    "Kolkata",
    "UTC",
    # teams: /teams balanced and /join N, typed as is
    "teams",
    "join",
    "balanced",
    "N",
    # a hosted game's commands (issue #49), and who may host: /settings host anyone|admins
    *("host", "next", "resume", "skip", "hint", "end", "anyone", "admins"),
    "s",  # a host's time limit, typed as is: /host trivia-night 30s
    "plain",  # plain text for screen readers: /settings plain on|off
    *("extra", "x"),  # a member's extra time (issue #50), typed as is: /settings extra @member 1.5x
    # how a chat's runs score (issue #50): /settings scoring speed|accuracy, streaks on|off, board live|end
    *("scoring", "speed", "accuracy", "streaks", "live"),
}


def stray_latin(out: str, quiz_texts: str = "") -> set[str]:
    """Latin words on a Hindi/Urdu screen that are neither commands nor in the quiz texts."""
    return set(re.findall(r"[A-Za-z]+", out)) - COMMAND_WORDS - set(re.findall(r"[A-Za-z]+", quiz_texts))


def leaked_english(out: str, lang: str) -> list[str]:
    leaks = []
    for msgid, phrase in english_phrases():
        translated = i18n.t(lang, msgid) if "{" not in msgid else i18n.template(lang, msgid)
        if phrase in out and phrase not in translated:
            leaks.append(phrase)
    return leaks


@pytest.mark.parametrize("quiz_id", ["pipeline", "training-stacks"])
@pytest.mark.parametrize("lang", ["hi", "sn", "ur"])
def test_a_whole_game_in_the_language(tmp_path, lang, quiz_id):
    quiz = shipped().get(quiz_id)
    assert quiz is not None and lang in quiz.languages()
    result = play(tmp_path, quiz_id, "--lang", lang, stdin=ANSWERS + AFTER)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    out = bidi.strip(result.stdout)
    header, ack, over, stats = EXPECTED[lang]

    for number in range(1, 9):
        assert header.format(n=number) in out
    assert out.count(ack) == 8, "every answer acknowledged in the language"
    assert over in out and stats in out
    assert quiz.title.get(lang) in out
    for question in quiz.questions:
        assert question.prompt.get(lang) in out
        assert question.explanation.get(lang) in out
        for option in question.options:
            assert option.get(lang) in out
    leaks = leaked_english(out, lang)
    assert not leaks, f"English bot text in the {lang} game: {leaks}"
    if lang != "sn":  # Shona is written in Latin script: the phrase check above covers it
        texts = " ".join(t.get(lang) for q in quiz.questions for t in (q.prompt, q.explanation, *q.options))
        assert not stray_latin(out, texts + quiz.title.get(lang)), "untranslated text"
    assert (bidi.RLM in result.stdout) == (lang == "ur"), "only Urdu lines carry directional marks"


@pytest.mark.parametrize("lang", ["hi", "sn", "ur"])
def test_help_catalog_boards_and_settings_in_the_language(tmp_path, lang):
    """`quizhost play` without a topic shows help and the catalog; then the other commands."""
    result = play(
        tmp_path,
        "--lang",
        lang,
        stdin="/leaderboard week\n/stats\n/settings\n/settings time 2\n/language\n/language xx\n/nonsense\nhello\nb\n",
    )
    assert result.returncode == 0, result.stderr
    out = bidi.strip(result.stdout)
    for quiz in shipped().all():
        assert quiz.title.get(lang) in out
    assert not leaked_english(out, lang), leaked_english(out, lang)
    if lang != "sn":
        assert not stray_latin(out, "nonsense xx"), stray_latin(out)  # what the user typed comes back


def test_the_english_leak_check_catches_english(tmp_path):
    """The check above can fail: an English game is full of English bot text."""
    out = play(tmp_path, "pipeline", "--lang", "en", stdin="a\n").stdout
    assert "Locked in" in out and {"Locked in", "Question"} <= set(leaked_english(out, "hi"))
    assert {"Locked", "Question", "Right", "answer"} <= stray_latin(out)


# validate --strict and export, per language --------------------------------------------


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZHOST_", "TELEGRAM_", "DISCORD_"))}
    env.update(QUIZHOST_DB=str(tmp_path / "cli.db"))
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )


def four(en: str) -> str:
    return f"{{en: '{en}', hi: 'हि {en}', sn: 'sn {en}', ur: 'اردو {en}'}}"


ALMOST = f"""\
id: almost
title: {four("Almost")}
description: {four("A quiz with one text missing.")}
questions:
  - id: first
    prompt: {four("Which?")}
    options: [{four("one")}, {four("two")}]
    answer: 0
    explanation: {four("Because one. It is so.")}
  - id: second
    prompt: {four("And now?")}
    options: [{four("three")}, {four("four")}]
    answer: 1
    explanation: {{en: 'Because four. It is so.', hi: 'क्योंकि चार।', ur: 'کیونکہ چار۔'}}
"""


def test_validate_strict_passes_on_the_shipped_quizzes(tmp_path):
    result = cli(tmp_path, "validate", "--strict")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 quiz file(s) OK (strict): 4 loaded, 0 failed" in result.stdout  # the kinds tour, the trivia night


def test_validate_strict_names_the_missing_translation(tmp_path):
    path = tmp_path / "almost.yaml"
    path.write_text(ALMOST, encoding="utf-8")
    assert cli(tmp_path, "validate", str(path)).returncode == 0  # playable: English stands in
    result = cli(tmp_path, "validate", "--strict", str(path))
    assert result.returncode == 1
    problems = result.stdout.strip().splitlines()
    assert len(problems) == 1, problems
    assert all(part in problems[0] for part in ("almost.yaml", "almost", "'second'", "explanation", "'sn'"))
    assert "1 problem(s) found" in result.stderr


@pytest.mark.parametrize("lang", ["en", "hi", "sn", "ur"])
@pytest.mark.parametrize("quiz_id", ["pipeline", "training-stacks"])
def test_export_carries_the_language_text(tmp_path, quiz_id, lang):
    quiz = shipped().get(quiz_id)
    result = cli(tmp_path, "export", quiz_id, "--lang", lang, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["language"] == lang and data["title"] == quiz.title.by_lang[lang]
    for exported, question in zip(data["questions"], quiz.questions, strict=True):
        assert exported["prompt"] == question.prompt.by_lang[lang]  # the language's own text, no fallback
        assert exported["explanation"] == question.explanation.by_lang[lang]
        assert exported["options"] == [o.by_lang[lang] for o in question.options]
        assert exported["answer"] == question.answer
