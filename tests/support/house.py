"""The tests' way to the composition root: `build` is `compose` (bot/app/compose.py), and
remembers each house by its engine, so a test holding an engine reaches the pieces beside it
(`house_of(engine).commands`, `.store`, `.chats`...)."""

from __future__ import annotations

import random
import weakref

from bot.adapters.ops.metrics import Worker
from bot.app.compose import House, compose
from bot.commands.weblinks import WebAddress
from bot.content.catalog import Catalog
from bot.engine.core import Engine
from bot.engine.run_start import EngineSettings
from bot.ports.clock import Clock
from bot.ports.offload import Offload
from bot.ports.store import CoreStore

_HOUSES: weakref.WeakKeyDictionary[Engine, House] = weakref.WeakKeyDictionary()


def build(
    catalog: Catalog,
    store: CoreStore,
    clock: Clock | None = None,
    settings: EngineSettings | None = None,
    web: WebAddress | None = None,
    offload: Offload | None = None,
    rng: random.Random | None = None,
) -> House:
    house = compose(catalog, store, clock, settings, web, offload, rng)
    _HOUSES[house.engine] = house
    return house


def house_of(engine: Engine) -> House:
    """The house `engine` was built in (by `build`, or by the wiring: `remember` it)."""
    return _HOUSES[engine]


def remember(house: House) -> House:
    _HOUSES[house.engine] = house
    return house


def worker_of(house: House) -> Worker:
    """What /metrics and /healthz read of the house's worker."""
    return Worker(house.engine, house.press_outcomes, house.store)
