"""One `quizhost run` worker process against a fake Discord: `python -m tests.support.discord_worker API GATEWAY`.

The settings come from the environment as in production (QUIZHOST_DB, DISCORD_SHARD_COUNT,
DISCORD_SHARD_IDS, QUIZHOST_WORKER, ...); only discord.py's addresses point at the fake.
"""

from __future__ import annotations

import sys

import discord
import yarl

from bot import cli


def main(api_base: str, gateway_url: str) -> int:
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return cli.main(["run"])


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
