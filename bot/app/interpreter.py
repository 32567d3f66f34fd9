"""The interpreter as a serving bot wants it: process-wide tuning, applied and undone here only.

CPython's switch interval and garbage collector belong to the process, not to the bot: what is
set here changes every library in it. So it is one setting, QUIZHOST_INTERPRETER_TUNING (on by
default; off leaves the interpreter exactly as CPython set it up), and `quizhost bench --tuning
both` prints the figures it is kept for, with it and without it, side by side
(docs/PERFORMANCE.md, "Interpreter tuning").
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Iterator

from bot.app.collector import PacedCollector

# Each knob below was kept because `quizhost bench --tuning both` showed it, each run taking the
# same offered presses both ways (docs/PERFORMANCE.md#interpreter-tuning). With all of them, the
# slowest 1% of acknowledgements at 30% of flat out were 61 to 226 ms on a shared, busy host
# against 247 to 664 ms without any, in four runs of four; flat out moved within its noise.

# How long a thread holding the interpreter runs before another may take it (CPython's default:
# 5 ms). The store's thread (aiosqlite's) takes it back to pick up each batch and after each
# statement, and with the event loop busy each take waited up to the interval: at 3,000 presses a
# second the slowest acknowledgements 12.5 and 14.9 ms at 5 ms, 10.4 and 9.9 ms at 0.5 ms; at 8,000
# a batch's hop to that thread 1.0 to 1.2 ms at p90 at 0.5 ms, 0.5 ms at 0.1. The collector's
# knobs without this one: ack p99 21 and 535 ms against 58 and 790 ms untuned in the same runs.
SWITCH_INTERVAL_SECONDS = 0.0001
# Objects made (less those freed) before CPython collects the young generation by itself; its
# default is 700. A press makes objects by the hundred (a Discord press its parsed interaction and
# message), and with presses in flight most of them are alive when a young collection comes: it
# walked them all and freed nothing, ten times a second on Discord's gateway flat out even at
# 10,000. The collections come on the loop's clock instead (bot/app/collector.py), so that none
# walks seconds of a run's answers; these thresholds are a backstop for a burst between two ticks.
# The paced collector needs them: each tick's collection of the middle generation counts toward
# a full one, and with CPython's 700, 10, 10 a full collection could follow every tenth tick
# (ack p99 463 and 97 ms against 75 and 228 ms untuned in the same runs).
YOUNG_THRESHOLD = 100_000
MIDDLE_THRESHOLD, OLD_THRESHOLD = 50, 1_000


@contextlib.contextmanager
def serving_interpreter(tuning: bool) -> Iterator[None]:
    """While the bot serves, with `tuning` (QUIZHOST_INTERPRETER_TUNING): the switch interval
    above; what is loaded by now (the libraries, the catalog, the open runs) frozen, as it lives as
    long as the bot, so that the garbage collector never walks it again (full collections of that
    heap paused a busy bot for 50 to 110 ms, the worst acks of a run; a full collection of the
    start-up heap, about 119,000 objects, takes 34 to 51 ms, frozen under 0.01 ms); the young generation's
    threshold above; and the collector on the loop's clock (when a loop runs). All of it undone
    on the way out, for a process that goes on (the tests run many bots). Without `tuning`,
    nothing is touched.

    `gc.unfreeze` has no partial form: what anything else froze before is collectable again after.
    """
    if not tuning:
        yield
        return
    switch, thresholds = sys.getswitchinterval(), gc.get_threshold()
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    gc.collect()
    gc.freeze()
    gc.set_threshold(max(thresholds[0], YOUNG_THRESHOLD), MIDDLE_THRESHOLD, OLD_THRESHOLD)
    paced = _paced_collector()
    try:
        yield
    finally:
        if paced is not None:
            paced.stop()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        sys.setswitchinterval(switch)


def _paced_collector() -> PacedCollector | None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop to pace it: CPython's thresholds alone
        return None
    paced = PacedCollector(loop)
    paced.start()
    return paced
