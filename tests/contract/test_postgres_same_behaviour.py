"""The engine, writer and chat-move tests, run again with the PostgreSQL store.

What every store must do is the contract suite (tests/contract/stores/, run on both stores);
this module collects the tests that go through the engine a second time with its own `store`
fixture, so they are checked on PostgreSQL too.
"""

from __future__ import annotations

import pytest

from storage.postgres.store import PostgresStore
from tests.contract.test_writer import (  # noqa: F401
    test_many_presses_share_few_commits_and_each_is_stored_before_its_ack,
    test_run_states_from_many_closes_share_commits,
)
from tests.engine.test_authoring_rules import (  # noqa: F401
    test_questions_sent_at_once_to_two_workers_all_join_the_draft,
)
from tests.engine.test_chat_moves import (  # noqa: F401
    test_a_quiz_in_progress_and_the_leaderboard_follow_the_chat_to_its_new_id,
    test_moving_into_a_chat_with_its_own_history_adds_the_boards_up,
)
from tests.engine.test_engine import *  # noqa: F403
from tests.engine.test_outages import *  # noqa: F403
from tests.engine.test_outbox import (  # noqa: F401
    test_a_lost_reply_is_sent_again_until_the_platform_acknowledges_it,
    test_a_question_posted_twice_answers_where_the_live_copy_is,
    test_certain_failures_are_retried_until_the_platform_takes_the_message,
    test_reveals_and_podiums_older_than_15_minutes_are_dropped_with_a_log_line,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
async def store(postgres_url):
    store = await PostgresStore.open(postgres_url)
    yield store
    await store.close()
