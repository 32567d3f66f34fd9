"""What an operator and a load balancer ask a worker: /healthz and /metrics (Prometheus).

Figures are read when Prometheus scrapes, from counters the engine, the store, the lease
keeper and the adapters keep anyway, so a press pays nothing for them. The health check asks
the store a question it must answer quickly, and each platform whether it is connected; a
store that cannot answer (a lost database) or a platform out of reach makes the worker
unhealthy, so a load balancer stops sending it updates.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.engine.core import Engine
from bot.engine.workers import LeaseKeeper
from bot.ports.health import PlatformError, WatchedPlatform
from bot.ports.store import StoreUpkeep


@dataclass(frozen=True)
class Worker:
    """What /metrics and /healthz read of this worker: its runs, its presses' outcomes, its store's upkeep."""

    engine: Engine
    press_outcomes: Mapping[str, int]
    store: StoreUpkeep


HEALTH_SECONDS = 2.0  # a store slower than this to answer is as good as down for a press


class QuizhostCollector(Collector):
    def __init__(
        self,
        runs: Worker,
        keeper: LeaseKeeper | None = None,
        platforms: Sequence[WatchedPlatform] = (),
    ) -> None:
        self.runs = runs
        self.store = runs.store
        self.keeper = keeper
        self.platforms = platforms

    def collect(self) -> Iterator[Metric]:
        presses = CounterMetricFamily("quizhost_presses", "Button presses by outcome", labels=["outcome"])
        for outcome, count in sorted(self.runs.press_outcomes.items()):
            presses.add_metric([outcome], count)
        yield presses
        yield GaugeMetricFamily(
            "quizhost_open_runs", "Quiz runs this worker runs now", value=len(self.runs.engine.open_runs())
        )
        yield CounterMetricFamily(
            "quizhost_commits", "Transactions that stored answers or run states", value=self.store.commits
        )
        times = getattr(getattr(self.store, "writer", None), "times", None)
        if times is not None:
            yield HistogramMetricFamily(
                "quizhost_commit_seconds",
                "Time to commit one group of answers",
                buckets=times.buckets(),
                sum_value=times.total,
            )
        if self.keeper is not None:
            yield CounterMetricFamily(
                "quizhost_lease_takeovers", "Runs taken over from a worker that stopped", value=self.keeper.taken_over
            )
        errors = CounterMetricFamily(
            "quizhost_platform_errors", "Calls to a chat platform that failed, by kind", labels=["platform", "kind"]
        )
        for platform in self.platforms:
            counts = platform.platform_errors()
            for kind in PlatformError:  # every kind, zeros too: a fixed set of series
                errors.add_metric([platform.platform, kind.value], counts.get(kind, 0))
        yield errors


class Operations:
    """The /metrics text and the /healthz answer of one worker."""

    def __init__(
        self, runs: Worker, keeper: LeaseKeeper | None = None, platforms: Sequence[WatchedPlatform] = ()
    ) -> None:
        self.store = runs.store
        self.platforms = platforms
        self.registry = CollectorRegistry()
        self.registry.register(QuizhostCollector(runs, keeper, platforms))

    def metrics(self) -> bytes:
        return generate_latest(self.registry)

    async def health(self) -> tuple[bool, dict[str, str]]:
        """(healthy, each part's state): {"store": "ok", "telegram": "down: connection refused 12 s"}."""
        parts = {"store": await self._store_health()}
        healthy = parts["store"] == "ok"
        for platform in self.platforms:
            state = await platform.health()
            parts[platform.platform] = state.detail
            healthy = healthy and state.up
        return healthy, parts

    async def _store_health(self) -> str:
        try:
            await asyncio.wait_for(self.store.schema_version(), HEALTH_SECONDS)
        except Exception:  # any failure to answer is "not healthy"; the reason is the store's to log
            return "down: the database does not answer"
        return "ok"
