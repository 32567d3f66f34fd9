"""The bench's figures as a table for people (the `--json` object is the same data)."""

from __future__ import annotations

from collections.abc import Callable

from bot.bench import RATE_SHARE
from bot.bench.machine import stolen_note

TARGETS: dict[str, tuple[str, Callable[[float], bool]]] = {  # the targets, checked beside each figure
    "ratio": ("≥ 0.25", lambda v: v >= 0.25),
    "ack_p99": (f"≤ 10 ms at {RATE_SHARE:.0%} of flat out", lambda v: v <= 10),
    "board": ("≤ 10 ms at 10^6", lambda v: v <= 10),
    "board_ratio": ("≤ 2", lambda v: v <= 2),
    "kb_per_run": ("≤ 20 KB", lambda v: v <= 20),
}


BOARDS = ("all", "week", "month", "quiz")  # the leaderboards (stats and quizstats have targets of their own)


def table(result: dict) -> str:
    rows: list[tuple[str, str, str]] = []
    if result["config"].get("database") == "postgresql":
        rows.append(
            (
                "database",
                "postgresql",
                "every phase in a schema of its own; the reference is "
                "asyncpg copy_records_to_table, 1,000 rows a transaction",
            )
        )
    flat = result["flat_out"]
    rows.append(
        (
            "answers_per_s",
            f"{result['answers_per_s']:,}",
            f"{flat['stored']:,} presses stored in {flat['seconds']} s of pressing, {flat['commits']} commits",
        )
    )
    rows.append(
        (
            "raw_insert_per_s",
            f"{result['raw_insert_per_s']:,}",
            f"bot's schema, 1,000 a transaction; a bare table, no triggers: {result['raw_insert_bare_per_s']:,}",
        )
    )
    rows.append(
        (
            "ratio",
            f"{result['ratio']}",
            _mark("ratio", result["ratio"]) + f" (against the bare table: {result['ratio_bare']})",
        )
    )
    whole = result["whole_play"]
    rows.append(
        (
            "whole play answers_per_s",
            f"{whole['answers_per_s']:,}",
            f"closes and asks included, against inserts plus summaries ({whole['raw_per_s']:,}/s): "
            f"ratio {whole['ratio']}",
        )
    )
    if "ack_ms" in result:
        rows += _ack_rows(result["ack_ms"])
    fa = flat["ack_ms"]
    rows.append(
        (
            "ack_ms flat out",
            f"{fa['p50']} / {fa['p99']} / {fa['max']}",
            "saturated: includes waiting for a place in the commit queue",
        )
    )
    rows += tuning_rows(result.get("tuning", {}))
    for size, boards in result["leaderboard_ms"].items():
        for name, spread in boards.items():
            note = _mark("board", spread["p99"]) if name in BOARDS and int(size) >= 1_000_000 else ""
            rows.append(
                (
                    f"leaderboard_ms {name} @ {int(size):,}",
                    f"{spread['p50']} / {spread['p99']}",
                    ("p50 / p99; " + note) if note else "p50 / p99",
                )
            )
    rows += _board_ratios(result["leaderboard_ms"])
    stats = result["quizstats"]
    high, low = stats["of"]
    rows.append(
        (
            "quizstats ratio",
            f"{stats['ratio']}",
            f"/quizstats p50 at {int(high):,} answers / at {int(low):,} "
            f"(target ≈ 1: flat); players who answered the quiz: "
            + ", ".join(f"{n:,} at {int(size):,}" for size, n in stats["players"].items()),
        )
    )
    rows.append(
        (
            "rss_mb",
            f"{result['rss_mb']}",
            f"{result['runs']:,} runs open, {result['answers_per_run']} answers each on the open question",
        )
    )
    rows.append(("kb_per_run", f"{result['kb_per_run']}", _mark("kb_per_run", result["kb_per_run"])))
    rows += _start_rows(result["start"])
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    return "\n".join(f"{name:<{width}}  {value:>{value_width}}  {note}".rstrip() for name, value, note in rows)


def _board_ratios(latency: dict[str, dict[str, dict[str, float]]]) -> list[tuple[str, str, str]]:
    """Each board's p99 at the most stored answers over its p99 at the fewest: flat is 1."""
    low, high = min(latency, key=int), max(latency, key=int)
    rows = []
    for name in BOARDS:
        first, last = latency[low][name]["p99"], latency[high][name]["p99"]
        ratio = round(last / first, 2) if first else 0.0
        note = f"p99 at {int(high):,} answers / at {int(low):,}; " + _mark("board_ratio", ratio)
        rows.append((f"board ratio {name}", f"{ratio}", note))
    return rows


def _ack_rows(ack: dict) -> list[tuple[str, str, str]]:
    """The offered-rate phase: what load it was (a share of this run's flat out), and the acks there."""
    share = ack["share_of_flat_out"] or 0.0
    load = f"{share:.0%} of flat out ({ack['flat_out_per_s']:,}/s in this run)"
    if not ack["derived"]:
        load = f"given with --rate: {load}"
    near = share >= RATE_SHARE - 0.005  # the target holds at that load or above
    mark = _mark("ack_p99", ack["p99"]) if near else f"the target is at {RATE_SHARE:.0%} of flat out"
    return [
        ("ack load", f"{ack['offered_per_s']:,.0f}/s", load),
        (
            "ack_ms p50/p99/max",
            f"{ack['p50']} / {ack['p99']} / {ack['max']}",
            f"offered {ack['offered_per_s']:,.0f}/s, achieved {ack['achieved_per_s']:,}/s over "
            f"{ack['chats']} chats, the loop's thread {ack.get('loop_us_per_press', 0):g} µs a press"
            f"{stolen_note(ack.get('cpu_stolen_pct'))}; {mark}",
        ),
    ]


def tuning_rows(ways: dict[str, dict]) -> list[tuple[str, str, str]]:
    """With `--tuning both`: the bot's phases with the interpreter tuning and without, side by side."""
    if len(ways) < 2:
        return []
    order = " | ".join(ways)

    def row(label: str, cell: Callable[[dict], str], note: str) -> tuple[str, str, str]:
        return (f"tuning {order}: {label}", " | ".join(cell(figures) for figures in ways.values()), note)

    rows = [
        row("answers_per_s", lambda f: f"{f['answers_per_s']:,}", "flat out, the same chats and players"),
        row("ratio", lambda f: f"{f['ratio']}", "of the same raw inserts"),
        row("ack_ms flat out", lambda f: _spread_text(f["flat_out_ack_ms"]), "p50 / p99 / max, saturated"),
    ]
    if all("ack_ms" in figures for figures in ways.values()):
        rows += [
            row("ack_ms offered", lambda f: _spread_text(f["ack_ms"]), "p50 / p99 / max at the same offered rate"),
            row(
                "loop_us_per_press",
                lambda f: f"{f['ack_ms']['loop_us_per_press']:g}",
                "the loop's thread, offered rate; host's share "
                + " | ".join(f"{f['ack_ms'].get('cpu_stolen_pct')}%" for f in ways.values()),
            ),
        ]
    return rows


def _spread_text(spread: dict) -> str:
    return f"{spread['p50']} / {spread['p99']} / {spread['max']}"


def _mark(target: str, value: float) -> str:
    text, ok = TARGETS[target]
    return f"target {text}: {'met' if ok(value) else 'MISSED'}"


def _start_rows(start: dict) -> list[tuple[str, str, str]]:
    """Start-up with one quiz file and with many, from the same run: imports, then ready."""
    rows = []
    for name, figures in (("start_ms 1 file", start["one_file"]), (f"start_ms {start['quizzes']:,} files", start)):
        rows.append(
            (
                name,
                f"{figures['total_ms']:,}",
                f"imports {figures['import_ms']} ms, then ready in "
                f"{figures['start_ms']} ms (catalog {figures['catalog_ms']}, store {figures['store_ms']}, "
                f"resume {figures['resume_ms']}); first start {figures['cold_ms']:,} ms",
            )
        )
    rows.append(("start ratio", f"{start['ratio']}", "many files / one file (target: at most 2)"))
    return rows
