"""A trivia night on Telegram, as issue 49's "done when" plays it (real PTB, the fake Bot API,
a FakeClock): an admin opens two teams and four players join; the admin hosts the shipped
`trivia-night` (two rounds, hints), pacing it from the panel in their private chat and from
the group's commands; a pause refuses a press and keeps the time left; a skipped question moves
no board; an answer after the hint earns half the speed points; the bot restarts in the middle
and the game goes on; the standings come between the rounds; the podium ranks the teams, then
the players.

With QUIZHOST_TRANSCRIPT set, the group and the host's private chat are written there."""

from __future__ import annotations

import os
from pathlib import Path

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Quiz
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of  # noqa: F401  (fixtures)
from tests.adapters.telegram.test_telegram_teams import edited, join_data, lineup_message
from tests.support import telegram_harness as th
from tests.support.chat_transcript import Transcript

# read at import: the fixtures clear QUIZHOST_* variables so that no setting of the machine leaks in
TRANSCRIPT = os.environ.get("QUIZHOST_TRANSCRIPT", "")
NOTES = [
    "Written by tests/adapters/telegram/test_trivia_night_telegram.py (the fake Bot API, a fake clock):",
    "the group as its members see it at the end (a question shows its reveal), and the host's",
    "private chat with the panel; the panel's edits are shown where the test waited for them.",
    "After the restart the same panel is kept current: where it is was stored with the game.",
]


class Night:
    """The group, its host Tess (an admin, with her panel in private) and four players, each
    step logged in the transcript."""

    def __init__(self, fake: FakeBotApi, clock: FakeClock) -> None:
        self.fake, self.clock = fake, clock
        self.group = fake.group(-4901, "Trivia night")
        tess = fake.user(490, "Tess")
        fake.make_admin(self.group, tess)
        self.tess = th.Member(fake, self.group, tess)
        self.private = fake.private(tess)
        self.at_panel = th.Member(fake, self.private, tess)
        names = ("Ann", "Bob", "Cy", "Dee")
        self.ann, self.bob, self.cy, self.dee = (
            th.Member(fake, self.group, fake.user(491 + i, name)) for i, name in enumerate(names)
        )
        self.log = Transcript(fake)
        self.log.chat(self.group, "The group “Trivia night”")
        self.log.chat(self.private, "Tess's private chat with the bot (the host panel)")

    @property
    def players(self) -> tuple[th.Member, ...]:
        return self.ann, self.bob, self.cy, self.dee

    async def says(self, member: th.Member, text: str) -> str:
        return (await self.log.step(member.chat, member.name, text, member.says(text))).text

    async def presses(self, member: th.Member, question: Sent, letter: str) -> str:
        did = f"(presses {letter})"
        return (await self.log.step(member.chat, member.name, did, member.presses(question, letter), False)).text or ""

    async def joins(self, member: th.Member, lineup: Sent, team: int) -> str:
        press = member.presses_data(lineup.message_id, join_data(lineup, team))
        return (await self.log.step(self.group, member.name, f"(presses team {team})", press, False)).text or ""

    def panel(self) -> Sent:
        return self.fake.sent_to(self.private)[0]

    async def on_panel(self, label: str) -> str:
        data = next(b["callback_data"] for b in self.panel().buttons() if b["text"] == label)
        press = self.at_panel.presses_data(self.panel().message_id, data)
        return (await self.log.step(self.private, "Tess", f"(presses {label} on the panel)", press, False)).text or ""

    async def panel_shows(self, count: str) -> None:
        self.clock.advance(5)  # the panel's edits are budgeted: one in a few seconds
        await self.fake.wait_for(lambda: count in self.panel().text, what=f"the panel's {count!r}")
        shown = self.panel().text.replace("\n", "  \n    ")  # indented as the transcript shows the bot's
        self.log.lines.append((self.log.chats[self.private["id"]], "the panel, edited", shown))

    def restarts(self) -> None:
        self.log.flush()
        said = "stopped, started again on the same database"
        self.log.lines.append((self.log.chats[self.group["id"]], "(the bot restarts)", said))

    def write(self, heading: str) -> None:
        if TRANSCRIPT:
            self.log.write(Path(TRANSCRIPT), heading, NOTES)


def right(question: Sent, quiz: Quiz) -> str:
    return th.right_letter(question, quiz)


def said_in(fake: FakeBotApi, group: dict) -> list[str]:
    """The first line of each message the bot posted in the group by itself (not a reply)."""
    return [m.text.splitlines()[0] for m in fake.sent_to(group) if m.reply_to is None]


async def test_a_hosted_trivia_night_of_two_teams_to_its_podium(fake, clock, tmp_path, monkeypatch):
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)  # a night's worth in seconds
    quiz = Catalog.load(default_quiz_folders()).get("trivia-night")
    assert quiz is not None
    night = Night(fake, clock)
    group, tess, ann, bob, cy, dee = night.group, night.tess, night.ann, night.bob, night.cy, night.dee
    settings = th.settings_for(fake, tmp_path)
    async with th.running_bot(fake, settings, clock):
        assert "press a team above to join it" in await night.says(tess, "/teams Owls Foxes")
        lineup = await fake.wait_for(lambda: lineup_message(fake, group), what="the teams message")
        for member, team in ((ann, 1), (bob, 1), (cy, 2), (dee, 2)):
            await night.joins(member, lineup, team)
        shown = await edited(fake, group, "2. Foxes (2): Cy, Dee")
        assert "1. Owls (2): Ann, Bob" in shown.text

        started = await night.says(tess, "/host trivia-night 30s")
        assert "Hosted by Tess" in started and "Your host panel is in your private chat with me." in started
        await fake.wait_for(lambda: fake.sent_to(night.private), what="the host panel")
        assert [b["text"] for b in night.panel().buttons()] == ["Next", "Pause", "Resume", "Skip", "Hint", "End"]

        assert await night.on_panel("Next") == "Next."
        q1 = await th.next_question(fake, group, 1)
        await night.presses(ann, q1, right(q1, quiz))
        await night.presses(bob, q1, right(q1, quiz))
        await night.presses(cy, q1, th.wrong_letter(q1, quiz))
        await night.says(tess, "/next")  # Dee has not answered: the host closes it
        assert "Ann +1000 (0.0 s)" in (await th.reveal_of(fake, group, q1)).text

        await night.says(tess, "/next")
        q2 = await th.next_question(fake, group, 2)
        clock.advance(4)
        assert (await night.says(tess, "/pause")).startswith("Paused")
        assert "paused" in await night.presses(bob, q2, right(q2, quiz))
        clock.advance(600)
        assert (await night.says(tess, "/resume")).startswith("Resumed")
        for member in (dee, ann, bob, cy):  # all four: it closes by itself
            assert (await night.presses(member, q2, right(q2, quiz))).startswith("Locked in")
        reveal = await th.reveal_of(fake, group, q2)
        assert "Dee +933 (4.0 s)" in reveal.text, "the pause's ten minutes are no answer's time"

        await night.on_panel("Next")
        q3 = await th.next_question(fake, group, 3)
        await night.presses(ann, q3, right(q3, quiz))
        await night.panel_shows("1 of 4 answered")
        assert (await night.says(tess, "/skip")).startswith("Skipped")
        skipped = await th.reveal_of(fake, group, q3)
        assert "Skipped by the host" in skipped.text and "Ann +" not in skipped.text

        await night.says(tess, "/next")
        q4 = await th.next_question(fake, group, 4)
        await night.presses(cy, q4, right(q4, quiz))
        assert await night.on_panel("Hint") == "Hint shown."

    night.restarts()
    async with th.running_bot(fake, settings, clock):  # a deploy in the middle: the game goes on
        clock.advance(10)
        assert (await night.presses(ann, q4, right(q4, quiz))).startswith("Locked in")
        for member in (bob, dee):
            await night.presses(member, q4, th.wrong_letter(q4, quiz))
        reveal = await th.reveal_of(fake, group, q4)
        assert "Cy +1100 (0.0 s) 🔥2" in reveal.text  # before the hint, at once: 1000 and a streak's 100
        # after the hint, a third of the 30 s gone: half of 833 speed points, and the 200 of her
        # streak whole (three in a row: the skipped question and the restart kept it)
        assert "Ann +616 (10.0 s) 🔥3" in reveal.text
        await night.panel_shows("Question 4 of 8\nClosed")  # the panel posted before the restart, kept current

        for number in range(5, 9):  # round 2, paced from the panel and the chat in turn
            await (night.on_panel("Next") if number % 2 else night.says(tess, "/next"))
            q = await th.next_question(fake, group, number)
            for member in night.players:
                await night.presses(member, q, right(q, quiz))
            reveal = await th.reveal_of(fake, group, q)
            if number == 5:
                assert "Dee +2000 (0.0 s)" in reveal.text, "round 2 is worth double: 1000 × 2"
        podium = await podium_of(fake, group)

    questions = [f"Question {n}/8 · Trivia Night" for n in range(1, 9)]
    assert (
        said_in(fake, group)
        == [
            "👥 Teams",
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
    standings = next(m.text for m in fake.sent_to(group) if m.text.startswith("📊"))
    assert "🥇 Ann: 2649 pts · 3/3 right" in standings, "the skipped question counts for nobody"
    assert "🥇 Owls: 2341 · 👤 2" in standings  # the teams too: (2649 + 2033) / 2
    assert not any("Teams:" in q.text for q in fake.questions(group)), "no standings in a round's reveals"

    lines = podium.text.splitlines()
    teams_at, players_at = lines.index("Teams:"), lines.index("Players:")
    # a team scores the mean of its members: Owls (14049 + 11233) / 2, Foxes (12833 + 10133) / 2
    assert lines[teams_at + 1 : teams_at + 3] == ["🥇 Owls: 12641 · 👤 2", "🥈 Foxes: 11483 · 👤 2"]
    assert teams_at < players_at
    assert [line.split(" · ")[0] for line in lines[players_at + 1 : players_at + 5]] == [
        "🥇 Ann: 14049 pts",
        "🥈 Cy: 12833 pts",
        "🥉 Bob: 11233 pts",
        "4. Dee: 10133 pts",
    ]
    night.write("A trivia night on Telegram: a hosted game of two teams, two rounds, a restart")
