from __future__ import annotations

import pytest

from bot.content.catalog import Catalog
from bot.engine.core import Engine, EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, make_quiz
from storage.sqlite.store import SqliteStore
from tests.pg_fixtures import add_option, deselect_postgres, postgres_cluster, postgres_url  # noqa: F401


def pytest_addoption(parser: pytest.Parser) -> None:
    add_option(parser)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    deselect_postgres(config, items)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path):
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    yield store
    await store.close()


@pytest.fixture
def reopen(tmp_path):
    """Opens another store on the test's database: a restart, or a second worker beside the first."""
    return lambda: SqliteStore.open(tmp_path / "quizhost.db")


@pytest.fixture
def quiz():
    return make_quiz()


@pytest.fixture
def adapter() -> RecordingAdapter:
    return RecordingAdapter()


@pytest.fixture
def engine(quiz, store, clock, adapter) -> Engine:
    catalog = Catalog.from_quizzes([quiz, make_quiz("other", 3, title="Other things", tags=("misc",))])
    engine = Engine(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5))
    engine.attach(adapter)
    return engine
