"""A synthetic review history, made with a fixed seed: players miss questions in quizzes and review
them when FSRS (bot/engine/recall.py) says, recalling each as a hidden memory model decides; every
grade goes into a real store's review log, as /review writes it.

    python -m tests.support.review_history reviews.db [--players 40] [--days 150] [--seed 7]
    quizhost stats --review --db reviews.db
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random

from bot.domain.deck import DAY, ReviewCard, ReviewLogRow, due_now
from bot.engine import recall
from storage.sqlite.store import SqliteStore

START = 1_780_000_000.0


def _recalled(rng: random.Random, strength: float, elapsed_days: float) -> bool:
    """The hidden memory: recall falls as a power of the time since the last grade, slower for a
    stronger memory (unlike FSRS's curve, and unknown to it)."""
    return rng.random() < (1 + elapsed_days / (9 * strength)) ** -1


def history(seed: int = 7, players: int = 40, days: int = 150) -> list[ReviewLogRow]:
    rng = random.Random(seed)
    log: list[ReviewLogRow] = []
    for p in range(players):
        player, ability = f"test:{p}", math.exp(rng.gauss(0, 0.5))
        deck: dict[str, tuple[ReviewCard, float]] = {}  # question -> card, hidden strength in days
        for day in range(days):
            for _ in range(rng.choice((0, 0, 1, 2, 3))):  # misses in the day's quizzes
                question, at = f"q{rng.randrange(60)}", START + day * DAY + rng.uniform(9, 12) * 3600
                card, row = recall.missed(player, "pipeline", question, at)
                deck[question] = (card, 0.3 * ability * math.exp(rng.gauss(0, 0.4)))
                log.append(row)
            if rng.random() < 0.6:  # a /review in the evening, of every card due then
                at = START + day * DAY + rng.uniform(17, 22) * 3600
                for card in due_now([c for c, _ in deck.values()], at):
                    strength = deck[card.question_id][1]
                    right = _recalled(rng, strength, (at - (card.last_review or at)) / DAY)
                    moved, row = recall.answered(card, right, at)
                    log.append(row)
                    if moved is None:
                        del deck[card.question_id]
                    else:
                        # a right answer strengthens the memory; a wrong one shows the answer, which helps a little
                        deck[card.question_id] = (moved, strength * 2.5 if right else 0.6 * strength + 0.3)
    return log


async def write(path: str, log: list[ReviewLogRow]) -> None:
    store = await SqliteStore.open(path)
    try:
        for start in range(0, len(log), 200):
            await store.add_review_log(log[start : start + 200])
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--days", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    log = history(args.seed, args.players, args.days)
    asyncio.run(write(args.db, log))
    print(f"{len(log)} grades written to {args.db}")


if __name__ == "__main__":
    main()
