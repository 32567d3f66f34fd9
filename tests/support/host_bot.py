"""A bot process for the hosted game's kill test: `python -m tests.support.host_bot DB pause|resume T`.

pause: the real engine and store with a recording adapter on a FakeClock at T: an admin hosts a
game, posts its first question, pauses it 10 s later, prints `PAUSED <seconds left>` once the
pause is stored, and waits to be killed.

resume: a fresh process on the same database, its clock at T: it takes the stored runs up, the host
resumes the game, and it prints `LEFT <seconds the question has>`.
"""

from __future__ import annotations

import asyncio
import sys

from bot.app.wiring import open_store
from bot.domain.hosting import HostAction
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from tests.support.crash_bot import catalog
from tests.support.house import build

HOST = player(1, "Ann")


async def main(db: str, mode: str, at: float) -> None:
    clock = FakeClock(at)
    store = await open_store(db, worker="host-bot")
    engine = build(catalog(), store, clock, EngineSettings(question_seconds=30, pause_seconds=2)).engine
    engine.attach(RecordingAdapter())
    await engine.resume()
    if mode == "pause":
        await engine.start(group(), "demo", HOST, hosted=True, seconds=30)
        await engine.host(group(), HostAction.NEXT, HOST, True)
        await engine.run_due()
        clock.advance(10)
        await engine.host(group(), HostAction.PAUSE, HOST, True)
        run = engine.run_in(group())
        assert run is not None
        print(f"PAUSED {run.row.paused_left}", flush=True)
        await asyncio.Event().wait()  # until SIGKILL
    await engine.host(group(), HostAction.RESUME, HOST, True)
    run = engine.run_in(group())
    assert run is not None
    print(f"LEFT {run.row.due - clock.now()}", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
