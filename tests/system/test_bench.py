"""`quizhost bench`, tiny: it runs every phase against the real engine and store and prints
every figure (as JSON and as a table). No timing is asserted: this machine is not the bench."""

from __future__ import annotations

import asyncio
import json
import re

import asyncpg
import pytest

from bot.bench.machine import cpu_times
from bot.bench.platform_report import workers_table
from bot.bench.report import table
from bot.cli import main
from bot.testing.postgres import PASSWORD

TINY = [
    "bench",
    "--chats",
    "3",
    "--players",
    "4",
    "--window",
    "5",
    "--rate",
    "300",
    "--rate-seconds",
    "0.3",
    "--board-sizes",
    "200,2000",
    "--board-players",
    "20",
    "--board-repeats",
    "3",
    "--open-runs",
    "30",
    "--open-answers",
    "3",
    "--quiz-files",
    "4",
    "--json",
]


def test_a_tiny_bench_prints_every_figure(capsys, tmp_path):
    assert main([*TINY, "--keep", str(tmp_path)]) == 0
    check_every_figure(json.loads(capsys.readouterr().out))

    # what the bench kept is a database `quizhost stats` reads: the largest chat's answers per question
    assert main(["stats", "pipeline", "--chat", "bench:board-2000", "--db", str(tmp_path / "boards.db"), "--json"]) == 0
    (pipeline,) = json.loads(capsys.readouterr().out)["quizzes"]
    questions = pipeline["questions"]
    assert pipeline["quiz"] == "pipeline" and pipeline["chat"] == "bench:board-2000" and len(questions) == 8
    assert all(q["attempts"] == sum(q["split"]) > 0 and q["split"][q["answer"]] == q["right"] for q in questions)
    assert sorted(questions[0]) == [
        "answer",
        "attempts",
        "discrimination",
        "flags",
        "id",
        "median_seconds",
        "number",
        "right",
        "share_right",
        "split",
    ]


@pytest.mark.postgres
def test_a_tiny_bench_on_postgresql_prints_the_same_figures_and_leaves_no_schema_behind(capsys, postgres_url):
    assert main([*TINY, "--db", postgres_url, "--tuning", "both"]) == 0  # a schema for each way's phases
    result = json.loads(capsys.readouterr().out)
    assert result["config"]["database"] == "postgresql" and set(result["tuning"]) == {"on", "off"}
    check_every_figure(result)
    assert "database" in table(result) and "copy_records_to_table" in table(result)
    assert asyncio.run(_bench_schemas(postgres_url)) == []


def test_a_tiny_bench_prints_the_bot_with_and_without_the_interpreter_tuning_side_by_side(capsys):
    assert main([*TINY, "--tuning", "both"]) == 0
    result = json.loads(capsys.readouterr().out)
    check_every_figure(result)  # the first way's, the setting's
    assert sorted(result["config"]["tuning"]) == ["off", "on"] and set(result["tuning"]) == {"on", "off"}
    for way in result["tuning"].values():  # each way played the whole quiz, then took the offered presses
        assert way["stored"] == 3 * 4 * result["config"]["questions"] and way["ratio"] > 0
        assert way["ack_ms"]["stored"] == way["ack_ms"]["presses"] > 0
        assert way["ack_ms"]["offered_per_s"] == result["ack_ms"]["offered_per_s"]  # the same rate
    shown = table(result)
    for row in ("answers_per_s", "ratio", "ack_ms flat out", "ack_ms offered", "loop_us_per_press"):
        assert f"tuning {' | '.join(result['tuning'])}: {row}" in shown, row


def test_bench_on_a_database_that_is_not_postgresql_is_refused_without_its_password(capsys):
    assert main(["bench", "--db", "mysql://u:hunter2@db/quiz"]) == 2
    err = capsys.readouterr().err
    assert "--db" in err and "hunter2" not in err


async def _bench_schemas(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'quizhost_bench%'")]
    finally:
        await conn.close()


def check_every_figure(result: dict) -> None:
    for name in ("answers_per_s", "raw_insert_per_s", "raw_insert_bare_per_s", "ratio", "rss_mb", "start_ms"):
        assert isinstance(result[name], (int, float)) and result[name] > 0, name
    assert isinstance(result["kb_per_run"], float)  # 30 runs barely move the resident memory
    assert result["flat_out"]["stored"] == 3 * 4 * result["config"]["questions"]
    assert set(result["whole_play"]) == {"answers_per_s", "raw_per_s", "ratio"}
    assert set(result["ack_ms"]) >= {"p50", "p99", "max", "offered_per_s", "achieved_per_s"}
    assert result["ack_ms"]["stored"] == result["ack_ms"]["presses"] > 0
    assert result["ack_ms"]["loop_us_per_press"] > 0  # the event loop's CPU time over the presses
    stolen = result["ack_ms"]["cpu_stolen_pct"]  # what the host took meanwhile, where the kernel says
    assert stolen is None if cpu_times() is None else 0 <= stolen <= 100
    assert set(result["leaderboard_ms"]) == {"200", "2000"}
    for boards in result["leaderboard_ms"].values():
        assert set(boards) == {"all", "week", "month", "quiz", "stats", "quizstats"}
        assert all(set(spread) == {"p50", "p99"} for spread in boards.values())
    quizstats = result["quizstats"]
    assert quizstats["of"] == ["2000", "200"] and quizstats["ratio"] > 0
    assert 0 < quizstats["players"]["200"] <= quizstats["players"]["2000"] <= 20
    assert result["runs"] == 30 and result["start"]["quizzes"] == 4 and result["start"]["problems"] == 0

    shown = table(result)
    for name in (
        "answers_per_s",
        "raw_insert_per_s",
        "ratio",
        "whole play",
        "ack_ms",
        "leaderboard_ms all @ 2,000",
        "leaderboard_ms week @ 200",
        "rss_mb",
        "kb_per_run",
        "start_ms",
    ):
        assert name in shown, name
    assert "leaderboard_ms quizstats @ 2,000" in shown and "quizstats ratio" in shown
    assert "leaderboard_ms month @ 2,000" in shown and "leaderboard_ms quiz @ 200" in shown
    assert "board ratio all" in shown and "board ratio week" in shown
    assert ("the host took" in shown) == (stolen is not None)


@pytest.mark.postgres
def test_presses_through_two_webhook_workers_and_through_one_are_all_acknowledged(capsys, postgres_url):
    """Two `quizhost run` webhook processes on one PostgreSQL, behind the fake's round robin."""
    assert (
        main(
            [
                "bench",
                "--platform",
                "telegram",
                "--workers",
                "2",
                "--db",
                postgres_url,
                "--chats",
                "2",
                "--players",
                "3",
                "--window",
                "4",
                "--json",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    result = json.loads(out)
    assert set(result["passes"]) == {"1", "2"} and result["ratio"] > 0
    for count, figures in result["passes"].items():
        flat = figures["flat_out"]
        # every press answered "Locked in", by whichever worker the balancer chose
        assert flat["sent"] == flat["acked"] == flat["locked"] == 2 * 3 and flat["missing"] == 0, count
        assert flat["per_s"] > 0 and flat["ack_ms"]["max"] > 0
        spread = figures["updates_per_worker"]
        assert len(spread) == int(count) and min(spread) > 0 and max(spread) - min(spread) <= 1, spread
        assert figures["failed_deliveries"] == 0
    shown = workers_table(result)
    for name in ("1 worker presses_per_s", "2 workers presses_per_s", "2 workers ack_ms", "ratio"):
        assert name in shown, name
    assert re.search(r"PostgreSQL \d+", shown), "the server's version (the system's 15, or the embedded wheel's)"
    assert PASSWORD not in out + shown, "the database password is never printed"
    assert asyncio.run(_bench_schemas(postgres_url)) == []


@pytest.mark.postgres
def test_presses_through_two_discord_endpoint_workers_and_through_one_are_all_acknowledged(capsys, postgres_url):
    """Two `quizhost run` processes taking Discord's interactions over HTTP, on one PostgreSQL."""
    tiny = ["--chats", "2", "--players", "3", "--window", "4", "--json"]
    assert main(["bench", "--platform", "discord", "--http", "--workers", "2", "--db", postgres_url, *tiny]) == 0
    out = capsys.readouterr().out
    result = json.loads(out)
    assert set(result["passes"]) == {"1", "2"} and result["ratio"] > 0
    for count, figures in result["passes"].items():
        flat = figures["flat_out"]
        # every press answered "Locked in", by whichever worker the fake posted it to
        assert flat["sent"] == flat["acked"] == flat["locked"] == 2 * 3 and flat["missing"] == 0, count
        spread = figures["updates_per_worker"]
        assert len(spread) == int(count) and min(spread) > 0, spread
        assert figures["failed_deliveries"] == 0
    shown = workers_table(result)
    assert "signed interactions round robin" in shown and "2 workers presses_per_s" in shown
    assert PASSWORD not in out + shown
    assert asyncio.run(_bench_schemas(postgres_url)) == []


@pytest.mark.parametrize("db", [[], ["--db", "sqlite:///quizhost.db"], ["--db", "quizhost.db"]])
def test_several_workers_on_sqlite_are_refused_in_one_line(capsys, db):
    assert main(["bench", "--platform", "telegram", "--workers", "2", *db]) == 2
    captured = capsys.readouterr()
    assert "--workers needs --db postgresql://" in captured.err and "SQLite is one process" in captured.err
    assert captured.out == ""


@pytest.mark.parametrize(
    "args, says",
    [
        (["--platform", "discord", "--workers", "2", "--db", "postgresql://u:hunter2@db/q"], "for --platform telegram"),
        (["--platform", "telegram", "--workers", "0", "--db", "postgresql://u:hunter2@db/q"], "--workers"),
        (["--platform", "telegram", "--db", "postgresql://u:hunter2@db/q"], "--db is for the engine bench"),
    ],
)
def test_wrong_worker_flags_are_refused_without_the_password(capsys, args, says):
    assert main(["bench", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "hunter2" not in err


def test_the_help_says_the_offered_rate_is_a_share_of_flat_out_by_default(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["bench", "--help"])
    assert exit.value.code == 0
    assert "like the default: 30%" in " ".join(capsys.readouterr().out.split())


def test_a_share_of_flat_out_is_refused_for_the_platform_bench_which_has_no_flat_out_to_share(capsys):
    assert main(["bench", "--platform", "telegram", "--rate", "10%"]) == 2
    assert "--rate" in capsys.readouterr().err


def test_bad_bench_flags_get_a_clear_message(capsys):
    assert main(["bench", "--chats", "0"]) == 2
    assert "--chats" in capsys.readouterr().err
    assert main(["bench", "--board-sizes", "many"]) == 2
    assert "--board-sizes" in capsys.readouterr().err
    for rate in ("fast", "-5", "-5%"):
        assert main(["bench", f"--rate={rate}"]) == 2
        assert "--rate" in capsys.readouterr().err


def test_the_corpus_table_counts_every_file_the_importers_read(tmp_path, capsys):
    from bot.bench import corpus

    (tmp_path / "gift").mkdir()
    (tmp_path / "gift" / "a.gift").write_text(
        "Only words here.\n\nFine? {=yes ~no}\n\nPair them {=a -> b =c -> d}\n\nAgain fine? {=yes ~no}\n\n"
        "<b>Bold</b> and [html]? {=x ~y}\n"
    )
    (tmp_path / "b.json").write_text('{"response_code": 1, "results": []}')
    (tmp_path / "SOURCES.txt").write_text("where the files come from")
    assert corpus.main([str(tmp_path), "--markdown"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[2].startswith("| b.json | - | 0 | 0 | 0 | 0 |")  # refused as a whole, with why
    # the description is no question; the matching question is one, skipped
    assert rows[3].startswith("| gift/a.gift | gift | 4 | 3 | 1 | 1 |") and "1x a matching question" in rows[3]
    assert rows[4] == "| **2 files** | | **4** | **3** | **1** | **1** | |"
    assert "| gift | 1 | 4 | 3 | 75.0% |" in rows
    assert rows[-1] == "Imported texts with HTML tags left: 0; with Cloze markup left: 0"


def test_the_hosted_game_bench_says_nothing_moves_without_its_host(capsys):
    assert main(["bench", "--host", "3"]) == 0
    out = capsys.readouterr().out
    assert "left alone 600 s of game clock: 0 questions posted" in out
    assert "paused 3600 s with 20.00 s left: 20.00 s left after the resume" in out
