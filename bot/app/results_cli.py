"""`quizhost results [--chat CHAT] --format csv|xlsx [--since DATE] [--output FILE]`: every answer
of a chat as a file, as its web page's download gives it (bot/commands/sheets.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from bot.app.chats_cli import describe
from bot.app.cli_db import existing_database
from bot.app.outputs import made_ready
from bot.app.settings import Settings
from bot.commands import sheets
from bot.commands.downloads import write_results
from bot.commands.results import chat_result_pages, chat_zone, day_start
from bot.domain.records import PlayedChat
from bot.texts.i18n import normalise


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--chat",
        help="the chat's key, e.g. telegram:-100123 (quizhost play's: console:terminal; quizhost chats lists them); "
        "default: the only chat in the database",
    )
    parser.add_argument(
        "--format", dest="kind", choices=sheets.FORMATS, default="csv", help="the file's format (default: csv)"
    )
    parser.add_argument("--since", metavar="DATE", help="answers from this day on, YYYY-MM-DD in the chat's time zone")
    parser.add_argument("--output", "-o", type=Path, help="write the file here (default: standard output)")
    parser.add_argument("--db", help="the database (default: QUIZHOST_DB)")


def main(args: argparse.Namespace, settings: Settings) -> int:
    db = existing_database("results", args, settings)
    if db is None:
        return 1
    if args.kind == "xlsx" and args.output is None and sys.stdout.isatty():
        print("quizhost results: an .xlsx file is not for a terminal; give --output FILE", file=sys.stderr)
        return 2
    found = asyncio.run(_results(args, settings.model_copy(update={"quizhost_db": db})))
    if isinstance(found, str):  # what was wrong
        print(f"quizhost results: {found}", file=sys.stderr)
        return 1
    if args.output is not None:
        print(f"{args.output}: {found} row(s) written", file=sys.stderr)  # a row per question asked of a player
    return 0


async def _results(args: argparse.Namespace, settings: Settings) -> int | str:
    """How many answers were written; what was wrong, before anything was written."""
    from bot.app.wiring import open_house

    async with open_house(settings) as house:
        store = house.store
        if args.chat is None:
            chats = await store.played_chats()
            if len(chats) != 1:
                return _pick_one(chats)
            args.chat = chats[0].chat_key
        if not await store.run_count(args.chat):
            return f"the chat {args.chat} has played no quiz in this database (keys look like telegram:-100123)"
        since = None
        if args.since:
            try:
                since = day_start(args.since, await chat_zone(house.results, args.chat))
            except ValueError:
                return f"--since {args.since}: write the day as YYYY-MM-DD, for example 2026-01-31"
        lang = normalise((await store.chat_settings(args.chat)).language) or house.settings.default_language
        pages = chat_result_pages(house.results, args.chat, lang, since)
        with _opened(args.output) as out:  # written page by page, as the web page's download

            async def write(data: bytes) -> None:
                out.write(data)

            count = await write_results(pages, args.kind, write)
            out.flush()
        return count


def _pick_one(chats: list[PlayedChat]) -> str:
    if not chats:
        return "no chat has played a quiz in this database yet"
    listed = "\n".join(f"  {line}" for line in describe(chats))
    return f"the database holds {len(chats)} chats; pick one with --chat KEY:\n{listed}"


@contextmanager
def _opened(path: Path | None) -> Iterator[BinaryIO]:
    if path is None:
        yield sys.stdout.buffer
        return
    with made_ready(path).open("wb") as out:
        yield out
