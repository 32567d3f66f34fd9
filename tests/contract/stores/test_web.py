"""What the web pages keep in the store: one link secret per database (the first one stored
wins), a public leaderboard switched on and off per chat and kept when the chat changes its
id, and a chat's runs listed latest first, never another chat's; a run a member played in
private for the group (an assignment's) is the group's, not the private chat's."""

from __future__ import annotations

from dataclasses import replace

from bot.domain.model import ChatRef, Player
from bot.domain.records import Phase, PlayedChat, RunRow, RunStatus
from tests.contract.stores.rows import answer


def run(chat: ChatRef, quiz_id: str, at: float, status: RunStatus = RunStatus.FINISHED) -> RunRow:
    return RunRow(
        chat.key, chat.chat_id, chat.platform, False, quiz_id, "en", 1, ("q1",), 30, 5.0, "test:1", at, status=status
    )


async def test_the_first_secret_stored_is_the_one_every_later_call_reads(store):
    assert await store.web_secret("first") == "first"
    assert await store.web_secret("second") == "first"


async def test_a_public_board_is_off_until_switched_on_and_stays_with_the_chat(store):
    old, new = ChatRef("test", "-1"), ChatRef("test", "-100")
    await store.ensure_chat(old)
    assert await store.board_public(old.key) is False
    await store.set_board_public(old.key, True)
    await store.set_board_public(old.key, True)  # again: no error
    assert await store.board_public(old.key) is True
    assert await store.board_public("test:other") is False
    await store.move_chat(old.key, new)
    assert await store.board_public(new.key) is True
    assert await store.board_public(old.key) is False
    await store.set_board_public(new.key, False)
    assert await store.board_public(new.key) is False


async def test_a_chats_runs_latest_first_and_only_its_own(store):
    mine, other = ChatRef("test", "1"), ChatRef("test", "2")
    for chat in (mine, other):
        await store.ensure_chat(chat)
    first = await store.create_run(run(mine, "capitals", 100.0))
    await store.create_run(run(other, "birds", 150.0))
    second = await store.create_run(run(mine, "birds", 200.0, RunStatus.OPEN))
    listed = await store.chat_runs(mine.key)
    assert [(r.run_id, r.quiz_id, r.started_at, r.status) for r in listed] == [
        (second, "birds", 200.0, RunStatus.OPEN),
        (first, "capitals", 100.0, RunStatus.FINISHED),
    ]
    assert [r.run_id for r in await store.chat_runs(mine.key, limit=1)] == [second]


async def test_a_run_played_in_private_for_a_group_is_the_groups(store):
    group, private = ChatRef("test", "-5", title="Class 7B"), ChatRef("test", "55", is_private=True)
    for chat in (group, private):
        await store.ensure_chat(chat)
    own = await store.create_run(run(group, "capitals", 100.0))
    played = await store.create_run(replace(run(private, "birds", 200.0), board_chat=group.key))
    alone = await store.create_run(run(private, "capitals", 300.0))  # the member's own quiz, for nobody else
    assert [r.run_id for r in await store.chat_runs(group.key)] == [played, own]
    assert [r.run_id for r in await store.chat_runs(private.key)] == [alone]
    assert (await store.run_count(group.key), await store.run_count(private.key)) == (2, 1)
    report = await store.past_run(group.key, played)
    assert report is not None and (report.chat_key, report.quiz_id, report.started_by) == (group.key, "birds", "test:1")
    assert await store.past_run(private.key, played) is None, "the group's run"
    assert await store.past_run(group.key, alone) is None, "the member's own run"
    assert await store.played_chats() == [
        PlayedChat(private.key, "", 1, 300.0),  # the member's own quiz only; the group's run is the group's
        PlayedChat(group.key, "Class 7B", 2, 200.0),
    ]


async def test_revoked_links_count_from_the_latest_revocation_and_move_with_the_chat(store):
    old, new, other = ChatRef("test", "-1"), ChatRef("test", "-100"), ChatRef("test", "-2")
    for chat in (old, other):
        await store.ensure_chat(chat)
    assert await store.links_not_before(old.key) == 0.0  # never revoked
    await store.revoke_links(old.key, 1000.5)
    assert await store.links_not_before(old.key) == 1000.5
    await store.revoke_links(old.key, 2000.25)
    await store.revoke_links(old.key, 1500.0)  # an earlier instant (another worker's clock) never moves it back
    assert await store.links_not_before(old.key) == 2000.25
    assert await store.links_not_before(other.key) == 0.0, "another chat's links are untouched"
    await store.move_chat(old.key, new)
    assert await store.links_not_before(new.key) == 2000.25
    assert await store.links_not_before(old.key) == 0.0


async def test_a_revocation_survives_a_restart(store_factory):
    store = await store_factory.open()
    await store.revoke_links("test:1", 42.0)
    store = await store_factory.restart(store)
    assert await store.links_not_before("test:1") == 42.0


async def test_a_chats_title_and_its_runs_counted_and_paged(store):
    chat = ChatRef("test", "7", title="Quiz night <3")
    await store.ensure_chat(chat)
    assert await store.chat_title(chat.key) == "Quiz night <3"
    assert await store.chat_title("test:never") == ""
    ids = [await store.create_run(run(chat, "capitals", 100.0 + i)) for i in range(5)]
    assert await store.run_count(chat.key) == 5 and await store.run_count("test:never") == 0
    pages = [[r.run_id for r in await store.chat_runs(chat.key, limit=2, offset=o)] for o in (0, 2, 4)]
    assert pages == [ids[4:2:-1], ids[2:0:-1], ids[:1]]


async def test_a_past_run_names_who_stopped_it_and_never_opens_another_chats(store):
    mine, other = ChatRef("test", "1"), ChatRef("test", "2")
    for chat in (mine, other):
        await store.ensure_chat(chat)
    finished = await store.create_run(replace(run(mine, "capitals", 100.0), time_factor=1.5, min_age=7 * 86400))
    stopped = await store.create_run(run(mine, "birds", 200.0, RunStatus.STOPPED))
    await store.record_stop(stopped, "test:9")
    await store.record_stop(stopped, "test:10")  # the first one noted stays
    got = await store.past_run(mine.key, stopped)
    assert got is not None
    assert (got.quiz_id, got.question_ids, got.started_at, got.status, got.stopped_by) == (
        "birds",
        ("q1",),
        200.0,
        RunStatus.STOPPED,
        "test:9",
    )
    plain = await store.past_run(mine.key, finished)
    assert plain is not None and plain.stopped_by == "" and plain.started_by == "test:1"
    assert (plain.seconds, plain.time_factor, plain.min_age) == (30, 1.5, 7 * 86400), "its rules, for the report"
    assert await store.past_run(other.key, stopped) is None, "another chat's run"
    assert await store.past_run(mine.key, 999_999) is None


async def test_a_chats_answers_sum_to_its_boards_from_any_instant(store):
    mine, other = ChatRef("test", "1"), ChatRef("test", "2")
    for chat in (mine, other):
        await store.ensure_chat(chat)
    for key, name in (("ann", "Ann"), ("bob", "Bob")):
        await store.ensure_player(Player("test", key, name))
    first = await store.create_run(run(mine, "demo", 100.0))
    second = await store.create_run(run(mine, "demo", 500.0, RunStatus.OPEN))  # still open: its answers are live
    theirs = await store.create_run(run(other, "demo", 100.0))
    for run_id, at in ((first, 110.0), (second, 510.0)):
        await store.insert_answer(answer(run_id, "test:ann", at, 900, chat=mine))
        await store.insert_answer(answer(run_id, "test:bob", at + 1, 0, correct=False, chat=mine))
    await store.insert_answer(answer(theirs, "test:ann", 120.0, 5000, chat=other))
    for since in (None, 300.0):
        answers = await store.chat_answers(mine.key, since)
        sums: dict[str, int] = {}
        for a in answers:
            sums[a.player_key] = sums.get(a.player_key, 0) + a.points
        board = {s.player_key: s.points for s in await store.leaderboard(mine.key, since)}
        assert sums == board
    assert [(a.run_id, a.player_key) for a in await store.chat_answers(mine.key)] == [
        (first, "test:ann"),
        (first, "test:bob"),
        (second, "test:ann"),
        (second, "test:bob"),
    ]
    assert {a.chat_key for a in await store.chat_answers(mine.key)} == {mine.key}


async def test_a_chats_answers_read_page_by_page_are_its_whole_history_in_order(store):
    mine, other = ChatRef("test", "1"), ChatRef("test", "2")
    private = ChatRef("test", "55", is_private=True)
    for chat in (mine, other, private):
        await store.ensure_chat(chat)
    runs = [await store.create_run(run(mine, "demo", 100.0 * n)) for n in range(1, 3)]
    theirs = await store.create_run(run(other, "demo", 150.0))  # between two of mine: never read
    # played in a member's private chat for mine (an assignment): its answers are mine's
    runs.append(await store.create_run(replace(run(private, "demo", 300.0), board_chat=mine.key)))
    empty = await store.create_run(run(mine, "demo", 450.0))  # nobody answered: nothing to read
    for n, run_id in enumerate(runs):
        # the same second for several players, and an index answered before a lower one
        for index, who, at in ((1, "test:cy", 10.0), (0, "test:bob", 20.0), (0, "test:ann", 20.0), (0, "test:al", 5.0)):
            await store.insert_answer(answer(run_id, who, 100.0 * (n + 1) + at, 10 * n + index, index=index, chat=mine))
    await store.insert_answer(answer(theirs, "test:ann", 160.0, 5000, chat=other))
    assert empty > runs[-1]
    for since in (None, 215.0):
        whole = await store.chat_answers(mine.key, since)
        for size in (1, 3, 5, 100):
            pages: list[list] = []
            while page := await store.chat_answers_after(mine.key, pages[-1][-1] if pages else None, size, since):
                assert len(page) <= size
                pages.append(page)
            assert [a for page in pages for a in page] == whole, f"pages of {size}"
            assert len(pages) == -(-len(whole) // size), "every page full but the last"
    assert len(await store.chat_answers(mine.key)) == 12 and len(await store.chat_answers(mine.key, 215.0)) == 6


async def test_a_past_run_keeps_its_seed_and_how_many_questions_it_showed(store):
    """The report letters options as the run shuffled them (its seed) and gives a row to every
    question asked: all of a finished run's; a stopped run's up to the one it stopped on, that
    one only once it was posted; an open run's up to the last one closed."""
    five = ("q1", "q2", "q3", "q4", "q5")
    cases = {
        (RunStatus.FINISHED, 4, Phase.PAUSING): 5,
        (RunStatus.STOPPED, 2, Phase.ASKING): 3,
        (RunStatus.STOPPED, 2, Phase.PAUSING): 3,
        (RunStatus.SILENT, 2, Phase.POSTING): 2,  # the third was never shown
        (RunStatus.STOPPED, -1, Phase.PAUSING): 0,  # stopped before its first question
        (RunStatus.OPEN, 3, Phase.ASKING): 3,  # the fourth is still being answered
        (RunStatus.OPEN, 3, Phase.PAUSING): 4,
    }
    for n, ((status, index, phase), asked) in enumerate(cases.items()):
        chat = ChatRef("test", str(n))  # a chat has one open run at most
        await store.ensure_chat(chat)
        played = replace(
            run(chat, "birds", 100.0, status), question_ids=five, seed=987_654_321, index=index, phase=phase
        )
        got = await store.past_run(chat.key, await store.create_run(played))
        assert got is not None and (got.seed, got.asked) == (987_654_321, asked), (status, index, phase)
