"""What an operator and a load balancer ask a worker: /healthz and /metrics (Prometheus).

Figures are read when Prometheus scrapes, from counters the engine, the store and the lease
keeper keep anyway, so a press pays nothing for them. The health check asks the store a
question it must answer quickly; a store that cannot (a lost database) makes the worker
unhealthy, so a load balancer stops sending it updates.
"""
from __future__ import annotations

import asyncio
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.engine import Engine
from bot.workers import LeaseKeeper

HEALTH_SECONDS = 2.0  # a store slower than this to answer is as good as down for a press


class QuizhostCollector(Collector):
    def __init__(self, engine: Engine, keeper: LeaseKeeper | None = None) -> None:
        self.engine = engine
        self.keeper = keeper

    def collect(self) -> Iterator[Metric]:
        presses = CounterMetricFamily("quizhost_presses", "Button presses by outcome", labels=["outcome"])
        for outcome, count in sorted(self.engine.press_outcomes.items()):
            presses.add_metric([outcome], count)
        yield presses
        yield GaugeMetricFamily("quizhost_open_runs", "Quiz runs this worker runs now",
                                value=len(self.engine.open_runs()))
        yield CounterMetricFamily("quizhost_commits", "Transactions that stored answers or run states",
                                  value=self.engine.store.commits)
        times = getattr(getattr(self.engine.store, "writer", None), "times", None)
        if times is not None:
            yield HistogramMetricFamily("quizhost_commit_seconds", "Time to commit one group of answers",
                                        buckets=times.buckets(), sum_value=times.total)
        if self.keeper is not None:
            yield CounterMetricFamily("quizhost_lease_takeovers", "Runs taken over from a worker that stopped",
                                      value=self.keeper.taken_over)


class Operations:
    """The /metrics text and the /healthz answer of one worker."""

    def __init__(self, engine: Engine, keeper: LeaseKeeper | None = None) -> None:
        self.engine = engine
        self.registry = CollectorRegistry()
        self.registry.register(QuizhostCollector(engine, keeper))

    def metrics(self) -> bytes:
        return generate_latest(self.registry)

    async def healthy(self) -> bool:
        try:
            await asyncio.wait_for(self.engine.store.schema_version(), HEALTH_SECONDS)
        except Exception:  # any failure to answer is "not healthy"; the reason is the store's to log
            return False
        return True
