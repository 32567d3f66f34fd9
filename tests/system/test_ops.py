"""/healthz and /metrics, on SQLite and on PostgreSQL: what a load balancer and Prometheus see."""

from __future__ import annotations

import aiohttp
import pytest

from bot.adapters.ops.http import OpsServer
from bot.adapters.ops.metrics import Operations
from bot.app.settings import SettingsError, load_settings
from bot.app.wiring import open_store
from bot.testing.fakes import group, player
from tests.support.house import house_of, worker_of


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    return str(tmp_path / "quizhost.db") if request.param == "sqlite" else request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(database):
    store = await open_store(database)
    yield store
    await store.close()


@pytest.fixture
async def ops(engine):
    server = OpsServer(Operations(worker_of(house_of(engine))), "127.0.0.1", 0)
    await server.start()
    yield f"http://127.0.0.1:{server.port}"
    await server.stop()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def test_metrics_count_presses_by_outcome_commits_and_open_runs(engine, adapter, clock, ops):
    await engine.start(group(), "demo", player(1))
    clock.advance(3)
    await engine.run_due()
    assert (await engine.answer(adapter.token("A"), player(1))).accepted
    assert not (await engine.answer(adapter.token("B"), player(1))).accepted  # the same player again
    assert not (await engine.answer("junk", player(2))).accepted
    status, text = await get(f"{ops}/metrics")
    assert status == 200
    assert 'quizhost_presses_total{outcome="accepted"} 1.0' in text
    assert 'quizhost_presses_total{outcome="repeated"} 1.0' in text
    assert 'quizhost_presses_total{outcome="invalid"} 1.0' in text
    assert "quizhost_open_runs 1.0" in text
    assert "quizhost_commit_seconds_count" in text and 'quizhost_commit_seconds_bucket{le="+Inf"}' in text


async def test_healthz_is_200_while_the_store_answers_and_503_once_it_cannot(store, ops):
    assert await get(f"{ops}/healthz") == (200, '{"store": "ok"}')
    await store.close()  # the database is gone for this worker
    assert await get(f"{ops}/healthz") == (503, '{"store": "down: the database does not answer"}')


def test_a_bad_ops_address_is_one_clear_setting_error():
    with pytest.raises(SettingsError) as caught:
        load_settings(None, quizhost_ops_listen="everywhere")
    assert "QUIZHOST_OPS_LISTEN" in str(caught.value)
    assert load_settings(None).quizhost_ops_listen == "", "off unless asked for"
