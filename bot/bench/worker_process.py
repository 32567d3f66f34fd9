"""The webhook workers of `quizhost bench --platform telegram --workers N` (and the interactions
endpoint workers of `--platform discord --http --workers N`): each a `quizhost run` process of
its own, configured only through its environment, as an operator would start it. discord.py has
no setting for its API's address: a Discord worker starts through this module, which points it
at the fake first (`python -m bot.bench.worker_process API_BASE`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from bot.bench.platform_process import QUESTION_SECONDS, free_port

HOOK_PATH = "telegram/hook"
ENDPOINT_PATH = "discord/interactions"
STOP_SECONDS = 30.0  # a clean stop lets the worker's leases go; past this it is killed


@dataclass(frozen=True)
class Pool:
    """What the workers of one pass share: the fake Bot API, its public address, the database."""

    api_url: str  # Telegram: TELEGRAM_API_URL; Discord: discord.py's API base
    token: str
    public_url: str  # the webhook URL every worker registers: the load balancer's (the fake's)
    secret: str  # one secret for all: Telegram sends the one it was given last; Discord: the public key
    db: str
    answers: str  # TELEGRAM_WEBHOOK_ANSWERS
    folder: Path  # working folder (no .env in it), logs and caches
    platform: str = "telegram"
    guild_ids: str = ""  # Discord: the servers whose commands are synced


class WorkerProcess:
    """`python -m bot.cli run` listening on its own loopback port; its stderr goes to a log file."""

    def __init__(self, name: str, port: int, process: asyncio.subprocess.Process, log: Path, path: str) -> None:
        self.name, self.port, self.process, self.log, self.path = name, port, process, log, path

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.path}"

    @classmethod
    async def spawn(cls, pool: Pool, name: str) -> WorkerProcess:
        port = free_port()
        log = pool.folder / f"{name}.log"
        with log.open("wb") as sink:  # the child keeps its own descriptor
            run = ["bot.cli", "run"] if pool.platform == "telegram" else [__name__, pool.api_url]
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                *run,
                cwd=pool.folder,
                env=environment(pool, name, port),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=sink,
                stderr=sink,
            )
        return cls(name, port, process, log, HOOK_PATH if pool.platform == "telegram" else ENDPOINT_PATH)

    def cpu_seconds(self) -> float:
        """User and system CPU time of the process so far (Linux /proc; 0 elsewhere)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime

    def trouble(self) -> str:
        tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
        return f"worker {self.name} ended with exit code {self.process.returncode}:\n{tail}"

    async def stop(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


def environment(pool: Pool, name: str, port: int) -> dict[str, str]:
    """Every setting of the worker: nothing of this machine's environment or .env reaches it."""
    common = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(pool.folder),
        "XDG_CACHE_HOME": str(pool.folder / "cache"),
        "LOG_LEVEL": "WARNING",
        "QUIZHOST_DB": pool.db,
        "QUIZHOST_WORKER": name,
        "QUIZHOST_QUIZZES": "",
        "QUIZHOST_QUESTION_SECONDS": str(QUESTION_SECONDS),
        "QUIZHOST_PAUSE_SECONDS": "0",
    }
    if pool.platform == "discord":
        return {
            **common,
            "PYTHONPATH": os.pathsep.join(sys.path),  # this interpreter's bot package, installed or not
            "DISCORD_BOT_TOKEN": pool.token,
            "DISCORD_GUILD_IDS": pool.guild_ids,
            "DISCORD_INTERACTIONS_LISTEN": f"127.0.0.1:{port}/{ENDPOINT_PATH}",
            "DISCORD_PUBLIC_KEY": pool.secret,
        }
    return {
        **common,
        "TELEGRAM_BOT_TOKEN": pool.token,
        "TELEGRAM_API_URL": pool.api_url,
        "TELEGRAM_WEBHOOK_URL": pool.public_url,
        "TELEGRAM_WEBHOOK_LISTEN": f"127.0.0.1:{port}",
        "TELEGRAM_WEBHOOK_SECRET": pool.secret,
        "TELEGRAM_WEBHOOK_ANSWERS": pool.answers,
    }


async def while_alive(workers: list[WorkerProcess], work: asyncio.Future | asyncio.Task) -> dict:
    """`work`'s answer, unless a worker ends first (then its log's end is the error)."""
    ends = {asyncio.ensure_future(w.process.wait()): w for w in workers}
    try:
        await asyncio.wait({work, *ends}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for end in ends:
            end.cancel()
    if not work.done():
        work.cancel()
        dead = next(w for w in workers if w.process.returncode is not None)
        raise RuntimeError(dead.trouble())
    return work.result()


def discord_worker(api_base: str) -> int:
    """`quizhost run` (its settings from the environment) with discord.py's REST calls going to
    `api_base`, the fake's."""
    import discord

    from bot.app.logs import setup_logging
    from bot.app.settings import load_settings
    from bot.app.wiring import run

    discord.http.Route.BASE = api_base
    settings = load_settings(env_file=None)
    assert settings.discord_bot_token is not None
    setup_logging(settings.log_level, [settings.discord_bot_token.get_secret_value()])
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(discord_worker(sys.argv[1]))
