"""`quizhost bench`: a load generator against the real engine and SQLite store, with figures.

Light on purpose: the CLI imports this module to build its parser; the phases import the
engine and the store only when the bench runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

RATE_SHARE = 0.3  # of the flat-out rate: the load the acknowledgement target is set at
DEFAULT_RATE = f"{RATE_SHARE:.0%}"
BOARD_REPEATS = 200  # timed reads of each board: of fewer than 100, the nearest-rank p99 is the slowest


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chats", type=int, default=100, help="chats playing at once in the flat-out phase")
    parser.add_argument("--players", type=int, default=50, help="players in each chat")
    parser.add_argument("--window", type=int, default=1000, help="flat out: presses in flight at once")
    parser.add_argument(
        "--rate",
        default=DEFAULT_RATE,
        help="offered presses per second, or a share of the flat-out rate measured in the same run, "
        "like the default: %(default)s; 0 skips that phase",
    )
    parser.add_argument("--rate-seconds", type=float, default=4.0, help="how long to offer that rate")
    parser.add_argument(
        "--board-sizes",
        default="10000,100000,1000000",
        help="stored answers at which to time the leaderboards, comma-separated",
    )
    parser.add_argument("--board-players", type=int, default=1000, help="members of the busy chat")
    parser.add_argument(
        "--board-repeats",
        type=int,
        default=BOARD_REPEATS,
        help="timed reads of each board (default: %(default)s; of fewer than 100, p99 is the slowest read)",
    )
    parser.add_argument("--open-runs", type=int, default=10_000, help="runs open at once for the memory figure")
    parser.add_argument("--open-answers", type=int, default=10, help="answers on each open run's question")
    parser.add_argument("--quiz-files", type=int, default=1000, help="quiz files for the start-up figure")
    parser.add_argument("--profile", metavar="FILE", help="write a pyinstrument profile of the flat-out phase")
    parser.add_argument("--keep", metavar="FOLDER", help="keep the bench databases in FOLDER")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="bench on PostgreSQL: a postgresql:// URL (each phase "
        "uses a schema of its own there, dropped after); default: SQLite files",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument(
        "--screen",
        type=int,
        metavar="VIEWERS",
        help="bench the big screen alone: VIEWERS streams of one chat over --screen-workers `quizhost web` "
        "processes on PostgreSQL (--db, else a throwaway cluster); lag after each event's cause, memory per viewer",
    )
    parser.add_argument("--screen-workers", type=int, default=3, help="with --screen: the web workers")
    parser.add_argument(
        "--host",
        type=int,
        metavar="QUESTIONS",
        help="bench a hosted game alone: /next until the next question is handed to the chat, a run left "
        "alone, a long pause (SQLite, no platform)",
    )
    from bot.bench import tuning

    tuning.add_argument(parser)
    # --platform telegram|discord: presses through the real adapters (bot/bench/platform.py)
    from bot.bench.platform import add_platform_arguments

    add_platform_arguments(parser)


def main(args: argparse.Namespace) -> int:
    if getattr(args, "host", None):
        from bot.bench.hosting import main as host_main

        return host_main(args.host)
    if getattr(args, "screen", None):
        from bot.bench.screen import main as screen_main

        return screen_main(args.screen, args.screen_workers, args.db)
    if getattr(args, "platform", None):
        from bot.bench.platform import main as platform_main

        return platform_main(args)
    from bot.bench import tuning
    from bot.bench.report import table
    from bot.bench.run import BenchOptions, bench

    try:
        sizes = tuple(int(s) for s in args.board_sizes.split(",") if s.strip())
    except ValueError:
        print(
            f"quizhost bench: --board-sizes wants numbers like 10000,100000, not {args.board_sizes!r}", file=sys.stderr
        )
        return 2
    numbers = {
        "--chats": args.chats,
        "--players": args.players,
        "--window": args.window,
        "--open-runs": args.open_runs,
        "--quiz-files": args.quiz_files,
        "--board-players": args.board_players,
        "--board-repeats": args.board_repeats,
    }
    rate, share = parse_rate(args.rate)
    bad = [name for name, value in numbers.items() if value < 1] + (["--rate"] if rate is None else [])
    if bad or args.open_answers < 0 or any(s < 1 for s in sizes):
        print(
            f"quizhost bench: these must be positive: {', '.join(bad) or '--open-answers/--board-sizes'}",
            file=sys.stderr,
        )
        return 2
    options = BenchOptions(
        chats=args.chats,
        players=args.players,
        window=args.window,
        rate=rate or 0.0,
        rate_share=share,
        rate_seconds=args.rate_seconds,
        board_sizes=sizes,
        board_players=args.board_players,
        board_repeats=args.board_repeats,
        open_runs=args.open_runs,
        open_answers=args.open_answers,
        quiz_files=args.quiz_files,
        profile=args.profile,
        folder=args.keep,
        db=args.db,
        tuning=tuning.ways(args.tuning),
    )
    if args.db is not None and (problem := _not_postgres(args.db)):
        print(f"quizhost bench: --db {problem}", file=sys.stderr)
        return 2

    def progress(text: str) -> None:
        print(f"… {text}", file=sys.stderr, flush=True)

    result = asyncio.run(bench(options, progress))
    print(json.dumps(result) if args.json else table(result))
    return 0


def parse_rate(text: str) -> tuple[float | None, float | None]:
    """(presses per second, share of flat out): "5000" -> (5000, None), "30%" -> (0, 0.3);
    (None, None) when it is neither a number nor a percentage, or negative."""
    try:
        value = float(text.strip().removesuffix("%"))
    except ValueError:
        return None, None
    if value < 0:
        return None, None
    return (0.0, value / 100) if text.strip().endswith("%") else (value, None)


def _not_postgres(url: str) -> str | None:
    """Why `url` is no PostgreSQL URL (its password never shown), or None."""
    from storage.dburl import Kind, parse

    try:
        if parse(url).kind is Kind.POSTGRES:
            return None
    except ValueError as exc:
        return str(exc)
    return "wants a postgresql:// URL; without --db the bench uses SQLite files"
