"""`quizhost bench --platform ...` end to end with tiny numbers: every figure is printed and every
press was acknowledged. No timing is asserted: these runs only prove the tool works."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from bot.bench.machine import cpu_times
from bot.bench.platform_report import table

TINY = ["--chats", "2", "--players", "3", "--window", "4", "--rate", "20", "--rate-seconds", "0.3"]
MODE_ROWS = ["presses_per_s", "ack_ms flat out", "ratio", "ack_ms offered", "bot_cpu_us"]
NUMBER = r"-?[\d,]+(?:\.\d+)?"


@pytest.fixture
def bench(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        code = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
        # no token or .env of this machine reaches it (the bench gives the bot every setting anyway);
        # the bot and its fakes come from the installed package, not from a path into the checkout
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
        return subprocess.run(
            [sys.executable, "-c", code, "bench", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run


def rows(table: str) -> dict[str, tuple[str, str]]:
    """name -> (value, note) of every line of the table."""
    found = {}
    for line in table.splitlines():
        name, value, note = re.match(r"(\S+(?: \S+)*?)\s{2,}(\S+(?: / \S+)*)\s*(.*)$", line).groups()
        found[name] = (value, note)
    return found


def figures_of(found: dict[str, tuple[str, str]], mode: str, presses: int) -> None:
    for row in MODE_ROWS:
        value, note = found[f"{mode} {row}"]
        assert all(re.fullmatch(NUMBER, part) for part in value.split(" / ")), (row, value)
        assert "NEVER" not in note and "other than" not in note, note
    assert f"{presses} acknowledged" in found[f"{mode} presses_per_s"][1]
    assert "target ≥" in found[f"{mode} ratio"][1]
    if cpu_times() is not None:  # Linux: what the host took of the CPU over the offered 0.3 s
        assert "the host took" in found[f"{mode} ack_ms offered"][1]  # (flat out here is too short to tell)


def test_telegram_prints_every_figure_for_polling_webhook_and_httpx(bench):
    done = bench("--platform", "telegram", "--ptb-default-request", *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    found = rows(done.stdout)
    for mode in ("polling", "webhook"):
        figures_of(found, mode, presses=6)
    assert "answers in the reply" in found["webhook presses_per_s"][1]  # acknowledged only through the reply
    assert re.fullmatch(NUMBER, found["raw_aiohttp_per_s"][0]) and "median of 3 runs" in found["raw_aiohttp_per_s"][1]
    assert "6 acknowledged" in found["httpx presses_per_s"][1] and "httpx" in found["httpx presses_per_s"][1]
    assert re.fullmatch(NUMBER, found["aiohttp / httpx"][0]) and "target ≥ 10" in found["aiohttp / httpx"][1]


def test_discord_prints_every_figure(bench):
    done = bench("--platform", "discord", *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    found = rows(done.stdout)
    figures_of(found, "gateway", presses=6)
    assert re.fullmatch(NUMBER, found["raw_aiohttp_per_s"][0])
    assert set(found) == {"platform", "raw_aiohttp_per_s"} | {f"gateway {row}" for row in MODE_ROWS}


def test_discord_over_http_prints_every_figure_against_the_bare_handler(bench):
    done = bench("--platform", "discord", "--http", *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    found = rows(done.stdout)
    figures_of(found, "endpoint", presses=6)
    assert "interactions endpoint" in found["endpoint presses_per_s"][1]
    assert "target ≥ 0.5" in found["endpoint ratio"][1]
    assert "bare aiohttp handler (verify + ack)" in found["raw_aiohttp_per_s"][1]
    assert set(found) == {"platform", "raw_aiohttp_per_s"} | {f"endpoint {row}" for row in MODE_ROWS}


def test_discord_prints_the_bot_with_and_without_the_interpreter_tuning_side_by_side(bench):
    done = bench("--platform", "discord", "--tuning", "both", "--json", *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert sorted(result["config"]["tuning"]) == ["off", "on"]  # the setting's way first
    for way in result["tuning"].values():  # a bot each way, each pressed flat out and at the rate
        gateway = way["gateway"]
        assert gateway["acked"] == 6 + 6 and gateway["missing"] == 0 and gateway["ratio"] > 0
        assert gateway["offered_ack_ms"]["p99"] > 0
    shown = table(result)
    for row in ("ratio", "ack_ms flat out", "ack_ms offered", "bot_cpu_us"):
        assert f"gateway tuning {' | '.join(result['config']['tuning'])}: {row}" in shown, row


@pytest.mark.parametrize(
    "args, says",
    [
        (["--platform", "discord", "--ptb-default-request"], "--ptb-default-request is for --platform telegram"),
        (["--platform", "telegram", "--http"], "--http is for --platform discord"),
        (["--platform", "telegram", "--players", "0"], "these must be positive: --players"),
    ],
)
def test_wrong_options_get_a_clear_message_and_run_nothing(bench, args, says):
    done = bench(*args)
    assert done.returncode == 2 and says in done.stderr and done.stdout == ""
