"""The fake platform of `quizhost bench --platform`, in a process of its own.

`python -m bot.bench.platform_fake telegram|discord` starts the fake server of the end-to-end
tests (bot/testing/fake_telegram.py or bot/testing/fake_discord.py, shipped with the package)
on 127.0.0.1 and plays the players: it presses buttons of open questions from many players in
many chats and timestamps each press when the fake makes it visible to the bot and when the
bot's acknowledgement reaches the fake. Both timestamps are taken here, on one clock.

It takes one JSON command a line on stdin and answers one JSON line on stdout (the protocol is
in `Driver.commands`); everything else goes to stderr.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

STALL_SECONDS = 15.0  # a phase gives up when no acknowledgement arrives for this long


@dataclass
class Candidate:
    """A press still to come: a player of a chat, on that chat's open question."""

    chat: Any
    player: Any
    message: Any  # the platform's message id
    choices: list[str]  # the answer buttons' data


@dataclass
class Phase:
    """The presses of one phase and what became of them."""

    expected: int
    window: asyncio.Semaphore | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    latencies: list[float] = field(default_factory=list)  # seconds, press sent -> acknowledged
    lags: list[float] = field(default_factory=list)  # offered rate: scheduled -> sent
    first_sent: float = 0.0
    last_ack: float = 0.0
    sent: int = 0
    locked: int = 0  # acknowledgements that say the answer was taken ("Locked in")

    def figures(self, cpu: float) -> dict:
        seconds = max(self.last_ack - self.first_sent, 1e-9) if self.latencies else 0.0
        acked = len(self.latencies)
        return {
            "sent": self.sent,
            "acked": acked,
            "locked": self.locked,
            "missing": self.sent - acked,
            "seconds": round(seconds, 3),
            "per_s": round(acked / seconds) if seconds else 0,
            "ack_ms": spread([x * 1000 for x in self.latencies]),
            "lag_ms": spread([x * 1000 for x in self.lags]) if self.lags else None,
            "fake_cpu_s": round(cpu, 3),
        }


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))], 2)


def spread(values: list[float]) -> dict:
    return {
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": round(max(values), 2) if values else 0.0,
    }


class Driver(ABC):
    """The players. A platform subclass owns the fake and says how to press and what an ack is."""

    def __init__(self) -> None:
        self.pool: list[Candidate] = []
        self.sent_at: dict[Any, float] = {}  # press key -> when the fake made it visible
        self.phase: Phase | None = None
        self.rng = random.Random(7)

    # what a platform provides ---------------------------------------------------------

    @abstractmethod
    async def listen(self) -> dict: ...

    @abstractmethod
    def setup(self, chats: int, players: int) -> dict: ...

    @abstractmethod
    async def start_quizzes(self, topic: str, timeout: float) -> list[Candidate]: ...

    @abstractmethod
    async def press(self, candidate: Candidate) -> Any:
        """Make one press visible to the bot; call `self.pressed(key)` the moment it is."""

    @abstractmethod
    def raw_targets(self, count: int) -> dict:
        """`count` presses the bot never sees, for a bare client to acknowledge straight away."""

    @abstractmethod
    def raw_answered(self) -> int:
        """How many of those the fake accepted as acknowledged."""

    @abstractmethod
    async def close(self) -> None: ...

    def more_commands(self) -> dict[str, Callable[..., Any]]:
        """A platform's own commands beside the common ones (Telegram: the load balancer's)."""
        return {}

    # acknowledgements (the fake subclass calls this) ---------------------------------------

    def pressed(self, key: Any) -> None:
        now = time.perf_counter()
        self.sent_at[key] = now
        phase = self.phase
        if phase is not None:
            phase.sent += 1
            phase.first_sent = phase.first_sent or now

    def acked(self, key: Any, text: str | None) -> None:
        now = time.perf_counter()
        sent = self.sent_at.pop(key, None)
        phase = self.phase
        if sent is None or phase is None:
            return
        phase.latencies.append(now - sent)
        phase.last_ack = now
        phase.locked += bool(text and text.startswith("Locked in"))
        if phase.window is not None:
            phase.window.release()
        if len(phase.latencies) >= phase.expected:
            phase.done.set()

    # the phases ------------------------------------------------------------------------

    async def start(self, topic: str, timeout: float) -> dict:
        began = time.perf_counter()
        self.pool = await self.start_quizzes(topic, timeout)
        self.rng.shuffle(self.pool)
        gc.collect()
        gc.freeze()  # what exists now lives to the end: no collection need walk it again
        return {"presses_available": len(self.pool), "seconds": round(time.perf_counter() - began, 2)}

    async def flat(self, presses: int, window: int) -> dict:
        """Closed loop: `window` presses waiting for their ack at any time, until `presses` are sent."""
        batch = self._take(presses)
        slots = asyncio.Semaphore(window)
        phase = self._begin(Phase(len(batch), window=slots))
        cpu = time.process_time()
        for candidate in batch:
            try:  # no ack for this long: the bot is stuck, the rest would wait forever
                if slots.locked():  # wait_for costs a task and a timer: only when it must wait
                    await asyncio.wait_for(slots.acquire(), STALL_SECONDS)
                else:
                    await slots.acquire()
            except TimeoutError:
                break
            await self.press(candidate)
        await self._settle(phase)
        return phase.figures(time.process_time() - cpu)

    async def rate(self, rate: float, seconds: float) -> dict:
        """Open loop: press k is due at k / rate, whether earlier ones were acknowledged or not."""
        batch = self._take(int(rate * seconds))
        phase = self._begin(Phase(len(batch)))
        cpu = time.process_time()
        began = time.perf_counter()
        for k, candidate in enumerate(batch):
            due = began + k / rate
            if (delay := due - time.perf_counter()) > 0:
                await asyncio.sleep(delay)
            phase.lags.append(time.perf_counter() - due)
            await self.press(candidate)
        await self._settle(phase)
        return phase.figures(time.process_time() - cpu)

    def _raw_phase(self, count: int) -> dict:
        """The bare client's presses, measured as the bot's are: no collection of the fake's heap
        meanwhile (see `_begin`). With one, the last of its three runs was the slowest every time
        (6,300 to 7,000 presses/s against 9,700 to 10,900 on Discord), from the heap the bot's passes left."""
        gc.disable()
        return self.raw_targets(count)

    def _raw_phase_end(self) -> int:
        gc.enable()
        gc.collect()
        return self.raw_answered()

    def _begin(self, phase: Phase) -> Phase:
        # This process is the measuring instrument: a collection of the fake's many stored
        # messages stalls it for tens of milliseconds, which would show up as the bot's latency.
        # A phase creates a bounded amount of garbage; it is collected after the phase.
        gc.disable()
        self.phase = phase
        return phase

    async def _settle(self, phase: Phase) -> None:
        """Wait for every ack, or until none has come for STALL_SECONDS (the rest count as missing)."""
        while not phase.done.is_set():
            progress = len(phase.latencies)
            try:
                await asyncio.wait_for(phase.done.wait(), STALL_SECONDS)
            except TimeoutError:
                if len(phase.latencies) == progress:
                    break
        self.phase = None
        gc.enable()
        gc.collect()

    def _take(self, count: int) -> list[Candidate]:
        if count > len(self.pool):
            raise ValueError(f"only {len(self.pool)} presses left on open questions, {count} wanted")
        batch, self.pool = self.pool[:count], self.pool[count:]
        return batch

    # the protocol ----------------------------------------------------------------------

    async def commands(self) -> None:
        """{"cmd": "setup"|"start"|"flat"|"rate"|"raw"|"raw_answered"|"quit", ...} in, one JSON line out."""
        loop = asyncio.get_running_loop()
        reply(await self.listen())
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            command = json.loads(line)
            name = command.pop("cmd")
            if name == "quit":
                await self.close()
                reply({"ok": True})
                return
            try:
                handlers: dict[str, Callable[..., Any]] = {
                    "setup": self.setup,
                    "start": self.start,
                    "flat": self.flat,
                    "rate": self.rate,
                    "raw": self._raw_phase,
                    "raw_answered": self._raw_phase_end,
                    **self.more_commands(),
                }
                handler = handlers[name]
                result = handler(**command)
                result = await result if asyncio.iscoroutine(result) else result
                reply(result if isinstance(result, dict) else {"result": result})
            except Exception as exc:  # the bench prints it and stops
                reply({"error": f"{type(exc).__name__}: {exc}"})


def reply(data: dict) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


async def main(platform: str) -> None:
    if platform == "telegram":
        from bot.bench.platform_telegram import TelegramDriver

        driver: Driver = TelegramDriver()
    else:
        from bot.bench.platform_discord import DiscordDriver

        driver = DiscordDriver()
    await driver.commands()


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("telegram", "discord"):
        sys.exit("usage: python -m bot.bench.platform_fake telegram|discord")
    asyncio.run(main(sys.argv[1]))
