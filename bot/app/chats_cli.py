"""`quizhost chats [--db DB]`: the chats the database holds, by the key the other commands take
(`quizhost results --chat KEY`, `quizhost stats --chat KEY`), with their names and activity."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime

from bot.app.cli_db import existing_database
from bot.app.settings import Settings
from bot.domain.records import PlayedChat
from bot.texts.textcut import visible


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="the database (default: QUIZHOST_DB)")


def main(args: argparse.Namespace, settings: Settings) -> int:
    db = existing_database("chats", args, settings)
    if db is None:
        return 1
    chats = asyncio.run(played_chats(settings.model_copy(update={"quizhost_db": db})))
    if not chats:
        print("quizhost chats: no chat has played a quiz in this database yet", file=sys.stderr)
        return 0
    print("\n".join(describe(chats)))
    return 0


async def played_chats(settings: Settings) -> list[PlayedChat]:
    from bot.app.wiring import open_house

    async with open_house(settings) as house:
        return await house.store.played_chats()


def describe(chats: list[PlayedChat]) -> list[str]:
    """One line per chat: key, quizzes played, last activity (UTC), name; the keys aligned. The
    name is the group's, chosen by anyone in it: shown with its control characters visible."""
    width = max(len(chat.chat_key) for chat in chats)
    return [
        f"{chat.chat_key:<{width}}  {chat.runs:>4} quiz(zes)  last {_when(chat.last_started)}"
        + (f"  {visible(chat.title)}" if chat.title else "")
        for chat in chats
    ]


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
