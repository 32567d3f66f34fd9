from __future__ import annotations

from pathlib import Path

import pytest

from bot.content.catalog import Catalog
from bot.engine.core import Engine, EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, make_quiz
from storage.sqlite.store import SqliteStore
from tests.support.house import build
from tests.support.pg_fixtures import add_option, deselect_postgres, postgres_cluster, postgres_url  # noqa: F401
from tests.support.stray_threads import exit_past_stray_threads, note_status

TESTS = Path(__file__).resolve().parent
TIERS = ("unit", "engine", "contract", "adapters", "system")  # fastest first; markers in pyproject.toml


def pytest_addoption(parser: pytest.Parser) -> None:
    add_option(parser)


@pytest.hookimpl(tryfirst=True)  # before -m reads the markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # the tier is the folder: `pytest -m unit`, `-m "not system"`...
        item.add_marker(tier_of(item.path))
    deselect_postgres(config, items)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    note_status(exitstatus)


@pytest.hookimpl(trylast=True)  # after every other plugin has finished: the summary is out
def pytest_unconfigure(config: pytest.Config) -> None:
    exit_past_stray_threads()


def tier_of(path: Path) -> str:
    tier = path.resolve().relative_to(TESTS).parts[0]
    if tier not in TIERS:
        raise pytest.UsageError(f"{path}: a test belongs in one of the tiers' folders: {', '.join(TIERS)}")
    return tier


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
    engine = build(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
    engine.attach(adapter)
    return engine
