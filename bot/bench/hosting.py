"""`quizhost bench --host`: a hosted game's pace through the real engine and a SQLite file.

What a host waits for: `/next` until the next question is handed to the chat (the adapter
records it; no platform), and that nothing moves by itself: a hosted run left alone for ten
minutes of the game clock posts nothing, and a pause keeps the time the question had left
however long it lasts (the game clock is a fake one, moved by the bench; the latency is timed
by the wall clock).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app.compose import compose
from bot.content.catalog import Catalog
from bot.domain.hosting import HostAction
from bot.engine.core import EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from storage.sqlite.store import SqliteStore

LEFT_ALONE = 600.0  # seconds of the game clock a hosted run is left without its host
PAUSED_FOR = 3600.0
SECONDS = 30  # the question's time limit, given by the host


async def measure(questions: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "host.db")
        try:
            return await _play(store, questions)
        finally:
            await store.close()


async def _play(store: SqliteStore, questions: int) -> dict[str, Any]:
    clock = FakeClock()
    quiz = make_quiz(questions=questions + 1)
    engine = compose(Catalog.from_quizzes([quiz]), store, clock, EngineSettings(question_seconds=30)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    host, chat = player(1, "Host"), group()
    started = await engine.start(chat, quiz.id, host, hosted=True, seconds=SECONDS)
    assert started.status is StartStatus.STARTED, started
    clock.advance(LEFT_ALONE)
    await engine.run_due()
    alone = len(adapter.questions)
    waits = []
    for n in range(1, questions + 1):
        began = time.perf_counter()
        await engine.host(chat, HostAction.NEXT, host, True)
        await engine.run_due()
        waits.append(time.perf_counter() - began)
        assert len(adapter.questions) == n + alone, "a /next posts the next question"
        await engine.host(chat, HostAction.NEXT, host, True)  # the host closes it
        await engine.run_due()
    await engine.host(chat, HostAction.NEXT, host, True)
    await engine.run_due()
    clock.advance(SECONDS / 3)
    left = _left(engine, chat, clock)
    await engine.host(chat, HostAction.PAUSE, host, True)
    clock.advance(PAUSED_FOR)
    await engine.run_due()
    await engine.host(chat, HostAction.RESUME, host, True)
    after = _left(engine, chat, clock)
    await engine.host(chat, HostAction.END, host, True)
    return {
        "questions_posted_while_left_alone": alone,
        "left_alone_seconds": LEFT_ALONE,
        "next_to_question_ms_p50": statistics.median(waits) * 1000,
        "next_to_question_ms_max": max(waits) * 1000,
        "paused_seconds": PAUSED_FOR,
        "left_before_pause_s": left,
        "left_after_resume_s": after,
    }


def _left(engine: Any, chat: Any, clock: FakeClock) -> float:
    run = engine.run_in(chat)
    assert run is not None
    return float(run.row.due - clock.now())


def main(questions: int) -> int:
    result = asyncio.run(measure(questions))
    print(
        f"hosted game, {questions} questions (SQLite, no platform):\n"
        f"  left alone {result['left_alone_seconds']:.0f} s of game clock: "
        f"{result['questions_posted_while_left_alone']} questions posted\n"
        f"  /next to the next question handed to the chat: p50 {result['next_to_question_ms_p50']:.1f} ms, "
        f"max {result['next_to_question_ms_max']:.1f} ms\n"
        f"  paused {result['paused_seconds']:.0f} s with {result['left_before_pause_s']:.2f} s left: "
        f"{result['left_after_resume_s']:.2f} s left after the resume"
    )
    return 0
