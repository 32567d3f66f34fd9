"""Scoring that fits the room on Discord (issue #50), through the real discord.py and the fake
Discord: the same game played in two channels, as a server plays it by default and with
/settings scoring accuracy, streaks off and board end. Every version of every message the bot
posted in each channel is compared field by field: the same questions in the same order, the
same buttons, the same acknowledgements; only the reveals (flat points, no answer times) and the
podium (ranked by share right since joining) differ. Cy joins late, at the second question."""

from __future__ import annotations

import re
from typing import Any

from bot.testing.clock import FakeClock
from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeUser, visible_text
from tests.support.discord_harness import button_id, fake, is_question, make_settings, running_bot  # noqa: F401
from tests.support.steady_quiz import RIGHT, STEADY, WRONG

_TIME = re.compile(r"<t:\d+(:\w)?>")  # a question's countdown names the moment it ends: the later game's is later


def versions(fake: FakeDiscord, channel: int) -> list[list[tuple[str, list[tuple[str, bool]]]]]:
    """Each message the bot posted in the channel, in order, as every version of it read: its
    text and its buttons (label, disabled); their ids name the run, which differs."""
    return [
        [
            (
                _TIME.sub("<t:…>", visible_text(data)),
                [(b.get("label", ""), bool(b.get("disabled"))) for b in _buttons(data)],
            )
            for data in (message.history or [message.data])
        ]
        for message in sorted(fake.channel_messages(channel), key=lambda m: m.id)
    ]


def _buttons(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in data.get("components", []) for c in row.get("components", [])]


async def play(fake: FakeDiscord, clock: FakeClock, channel: int, boss: FakeUser, players: list[FakeUser]) -> list[str]:
    """The quiz, Cy first answering the second question; the acknowledgements."""
    ann, bob, cy = players
    acks: list[str] = []
    await fake.slash(boss, channel, "quiz", topic="steady")
    presses = (  # (seconds after the question is shown, who, right or not); nobody is known at first
        ((2, ann, True), (3, bob, False)),
        ((4, cy, True), (1, ann, True), (0, bob, True)),
        ((1, bob, True), (0, cy, True), (0, ann, False)),
    )
    for number, answers in enumerate(presses, 1):
        question = await fake.wait_message(channel, is_question(number))
        for wait, player, right in answers:
            clock.advance(wait)
            letter = (RIGHT if right else WRONG)[number - 1]
            acks.append((await fake.press(player, question.id, button_id(question, letter)))["content"])
        if number == 1:
            clock.advance(25)  # the first question waits for its deadline: nobody was known to play
        await fake.wait_for(lambda q=question: all(b.get("disabled") for b in fake.messages[q.id].buttons()))
    await fake.wait_message(channel, lambda m: "Quiz over" in m.text)
    return acks


async def test_accuracy_without_streaks_and_board_at_end_change_the_reveals_and_podium_only(fake, clock, tmp_path):
    guild = fake.add_guild("Quiz server", channels=("live", "fair"))
    live, fair = fake.guilds[guild]["channels"][:2]
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    players = [fake.add_user(name) for name in ("Ann", "Bob", "Cy")]
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "steady.yaml").write_text(STEADY, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        refused = await fake.slash(players[0], fair, "settings", scoring="accuracy")
        assert refused["ephemeral"] and "Only chat admins" in refused["content"]
        changed = await fake.slash(boss, fair, "settings", scoring="accuracy", streaks="off", board="end")
        shown = changed["embeds"][0]["description"]
        assert "Scoring: accuracy (every right answer earns 1000)" in shown and "Streak bonus: off" in shown
        assert "Standings: at the end only" in shown
        before = {m.id for m in fake.channel_messages(fair)}

        live_acks = await play(fake, clock, live, boss, players)
        fair_acks = await play(fake, clock, fair, boss, players)
    assert fair_acks == live_acks and "Locked in: B" in live_acks, "the same acknowledgements"

    live_stream = versions(fake, live)
    fair_stream = [
        v
        for m, v in zip(sorted(fake.channel_messages(fair), key=lambda m: m.id), versions(fake, fair))
        if m.id not in before
    ]
    assert [[buttons for _, buttons in message] for message in fair_stream] == [
        [buttons for _, buttons in message] for message in live_stream
    ], "the same messages, each edited as often, with the same buttons"
    differing = [
        (i, j) for i, (a, b) in enumerate(zip(live_stream, fair_stream)) for j, (x, y) in enumerate(zip(a, b)) if x != y
    ]
    reveals = [(i, len(m) - 1) for i, m in enumerate(live_stream) if "Right answer" in m[-1][0]]
    podium = [(i, 0) for i, m in enumerate(live_stream) if "Quiz over" in m[0][0]]
    assert len(reveals) == 3 and len(podium) == 1
    assert differing == sorted(reveals + podium), "nothing but the reveals and the podium differ"
    scored = re.compile(r"^(.+?) \+\d+( \(\d+\.\d s\))?( 🔥\d+)?$", re.M)
    for i, j in reveals:
        live_text, fair_text = live_stream[i][j][0], fair_stream[i][j][0]
        assert scored.sub(r"\1", live_text) == scored.sub(r"\1", fair_text)
        assert re.search(r" \+\d+ \(\d+\.\d s\)", live_text) and not re.search(r"\d s\)", fair_text)
    assert "Ann +1000 🔥2" in fair_stream[reveals[1][0]][-1][0], "no streak bonus: a right answer is 1000"

    live_podium = live_stream[podium[0][0]][0][0]
    fair_podium = fair_stream[podium[0][0]][0][0]
    assert "🥇 Cy: 2016 pts · 2 of the 2 asked since joining · 100%\n🥈 Bob: 2000 pts · 2/3 right · 67%" in live_podium
    assert "🥇 Cy: 2000 pts · 2 of the 2 asked since joining · 100%\n🥈 Ann: 2000 pts · 2/3 right · 67%" in fair_podium
    assert fake.violations == []
