"""The PostgreSQL store on a real server: migrations, group commit, and the operator's view of
a QUIZHOST_DB that cannot be used."""
from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.testing.postgres import PASSWORD
from storage.dburl import StoreUnavailable
from storage.pg_schema import version
from storage.postgres import PostgresStore
from tests.test_cli import cli
from tests.test_storage import CHAT, answer, run_row

pytestmark = pytest.mark.postgres


async def test_migrations_run_on_an_empty_database_once_even_when_workers_start_together(postgres_url):
    stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(3)))
    try:
        assert [await s.schema_version() for s in stores] == [version()] * 3
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    conn = await asyncpg.connect(postgres_url)
    try:
        applied = [r["version"] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY 1")]
        tables = {r["tablename"] for r in await conn.fetch("SELECT tablename FROM pg_tables "
                                                           "WHERE schemaname = 'public'")}
    finally:
        await conn.close()
    assert applied == list(range(1, version() + 1))
    assert {"chats", "players", "runs", "answers", "board_totals", "board_days"} <= tables


async def test_an_answer_is_committed_before_its_press_resolves(postgres_url):
    store = await PostgresStore.open(postgres_url)
    try:
        await store.ensure_chat(CHAT)
        run_id = await store.create_run(run_row())
        landed = await asyncio.gather(*(store.insert_answer(answer(run_id, f"test:u{n}", 1.0 + n))
                                        for n in range(50)))
        conn = await asyncpg.connect(postgres_url)  # another connection sees every one of them
        try:
            stored = await conn.fetchval("SELECT COUNT(*) FROM answers WHERE run_id = $1", run_id)
        finally:
            await conn.close()
    finally:
        await store.close()
    assert all(landed) and stored == 50
    assert store.writer.batches < 50, "fifty presses, each committed alone"


@pytest.mark.parametrize("how", ["wrong password", "refused", "no such database"])
async def test_an_unusable_database_is_one_line_naming_quizhost_db_without_the_password(
        postgres_cluster, how):
    url = {"wrong password": postgres_cluster.url(password="s3cret-Wrong"),
           "refused": "postgresql://quizhost:s3cret-Wrong@127.0.0.1:1/quizhost",
           "no such database": postgres_cluster.url("nowhere")}[how]
    with pytest.raises(StoreUnavailable) as caught:
        await PostgresStore.open(url)
    message = str(caught.value)
    assert message.startswith("QUIZHOST_DB: ") and "\n" not in message
    assert "s3cret-Wrong" not in message and PASSWORD not in message and "127.0.0.1" in message


@pytest.mark.parametrize("url", [
    "postgresql://quizhost:s3cret-Wrong@127.0.0.1:99999/quizhost",  # a port out of range
    "postgres://quizhost:s3cret-Wrong@/quizhost",  # no host
    "mysql://quizhost:s3cret-Wrong@127.0.0.1/quizhost",
])
def test_a_bad_url_stops_the_bot_with_one_line_naming_quizhost_db(tmp_path, url):
    result = cli(tmp_path, "play", "pipeline", env={"QUIZHOST_DB": url})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("quizhost: QUIZHOST_DB: "), result.stderr
    assert "s3cret-Wrong" not in result.stderr + result.stdout


def test_a_refused_password_stops_the_terminal_game_with_one_line(tmp_path, postgres_cluster):
    result = cli(tmp_path, "play", "pipeline", env={"QUIZHOST_DB": postgres_cluster.url(password="s3cret-Wrong")})
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"quizhost: QUIZHOST_DB: cannot use postgresql://quizhost:***@127.0.0.1:{postgres_cluster.port}/quizhost: "
        "the server refused the user name or password"]
    assert "s3cret-Wrong" not in result.stdout


def test_a_terminal_game_is_played_and_stored_on_postgresql(tmp_path, postgres_url):
    result = cli(tmp_path, "play", "pipeline", "--as", "Ann", env={"QUIZHOST_DB": postgres_url},
                 stdin="A\n" * 8 + "/stats\n")
    assert result.returncode == 0, result.stderr
    assert "Ann" in result.stdout
    answered = asyncio.run(_count(postgres_url, "SELECT COUNT(*) FROM answers"))
    assert answered == 8


async def _count(url: str, sql: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()
