"""What a player's next private message answers, after a typed question's "Answer" deep link:
one question per player and run (the run's next question replaces it), the latest first, each
held until it is forgotten (answered) or expires, read back after a restart (so by any process
on the database), forgotten only while it is still that question."""

from __future__ import annotations

from bot.domain.records import AwaitedAnswer

ANN, BOB = "telegram:51", "telegram:52"
CITIES, RIVERS = "telegram:-100", "telegram:-200"


def sent(player: str, run_id: int, number: int, chat_key: str = CITIES) -> AwaitedAnswer:
    return AwaitedAnswer(player, run_id, number, chat_key)


async def test_the_last_question_a_player_was_sent_to_is_what_their_next_message_answers(store):
    assert await store.awaited_answer(ANN, 100.0) is None
    await store.await_answer(sent(ANN, 7, 1), now=100.0, until=400.0)
    await store.await_answer(sent(BOB, 7, 1), now=100.0, until=400.0)
    await store.await_answer(sent(ANN, 7, 2), now=110.0, until=410.0)  # the next question's button
    assert await store.awaited_answer(ANN, 120.0) == sent(ANN, 7, 2)
    assert await store.awaited_answer(BOB, 120.0) == sent(BOB, 7, 1), "each player's own"
    assert await store.forget_awaited_answer(ANN, 7, 2) is True
    assert await store.awaited_answer(ANN, 120.0) is None, "the run's question 1 was replaced by its question 2"


async def test_two_groups_questions_are_both_held_the_latest_first(store):
    """Ann opened the Cities group's question, then the Rivers group's: her first message answers
    Rivers', and once that is forgotten her next one answers Cities'."""
    await store.await_answer(sent(ANN, 7, 1, CITIES), now=100.0, until=400.0)
    await store.await_answer(sent(ANN, 9, 3, RIVERS), now=101.0, until=401.0)
    assert await store.awaited_answer(ANN, 102.0) == sent(ANN, 9, 3, RIVERS)
    assert await store.forget_awaited_answer(ANN, 9, 3) is True
    assert await store.awaited_answer(ANN, 102.0) == sent(ANN, 7, 1, CITIES)
    await store.await_answer(sent(ANN, 9, 4, RIVERS), now=103.0, until=403.0)
    await store.await_answer(sent(ANN, 7, 2, CITIES), now=104.0, until=404.0)  # opened again: the latest
    assert await store.awaited_answer(ANN, 105.0) == sent(ANN, 7, 2, CITIES)


async def test_it_survives_a_restart_as_another_process_reads_it(store_factory):
    store = await store_factory.open()
    await store.await_answer(sent(ANN, 2**40, 3), now=100.0, until=400.0)  # run ids are 64-bit
    store = await store_factory.restart(store)
    assert await store.awaited_answer(ANN, 101.0) == sent(ANN, 2**40, 3)


async def test_an_expired_one_is_none_and_is_forgotten_by_the_next_write(store):
    await store.await_answer(sent(ANN, 7, 1), now=100.0, until=200.0)
    await store.await_answer(sent(ANN, 8, 1), now=150.0, until=500.0)
    assert await store.awaited_answer(ANN, 199.9) == sent(ANN, 8, 1)
    assert await store.forget_awaited_answer(ANN, 8, 1) is True
    assert await store.awaited_answer(ANN, 200.0) is None, "the other one expired"
    await store.await_answer(sent(BOB, 7, 1), now=300.0, until=600.0)  # prunes Ann's
    assert await store.forget_awaited_answer(ANN, 7, 1) is False, "already gone"


async def test_forgetting_leaves_a_question_sent_meanwhile(store):
    await store.await_answer(sent(ANN, 7, 1), now=100.0, until=400.0)
    await store.await_answer(sent(ANN, 7, 2), now=105.0, until=405.0)  # sent on through another process
    assert await store.forget_awaited_answer(ANN, 7, 1) is False
    assert await store.awaited_answer(ANN, 106.0) == sent(ANN, 7, 2)
    assert await store.forget_awaited_answer(ANN, 7, 2) is True
    assert await store.awaited_answer(ANN, 106.0) is None
