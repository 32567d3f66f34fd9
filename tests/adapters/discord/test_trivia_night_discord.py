"""A trivia night on Discord, shorter than Telegram's (real discord.py on the gateway, the fake
Discord, a FakeClock): an admin opens two teams and four members join; the admin hosts the
shipped `trivia-night` with the ephemeral host panel and the slash commands; a pause refuses a
press and keeps the time left, a skip moves no board, an answer after the hint earns half the
speed points, the bot restarts in the middle and the game goes on (the panel's buttons too),
the standings come between the rounds, and the podium ranks the teams, then the players.

With QUIZHOST_TRANSCRIPT set, the channel's transcript is written there."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeMessage, FakeUser
from tests.adapters.discord.test_discord_hosting import panel_id
from tests.adapters.discord.test_discord_teams import lineup_message, showing
from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)
from tests.support.discord_transcript import DiscordTranscript

# read at import: the fixtures clear QUIZHOST_* variables so that no setting of the machine leaks in
TRANSCRIPT = os.environ.get("QUIZHOST_TRANSCRIPT", "")
NOTES = [
    "Written by tests/adapters/discord/test_trivia_night_discord.py (the fake Discord's gateway, a",
    "fake clock): the channel as its members see it at the end (a question shows its reveal), and",
    "what the bot showed one person alone (ephemeral): the host's panel and the replies to presses.",
]


class Night:
    """The channel, its host Tess (who may manage the server) and four members; each step logged."""

    def __init__(self, fake: FakeDiscord, channel: int) -> None:
        self.fake, self.channel = fake, channel
        self.tess = fake.add_user("Tess", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
        self.ann, self.bob, self.cy, self.dee = (fake.add_user(name) for name in ("Ann", "Bob", "Cy", "Dee"))
        quiz = Catalog.load(default_quiz_folders()).get("trivia-night")
        assert quiz is not None
        self.key = {q.prompt.get("en"): q.options[q.answer].get("en") for q in quiz.questions}
        self.log = DiscordTranscript(fake, channel)
        self.panel: dict[str, Any] = {}  # the reply to /host: the host's panel, shown to her alone

    @property
    def players(self) -> tuple[FakeUser, ...]:
        return self.ann, self.bob, self.cy, self.dee

    async def slash(self, user: FakeUser, name: str, **options: Any) -> dict[str, Any]:
        typed = " ".join([f"/{name}", *(str(v) for v in options.values())])
        return await self.log.step(user.name, typed, self.fake.slash(user, self.channel, name, **options))

    async def host_says(self, name: str, **options: Any) -> str:
        return (await self.slash(self.tess, name, **options))["content"]

    async def answers(self, user: FakeUser, question: FakeMessage, right: bool = True) -> str:
        letter = dh.right_letter(question, self.key) if right else dh.wrong_letter(question, self.key)
        press = self.fake.press(user, question.id, dh.button_id(question, letter))
        return (await self.log.step(user.name, f"(presses {letter})", press))["content"]

    async def on_panel(self, label: str) -> str:
        press = self.fake.press(self.tess, int(self.panel["id"]), panel_id(self.panel, label))
        return (await self.log.step("Tess", f"(presses {label} on her panel)", press))["content"]

    async def question(self, number: int) -> FakeMessage:
        return await self.fake.wait_message(self.channel, dh.is_question(number))

    async def revealed(self, question: FakeMessage) -> str:
        await self.fake.wait_for(lambda: "Right answer" in question.text, what=f"the reveal of {question.id}")
        return question.text

    def said(self) -> list[str]:
        """The first line of each message the bot posted in the channel."""
        return [m.text.splitlines()[0] for m in self.fake.channel_messages(self.channel)]


async def test_a_hosted_trivia_night_of_two_teams_on_discord(fake, clock, server, tmp_path):
    _, channel = server
    night = Night(fake, channel)
    ann, bob, cy, dee = night.players
    settings = dh.make_settings(tmp_path, fake)
    async with dh.running_bot(fake, settings, clock):
        await night.slash(night.tess, "teams", what="Owls Foxes")
        lineup = await fake.wait_for(lambda: lineup_message(fake, channel), what="the teams message")
        for user, label in ((ann, "1. Owls"), (bob, "1. Owls"), (cy, "2. Foxes"), (dee, "2. Foxes")):
            press = fake.press(user, lineup.id, lineup.button(label)["custom_id"])
            await night.log.step(user.name, f"(presses {label})", press)
        await showing(fake, channel, "2. Foxes (2): Cy, Dee")

        night.panel = await night.slash(night.tess, "host", topic="trivia-night 30s")
        assert night.panel["ephemeral"] and "Hosted by Tess" in night.panel["embeds"][0]["description"]
        assert await night.on_panel("Next") == "Next."
        q1 = await night.question(1)
        for user in (ann, bob):
            await night.answers(user, q1)
        await night.answers(cy, q1, right=False)
        await night.host_says("next")  # Dee has not answered: the host closes it
        assert "Ann +1000 (0.0 s)" in await night.revealed(q1)

        await night.host_says("next")
        q2 = await night.question(2)
        clock.advance(4)
        assert (await night.on_panel("Pause")).startswith("Paused")
        assert "paused" in await night.answers(bob, q2)
        clock.advance(600)
        assert (await night.host_says("resume")).startswith("Resumed")
        for user in (dee, ann, bob, cy):  # all four: it closes by itself
            assert (await night.answers(user, q2)).startswith("Locked in")
        assert "Dee +933 (4.0 s)" in await night.revealed(q2), "the pause's ten minutes are no answer's time"

        await night.on_panel("Next")
        q3 = await night.question(3)
        await night.answers(ann, q3)
        assert (await night.host_says("skip")).startswith("Skipped")
        skipped = await night.revealed(q3)
        assert "Skipped by the host" in skipped and "Ann +" not in skipped

    night.log.flush()
    night.log.lines.append("**(the bot restarts)**: stopped, started again on the same database")
    async with dh.running_bot(fake, settings, clock):  # a deploy in the middle: the game goes on
        assert await night.on_panel("Next") == "Next.", "the panel's buttons outlive the restart"
        q4 = await night.question(4)
        await night.answers(cy, q4)
        assert await night.host_says("hint") == "Hint shown."
        clock.advance(10)
        await night.answers(ann, q4)
        for user in (bob, dee):
            await night.answers(user, q4, right=False)
        reveal = await night.revealed(q4)
        # before the hint, at once: 1000 and a streak's 100 (the skip and the restart kept it)
        assert "Cy +1100 (0.0 s) 🔥2" in reveal
        # after the hint, a third of the 30 s gone: half of 833 speed points, her streak's 200 whole
        assert "Ann +616 (10.0 s) 🔥3" in reveal

        for number in range(5, 9):  # round 2, paced from the panel and the commands in turn
            await (night.on_panel("Next") if number % 2 else night.host_says("next"))
            q = await night.question(number)
            for user in night.players:
                await night.answers(user, q)
            reveal = await night.revealed(q)
            if number == 5:
                assert "Dee +2000 (0.0 s)" in reveal, "round 2 is worth double: 1000 × 2"
        podium = await fake.wait_message(channel, lambda m: "Quiz over" in m.text)

    questions = [f"Question {n}/8 · Trivia Night" for n in range(1, 9)]
    assert (
        night.said()
        == [
            "👥 Teams",
            "Teams for the next quiz are open: press a team above to join it.",
            "Round 1 of 2: Science and Nature",
            *questions[0:2],
            "⏸ Paused by the host, 26 s left.",
            "▶️ Go on: 26 s left.",  # ten minutes later: the time left kept
            *questions[2:4],
            "💡 Hint for question 4: It comes from gold's Latin name, not its English one.",
            "📊 Standings after Science and Nature",  # between the rounds only
            "Round 2 of 2: World and History · points ×2",
            *questions[4:8],
            "🏁 Quiz over: Trivia Night",
        ]
    )
    standings = next(m.text for m in fake.channel_messages(channel) if m.text.startswith("📊"))
    assert "🥇 Ann: 2649 pts · 3/3 right" in standings, "the skipped question counts for nobody"
    # the teams first, by the mean of their members: Owls (14049 + 11233) / 2, Foxes (12833 + 10133) / 2
    assert podium.text.splitlines()[1:10] == [
        "Teams:",
        "🥇 Owls: 12641 · 👤 2",
        "🥈 Foxes: 11483 · 👤 2",
        "",
        "Players:",
        "🥇 Ann: 14049 pts · 7/7 right · 100%",
        "🥈 Cy: 12833 pts · 6/7 right · 86%",
        "🥉 Bob: 11233 pts · 6/7 right · 86%",
        "4. Dee: 10133 pts · 5 of the 6 asked since joining · 83%",  # she joined after the first
    ]
    if TRANSCRIPT:
        night.log.write(Path(TRANSCRIPT), "A trivia night on Discord: two teams, two rounds, a restart", NOTES)
    assert fake.violations == []
