"""Scoring that fits the room on Telegram (issue #50), through the real PTB and the fake Bot API:
the same team game played twice, as a chat plays it by default and with /settings scoring
accuracy and /settings board end. The two message streams are compared field by field: the same
questions in the same order, the same buttons, the same acknowledgements, the same line-ups;
only the reveals (no answer times, no team standings) and the podium (flat points, ranked by
share right since joining) differ. Cy joins late, at the second question: the podium counts
him on the two asked since."""

from __future__ import annotations

import json
import re

from bot.adapters.telegram import runtime as telegram_runtime
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of  # noqa: F401  (fixtures)
from tests.adapters.telegram.test_telegram_teams import edited, join_data, lineup_message
from tests.support import telegram_harness as th
from tests.support.steady_quiz import RIGHT, STEADY, WRONG


class Room:
    """A group with its admin Tess and the players Ann, Bob and Cy."""

    def __init__(self, fake: FakeBotApi, chat_id: int) -> None:
        self.fake = fake
        self.group = fake.group(chat_id, "Quiz night")
        tess = fake.user(-chat_id * 10, "Tess")
        fake.make_admin(self.group, tess)
        self.tess = th.Member(fake, self.group, tess)
        self.ann, self.bob, self.cy = (
            th.Member(fake, self.group, fake.user(-chat_id * 10 + i, name))
            for i, name in enumerate(("Ann", "Bob", "Cy"), 1)
        )

    def stream(self, since: int) -> list[tuple[str, str, list[str]]]:
        """What the bot sent the group after call `since`: each call's method, its text and its
        buttons' labels (their data names the run, which differs)."""
        return [
            (c.method, c.params.get("text") or c.params.get("caption") or "", _labels(c.params.get("reply_markup")))
            for c in self.fake.calls[since:]
            if c.status == 200
            and c.method.startswith(("send", "edit"))
            and str(c.params.get("chat_id")) == str(self.group["id"])
        ]


def _labels(markup: object) -> list[str]:
    data = json.loads(markup) if isinstance(markup, str) else markup or {}
    return [b["text"] for row in data.get("inline_keyboard", []) for b in row] if isinstance(data, dict) else []


async def play(room: Room, clock: FakeClock) -> tuple[list[str], Sent]:
    """Two teams (Ann, Bob), the quiz, Cy first answering the second question; the acks and the podium."""
    fake, acks = room.fake, []
    await room.tess.says("/teams Owls Foxes")
    lineup = await fake.wait_for(lambda: lineup_message(fake, room.group), what="the teams message")
    acks.append((await room.ann.presses_data(lineup.message_id, join_data(lineup, 1))).text)
    acks.append((await room.bob.presses_data(lineup.message_id, join_data(lineup, 2))).text)
    await edited(fake, room.group, "2. Foxes (1): Bob")
    await room.tess.says("/quiz steady")
    presses = (  # (seconds after the question is shown, who, right or not)
        ((2, room.ann, True), (3, room.bob, False)),
        ((4, room.cy, True), (1, room.ann, True), (0, room.bob, True)),
        ((1, room.bob, True), (0, room.cy, True), (0, room.ann, False)),
    )
    for number, answers in enumerate(presses, 1):
        question = await th.next_question(fake, room.group, number)
        if number == 1:  # the run adopts the teams as its first question is shown
            await edited(fake, room.group, "The teams are locked")
        for wait, member, right in answers:
            clock.advance(wait)
            letter = (RIGHT if right else WRONG)[number - 1]
            acks.append((await member.presses(question, letter)).text)
        await th.reveal_of(fake, room.group, question)
    return acks, await podium_of(fake, room.group)


def _without_times_and_standings(text: str) -> str:
    """A reveal as both scorings show it: who scored without points or times, no team standings."""
    text = text.split("\nTeams:")[0].rstrip()
    return re.sub(r"^(.+?) \+\d+( \(\d+\.\d s\))?( 🔥\d+)?$", r"\1", text, flags=re.M)


async def test_accuracy_and_board_at_end_change_the_reveals_and_the_podium_only(fake, clock, tmp_path, monkeypatch):
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)
    quizzes = th.quiz_folder(tmp_path)
    (quizzes / "steady.yaml").write_text(STEADY, encoding="utf-8")
    live, fair = Room(fake, -5001), Room(fake, -5002)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        settings = await fair.tess.says("/settings scoring accuracy")
        assert "Scoring: accuracy (every right answer earns 1000)" in settings.text
        assert "Standings: at the end only" in (await fair.tess.says("/settings board end")).text
        refused = await fair.ann.says("/settings scoring speed")
        assert "Only chat admins" in refused.text

        since = len(fake.calls)
        live_acks, live_podium = await play(live, clock)
        live_stream = live.stream(since)
        since = len(fake.calls)
        fair_acks, fair_podium = await play(fair, clock)
        fair_stream = fair.stream(since)

    assert fair_acks == live_acks and "Locked in: B" in live_acks, "the same acknowledgements"
    assert [(m, labels) for m, _, labels in fair_stream] == [(m, labels) for m, _, labels in live_stream]
    differing = [i for i, (a, b) in enumerate(zip(live_stream, fair_stream)) if a[1] != b[1]]
    reveals = [i for i, (method, text, _) in enumerate(live_stream) if method == "editMessageText" and "✅" in text]
    podium = [i for i, (_, text, _) in enumerate(live_stream) if text.startswith("<b>🏁 Quiz over")]
    assert len(reveals) == 3 and len(podium) == 1
    assert differing == sorted(reveals + podium), "nothing but the reveals and the podium differ"
    for i in reveals:
        live_text, fair_text = live_stream[i][1], fair_stream[i][1]
        assert _without_times_and_standings(live_text) == _without_times_and_standings(fair_text)
        assert "\nTeams:" in live_text and "\nTeams:" not in fair_text, "no team standings before the podium"
        assert re.search(r" \+\d+ \(\d+\.\d s\)", live_text) and not re.search(r"\d s\)", fair_text)
    assert "Cy joins team" in fair_stream[reveals[1]][1], "a late player is still placed in a team"

    live_players = live_podium.text.split("Players:")[1].strip().split("\n\n")[0].splitlines()
    fair_players = fair_podium.text.split("Players:")[1].strip().split("\n\n")[0].splitlines()
    # speed: Cy 933 + 983 + 100, Bob 917 + 983 + 100, Ann 967 + 917 + 100: by points
    assert live_players == [
        "🥇 Cy: 2016 pts · 2 of the 2 asked since joining · 100%",
        "🥈 Bob: 2000 pts · 2/3 right · 67%",
        "🥉 Ann: 1984 pts · 2/3 right · 67%",
    ]
    # accuracy: 1000 a right answer and the streak bonus; by share right since joining, then points
    assert fair_players == [
        "🥇 Cy: 2100 pts · 2 of the 2 asked since joining · 100%",
        "🥈 Ann: 2100 pts · 2/3 right · 67%",
        "🥉 Bob: 2100 pts · 2/3 right · 67%",
    ]
