"""One bad update harms only itself; presses belong to their chat (Telegram, end to end).

`quizhost run` (real PTB, the real adapter) against the fake Bot API. Poisoned updates are
real updates mutated: fields of the wrong type, lone surrogates, missing fields, huge texts,
kinds nobody knows. After each, a player in another chat presses, and must be answered.
"""

from __future__ import annotations

import asyncio
import copy
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.adapters.telegram import runtime as telegram_runtime
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_methods import Press as FakePress
from tests.support.telegram_harness import Member, button, clean_environment, next_question, running_bot, settings_for

TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


@pytest.fixture
async def fake(monkeypatch):
    clean_environment(monkeypatch)
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)
    api = FakeBotApi()
    # poisoned presses have ids Telegram never gave; poisoned commands name chats that do not exist
    api.expected_refusals.update({TOO_OLD, "Bad Request: chat not found"})
    await api.start()
    yield api
    await api.stop()
    unexpected = [(c.method, c.error) for c in api.refused() if c.error not in api.expected_refusals]
    assert unexpected == [], "Telegram would have refused these calls"


async def deliver(fake: FakeBotApi, *updates: dict) -> None:
    """Updates exactly as given (ids included), in one batch when polling."""
    if fake.webhook is not None:
        for update in updates:
            assert await fake.post_to_webhook(update, fake.webhook["secret_token"]) == 200
        return
    fake._updates.extend(updates)
    await fake._notify()


def press_update(fake: FakeBotApi, chat: dict, user: dict, message_id: int, data: str) -> dict:
    message = fake._message_json(fake.messages[(chat["id"], message_id)])
    query = {
        "id": f"poison{next(fake._press_ids)}",
        "from": user,
        "message": message,
        "chat_instance": f"ci{chat['id']}",
        "data": data,
    }
    return {"update_id": next(fake._update_ids), "callback_query": query}


# poison -------------------------------------------------------------------------------------

HUGE = "x" * 200_000
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.sampled_from(["\ud800", "a\udfffb", "\ud83d", HUGE, "", "/quiz " + HUGE, "qa:1:1:0", "qa:99999:1:0"]),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def paths(value, here=()):
    """Every key path inside an update."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*here, key)
            yield from paths(inner, (*here, key))


@st.composite
def poisoned(draw, real: dict) -> dict:
    """A real update with a few of its fields deleted or given odd values, or an unknown kind."""
    if draw(st.integers(0, 9)) == 0:
        return {
            "update_id": 0,
            draw(st.sampled_from(["business_message", "purchased_paid_media", "zzz"])): draw(ODD_VALUES),
        }
    update = copy.deepcopy(real)
    for _ in range(draw(st.integers(1, 3))):
        every = [p for p in paths(update) if p != ("update_id",)]
        if not every:
            break
        where = draw(st.sampled_from(every))
        parent = update
        for key in where[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            parent.pop(where[-1], None)
        else:
            parent[where[-1]] = draw(ODD_VALUES)
    return update


@pytest.mark.parametrize("mode", ["polling", "webhook"])
async def test_poisoned_updates_never_stop_another_chats_presses(fake, tmp_path, mode, unused_tcp_port):
    clock = FakeClock()
    extra = {}
    if mode == "webhook":
        extra = dict(
            telegram_webhook_url=f"http://127.0.0.1:{unused_tcp_port}/hook",
            telegram_webhook_listen=f"127.0.0.1:{unused_tcp_port}",
        )
    poisoned_group, good_group = fake.group(-1001, "Poisoned"), fake.group(-1002, "Good")
    eve, ann = fake.user(66, "Eve"), fake.user(11, "Ann")
    async with running_bot(fake, settings_for(fake, tmp_path, **extra), clock):
        await Member(fake, poisoned_group, eve).says("/quiz tiny")
        await Member(fake, good_group, ann).says("/quiz tiny")
        target = await next_question(fake, poisoned_group, 1)
        question = await next_question(fake, good_group, 1)
        data = button(target, "A")["callback_data"]
        real = [
            press_update(fake, poisoned_group, eve, target.message_id, data),
            fake.text_update(poisoned_group, eve, "/leaderboard"),
        ]
        loop, players = asyncio.get_running_loop(), itertools.count(1000)

        async def one_round(poison: list[dict]) -> None:
            for update in poison:
                update["update_id"] = next(fake._update_ids)
            await deliver(fake, *poison)
            user = fake.user(next(players), "Player")
            answer = await Member(fake, good_group, user).presses(question, "B")
            assert answer.text and "B" in answer.text  # answered, and counted
            # and commands are still read (in a private chat: a group gets 20 messages a minute)
            assert "ranking" in (await Member(fake, fake.private(user), user).says("/help")).text

        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.lists(st.sampled_from(real).flatmap(poisoned), min_size=1, max_size=4))
        def check(poison: list[dict]) -> None:
            asyncio.run_coroutine_threadsafe(one_round(poison), loop).result(timeout=30)

        await asyncio.to_thread(check)


async def test_a_repeated_update_id_is_handled_once(fake, tmp_path):
    group = fake.group(-1001)
    ann = fake.user(11, "Ann")
    async with running_bot(fake, settings_for(fake, tmp_path), FakeClock()):
        await Member(fake, group, ann).says("/quiz tiny")
        question = await next_question(fake, group, 1)
        update = press_update(fake, group, ann, question.message_id, button(question, "A")["callback_data"])
        query_id = update["callback_query"]["id"]
        fake.presses[query_id] = FakePress(query_id, update["update_id"])  # one Telegram will take an answer for
        await deliver(fake, update, copy.deepcopy(update))
        assert (await fake.answer_of(query_id)).text
        bob = Member(fake, group, fake.user(12, "Bob"))
        await bob.presses(question, "B")  # after both copies were taken
    answers = [
        c
        for c in fake.calls
        if c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == update["callback_query"]["id"]
    ]
    assert len(answers) == 1
