"""The PostgreSQL store on a real server: migrations, group commit, and the operator's view of
a QUIZHOST_DB that cannot be used."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.testing.fakes import player
from bot.testing.postgres import PASSWORD
from storage.dburl import StoreUnavailable
from storage.postgres.schema import version
from storage.postgres.store import PostgresStore
from tests.contract.stores.rows import CHAT, answer, run_row
from tests.contract.test_writer import NOT_SAVED, start_and_ask
from tests.system.test_cli import cli

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
        tables = {
            r["tablename"] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
    finally:
        await conn.close()
    assert applied == list(range(1, version() + 1))
    assert {"chats", "players", "runs", "answers", "board_totals", "board_days"} <= tables


async def test_a_database_from_a_newer_quizhost_is_refused_in_one_line(postgres_url):
    await (await PostgresStore.open(postgres_url)).close()
    await _execute(postgres_url, f"INSERT INTO schema_version(version) VALUES ({version() + 1})")
    with pytest.raises(StoreUnavailable) as caught:
        await PostgresStore.open(postgres_url)
    assert str(caught.value).startswith("QUIZHOST_DB: ") and "newer quizhost" in str(caught.value)
    assert PASSWORD not in str(caught.value)


async def test_an_answer_is_committed_before_its_press_resolves(postgres_url):
    store = await PostgresStore.open(postgres_url)
    try:
        await store.ensure_chat(CHAT)
        run_id = await store.create_run(run_row())
        landed = await asyncio.gather(*(store.insert_answer(answer(run_id, f"test:u{n}", 1.0 + n)) for n in range(50)))
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
async def test_an_unusable_database_is_one_line_naming_quizhost_db_without_the_password(postgres_cluster, how):
    url = {
        "wrong password": postgres_cluster.url(password="s3cret-Wrong"),
        "refused": "postgresql://quizhost:s3cret-Wrong@127.0.0.1:1/quizhost",
        "no such database": postgres_cluster.url("nowhere"),
    }[how]
    with pytest.raises(StoreUnavailable) as caught:
        await PostgresStore.open(url)
    message = str(caught.value)
    assert message.startswith("QUIZHOST_DB: ") and "\n" not in message
    assert "s3cret-Wrong" not in message and PASSWORD not in message and "127.0.0.1" in message


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://quizhost:s3cret-Wrong@127.0.0.1:99999/quizhost",  # a port out of range
        "postgres://quizhost:s3cret-Wrong@/quizhost",  # no host
        "mysql://quizhost:s3cret-Wrong@127.0.0.1/quizhost",
    ],
)
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
        "the server refused the user name or password"
    ]
    assert "s3cret-Wrong" not in result.stdout


def test_a_terminal_game_is_played_and_stored_on_postgresql(tmp_path, postgres_url):
    result = cli(
        tmp_path, "play", "pipeline", "--as", "Ann", env={"QUIZHOST_DB": postgres_url}, stdin="A\n" * 8 + "/stats\n"
    )
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


@pytest.fixture
async def store(postgres_url):
    store = await PostgresStore.open(postgres_url)
    yield store
    await store.close()


async def test_a_refused_commit_tells_every_waiting_player_and_they_can_press_again(
    engine, adapter, clock, postgres_url
):
    await start_and_ask(engine, clock)
    await _execute(postgres_url, REFUSE)
    acks = await asyncio.gather(*(engine.answer(adapter.token("B"), player(n)) for n in range(1, 4)))
    assert [(a.accepted, a.text) for a in acks] == [(False, NOT_SAVED)] * 3
    await _execute(postgres_url, "DROP TRIGGER refuse ON answers")
    again = await engine.answer(adapter.token("B"), player(1))
    assert again.accepted and again.text == "Locked in: B"
    clock.advance(30)
    await engine.run_due()
    assert [s.name for s in adapter.reveals[-1][1].answers] == ["Player 1"]


async def test_a_lost_connection_costs_only_the_presses_in_flight_and_no_acknowledged_answer(
    engine, adapter, clock, store, postgres_url
):
    run = await start_and_ask(engine, clock)
    acked = []
    for wave in range(3):
        players = [player(n) for n in range(wave * 10 + 1, wave * 10 + 11)]
        presses = [engine.answer(adapter.token("A"), p) for p in players]
        if wave == 1:  # the server drops every connection of the bot while these are in flight
            *acks, killed = await asyncio.gather(*presses, _count(postgres_url, KILL_OTHERS))
            assert killed >= 1
        else:
            acks = await asyncio.gather(*presses)
        retried = [await engine.answer(adapter.token("A"), p) for p, a in zip(players, acks) if not a.accepted]
        assert all(a.accepted for a in retried), "after a lost connection, pressing again works"
        acked += [p.key for p in players]
    stored = {a.player_key for a in await store.run_answers(run.id)}
    assert stored == set(acked) and len(acked) == 30


KILL_OTHERS = (
    "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()) AS killed"
)
REFUSE = (
    "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; "
    "END $$; CREATE TRIGGER refuse BEFORE INSERT ON answers FOR EACH ROW EXECUTE FUNCTION refuse()"
)


async def _execute(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def test_connections_go_back_to_the_pool_holding_no_advisory_lock(postgres_url):
    """The pool skips asyncpg's reset query (a round trip per release): a lock left on a pooled
    connection would stall every other worker's Discord identify or polling for good."""
    store = await PostgresStore.open(postgres_url, owner="w1")
    watcher = await asyncpg.connect(postgres_url)
    held = (
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    try:
        async with store.identify_lock(3):
            assert await watcher.fetchval(held) == 1
        with pytest.raises(RuntimeError):
            async with store.identify_lock(4):
                raise RuntimeError("the identify failed")
        assert await watcher.fetchval(held) == 0
        assert await store.hold_polling()
        assert await watcher.fetchval(held) == 1  # the polling lock, on a connection kept out of the pool
    finally:
        await store.close()
    assert await watcher.fetchval(held) == 0
    await watcher.close()
