"""The README and the pages under docs/ point at things that exist: every relative link at a file
(and a heading, after `#`), every `quizhost <command>` at a subcommand of the CLI, and every
QUIZHOST_*, TELEGRAM_* and DISCORD_* variable at a setting the bot reads. Pages were split and
moved; a link or a name left behind would otherwise send readers nowhere."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from bot.app.settings import Settings
from bot.cli import build_parser
from tests.support.paths import ROOT_DIR

PAGES = [ROOT_DIR / "README.md", *sorted((ROOT_DIR / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$", re.M)
# `quizhost X` where quizhost is the program run: at the start of a code span or line, after a
# path (.venv/bin/quizhost), a shell operator or prompt, or environment assignments
COMMAND = re.compile(r"(?:^\s*|/|(?:&&|\||\$)\s+|\b[A-Z_]+=\S*\s+)quizhost +([a-z][\w-]*)", re.M)
SETTING = re.compile(r"\b(?:QUIZHOST|TELEGRAM|DISCORD)_[A-Z0-9_]+\b")
ENV_LITERAL = re.compile(r"[\"']((?:QUIZHOST|TELEGRAM|DISCORD)_[A-Z0-9_]+)[\"']")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made dashes."""
    text = INLINE_CODE.sub(r"\1", heading).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        name, n = base, 0
        while name in found:  # GitHub numbers repeated headings: x, x-1, x-2
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def code_of(text: str) -> list[str]:
    """Every fenced block and inline code span: where commands are written to be run."""
    blocks = FENCE.findall(text)
    return blocks + INLINE_CODE.findall(FENCE.sub("", text))


def subcommands() -> set[str]:
    usage = build_parser().format_usage()  # "usage: quizhost [-h] {play,run,...} ..."
    choices = re.search(r"\{([\w,-]+)\}", usage)
    assert choices, usage
    return set(choices.group(1).split(","))


def known_settings() -> set[str]:
    """The settings the bot reads (case-insensitively, so upper case), and the few variables its
    code reads from the environment itself (QUIZHOST_PG_BIN for the test cluster)."""
    names = {name.upper() for name in Settings.model_fields}
    for source in [*(ROOT_DIR / "bot").rglob("*.py"), *(ROOT_DIR / "storage").rglob("*.py")]:
        names |= set(ENV_LITERAL.findall(source.read_text(encoding="utf-8")))
    return names


def link_problems(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    problems = []
    for target in LINK.findall(FENCE.sub("", text)):
        if re.match(r"[a-z][\w+.-]*:", target):  # https:, mailto:: not ours to check offline
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            problems.append(f"{page.name}: {target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text(encoding="utf-8")):
            problems.append(f"{page.name}: {target}: no such heading in {linked.name}")
    return problems


def command_problems(page: Path, commands: set[str]) -> list[str]:
    named = {name for code in code_of(page.read_text(encoding="utf-8")) for name in COMMAND.findall(code)}
    return [f"{page.name}: quizhost {name}: no such command" for name in sorted(named - commands)]


def setting_problems(page: Path, settings: set[str]) -> list[str]:
    named = set(SETTING.findall(page.read_text(encoding="utf-8")))
    return [f"{page.name}: {name}: no such setting" for name in sorted(named - settings)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_reaches_a_file_and_heading(page):
    assert link_problems(page) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_command_and_setting_named_exists(page):
    assert command_problems(page, subcommands()) + setting_problems(page, known_settings()) == []


def test_the_pages_are_there_and_name_commands_and_settings():
    """The checks above see what they should: the pages, and the names in them."""
    assert {"README.md", "ARCHITECTURE.md", "PERFORMANCE.md", "CONFIGURATION.md"} <= {p.name for p in PAGES}
    readme = (ROOT_DIR / "README.md").read_text(encoding="utf-8")
    assert {"play", "run", "bench"} <= {name for code in code_of(readme) for name in COMMAND.findall(code)}
    configuration = (ROOT_DIR / "docs" / "CONFIGURATION.md").read_text(encoding="utf-8")
    assert {"QUIZHOST_DB", "TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"} <= set(SETTING.findall(configuration))


def test_a_broken_link_a_missing_heading_a_made_up_command_and_setting_are_caught(tmp_path):
    (tmp_path / "OTHER.md").write_text("# Other page\n\n## Running `quizhost run`: the bot\n", encoding="utf-8")
    page = tmp_path / "PAGE.md"
    page.write_text(
        "# Page\n\n"
        "[fine](OTHER.md#running-quizhost-run-the-bot) [fine](#page) [web](https://example.org/x)\n"
        "[gone](MISSING.md) [no heading](OTHER.md#nowhere) [not here](#elsewhere)\n\n"
        "Run `quizhost play pipeline` or `QUIZHOST_DB=x.db .venv/bin/quizhost frobnicate --now`.\n"
        "```sh\ncreatedb -O quizhost quizhost\nquizhost bench && quizhost teleport\n```\n"
        "Set `QUIZHOST_DB` and QUIZHOST_MADE_UP; quizhost expects nothing else.\n",
        encoding="utf-8",
    )
    assert link_problems(page) == [
        "PAGE.md: MISSING.md: no such file",
        "PAGE.md: OTHER.md#nowhere: no such heading in OTHER.md",
        "PAGE.md: #elsewhere: no such heading in PAGE.md",
    ]
    assert command_problems(page, subcommands()) == [
        "PAGE.md: quizhost frobnicate: no such command",
        "PAGE.md: quizhost teleport: no such command",
    ]
    assert setting_problems(page, known_settings()) == ["PAGE.md: QUIZHOST_MADE_UP: no such setting"]
