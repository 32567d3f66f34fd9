"""Team line-ups: one open per chat, joined (and switched) until a run adopts it, then locked but
for the players the bot places late; each run keeps the line-up it adopted."""

from __future__ import annotations

from bot.domain.model import ChatRef
from bot.domain.teams import Member, TeamScoring
from tests.contract.stores.rows import CHAT

OWLS_FOXES = ("Owls", "Foxes")


async def test_a_lineup_is_joined_switched_and_read_back(store):
    lid = await store.new_lineup(CHAT.key, OWLS_FOXES, TeamScoring.TOP3, 10.0)
    assert await store.join_team(lid, "test:ana", "Ana", 1, False, 11.0)
    assert await store.join_team(lid, "test:bo", "Bo", 2, False, 12.0)
    assert await store.join_team(lid, "test:ana", "Ana", 2, False, 13.0)  # a switch, not a second seat
    await store.lineup_message(lid, "m5")
    lineup = await store.open_lineup(CHAT.key)
    assert lineup is not None and lineup == await store.lineup(lid)
    assert (lineup.names, lineup.scoring, lineup.message_id, lineup.run_id) == (
        OWLS_FOXES,
        TeamScoring.TOP3,
        "m5",
        None,
    )
    assert lineup.members == (Member("test:ana", "Ana", 2), Member("test:bo", "Bo", 2))
    assert await store.open_lineup("test:elsewhere") is None


async def test_a_new_lineup_replaces_the_open_one_and_off_drops_it(store):
    first = await store.new_lineup(CHAT.key, OWLS_FOXES, TeamScoring.MEAN, 10.0)
    await store.join_team(first, "test:ana", "Ana", 1, False, 11.0)
    second = await store.new_lineup(CHAT.key, ("A", "B", "C"), TeamScoring.SUM, 12.0)
    assert await store.lineup(first) is None
    lineup = await store.open_lineup(CHAT.key)
    assert lineup is not None and (lineup.id, lineup.names, lineup.members) == (second, ("A", "B", "C"), ())
    assert await store.drop_lineup(CHAT.key)
    assert not await store.drop_lineup(CHAT.key)
    assert await store.open_lineup(CHAT.key) is None


async def test_a_run_adopts_the_lineup_which_then_takes_only_late_players(store):
    lid = await store.new_lineup(CHAT.key, OWLS_FOXES, TeamScoring.MEAN, 10.0)
    await store.join_team(lid, "test:ana", "Ana", 1, False, 11.0)
    adopted = await store.adopt_lineup(CHAT.key, 7)
    assert adopted is not None and (adopted.id, adopted.run_id) == (lid, 7)
    assert await store.adopt_lineup(CHAT.key, 7) == adopted  # again (a step repeated): the same
    assert await store.open_lineup(CHAT.key) is None
    assert await store.adopt_lineup(CHAT.key, 8) is None  # the next run: no line-up left
    assert not await store.join_team(lid, "test:bo", "Bo", 2, False, 12.0)  # locked
    assert not await store.join_team(lid, "test:ana", "Ana", 2, False, 12.0)  # nor a switch
    assert await store.join_team(lid, "test:cy", "Cy", 2, True, 13.0)  # placed late by the bot
    lineup = await store.run_lineup(7)
    assert lineup is not None
    assert lineup.members == (Member("test:ana", "Ana", 1), Member("test:cy", "Cy", 2, late=True))
    assert not await store.drop_lineup(CHAT.key)  # an adopted line-up stays its run's
    assert await store.run_lineup(7) == lineup


async def test_balanced_places_move_the_players_named(store):
    lid = await store.new_lineup(CHAT.key, OWLS_FOXES, TeamScoring.MEAN, 10.0)
    for n, key in enumerate(("test:a", "test:b", "test:c")):
        await store.join_team(lid, key, key[5:], 1, False, 11.0 + n)
    await store.place_teams(lid, {"test:a": 2, "test:c": 2})
    lineup = await store.lineup(lid)
    assert lineup is not None and [(m.player_key, m.team) for m in lineup.members] == [
        ("test:b", 1),
        ("test:a", 2),
        ("test:c", 2),
    ]


async def test_a_chat_that_moves_takes_its_lineups(store):
    await store.ensure_chat(CHAT)
    lid = await store.new_lineup(CHAT.key, OWLS_FOXES, TeamScoring.MEAN, 10.0)
    await store.join_team(lid, "test:ana", "Ana", 1, False, 11.0)
    moved = ChatRef(CHAT.platform, "g-new", CHAT.is_private, CHAT.title)
    await store.move_chat(CHAT.key, moved)
    lineup = await store.open_lineup(moved.key)
    assert lineup is not None and lineup.id == lid and [m.player_key for m in lineup.members] == ["test:ana"]
    assert await store.open_lineup(CHAT.key) is None
