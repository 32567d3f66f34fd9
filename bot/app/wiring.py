"""Wiring: settings -> catalog, store, engine, commands and the adapters, in one process."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from bot.adapters.console.terminal import TERMINAL, ConsoleAdapter, stdin_lines
from bot.adapters.ops.http import OpsServer
from bot.adapters.ops.metrics import Operations, Worker
from bot.app import platforms
from bot.app.compose import House, compose
from bot.app.interpreter import serving_interpreter
from bot.app.readers import ReaderPool
from bot.app.settings import Settings, SettingsError
from bot.commands.weblinks import WebAddress
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain import session
from bot.engine.run_start import EngineSettings
from bot.engine.workers import LeaseKeeper
from bot.ports.clock import Clock, SystemClock
from bot.ports.store import Store
from bot.texts.i18n import t
from storage.dburl import Kind
from storage.dburl import parse as parse_database
from storage.sqlite.store import SqliteStore

if TYPE_CHECKING:  # imported when their token is set: a bot for one platform never loads the other's library
    from bot.adapters.discord.adapter import DiscordAdapter
    from bot.adapters.telegram.adapter import TelegramAdapter

    PlatformAdapter = TelegramAdapter | DiscordAdapter

log = logging.getLogger("quizhost")

POLLING_TAKEN = (
    "quizhost: another worker on this database (QUIZHOST_DB) already long-polls Telegram, and only "
    "one may: run several workers with the webhook (TELEGRAM_WEBHOOK_URL), or stop the other one."
)
NAME_TAKEN = (
    "quizhost: QUIZHOST_WORKER: a live worker on this database is already named {name!r}: give "
    "each worker its own name, or leave QUIZHOST_WORKER unset (the default, host:pid, is unique)."
)


def engine_settings(settings: Settings, pause: float | None = None) -> EngineSettings:
    return EngineSettings(
        question_seconds=settings.quizhost_question_seconds,
        pause_seconds=settings.quizhost_pause_seconds if pause is None else pause,
        default_language=settings.quizhost_language,
        suggestions_per_day=settings.quizhost_suggestions_per_day,
        suggestions_waiting=settings.quizhost_suggestions_waiting,
    )


def catalog_cache(settings: Settings) -> Path:
    """The catalog index: beside an SQLite database (the bot's own writable place), else in
    the user's cache folder, one index per set of quiz folders."""
    try:
        chosen = parse_database(settings.quizhost_db)
    except ValueError:  # open_store says what is wrong with it
        chosen = None
    if chosen is not None and chosen.kind is Kind.SQLITE:
        db = Path(chosen.location)
        return db.with_name(db.name + ".catalog.json")
    folders = "\n".join(str(p.resolve()) for p in default_quiz_folders() + settings.quiz_folders())
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "quizhost" / f"catalog-{hashlib.sha256(folders.encode()).hexdigest()[:16]}.json"


@contextlib.asynccontextmanager
async def open_house(
    settings: Settings, clock: Clock | None = None, pause: float | None = None
) -> AsyncIterator[House]:
    async with open_store_and_house(settings, clock, pause) as (_, house):
        yield house


@contextlib.asynccontextmanager
async def open_store_and_house(
    settings: Settings, clock: Clock | None = None, pause: float | None = None
) -> AsyncIterator[tuple[Store, House]]:
    """The store with every role (the platforms' adapters take theirs from it) and the house on its core."""
    # the database first: one that cannot be used is refused in its one line before anything
    # else is said or written (the catalog's index lives beside an SQLite file)
    store = await open_store(settings.quizhost_db, settings.quizhost_worker)
    readers = ReaderPool()  # uploaded files are read in these processes, never on the event loop
    try:
        catalog = Catalog.load(default_quiz_folders() + settings.quiz_folders(), cache=catalog_cache(settings))
        web = WebAddress(settings.quizhost_web_url, settings.web_secret())
        yield store, compose(catalog, store, clock or SystemClock(), engine_settings(settings, pause), web, readers)
    finally:
        await readers.close()
        await store.close()


async def open_store(target: str, worker: str = "") -> Store:
    """QUIZHOST_DB -> the store it names: the one place that picks a storage implementation.

    A file path or sqlite:///path (SQLAlchemy's spelling: sqlite:////abs/path for an absolute
    one) is SQLite; postgresql:// or postgres:// is PostgreSQL (asyncpg is imported only then).
    A database URL may hold a password: no message here ever shows one. `worker`: this
    process's name in the runs it leases on PostgreSQL (QUIZHOST_WORKER; default host:pid).
    """
    try:
        chosen = parse_database(target)
    except ValueError as exc:
        raise SettingsError(f"QUIZHOST_DB: {exc}") from None
    if chosen.kind is Kind.POSTGRES:
        from storage.postgres.store import PostgresStore

        return await PostgresStore.open(chosen.location, owner=worker)
    return await SqliteStore.open(chosen.location)


def listen_address(listen: str) -> tuple[str, int]:
    """'127.0.0.1:8080' -> ('127.0.0.1', 8080); port 0 lets the system choose one."""
    host, _, port = listen.strip().rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise ValueError('must be "host:port", for example 127.0.0.1:8080 or 0.0.0.0:8080')
    return host.strip("[]"), int(port)


def signal_stop() -> asyncio.Event:
    """An event set by SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    return stop


async def play(settings: Settings, topic: str, lang: str | None, name: str | None) -> int:
    """The terminal chat; with piped input, answers queue up and there is no pause."""
    piped = not sys.stdin.isatty()
    async with open_house(settings, pause=0.0 if piped else None) as house:
        engine, commands = house.engine, house.commands
        if name is None:  # "You" in the language the chat will have: the same player every game
            name = t(lang or await house.chats.language_for(TERMINAL), "You")
        console = ConsoleAdapter(name=name, queue_answers=piped)
        engine.attach(console)
        await engine.resume()
        timers = asyncio.create_task(engine.serve())
        schedules = asyncio.create_task(house.scheduler.serve())
        from bot.app.web import web_pages_for_run

        try:
            # with QUIZHOST_WEB_URL, the pages too: the big screen follows this process's runs
            async with web_pages_for_run(settings, house, []):
                await open_terminal(house, console, topic, lang)
                await console.serve(commands, stdin_lines(asyncio.get_running_loop()))
        finally:
            for task in (timers, schedules):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await house.sender.flush_due()  # the terminal always takes them: show them all
    return 0


async def open_terminal(house: House, console: ConsoleAdapter, topic: str, lang: str | None) -> None:
    """The first lines of `quizhost play`: --lang, set as /language sets it (kept for later games);
    the quiz asked for, or the help and the quizzes; and a quiz still open from a terminal that
    was closed shows its open question again at once (not only when it closes)."""
    commands, engine = house.commands, house.engine
    if lang:
        await console.handle_line(commands, f"/language {lang}")
    resumed = engine.run_in(console.chat)
    if resumed is None or topic:  # with a quiz running, /quiz <topic> says so
        await console.handle_line(commands, f"/quiz {topic}" if topic else "/help")
        if not topic:
            await console.handle_line(commands, "/quizzes")
    if resumed is not None and resumed.is_asking and house.clock.now() < resumed.row.due:
        await console.post_question(session.card(resumed))


def platform_adapters(settings: Settings) -> list[PlatformAdapter]:
    """An adapter for every platform whose token is set."""
    adapters: list[PlatformAdapter] = []
    if settings.telegram_bot_token:
        adapters.append(platforms.telegram_adapter(settings))
    if settings.discord_bot_token:
        adapters.append(platforms.discord_adapter(settings))
    return adapters


async def run(settings: Settings, clock: Clock | None = None, stop: asyncio.Event | None = None) -> int:
    """`quizhost run`; tests pass a fake clock and their own stop event instead of a signal."""
    adapters = platform_adapters(settings)
    if not adapters:
        print(
            "quizhost: no platform token is set. Set TELEGRAM_BOT_TOKEN and/or DISCORD_BOT_TOKEN "
            "in the environment or in .env (see .env.example), or try a quiz here with `quizhost play`.",
            file=sys.stderr,
        )
        return 2
    async with open_store_and_house(settings, clock=clock) as (store, house):
        engine = house.engine
        # several workers on PostgreSQL: only the runs nobody holds
        keeper = LeaseKeeper.of(engine, store, house.sender)
        if keeper is not None and not await keeper.leases.hold_name():
            print(NAME_TAKEN.format(name=settings.quizhost_worker.strip()), file=sys.stderr)
            return 2  # first: closing, it lets go of no lease of that name's
        if any(getattr(a, "polls", False) for a in adapters) and not await store.hold_polling():
            print(POLLING_TAKEN, file=sys.stderr)  # before it takes any run: it is not going to run them
            return 2
        for adapter in adapters:
            engine.attach(adapter)
        resumed = await (keeper.start() if keeper else engine.resume())
        log.info("resumed %d open run(s)", resumed)
        from bot.app.memory import return_large_buffers
        from bot.app.web import web_pages_for_run

        return_large_buffers()

        async with web_pages_for_run(settings, house, adapters):
            with serving_interpreter(settings.quizhost_interpreter_tuning):
                await serve_until_signal(house, adapters, store, stop, keeper, settings.quizhost_ops_listen)
    return 0


async def serve_until_signal(
    house: House,
    adapters: list[PlatformAdapter],
    store: Store,
    stop: asyncio.Event | None = None,
    keeper: LeaseKeeper | None = None,
    ops_listen: str = "",
) -> None:
    """Run the timers and every adapter until SIGINT/SIGTERM (or `stop` is set), then stop them all cleanly.

    `store`: the engine's, whose platforms' roles the adapters take; `keeper` (PostgreSQL)
    renews this worker's leases and takes over a dead worker's runs;
    `ops_listen` ("host:port") serves /healthz and /metrics."""
    stop = stop or signal_stop()
    engine, commands = house.engine, house.commands
    timers = asyncio.create_task(engine.serve(), name="timers")
    schedules = asyncio.create_task(house.scheduler.serve(), name="schedules")
    assignments = asyncio.create_task(house.assignments.serve(), name="assignments")
    tasks = [
        timers,
        schedules,
        assignments,
        *(asyncio.create_task(a.serve(commands, store), name=a.platform) for a in adapters),
    ]
    watch = getattr(store, "watch", None)  # SQLite: stop when the file is deleted or replaced
    if watch is not None:
        tasks.append(asyncio.create_task(watch(), name="database"))
    if keeper is not None:
        tasks.append(asyncio.create_task(keeper.serve(), name="leases"))
    if ops_listen:
        host, _, port = ops_listen.rpartition(":")
        worker = Worker(engine, house.press_outcomes, store)
        ops = OpsServer(Operations(worker, keeper, adapters), host.strip("[]"), int(port))
        tasks.append(asyncio.create_task(ops.serve(), name="ops"))
    stopper = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait([stopper, *tasks], return_when=asyncio.FIRST_COMPLETED)
    # no new steps; messages in flight get DRAIN_SECONDS while the platforms are still connected;
    # what is left stays in the outbox for the next start
    stopper.cancel()
    timers.cancel()
    schedules.cancel()
    assignments.cancel()
    await engine.stop_sending() if stopper in done else await engine.stop_sending(0.0)  # a task failed: no wait
    for running in tasks:
        running.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:
        failure = None if task is stopper or task.cancelled() else task.exception()
        if failure is not None:
            raise failure
