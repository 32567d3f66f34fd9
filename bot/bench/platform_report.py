"""The figures of `quizhost bench --platform` as a table (`--json` prints the same data)."""

from __future__ import annotations

from bot.bench.machine import stolen_note

# of the bare client's rate: issue #24 raised issue #7's (0.5 and 0.2); not met yet (docs/PERFORMANCE.md)
RATIO_TARGETS = {"telegram": 0.8, "discord": 0.5}
MODE_TARGETS = {"endpoint": 0.5}  # Discord over HTTP, of the bare handler's rate (issue #24)
HTTPX_FACTOR = 10.0
ACK_P99_MS, ACK_P99_AT = 50.0, 500.0

Row = tuple[str, str, str]


def table(result: dict) -> str:
    config, raw = result["config"], result["raw"]
    platform = config["platform"]
    rows: list[Row] = [
        (
            "platform",
            platform,
            f"{config['library']}; {config['cpus']} CPUs, "
            f"Python {config['python']}; {config['chats']} chats x "
            f"{config['players']} players",
        )
    ]
    for mode, figures in result["modes"].items():
        rows += _mode_rows(mode, figures, config, MODE_TARGETS.get(mode, RATIO_TARGETS[platform]))
    rows += _tuning_rows(result.get("tuning", {}))
    runs = ", ".join(f"{r:,}" for r in raw["runs_per_s"])
    rows.append(
        (
            "raw_aiohttp_per_s",
            f"{raw['per_s']:,}",
            f"{raw.get('reference', 'bare aiohttp client')}, {raw['concurrency']} at a time, "
            f"{raw['acked']:,} acks with the same fake; median "
            f"of {len(raw['runs_per_s'])} runs in this run ({runs})",
        )
    )
    if "httpx" in result:
        httpx = result["httpx"]
        rows.append(
            (
                "httpx presses_per_s",
                f"{httpx['flat_out']['per_s']:,}",
                f"{httpx['mode']}; {_flat_note(httpx['flat_out'], config)}",
            )
        )
        factor = result["aiohttp_over_httpx"]
        rows.append(
            ("aiohttp / httpx", f"{factor}", "long polling both; " + _mark(factor, HTTPX_FACTOR, f"≥ {HTTPX_FACTOR:g}"))
        )
    return _aligned(rows)


def _tuning_rows(ways: dict[str, dict]) -> list[Row]:
    """With `--tuning both`: each pass with the bot's interpreter tuning and without, side by side."""
    if len(ways) < 2:
        return []
    order, first = " | ".join(ways), next(iter(ways.values()))
    rows: list[Row] = []
    for mode in first:
        each = [modes[mode] for modes in ways.values()]
        rows += [
            (
                f"{mode} tuning {order}: ratio",
                " | ".join(f"{f['ratio']}" for f in each),
                "of raw_aiohttp_per_s, flat out",
            ),
            (
                f"{mode} tuning {order}: ack_ms flat out",
                " | ".join(_ms(f["flat_out_ack_ms"]) for f in each),
                "p50 / p99 / max",
            ),
            (
                f"{mode} tuning {order}: bot_cpu_us",
                " | ".join(f"{f['bot_cpu_us_per_press']:,}" for f in each),
                "a press",
            ),
        ]
        if all(f["offered_ack_ms"] for f in each):
            rows.append(
                (
                    f"{mode} tuning {order}: ack_ms offered",
                    " | ".join(_ms(f["offered_ack_ms"]) for f in each),
                    "p50 / p99 / max at the same offered rate",
                )
            )
    return rows


def _aligned(rows: list[Row]) -> str:
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    return "\n".join(f"{name:<{width}}  {value:>{value_width}}  {note}".rstrip() for name, value, note in rows)


def _mode_rows(mode: str, figures: dict, config: dict, target: float) -> list[Row]:
    flat = figures["flat_out"]
    rows: list[Row] = [
        (f"{mode} presses_per_s", f"{flat['per_s']:,}", f"{figures['mode']}; {_flat_note(flat, config)}"),
        (
            f"{mode} ack_ms flat out",
            _ms(flat["ack_ms"]),
            "p50 / p99 / max, press sent -> ack received, both at the fake; saturated: mostly waiting in line",
        ),
        (
            f"{mode} ratio",
            f"{figures['ratio']}",
            "of raw_aiohttp_per_s; " + _mark(figures["ratio"], target, f"≥ {target}"),
        ),
    ]
    if "offered" in figures:
        offered = figures["offered"]
        note = (
            f"offered {offered['offered_per_s']:,.0f}/s for {offered['seconds']} s, acknowledged "
            f"{offered['per_s']:,}/s{_lost(offered)}; the fake's lag behind its schedule p99 "
            f"{offered['lag_ms']['p99']} ms{stolen_note(offered.get('cpu_stolen_pct'))}"
        )
        if offered["offered_per_s"] >= ACK_P99_AT:
            note += "; " + _mark(offered["ack_ms"]["p99"], ACK_P99_MS, f"p99 ≤ {ACK_P99_MS:g} ms", below=True)
        rows.append((f"{mode} ack_ms offered", _ms(offered["ack_ms"]), note))
    rows.append(
        (
            f"{mode} bot_cpu_us",
            f"{figures['bot_cpu_us_per_press']:,}",
            "CPU time of the bot's process per press (every thread), flat out",
        )
    )
    return rows


def _flat_note(flat: dict, config: dict) -> str:
    return (
        f"{flat['acked']:,} acknowledged in {flat['seconds']} s, {config['window']} in flight{_lost(flat)}"
        f"{stolen_note(flat.get('cpu_stolen_pct'))}"
    )


def _ms(spread: dict) -> str:
    return f"{spread['p50']} / {spread['p99']} / {spread['max']}"


def _lost(phase: dict) -> str:
    notes = []
    if phase["missing"]:
        notes.append(f"{phase['missing']:,} NEVER ACKNOWLEDGED")
    if phase["locked"] != phase["acked"]:
        notes.append(f"{phase['acked'] - phase['locked']:,} acks other than 'Locked in'")
    return ("; " + ", ".join(notes)) if notes else ""


def _mark(value: float | None, target: float, text: str, below: bool = False) -> str:
    met = value is not None and (value <= target if below else value >= target)
    return f"target {text}: {'met' if met else 'MISSED'}"


def workers_table(result: dict) -> str:
    """`--workers N`: each pass's figures, then N workers over one, measured in the same run."""
    config = result["config"]
    load = " / ".join(f"{x:g}" for x in config["load_before"]) or "unknown"
    rows: list[Row] = [
        (
            "platform",
            config["platform"],
            f"{config['library']}; {config['cpus']} CPUs, Python "
            f"{config['python']}; load {load} (1/5/15 min) before the run",
        ),
        ("database", "postgresql", f"PostgreSQL {config['postgresql']}, one schema per pass"),
        (
            "load",
            f"{config['chats']}x{config['players']}",
            f"chats x players; webhook answers in the {config['webhook_answers']}; the fake Bot API "
            "posts updates round robin to the workers"
            if config["platform"] == "telegram"
            else "chats x players; the fake Discord posts signed interactions round robin to the workers' endpoints",
        ),
    ]
    for count, figures in result["passes"].items():
        flat, label = figures["flat_out"], f"{count} worker{'s' if count != '1' else ''}"
        spread = " / ".join(f"{n:,}" for n in figures["updates_per_worker"])
        if figures["failed_deliveries"]:
            spread += f", {figures['failed_deliveries']:,} DELIVERIES FAILED (passed to the next worker)"
        rows += [
            (
                f"{label} presses_per_s",
                f"{flat['per_s']:,}",
                f"{_flat_note(flat, config)}; updates per worker {spread}",
            ),
            (f"{label} ack_ms", _ms(flat["ack_ms"]), "p50 / p99 / max, press sent -> ack received at the fake"),
            (
                f"{label} cpu_us",
                f"{figures['workers_cpu_us_per_press']:,}",
                "CPU time of all the workers' processes per press, flat out",
            ),
        ]
    if config["workers"] > 1:
        rows.append(
            ("ratio", f"{result['ratio']}", f"{config['workers']} workers / 1 worker, presses per second, this run")
        )
    return _aligned(rows)
