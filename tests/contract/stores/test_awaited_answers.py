"""What a player's next private message answers, after a typed question's "Answer" deep link:
one question per player (the last one sent replaces it), read back after a restart (so by any
process on the database), gone once it expires, forgotten only while it is still that question."""

from __future__ import annotations

ANN, BOB = "telegram:51", "telegram:52"


async def test_the_last_question_a_player_was_sent_to_is_what_their_next_message_answers(store):
    assert await store.awaited_answer(ANN, 100.0) is None
    await store.await_answer(ANN, 7, 1, now=100.0, until=400.0)
    await store.await_answer(BOB, 7, 1, now=100.0, until=400.0)
    await store.await_answer(ANN, 7, 2, now=110.0, until=410.0)  # the next question's button
    assert await store.awaited_answer(ANN, 120.0) == (7, 2)
    assert await store.awaited_answer(BOB, 120.0) == (7, 1), "each player's own"


async def test_it_survives_a_restart_as_another_process_reads_it(store_factory):
    store = await store_factory.open()
    await store.await_answer(ANN, 2**40, 3, now=100.0, until=400.0)  # run ids are 64-bit
    store = await store_factory.restart(store)
    assert await store.awaited_answer(ANN, 101.0) == (2**40, 3)


async def test_an_expired_one_is_none_and_is_forgotten_by_the_next_write(store):
    await store.await_answer(ANN, 7, 1, now=100.0, until=200.0)
    assert await store.awaited_answer(ANN, 199.9) == (7, 1)
    assert await store.awaited_answer(ANN, 200.0) is None, "expired"
    await store.await_answer(BOB, 7, 1, now=300.0, until=600.0)  # prunes Ann's
    assert await store.forget_awaited_answer(ANN, 7, 1) is False, "already gone"


async def test_forgetting_leaves_a_question_sent_meanwhile(store):
    await store.await_answer(ANN, 7, 1, now=100.0, until=400.0)
    await store.await_answer(ANN, 7, 2, now=105.0, until=405.0)  # sent on through another process
    assert await store.forget_awaited_answer(ANN, 7, 1) is False
    assert await store.awaited_answer(ANN, 106.0) == (7, 2)
    assert await store.forget_awaited_answer(ANN, 7, 2) is True
    assert await store.awaited_answer(ANN, 106.0) is None
