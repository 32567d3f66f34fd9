"""A bot process for the kill test: `python -m tests.support.crash_bot DB load|finish [--seed N]`.

load: the real engine and store (SQLite or PostgreSQL) with a recording adapter; resumes whatever runs the
database holds, keeps CHATS chats playing, and has their players press as fast as the
engine takes them. Every press the engine acknowledged is printed (and flushed) as
`ACK <run id> <question number> <player key>` only after its Ack came back, so a line on
stdout is a promise the bot made. It runs until it is killed.

finish: resumes and plays every open run to its end with nobody pressing, then prints
`FINISHED <runs resumed>`.

Time is a FakeClock started at the wall clock: deadlines come when this script moves it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time

from bot.app.wiring import open_store
from bot.content.catalog import Catalog
from bot.domain import session
from bot.domain.model import ChatRef, Player
from bot.engine.core import Engine, EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, make_quiz
from tests.support.house import build, house_of

CHATS = 4
PLAYERS = 6
SECONDS = 30
PAUSE = 2


def catalog() -> Catalog:
    return Catalog.from_quizzes([make_quiz("demo", 4), make_quiz("other", 3, title="Other things")])


async def open_engine(db: str) -> tuple[Engine, FakeClock, RecordingAdapter]:
    clock = FakeClock(time.time())
    # a SQLite file or a postgresql:// URL; on PostgreSQL each start is the same worker restarted,
    # under its name, so it takes its runs back at once as a restarted deployment does
    store = await open_store(db, worker="crash-bot")
    engine = build(catalog(), store, clock, EngineSettings(question_seconds=SECONDS, pause_seconds=PAUSE)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    print(f"RESUMED {await engine.resume()}", flush=True)
    return engine, clock, adapter


async def load(db: str, seed: int) -> None:
    rng = random.Random(seed)
    engine, clock, _ = await open_engine(db)
    quizzes = house_of(engine).catalog.all()
    while True:  # until SIGKILL
        for n in range(CHATS):
            chat = ChatRef("test", f"g{n}", title="crash group")
            if engine.run_in(chat) is None:
                await engine.start_quiz(chat, rng.choice(quizzes), Player("test", f"u{n}x0", "Starter"))
        clock.advance(PAUSE)
        await engine.run_due()  # ask whatever is due: first questions, next questions
        await _press_round(engine, rng)
        clock.advance(rng.choice((1, SECONDS)))  # early closes, or the deadline
        await engine.run_due()


async def _press_round(engine: Engine, rng: random.Random) -> None:
    """Every open question: its players press at once, some twice, some on a wrong token."""
    presses = []
    for run in engine.open_runs():
        if not run.is_asking:
            continue
        card = session.card(run)  # the buttons as posted, before the restart too
        chat = run.row.chat_id
        for j in range(rng.randint(1, PLAYERS)):
            player = Player("test", f"{chat}u{j}", f"Player {j}")
            for _ in range(rng.choice((1, 1, 2))):
                presses.append((rng.choice(card.options).token, player, card.run_id, card.number))
    rng.shuffle(presses)
    await asyncio.gather(*(_press(engine, *press) for press in presses))


async def _press(engine: Engine, token: str, player: Player, run_id: int, number: int) -> None:
    ack = await engine.answer(token, player)
    if ack.accepted:
        sys.stdout.write(f"ACK {run_id} {number} {player.key}\n")
        sys.stdout.flush()


async def finish(db: str) -> None:
    engine, clock, _ = await open_engine(db)
    resumed = len(engine.open_runs())
    for _ in range(1000):
        await engine.run_due()
        due = engine.next_due()
        if due is None:
            break
        clock.advance(max(0.0, due - clock.now()) + 0.001)
    await house_of(engine).store.close()
    print(f"FINISHED {resumed} OPEN {len(engine.open_runs())}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.crash_bot")
    parser.add_argument("db")
    parser.add_argument("mode", choices=("load", "finish"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    asyncio.run(load(args.db, args.seed) if args.mode == "load" else finish(args.db))
    return 0


if __name__ == "__main__":
    sys.exit(main())
