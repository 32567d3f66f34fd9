"""The storage, writer, chat-move and engine tests, run again with the PostgreSQL store.

Until the storage tests become one contract suite over both stores, this module collects them
a second time with its own `store` fixture, so each behaviour is checked on a real PostgreSQL.
"""
from __future__ import annotations

import pytest

from storage.postgres import PostgresStore
from tests.test_chat_moves import (  # noqa: F401
    test_a_quiz_in_progress_and_the_leaderboard_follow_the_chat_to_its_new_id,
    test_moving_into_a_chat_with_its_own_history_adds_the_boards_up,
)
from tests.test_chat_quiz_store import *  # noqa: F403
from tests.test_engine import *  # noqa: F403
from tests.test_storage import (  # noqa: F401
    test_display_names_stay_current,
    test_leaderboards_by_week_month_all_time_and_quiz,
    test_one_answer_per_player_per_question_under_concurrent_presses,
    test_player_stats,
    test_ties_go_to_more_right_answers_then_the_earlier_player,
)
from tests.test_writer import (  # noqa: F401
    test_duplicates_in_one_batch_are_told_apart,
    test_many_presses_share_few_commits_and_each_is_stored_before_its_ack,
    test_run_states_from_many_closes_share_commits,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
async def store(postgres_url):
    store = await PostgresStore.open(postgres_url)
    yield store
    await store.close()
