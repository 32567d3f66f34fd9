"""The board bench: a larger chat adds older runs, so its boards compare like with like, and the
sizes are read in turn, so the host's slow moments fall on every size alike."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.bench.boards import board_chat, history, in_turn, long_enough
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.standings import period_start
from storage.shared.tables import ANSWER_COLUMNS

THURSDAY_NOON = datetime(2026, 12, 3, 12, tzinfo=UTC).timestamp()  # 3.5 days into the week


ANSWERED_AT, CHAT_KEY, RUN_ID = (ANSWER_COLUMNS.index(c) for c in ("answered_at", "chat_key", "run_id"))


def _started(runs) -> list[float]:
    return [when for (_, _, _, when), _ in runs]


def _but_ids(run) -> tuple:
    """A run as its players saw it: what they answered and when, without its chat and ids."""
    (_, _, quiz_id, when), rows = run
    return quiz_id, when, [tuple(v for i, v in enumerate(row) if i not in (RUN_ID, CHAT_KEY)) for row in rows]


def test_a_larger_chat_holds_the_smaller_ones_runs_and_older_ones_so_this_week_is_the_same():
    quizzes = long_enough(Catalog.load(default_quiz_folders()))
    small = history(10_000, board_chat(10_000), 1000, quizzes, THURSDAY_NOON, 1)
    large = history(100_000, board_chat(100_000), 1000, quizzes, THURSDAY_NOON, len(small) + 1)

    newest, added = large[: len(small)], large[len(small) :]
    assert [_but_ids(r) for r in newest] == [_but_ids(r) for r in small]
    assert max(_started(added)) < min(_started(small))  # every added run is older than every first one
    assert sum(len(rows) for _, rows in small) >= 10_000 and sum(len(rows) for _, rows in large) >= 100_000
    answered = [row[ANSWERED_AT] for _, rows in small + large for row in rows]
    assert max(answered) < THURSDAY_NOON  # nobody answers in the future
    assert {row[CHAT_KEY] for _, rows in small for row in rows} == {board_chat(10_000).key}
    assert {row[CHAT_KEY] for _, rows in large for row in rows} == {board_chat(100_000).key}
    assert not {run_id for (run_id, *_), _ in small} & {run_id for (run_id, *_), _ in large}

    week = period_start("week", THURSDAY_NOON)
    this_week_small = [_but_ids(r) for r in small if r[0][3] >= week]
    this_week_large = [_but_ids(r) for r in large if r[0][3] >= week]
    assert this_week_small and this_week_small == this_week_large  # the same runs, not an empty week


def test_the_sizes_are_read_in_turn_and_none_always_follows_the_same_one():
    order: list[str] = []

    def reader(name: str):
        async def read() -> None:
            order.append(name)

        return read

    times = asyncio.run(in_turn([reader("small"), reader("large")], repeats=4))

    assert [len(t) for t in times] == [4, 4]
    warm, timed = order[:2], order[2:]
    assert warm == ["small", "large"]  # each warmed once before any is timed
    assert timed == ["small", "large", "large", "small", "small", "large", "large", "small"]
