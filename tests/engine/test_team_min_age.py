"""A Discord account that joined a team before its server asked for a minimum age
(/settings min_age) is not counted in that team once a game starts: it cannot score, so as a
member it would only pull its team's mean down."""

from __future__ import annotations

from bot.commands.core import Caller
from bot.commands.results import run_results
from bot.domain.fairplay import DAY, DISCORD_EPOCH_MS, TIMESTAMP_SHIFT
from bot.domain.model import ChatRef, Player
from bot.engine.core import StartStatus
from bot.testing.fakes import RecordingAdapter
from tests.support.house import house_of


def discord_player(name: str, made_at: float) -> Player:
    """A Discord user whose id says the account was made at `made_at` (seconds since 1970)."""
    return Player("discord", str((int(made_at * 1000) - DISCORD_EPOCH_MS) << TIMESTAMP_SHIFT), name)


async def test_a_young_member_who_joined_before_min_age_was_set_does_not_count_in_the_team_mean(engine, clock, quiz):
    adapter, chat = RecordingAdapter(platform="discord"), ChatRef("discord", "g1")
    engine.attach(adapter)
    now = clock.now()
    ages = {"Boss": 900, "Old": 90, "Mid": 30, "Young": 2}  # days
    boss, old, mid, young = (discord_player(name, now - days * DAY) for name, days in ages.items())
    commands = house_of(engine).commands
    await commands.handle("teams", "Owls Foxes", Caller(chat, boss, True))
    for member, team in ((old, "1"), (mid, "2"), (young, "2")):
        assert (await commands.handle("join", team, Caller(chat, member))).kind != "error"
    assert (await commands.handle("settings", "min_age 7d", Caller(chat, boss, True))).kind != "error"

    assert (await engine.start(chat, quiz.id, boss, None)).status is StartStatus.STARTED
    clock.advance(5)
    await engine.run_due()
    card = adapter.questions[-1]
    right = adapter.token(adapter.right_letter(quiz, card), card)
    assert (await engine.answer(right, old, chat)).accepted and (await engine.answer(right, mid, chat)).accepted
    assert not (await engine.answer(right, young, chat)).accepted, "too young to score here"
    clock.advance(30)
    await engine.run_due()

    teams = adapter.reveals[-1][1].teams
    owls, foxes = (next(line for line in teams if name in line) for name in ("Owls", "Foxes"))
    assert owls.replace("Owls", "") == foxes.replace("Foxes", ""), "the same answer at the same time: the same score"

    clock.advance(3600)  # the game over; the run report counts the teams as the game did
    await engine.run_due()
    [run] = await house_of(engine).store.chat_runs(chat.key)
    report = await run_results(house_of(engine).results, chat.key, run.run_id, "en")
    assert report is not None
    scores = {line.player: line.team_score for line in report.lines if line.given}
    assert scores["Old"] == scores["Mid"] > 0
