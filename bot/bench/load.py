"""Presses against the real engine and the real store (SQLite, or PostgreSQL with --db), through a null chat adapter.

Two ways to press:
- flat out: every player of every chat presses the open question at once, question after
  question (a fake clock moves the deadlines), so the engine takes presses as fast as it can;
- offered rate: the system clock and the engine's own timer loop, presses arriving at R per
  second on whatever questions are open, as a busy bot sees them.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.app.compose import compose
from bot.app.wiring import open_store
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, MessageRef, Player, QuestionCard, Quiz, Reply, Reveal
from bot.engine.core import Engine, EngineSettings, StartStatus
from bot.ports.clock import Clock, SystemClock
from bot.ports.store import Store
from bot.testing.clock import FakeClock

PLATFORM = "bench"


@dataclass
class NullAdapter:
    """A platform that accepts everything at once and keeps only the open questions."""

    platform: str = PLATFORM
    open: dict[int, QuestionCard] = field(default_factory=dict)  # run id -> its open question
    posted: int = 0
    listener: _PressPool | None = None

    async def post_question(self, card: QuestionCard) -> MessageRef:
        self.open[card.run_id] = card
        self.posted += 1
        if self.listener is not None:
            self.listener.opened(card)
        return MessageRef(card.chat, str(self.posted))

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        self.open.pop(reveal.card.run_id, None)
        if self.listener is not None:
            self.listener.closed(reveal.card.run_id)

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        pass

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        return True  # the bench assigns nothing


@dataclass
class LoadResult:
    presses: int = 0
    accepted: int = 0
    seconds: float = 0.0  # wall time spent pressing
    whole_seconds: float = 0.0  # flat out: first press to last podium, closes and asks included
    ack_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)  # offered rate: scheduled arrival -> engine
    chats: int = 0
    batches: int = 0


def player(chat: int, j: int) -> Player:
    return Player(PLATFORM, f"c{chat}u{j}", f"Player {chat}.{j}")


def players_of(chat: int, count: int) -> list[Player]:
    return [player(chat, j) for j in range(count)]


async def open_engine(
    db: str, catalog: Catalog, clock: Clock, seconds: int, pause: float
) -> tuple[Engine, NullAdapter, Store]:
    store = await open_store(db)
    engine = compose(catalog, store, clock, EngineSettings(question_seconds=seconds, pause_seconds=pause)).engine
    adapter = NullAdapter()
    engine.attach(adapter)
    return engine, adapter, store


async def start_runs(engine: Engine, quiz: Quiz, chats: int, players: int, first: int = 0) -> list[list[Player]]:
    roster = [players_of(first + i, players) for i in range(chats)]
    for i, people in enumerate(roster):
        outcome = await engine.start_quiz(ChatRef(PLATFORM, f"c{first + i}", title="bench"), quiz, people[0])
        assert outcome.status is StartStatus.STARTED, outcome.status
    return roster


async def timed_press(engine: Engine, token: str, player: Player, out: LoadResult) -> None:
    began = time.perf_counter()
    ack = await engine.answer(token, player)
    out.ack_ms.append((time.perf_counter() - began) * 1000)
    out.accepted += ack.accepted


async def flat_out(
    db: str, catalog: Catalog, quiz: Quiz, chats: int, players: int, window: int = 1000, seed: int = 1
) -> LoadResult:
    """Every chat plays the whole quiz; each question, all its players press as fast as the
    engine takes them: `window` presses in flight, the next one as soon as one is acknowledged.
    Timed twice: the presses alone, and the whole play with the closes and asks in between
    (in lockstep here, so they overlap no presses, as they would in a live bot)."""
    rng = random.Random(seed)
    clock = FakeClock(time.time())
    engine, adapter, store = await open_engine(db, catalog, clock, seconds=30, pause=5)
    result = LoadResult(chats=chats)
    try:
        roster = await start_runs(engine, quiz, chats, players)
        by_chat = {f"{PLATFORM}:c{i}": people for i, people in enumerate(roster)}
        clock.advance(5)
        await engine.run_due()
        began = time.perf_counter()
        while adapter.open:
            presses = [
                (rng.choice(card.options).token, p) for card in adapter.open.values() for p in by_chat[card.chat.key]
            ]
            rng.shuffle(presses)
            queue = iter(presses)
            burst = time.perf_counter()
            await asyncio.gather(*(_presser(engine, queue, result) for _ in range(min(window, len(presses)))))
            result.seconds += time.perf_counter() - burst
            result.presses += len(presses)
            for _ in range(2):  # close (the first question at its deadline), then ask the next one
                clock.advance(30)
                await engine.run_due()
        result.whole_seconds = time.perf_counter() - began
        result.batches = store.commits
    finally:
        await store.close()
    return result


async def _presser(engine: Engine, queue: Iterator[tuple[str, Player]], result: LoadResult) -> None:
    """One of the `window` players pressing in turn (each press still enters the engine alone)."""
    for token, player in queue:
        await timed_press(engine, token, player, result)


async def offered_rate(
    db: str,
    catalog: Catalog,
    quiz: Quiz,
    rate: float,
    seconds: float,
    players: int,
    question_seconds: int = 3,
    pause: float = 1.0,
    seed: int = 2,
) -> LoadResult:
    """Presses arrive at `rate` per second, spread over the open questions of many chats."""
    # enough chats that open questions never run dry, even while the first ones wait for
    # their deadline (a group's first question cannot close early)
    chats = max(1, int(rate * (question_seconds + pause) * 1.5 / players) + 1)
    rng = random.Random(seed)
    engine, adapter, store = await open_engine(db, catalog, SystemClock(), question_seconds, pause)
    result = LoadResult(chats=chats)
    timer = asyncio.get_running_loop().create_task(engine.serve())
    pool = _PressPool(adapter, players, rng)
    try:
        # chats start over one question's cycle, as groups do, so questions open and close all the time
        starting = asyncio.get_running_loop().create_task(
            _start_staggered(engine, quiz, chats, pool, min(question_seconds + pause, seconds))
        )
        while not adapter.open:
            await asyncio.sleep(0.01)
        await _Arrivals(engine, pool, result).offer(rate, seconds)
        await starting
        result.batches = store.commits
    finally:
        timer.cancel()
        await asyncio.gather(timer, return_exceptions=True)
        await store.close()
    return result


async def _start_staggered(
    engine: Engine, quiz: Quiz, chats: int, pool: _PressPool, cycle: float, groups: int = 10
) -> None:
    """A tenth of the chats at a time, each started by its first player. The bench's own
    bookkeeping stays small: a chat's players are made as they press, as a platform's update
    makes each presser (making a group's 5,000 up front stalled the loop 10 to 20 ms)."""
    for group in range(groups):
        first, last = chats * group // groups, chats * (group + 1) // groups
        # the roster first: on a slower store the first runs of a group ask before the last one starts
        pool.roster.update({f"{PLATFORM}:c{n}": n for n in range(first, last)})
        for n in range(first, last):
            outcome = await engine.start_quiz(ChatRef(PLATFORM, f"c{n}", title="bench"), quiz, player(n, 0))
            assert outcome.status is StartStatus.STARTED, outcome.status
        await asyncio.sleep(cycle / groups)


class _Arrivals:
    """Open loop: press n is due at n / rate after the start, whether earlier ones are done or
    not. When no question is open nobody can press: that slot passes (no pile-up for later).

    Each press is a task of its own, as a bot's update is, timed from its scheduled arrival
    (the lag) and from entering the engine (the ack). A press's task leaves the set of those
    in flight as it ends, with no done-callback (one more loop callback a press): the bench
    runs in the bot's loop, and its own upkeep is load a bot would not have."""

    def __init__(self, engine: Engine, pool: _PressPool, result: LoadResult) -> None:
        self._engine, self._pool, self._result = engine, pool, result
        self._in_flight: set[asyncio.Task[None]] = set()

    async def offer(self, rate: float, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        began = time.perf_counter()
        slot = sent = 0
        while (now := time.perf_counter()) < began + seconds:
            while began + slot / rate <= now:
                press = self._pool.take()
                if press is not None:
                    self._in_flight.add(loop.create_task(self._arrive(press[0], press[1], began + slot / rate)))
                    sent += 1
                slot += 1
            await asyncio.sleep(max(0.0, began + slot / rate - time.perf_counter()))
        if self._in_flight:  # no press arrives any more: the ones still in flight are all there are
            await asyncio.wait(set(self._in_flight))
        self._result.seconds = time.perf_counter() - began
        self._result.presses = sent

    async def _arrive(self, token: str, presser: Player, arrival: float) -> None:
        self._result.lag_ms.append((time.perf_counter() - arrival) * 1000)
        try:
            await timed_press(self._engine, token, presser, self._result)
        finally:
            self._in_flight.discard(asyncio.current_task())


class _PressPool:
    """The presses still to come on the open questions, drawn at random across chats."""

    def __init__(self, adapter: NullAdapter, players: int, rng: random.Random) -> None:
        self.roster: dict[str, int] = {}  # chat key -> its number, whose players press
        self._players, self._rng = players, rng
        self._left: dict[int, tuple[QuestionCard, int, list[int]]] = {}  # run id -> its open question
        self._active: list[int] = []  # run ids that may still have presses to come
        adapter.listener = self
        for card in adapter.open.values():
            self.opened(card)

    def opened(self, card: QuestionCard) -> None:
        people = list(range(self._players))
        self._rng.shuffle(people)
        self._left[card.run_id] = (card, self.roster[card.chat.key], people)
        self._active.append(card.run_id)

    def closed(self, run_id: int) -> None:
        self._left.pop(run_id, None)

    def take(self) -> tuple[str, Player] | None:
        draw = self._rng.random  # a float a draw: randrange and choice cost three times as much
        while self._active:
            i = int(draw() * len(self._active))
            entry = self._left.get(self._active[i])
            if entry is None or not entry[2]:  # closed or everybody pressed: drop it (swap-remove)
                self._active[i] = self._active[-1]
                self._active.pop()
                continue
            card, chat, people = entry
            return card.options[int(draw() * len(card.options))].token, player(chat, people.pop())
        return None
