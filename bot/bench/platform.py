"""`quizhost bench --platform telegram|discord`: presses through the real adapters.

The bot is the real `quizhost run` wiring (`bot.app.wiring.run`: engine, SQLite, the adapter and its
library) in this process; the fake platform of the end-to-end tests runs in another process on
127.0.0.1 (bot/bench/platform_fake.py) and plays players in many chats. Phases:

1. flat out: `--chats` x `--players` presses on the open first questions, `--window` of them
   waiting for their acknowledgement at any time (after a warm-up round of `--window` presses);
2. offered rate: `--rate` presses a second for `--rate-seconds`, whatever the bot keeps up with;
3. the reference: a bare aiohttp client acknowledging as many presses directly, 16 at a time.

Telegram runs twice, long polling and webhook; with `--ptb-default-request` a third time, long
polling on PTB's default request class (phase 1 only).

Every latency is measured by the fake: press made visible to the bot -> acknowledgement received.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import resource
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from platform import python_version
from typing import Any, TypeVar

from bot.bench import DEFAULT_RATE, parse_rate, tuning
from bot.bench.machine import cpu_times, stolen_percent
from bot.bench.platform_process import FakeProcess, bot_settings, free_port, pointed_at

T = TypeVar("T")
PLATFORM_RATE = 500.0  # presses a second offered with --platform unless --rate says otherwise
TOPIC = "pipeline"
START_TIMEOUT = 300.0  # Telegram's flood limits pace the first messages: about 30 a second in all
RAW_RUNS = 3  # the reference is measured this many times at least; the median counts


def add_platform_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("presses through the real adapters (--platform)")
    group.add_argument(
        "--platform",
        choices=["telegram", "discord"],
        help="bench the real `quizhost run` wiring against the fake platform in another process: "
        "--chats x --players presses flat out (--window in flight), then --rate presses/s "
        f"(default {PLATFORM_RATE:g} here) for --rate-seconds, then a bare aiohttp client",
    )
    group.add_argument(
        "--ptb-default-request",
        action="store_true",
        help="telegram: also run the flat-out phase on PTB's default (httpx) request class",
    )
    group.add_argument(
        "--webhook-answers",
        choices=["reply", "request"],
        default="reply",
        help="telegram, webhook pass: answer presses in the webhook's reply (default) or with a "
        "request (TELEGRAM_WEBHOOK_ANSWERS)",
    )
    group.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="telegram, or discord with --http: presses through N webhook (endpoint) workers "
        "(`quizhost run` processes) on the one PostgreSQL of --db, and through one, in the same run; "
        "needs --db postgresql://...",
    )
    group.add_argument(
        "--http",
        action="store_true",
        help="discord: interactions posted, signed, to the bot's endpoint (DISCORD_INTERACTIONS_LISTEN) "
        "instead of the gateway, at most 100 in flight (the fake's connections to it); the reference "
        "is then a bare aiohttp handler (verify + ack); with --workers N, through N endpoint workers",
    )
    group.add_argument("--raw-concurrency", type=int, default=16, help="requests in flight for the bare client")


@dataclass(frozen=True)
class PlatformOptions:
    platform: str
    chats: int = 100
    players: int = 50
    window: int = 1000
    rate: float = PLATFORM_RATE  # 0 skips the offered-rate phase
    rate_seconds: float = 4.0
    raw_concurrency: int = 16
    ptb_default_request: bool = False
    webhook_answers: str = "reply"  # telegram's webhook pass: "reply" or "request"
    http: bool = False  # discord: the interactions endpoint instead of the gateway
    profile: str | None = None
    folder: str | None = None
    tuning: tuple[bool, ...] = (True,)  # the bot's interpreter tuning, each way in turn (bot/bench/tuning.py)


def options_from(args: argparse.Namespace) -> PlatformOptions:
    # --rate is the engine bench's flag too: its default (a share of flat out) means PLATFORM_RATE
    # here; a share given on purpose has no flat out to be a share of (refused: rate -1)
    given, share = parse_rate(args.rate)
    rate = PLATFORM_RATE if args.rate == DEFAULT_RATE else -1.0 if given is None or share is not None else given
    return PlatformOptions(
        platform=args.platform,
        chats=args.chats,
        players=args.players,
        window=args.window,
        rate=rate,
        rate_seconds=args.rate_seconds,
        raw_concurrency=args.raw_concurrency,
        ptb_default_request=args.ptb_default_request,
        webhook_answers=args.webhook_answers,
        http=args.http,
        profile=args.profile,
        folder=args.keep,
        tuning=tuning.ways(args.tuning),
    )


def main(args: argparse.Namespace) -> int:
    from bot.bench.platform_report import table

    if args.workers is not None:
        return _workers(args)
    options = options_from(args)
    problem = _problem(options) or (
        "--db is for the engine bench and for --workers; the single-process "
        "platform bench keeps its data in SQLite files"
        if args.db
        else None
    )
    if problem:
        print(f"quizhost bench: {problem}", file=sys.stderr)
        return 2

    def progress(text: str) -> None:
        print(f"… {text}", file=sys.stderr, flush=True)

    result = asyncio.run(bench_platform(options, progress))
    print(json.dumps(result) if args.json else table(result))
    return 0


def _workers(args: argparse.Namespace) -> int:
    from bot.bench import platform_workers

    problem = platform_workers.problem(args)
    if problem:
        print(f"quizhost bench: {problem}", file=sys.stderr)
        return 2
    return platform_workers.main(args)


def _problem(options: PlatformOptions) -> str | None:
    small = [
        name
        for name, value in (
            ("--chats", options.chats),
            ("--players", options.players),
            ("--window", options.window),
            ("--raw-concurrency", options.raw_concurrency),
        )
        if value < 1
    ]
    if small or options.rate < 0 or options.rate_seconds <= 0:
        return f"these must be positive: {', '.join(small) or '--rate/--rate-seconds'}"
    if options.ptb_default_request and options.platform != "telegram":
        return "--ptb-default-request is for --platform telegram"
    if options.http and options.platform != "discord":
        return "--http is for --platform discord (Telegram's webhook pass runs anyway)"
    return None


@dataclass(frozen=True)
class Pass:
    """One `quizhost run` against the fake, configured one way."""

    mode: str  # polling | webhook | gateway | endpoint
    http: str = "aiohttp"  # telegram: the request class
    webhook: str | None = None  # telegram webhook: "reply" or "request", how presses are answered
    rate: float = 0.0  # 0: no offered-rate phase


def passes(options: PlatformOptions) -> list[Pass]:
    if options.platform == "discord":
        return [Pass("endpoint" if options.http else "gateway", rate=options.rate)]
    chosen = [Pass("polling", rate=options.rate), Pass("webhook", webhook=options.webhook_answers, rate=options.rate)]
    if options.ptb_default_request:  # the request class is all that differs: long polling, as the first
        chosen.append(Pass("polling", http="httpx"))
    return chosen


async def bench_platform(options: PlatformOptions, progress: Callable[[str], None] = lambda text: None) -> dict:
    from bot.bench.platform_raw import median_run  # aiohttp: not imported to build the CLI

    if options.http:
        options = replace(options, window=endpoint_window(options.window))
    with tempfile.TemporaryDirectory(prefix="quizhost-platform-bench-") as scratch:
        folder = Path(options.folder or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        result: dict[str, Any] = {
            "config": {**asdict(options), **versions(options.platform), "topic": TOPIC},
            "modes": {},
        }
        raws: list[dict] = []
        ways: dict[str, dict] = {}
        for k, way in enumerate(options.tuning):
            # each way against a fake of its own: the second bot is not measured by a fake that
            # still holds the first one's chats and messages (a Discord fake also still counts
            # the first one's command syncs and sessions)
            chosen = [p for p in passes(options) if k == 0 or p.http == "aiohttp"]
            last = k == len(options.tuning) - 1
            async with await FakeProcess.spawn(options.platform) as fake:
                ways[tuning.name(way)] = await _passes(fake, options, (chosen, way), folder, raws, last, progress)
        result["raw"] = median_run(raws)
        modes = ways[tuning.name(options.tuning[0])]
        if "httpx" in modes:
            result["httpx"] = modes.pop("httpx")
        result["modes"] = modes
        for figures in (f for by_mode in ways.values() for f in by_mode.values()):
            figures["ratio"] = _ratio(figures["flat_out"]["per_s"], result["raw"]["per_s"])
        result["config"]["tuning"] = list(ways)
        result["tuning"] = {way: {m: _way_figures(f) for m, f in by_mode.items()} for way, by_mode in ways.items()}
        if "httpx" in result:
            result["aiohttp_over_httpx"] = _ratio(
                result["modes"]["polling"]["flat_out"]["per_s"], result["httpx"]["flat_out"]["per_s"]
            )
    return result


async def _passes(
    fake: FakeProcess,
    options: PlatformOptions,
    bots: tuple[list[Pass], bool],
    folder: Path,
    raws: list[dict],
    last: bool,
    progress: Callable[[str], None],
) -> dict[str, dict]:
    """`bots`: the passes, and the interpreter tuning they run with; their figures by mode ("httpx"
    for PTB's default request class). The reference is measured after every pass into `raws`,
    and at least RAW_RUNS times in all by the `last` fake: on a shared machine one run of it can
    be half another; the median of several, spread out, is steadier."""
    chosen, way = bots
    figures: dict[str, dict] = {}
    for n, bench in enumerate(chosen):
        db = folder / f"bot-{n}-{tuning.name(way)}.db"
        figures["httpx" if bench.http == "httpx" else bench.mode] = await _bot_pass(
            fake, options, bench, db, progress, way
        )
        for _ in range(max(1, RAW_RUNS - len(raws)) if last and n == len(chosen) - 1 else 1):
            raws.append(await _reference(fake, options, progress))
    return figures


async def _reference(fake: FakeProcess, options: PlatformOptions, progress: Callable[[str], None]) -> dict:
    """The bare aiohttp client acknowledging presses, or with --http the bare aiohttp handler."""
    from bot.bench.platform_raw import raw_rate

    presses = options.chats * options.players
    if options.http:
        from bot.bench.platform_endpoint import bare_rate

        progress(f"bare aiohttp handler (verify + ack), {options.window} in flight")
        return await bare_rate(fake, presses, options.window)
    progress(f"bare aiohttp client, {options.raw_concurrency} at a time")
    return await raw_rate(fake, options.platform, presses, options.raw_concurrency)


def _way_figures(figures: dict) -> dict:
    """A pass's figures to set beside the same pass with the other interpreter tuning."""
    return {
        "per_s": figures["flat_out"]["per_s"],
        "acked": figures["flat_out"]["acked"] + figures.get("offered", {}).get("acked", 0),
        "missing": figures["flat_out"]["missing"] + figures.get("offered", {}).get("missing", 0),
        "ratio": figures["ratio"],
        "flat_out_ack_ms": figures["flat_out"]["ack_ms"],
        "offered_ack_ms": figures["offered"]["ack_ms"] if "offered" in figures else None,
        "bot_cpu_us_per_press": figures["bot_cpu_us_per_press"],
    }


async def _bot_pass(
    fake: FakeProcess,
    options: PlatformOptions,
    bench: Pass,
    db: Path,
    progress: Callable[[str], None],
    way: bool = True,
) -> dict:
    """One `quizhost run` against the fake: start the quizzes, flat out, then the offered rate.
    `way`: the bot's interpreter tuning (QUIZHOST_INTERPRETER_TUNING)."""
    from bot.app.wiring import run

    presses = options.chats * options.players
    # a warm-up round first: connection pools fill (discord.py opens one per interaction in
    # flight) and caches warm, as in a bot that has been up for a while
    warm = min(options.window, presses)
    rate_chats = math.ceil(bench.rate * options.rate_seconds / options.players) if bench.rate else 0
    extra = rate_chats + math.ceil(warm / options.players)
    chats = await fake.ask("setup", chats=options.chats + extra, players=options.players)
    stop = asyncio.Event()
    result: dict[str, Any] = {"mode": _describe(bench), "tuning": tuning.name(way)}
    endpoint = ""
    if bench.mode == "endpoint":
        from bot.bench.platform_endpoint import endpoint_url

        endpoint = endpoint_url(free_port())
        await fake.ask("use_endpoint", url=endpoint)
    settings = bot_settings(options.platform, fake.info, chats, db, bench.http, bench.webhook, endpoint)
    settings = settings.model_copy(update={"quizhost_interpreter_tuning": way})
    with pointed_at(fake.info if options.platform == "discord" else None):
        bot = asyncio.create_task(run(settings, stop=stop))
        try:
            progress(f"{result['mode']}, tuning {tuning.name(way)}: /quiz {TOPIC} in {options.chats + extra} chats")
            result["start"] = await _while(bot, fake.ask("start", topic=TOPIC, timeout=START_TIMEOUT))
            progress(f"warm-up: {warm:,} presses")
            result["warm_up"] = await _while(bot, fake.ask("flat", presses=warm, window=options.window))
            progress(f"flat out: {presses:,} presses, {options.window} in flight")
            cpu, machine = _cpu(), cpu_times()
            profile = _profile_path(options, bench)
            result["flat_out"] = await _profiled(
                profile, _while(bot, fake.ask("flat", presses=presses, window=options.window))
            )
            result["bot_cpu_us_per_press"] = _per_press(_cpu() - cpu, result["flat_out"]["acked"])
            result["flat_out"]["cpu_stolen_pct"] = stolen_percent(machine, cpu_times())
            if bench.rate:
                progress(f"offered rate: {bench.rate:g} presses/s for {options.rate_seconds:g} s")
                machine = cpu_times()
                result["offered"] = await _while(bot, fake.ask("rate", rate=bench.rate, seconds=options.rate_seconds))
                result["offered"]["offered_per_s"] = bench.rate
                result["offered"]["cpu_stolen_pct"] = stolen_percent(machine, cpu_times())
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(bot, return_exceptions=True), 30)
    return result


def endpoint_window(window: int) -> int:
    """Presses in flight to an interactions endpoint: at most the fake's connections to it. More
    would queue inside the fake, out of the bot's sight, until their answers came past Discord's
    3 s and were refused; the bare handler gets the same."""
    from bot.testing.fake_discord_endpoint import CONNECTIONS

    return min(window, CONNECTIONS)


def _describe(bench: Pass) -> str:
    if bench.mode == "gateway":
        return "discord.py on the gateway"
    if bench.mode == "endpoint":
        return "interactions endpoint (signed posts, answered in the reply), discord.py for REST"
    client = "aiohttp request class" if bench.http == "aiohttp" else "PTB's default request class (httpx)"
    if bench.webhook:
        return f"webhook, answers in {'the reply' if bench.webhook == 'reply' else 'requests'}, {client}"
    return f"long polling, {client}"


def _profile_path(options: PlatformOptions, bench: Pass) -> str | None:
    if not options.profile or bench.http != "aiohttp":
        return None
    if options.platform == "discord":
        return options.profile
    path = Path(options.profile)
    return str(path.with_name(f"{path.stem}.{bench.mode}{path.suffix}"))


async def _while(bot: asyncio.Task, work: Awaitable[T]) -> T:
    """`work`, unless the bot stops first (its error is the bench's)."""
    task = asyncio.ensure_future(work)
    await asyncio.wait({bot, task}, return_when=asyncio.FIRST_COMPLETED)
    if not task.done():
        task.cancel()
        bot.result()  # raises what stopped the bot
        raise RuntimeError("quizhost run stopped during the bench")
    return task.result()


async def _profiled(path: str | None, work: Awaitable[T]) -> T:
    if not path:
        return await work
    from pyinstrument import Profiler  # the bench extra

    # the whole event loop (every task of the bot), not one coroutine's awaits
    profiler = Profiler(interval=0.0005, async_mode="disabled")
    with profiler:
        outcome = await work
    Path(path).write_text(profiler.output_text(unicode=True, show_all=False), encoding="utf-8")
    if profiler.last_session is not None:  # for `pyinstrument --load FILE.pyisession --show-all`
        profiler.last_session.save(f"{path}.pyisession")
    return outcome


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # every thread of the bot, SQLite's included
    return usage.ru_utime + usage.ru_stime


def _per_press(seconds: float, presses: int) -> float:
    return round(seconds / presses * 1e6) if presses else 0.0


def _ratio(value: float, reference: float) -> float | None:
    return round(value / reference, 3) if reference else None


def versions(platform: str) -> dict:
    if platform == "telegram":
        import telegram as library
    else:
        import discord as library  # type: ignore[no-redef]
    name = "python-telegram-bot" if platform == "telegram" else "discord.py"
    return {
        "library": f"{name} {library.__version__}",
        "cpus": os.cpu_count(),
        "python": python_version(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
