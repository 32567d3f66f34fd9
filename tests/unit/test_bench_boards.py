"""The board bench's history: a larger size adds older runs, so its boards compare like with like."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.bench.boards import CHAT, history, long_enough
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.standings import period_start
from storage.shared.tables import ANSWER_COLUMNS

THURSDAY_NOON = datetime(2026, 12, 3, 12, tzinfo=UTC).timestamp()  # 3.5 days into the week


ANSWERED_AT, CHAT_KEY = ANSWER_COLUMNS.index("answered_at"), ANSWER_COLUMNS.index("chat_key")


def _started(runs) -> list[float]:
    return [when for (_, _, when), _ in runs]


def test_more_answers_add_only_older_runs_and_leave_this_weeks_board_as_it_was():
    quizzes = long_enough(Catalog.load(default_quiz_folders()))
    small = history(0, 10_000, 1000, quizzes, THURSDAY_NOON, 1)
    more = history(10_000, 100_000, 1000, quizzes, THURSDAY_NOON, len(small) + 1)

    assert max(_started(more)) < min(_started(small))  # every added run is older than every first one
    answered = [row[ANSWERED_AT] for _, rows in small + more for row in rows]
    assert max(answered) < THURSDAY_NOON  # nobody answers in the future
    assert {row[CHAT_KEY] for _, rows in small for row in rows} == {CHAT.key}

    week = period_start("week", THURSDAY_NOON)
    this_week_small = [r for r in small if r[0][2] >= week]
    this_week_more = [r for r in small + more if r[0][2] >= week]
    assert this_week_small and this_week_small == this_week_more  # the same runs, not an empty week
