"""The command table (bot/commands/table.py) is what the docs say: docs/COMMANDS.md is made from
it, and README.md and docs/ name no command it lacks.

After changing the table, write the page again:

    python -m tests.unit.test_command_table
"""

from __future__ import annotations

import re

from bot.commands import table
from bot.commands.table import Command, Rights
from bot.domain import tokens
from bot.texts.i18n import shown
from tests.support.paths import ROOT_DIR

PAGE = ROOT_DIR / "docs" / "COMMANDS.md"
PAGES = [ROOT_DIR / "README.md", *sorted((ROOT_DIR / "docs").glob("*.md"))]
CODE = re.compile(r"`([^`\n]+)`")
NAMED = re.compile(r"^/([a-z_]+)(?=$|[\s@\[<])")  # `/quiz`, `/quiz topic`, `/edit N`; not `/usr/lib`
NOT_OURS = {
    "healthz": "the health check's HTTP path",
    "metrics": "the metrics' HTTP path",
    "root": "a folder",
    "newbot": "BotFather's command",
}
WHO = {
    Rights.ANYONE: "anyone",
    Rights.ADMINS: "the chat's admins, for what it changes",
    Rights.MODERATORS: "its starter, or an admin (Discord: who manages messages)",
}


def _row(command: Command) -> str:
    names = " ".join(f"`/{n}`" for n in (command.name, *command.aliases))
    options = ", ".join(f"`{o.name}`" + (" (required)" if o.required else "") for o in command.options)
    menu = shown("en", command.menu) if command.menu is not None else ""
    lines = [shown("en", line) for line in (command.help.chat, command.help.typed) if line is not None]
    where = "the terminal" if command.run is None else "every platform"
    said = lines[0] if lines else command.doc
    cells = (names, options, WHO[command.rights], where, menu or "—", said)
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def markdown() -> str:
    """docs/COMMANDS.md, from the table."""
    return "\n".join(
        [
            "# Commands",
            "",
            "Every command quizhost takes, as `bot/commands/table.py` declares it (this page is written",
            "from that table: `python -m tests.unit.test_command_table`). Telegram's command menu and",
            "Discord's slash commands list those with a menu line; the options are Discord's (on Telegram",
            "and in the terminal they are the words after the command).",
            "",
            "| command | options | who may use it | where | menu line | what it does (/help) |",
            "| --- | --- | --- | --- | --- | --- |",
            *(_row(c) for c in table.COMMANDS),
            "",
        ]
    )


def test_the_commands_page_is_the_table():
    assert PAGE.read_text(encoding="utf-8") == markdown(), (
        "docs/COMMANDS.md is stale: python -m tests.unit.test_command_table"
    )


def test_the_docs_name_only_commands_of_the_table():
    names = {n for c in table.COMMANDS for n in (c.name, *c.aliases)}
    named = {
        (page.name, found[1])
        for page in PAGES
        for span in CODE.findall(page.read_text(encoding="utf-8"))
        if (found := NAMED.match(span)) is not None
    }
    assert {(page, name) for page, name in named if name not in names and name not in NOT_OURS} == set()
    assert names - {name for _, name in named} == set(), "a command no page names"


def test_every_command_is_said_somewhere():
    for command in table.COMMANDS:
        assert command.menu or command.help.chat or command.help.typed or command.doc, command.name


if __name__ == "__main__":
    PAGE.write_text(markdown(), encoding="utf-8")


def test_each_name_is_one_command_and_each_pick_has_its_command():
    names = [n for c in table.COMMANDS for n in (c.name, *c.aliases)]
    assert len(names) == len(set(names))
    for data in (tokens.quiz_pick("tiny"), tokens.language_pick("hi")):
        pick = tokens.pick(data)
        assert pick is not None and table.picked(pick.kind) is not None, data
