"""`quizhost bench`: every phase in order, in a temporary folder, into one result dict."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

from bot.app.interpreter import serving_interpreter
from bot.bench import BOARD_REPEATS, RATE_SHARE
from bot.bench.boards import board_latency, flatness, percentile
from bot.bench.databases import BenchDatabases
from bot.bench.load import LoadResult, flat_out, offered_rate
from bot.bench.machine import cpu_times, stolen_percent
from bot.bench.reference import raw_insert_per_s
from bot.bench.tuning import name
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Quiz

T = TypeVar("T")


@dataclass(frozen=True)
class BenchOptions:
    chats: int = 100
    players: int = 50
    window: int = 1000  # presses in flight in the flat-out phase
    rate: float = 0.0  # offered presses per second; 0 with no rate_share skips that phase
    rate_share: float | None = RATE_SHARE  # or offer this share of the flat-out answers_per_s of the same run
    rate_seconds: float = 4.0
    board_sizes: tuple[int, ...] = (10_000, 100_000, 1_000_000)
    board_players: int = 1000
    board_repeats: int = BOARD_REPEATS
    open_runs: int = 10_000
    open_answers: int = 10  # answers held by each open run's question
    quiz_files: int = 1000
    profile: str | None = None  # write a pyinstrument profile of the flat-out phase here
    folder: str | None = None  # keep the databases here instead of a temporary folder
    db: str | None = None  # a postgresql:// URL: every phase in a schema of its own there
    # the interpreter tuning of the bot's phases (flat out, the offered rate), each way in turn;
    # the first way's figures are the result's, every way's are side by side under "tuning"
    tuning: tuple[bool, ...] = (True,)


def _quiet(text: str) -> None:
    pass


async def bench(options: BenchOptions, progress: Callable[[str], None] = _quiet) -> dict:
    catalog = Catalog.load(default_quiz_folders())  # without a cache every quiz is loaded whole
    quiz = max((q for q in catalog.all() if isinstance(q, Quiz)), key=lambda q: len(q.questions))
    with tempfile.TemporaryDirectory(prefix="quizhost-bench-") as scratch:
        folder = Path(options.folder or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        dbs = BenchDatabases(folder, options.db, keep=options.folder is not None)
        try:
            return await _phases(options, dbs, catalog, quiz, progress)
        finally:
            gc.unfreeze()  # what `_fresh_heap` froze: the harness's, not for the process after the bench
            await dbs.cleanup()


async def _phases(
    options: BenchOptions, dbs: BenchDatabases, catalog: Catalog, quiz: Quiz, progress: Callable[[str], None]
) -> dict:
    result: dict = {
        "config": {
            **asdict(options),
            "database": dbs.kind,
            "quiz": quiz.id,
            "questions": len(quiz.questions),
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
        }
    }
    progress(
        f"flat out: {options.chats} chats x {options.players} players x {len(quiz.questions)} questions on {dbs.kind}"
    )
    loads = {}
    for n, way in enumerate(options.tuning):  # the first way's database is the raw reference's rows
        if len(options.tuning) > 1:
            progress(f"flat out, interpreter tuning {name(way)}")
        db = await dbs.fresh("load" if n == 0 else f"load_{name(way)}")  # a schema name on PostgreSQL
        _collect_last_phase()
        with serving_interpreter(way):
            work = flat_out(db, catalog, quiz, options.chats, options.players, options.window)
            loads[way] = await _profiled(options.profile if n == 0 else None, work)
    result.update(_throughput(loads[options.tuning[0]]))
    progress("raw insert reference")
    result.update(_reference(result, await _raw_reference(dbs)))
    result["config"]["tuning"] = [name(way) for way in options.tuning]
    result["tuning"] = {name(way): _tuning_figures(result, load) for way, load in loads.items()}
    rate = offered_per_s(options, result["answers_per_s"])
    for way in options.tuning if rate > 0 else ():  # each way at the same rate
        progress(f"offered rate: {rate:g} presses/s for {options.rate_seconds:g} s, interpreter tuning {name(way)}")
        ack = await _offered(options, dbs, catalog, quiz, (rate, result["answers_per_s"]), way)
        result["tuning"][name(way)]["ack_ms"] = ack
        result.setdefault("ack_ms", ack)
    _fresh_heap()
    progress(f"leaderboards at {', '.join(map(str, options.board_sizes))} answers")
    result["leaderboard_ms"], answered = await board_latency(
        await dbs.fresh("boards"), catalog, list(options.board_sizes), options.board_players, options.board_repeats
    )
    result["quizstats"] = flatness(result["leaderboard_ms"], answered)
    progress(f"memory with {options.open_runs} open runs")
    result.update(
        _child(
            "bot.bench.memory",
            await dbs.fresh("memory"),
            "--runs",
            str(options.open_runs),
            "--players",
            str(options.open_answers),
        )
    )
    progress(f"start-up with {options.quiz_files} quiz files")
    result["start"] = await _start(dbs, options.quiz_files)
    result["start_ms"] = result["start"]["start_ms"]
    return result


async def _raw_reference(dbs: BenchDatabases) -> dict[str, float]:
    """The same rows as the flat-out phase stored, by the database's own fastest batched path."""
    modes = ("insert", "bare", "summarise")
    if dbs.url is not None:
        from bot.bench.reference_pg import raw_copy_per_s

        return {mode: await raw_copy_per_s(dbs, "load", mode) for mode in modes}
    return {
        mode: await raw_insert_per_s(Path(dbs.target("load")), Path(await dbs.fresh(f"raw-{mode}")), mode)
        for mode in modes
    }


def offered_per_s(options: BenchOptions, flat_out_per_s: float) -> float:
    """The offered-rate phase's presses per second: as given, or the share of flat out."""
    if options.rate > 0 or options.rate_share is None:
        return options.rate
    return round(options.rate_share * flat_out_per_s)


async def _offered(
    options: BenchOptions, dbs: BenchDatabases, catalog: Catalog, quiz: Quiz, rates: tuple[float, int], way: bool
) -> dict:
    """The offered-rate phase, one way: (offered, flat out's) presses a second."""
    rate, flat_out_per_s = rates
    db = await dbs.fresh(f"rate_{name(way)}")
    _collect_last_phase()
    with serving_interpreter(way):
        began, machine = time.thread_time(), cpu_times()  # the loop's thread: the bot's and the bench's arrivals
        offered = await offered_rate(db, catalog, quiz, rate, options.rate_seconds, options.players)
        loop_s = time.thread_time() - began
    share = options.rate_share if options.rate <= 0 else None
    ack = _rate_figures(offered, rate, share, flat_out_per_s)
    ack["loop_us_per_press"] = round(loop_s / offered.presses * 1e6, 1) if offered.presses else 0.0
    ack["cpu_stolen_pct"] = stolen_percent(machine, cpu_times())
    return ack


def _tuning_figures(result: dict, load: LoadResult) -> dict:
    """One way's flat out beside the other's, against the same raw reference."""
    figures = _throughput(load)
    raw = result["raw_insert_per_s"]
    return {
        "answers_per_s": figures["answers_per_s"],
        "stored": load.accepted,
        "ratio": round(figures["answers_per_s"] / raw, 3) if raw else None,
        "flat_out_ack_ms": figures["flat_out"]["ack_ms"],
    }


def _collect_last_phase() -> None:
    """The measuring harness, not the bot: what the last phase left is collected before the next
    one, so that a bot without the tuning is not charged for the bench's leftovers."""
    gc.collect()


def _fresh_heap() -> None:
    """Leave what earlier phases built out of the garbage collector's work: each timed phase
    pays for collecting its own objects only, as a bot pays for its own. The measuring harness,
    not the bot's tuning: the boards, memory and start-up phases run without the bot's."""
    gc.collect()
    gc.freeze()


def _throughput(load: LoadResult) -> dict:
    return {
        "answers_per_s": round(load.accepted / load.seconds) if load.seconds else 0,
        "flat_out": {
            "presses": load.presses,
            "stored": load.accepted,
            "seconds": round(load.seconds, 3),
            "commits": load.batches,
            "ack_ms": _spread(load.ack_ms),
            "whole_seconds": round(load.whole_seconds, 3),
            "whole_answers_per_s": round(load.accepted / load.whole_seconds) if load.whole_seconds else 0,
        },
    }


def _reference(result: dict, raw: dict[str, float]) -> dict:
    """The press path against plain inserts; the whole play against inserts plus summaries."""

    def ratio(ours: float, theirs: float) -> float | None:
        return round(ours / theirs, 3) if theirs else None

    whole = result["flat_out"]["whole_answers_per_s"]
    return {
        "raw_insert_per_s": round(raw["insert"]),
        "ratio": ratio(result["answers_per_s"], raw["insert"]),
        "raw_insert_bare_per_s": round(raw["bare"]),
        "ratio_bare": ratio(result["answers_per_s"], raw["bare"]),
        "whole_play": {
            "answers_per_s": whole,
            "raw_per_s": round(raw["summarise"]),
            "ratio": ratio(whole, raw["summarise"]),
        },
    }


def _rate_figures(load: LoadResult, rate: float, share: float | None, flat_out_per_s: int) -> dict:
    return {
        **_spread(load.ack_ms),
        "offered_per_s": rate,
        "flat_out_per_s": flat_out_per_s,
        "share_of_flat_out": round(rate / flat_out_per_s, 3) if flat_out_per_s else None,
        "derived": share is not None,  # the rate is that share of flat out, measured in this run
        "achieved_per_s": round(load.presses / load.seconds) if load.seconds else 0,
        "presses": load.presses,
        "stored": load.accepted,
        "chats": load.chats,
        "commits": load.batches,
        "arrival_lag_p99": percentile(load.lag_ms, 99),
    }


def _spread(values: list[float]) -> dict:
    return {
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": round(max(values), 3) if values else 0.0,
    }


async def _profiled(path: str | None, work: Awaitable[T]) -> T:
    if not path:
        return await work
    from pyinstrument import Profiler  # the bench extra; only needed with --profile

    profiler = Profiler(async_mode="enabled")
    with profiler:
        outcome = await work
    Path(path).write_text(profiler.output_text(unicode=True, show_all=False), encoding="utf-8")
    return outcome


WARM_STARTS = 5  # the median of these is the figure: one start is at the mercy of the machine


async def _start(dbs: BenchDatabases, files: int) -> dict:
    """Start-up with `files` quiz files beside start-up with one, each in fresh processes.

    The first start with a catalog reads every file and writes the catalog index (`cold_ms`);
    the figures are the median of the starts after it, as a bot restarts.
    """
    from bot.bench.startup import catalog_index, write_quiz_files

    counts, dbs_of = (1, files), {}
    for count in counts:
        write_quiz_files(dbs.folder / f"quizzes-{count}", count)
        catalog_index(dbs.folder / f"quizzes-{count}").unlink(missing_ok=True)  # the first start is a cold one
        dbs_of[count] = await dbs.fresh(f"start_{count}")

    def start(count: int) -> dict:
        return _child("bot.bench.startup", str(dbs.folder / f"quizzes-{count}"), dbs_of[count])

    cold = {count: start(count) for count in counts}
    warm: dict[int, list[dict]] = {count: [] for count in counts}
    for _ in range(WARM_STARTS):  # one of each in turn: a busy machine slows both alike
        for count in counts:
            warm[count].append(start(count))
    one, many = (
        {**sorted(warm[c], key=lambda s: s["total_ms"])[WARM_STARTS // 2], "cold_ms": cold[c]["total_ms"]}
        for c in counts
    )
    return {**many, "one_file": one, "ratio": round(many["total_ms"] / one["total_ms"], 2)}


def _child(module: str, *args: str) -> dict:
    """A phase that needs a fresh process (clean memory figures, cold start); it prints JSON."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{module} failed: {done.stderr.strip()[-2000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures.setdefault("wall_s", round(time.perf_counter() - began, 1))
    return figures
