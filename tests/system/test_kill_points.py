"""Killed inside each kind of platform call, the bot still owes nothing when it comes back.

`quizhost run` runs as a subprocess against the fake Bot API (this process), on a real SQLite
file. The fake kills it (SIGKILL, or SIGTERM) inside the first call of one kind: a question's
post, its closing edit (which is the reveal), the last closing edit (stored with the podium),
the podium, a press's answer; with SIGKILL, either before Telegram acted or after it acted and
before the reply (an ambiguous failure). The bot is started again and the quiz played to its
end. Every message arrives once and every reveal is one edit; a post whose send was ambiguous
is posted again (at most one duplicate, and the first copy's buttons still count); every
acknowledged press counts once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.testing.fake_telegram import DropConnection, FakeBotApi
from bot.testing.fake_telegram_methods import Call
from tests.support.paths import ROOT_DIR
from tests.support.telegram_harness import quiz_folder

ROOT = ROOT_DIR
QUESTION_TWO = "Question 2/3"


@dataclass(frozen=True)
class KillPoint:
    name: str
    method: str
    matcher: Callable[[], Callable[[dict], bool]]  # a fresh predicate for each test


def nth(text: str, n: int) -> Callable[[dict], bool]:
    """The n-th message sent with `text` in it (each call that matches counts once)."""
    seen = [0]

    def matches(params: dict) -> bool:
        if text in params.get("text", ""):
            seen[0] += 1
        return seen[0] == n and text in params.get("text", "")

    return matches


POINTS = [
    KillPoint("post", "sendMessage", lambda: nth(QUESTION_TWO, 1)),
    KillPoint("close edit", "editMessageText", lambda: nth(QUESTION_TWO, 1)),
    KillPoint("last close edit", "editMessageText", lambda: nth("Question 3/3", 1)),
    KillPoint("podium", "sendMessage", lambda: nth("Quiz over", 1)),
    KillPoint("press answer", "answerCallbackQuery", lambda: nth("Locked in", 2)),
]
CASES = [
    (point, sig, acted)
    for point in POINTS
    for sig, acted in ((signal.SIGKILL, False), (signal.SIGKILL, True), (signal.SIGTERM, True))
]


class Bot:
    """`quizhost run` in a subprocess."""

    def __init__(self, fake: FakeBotApi, folder: Path) -> None:
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "QUIZHOST_"))},
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_URL": fake.url,
            "QUIZHOST_DB": str(folder / "kill.db"),
            "QUIZHOST_QUIZZES": str(quiz_folder(folder)),
            "QUIZHOST_PAUSE_SECONDS": "0",
        }
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with (self.folder / "bot.log").open("ab") as log:  # the child keeps its own handle
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "run"],
                cwd=self.folder,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    async def ended(self) -> int:
        assert self.process is not None
        return await asyncio.get_running_loop().run_in_executor(None, self.process.wait, 30)


async def play(fake: FakeBotApi, chat: dict, user: dict, until: Callable[[], bool]) -> set[int]:
    """Press A on every question shown (again when a press got no answer) until `until()`.
    Returns the message ids whose press was acknowledged ("Locked in")."""
    acked: set[int] = set()
    while not until():
        for question in fake.questions(chat):
            if question.message_id in acked or not question.keyboard:
                continue
            data = question.keyboard[0][0]["callback_data"]
            press = fake.presses[await fake.press(chat, user, question.message_id, data)]
            try:
                await fake.wait_for(lambda press=press: press.answered, timeout=3)
            except AssertionError:  # killed before it answered: the player presses again
                continue
            if press.text and (press.text.startswith("Locked in") or press.text.startswith("You already")):
                acked.add(question.message_id)
        await asyncio.sleep(0.05)
    return acked


def count(fake: FakeBotApi, chat: dict, text: str) -> int:
    return sum(text in m.text for m in fake.sent_to(chat))


def after(action: Callable[[], None], target: Call, drop: bool = False) -> Callable[[Call, bool], Awaitable[None]]:
    """An `around` hook: once `target` has been handled, do `action` (and lose the reply)."""

    async def hook(call: Call, done: bool) -> None:
        if call is target and done:
            action()
            if drop:
                raise DropConnection()

    return hook


def case_id(point: KillPoint, sig: int, acted: bool) -> str:
    return f"{point.name}-{signal.Signals(sig).name}-{'acted' if acted else 'not-acted'}"


@pytest.mark.parametrize("point,sig,acted", CASES, ids=[case_id(*case) for case in CASES])
async def test_killed_inside_a_platform_call_the_chat_gets_every_message_once(tmp_path, point, sig, acted):
    fake = FakeBotApi()
    await fake.start()
    bot = Bot(fake, tmp_path)
    killed: list[Call] = []
    matches = point.matcher()

    async def around(call: Call, done: bool) -> None:
        if killed or call.method != point.method or done or not matches(call.params):
            return
        killed.append(call)
        if sig == signal.SIGTERM:  # a deploy: the call in flight is answered, the bot stops
            fake.around = after(lambda: bot.signal(sig), call)
        elif acted:  # Telegram acts, then the bot dies before the reply
            fake.around = after(lambda: bot.signal(sig), call, drop=True)
        else:
            bot.signal(sig)
            raise DropConnection()

    fake.around = around
    user = fake.user(71, "Ann")
    chat = fake.private(user)
    try:
        bot.start()
        await fake.wait_for(lambda: fake.called("getUpdates"), timeout=30, what="the bot to poll")
        await fake.send_text(chat, user, "/quiz tiny")
        player = asyncio.create_task(play(fake, chat, user, lambda: bool(killed)))
        await fake.wait_for(lambda: killed, timeout=30, what=f"a {point.name} call to kill in")
        assert await bot.ended() == (0 if sig == signal.SIGTERM else -signal.SIGKILL)
        acked_before = await player

        polled = len(fake.called("getUpdates"))
        bot.start()
        await fake.wait_for(lambda: len(fake.called("getUpdates")) > polled, timeout=30, what="the bot to poll again")
        over = lambda: count(fake, chat, "Quiz over") > 0  # noqa: E731 - a condition, named
        acked = acked_before | await asyncio.wait_for(play(fake, chat, user, over), 60)
        await asyncio.sleep(1.0)  # the outbox goes out as polling starts: a second podium would be here
        bot.signal(signal.SIGTERM)
        assert await bot.ended() == 0
    finally:
        if bot.process is not None and bot.process.poll() is None:
            bot.process.kill()
        await fake.stop()

    ambiguous = sig == signal.SIGKILL and acted and point.method == "sendMessage"
    most = 2 if ambiguous else 1
    copies = [[m for m in fake.sent_to(chat) if m.text.startswith(f"Question {n}/3")] for n in (1, 2, 3)]
    questions = [len(c) for c in copies]
    reveals, podiums = count(fake, chat, "Right answer"), count(fake, chat, "Quiz over")
    assert questions[0] == questions[2] == 1 and 1 <= questions[1] <= (most if point.name == "post" else 1)
    if questions[1] == 2:  # the post was repeated after an ambiguous failure
        assert copies[1][0].message_id in acked, "the first copy's buttons still count"
    assert reveals == 3, "every question revealed once, by its closing edit"
    assert all(m.edits == 1 for m in fake.sent_to(chat) if "Right answer" in m.text)
    assert not [m for m in fake.sent_to(chat) if m.reply_to is not None], "no reveal replies"
    assert 1 <= podiums <= (most if point.name == "podium" else 1)
    with sqlite3.connect(tmp_path / "kill.db") as db:
        stored = db.execute("SELECT idx, COUNT(*) FROM answers GROUP BY idx ORDER BY idx").fetchall()
        assert db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0, "nothing left owed"
    assert stored == [(0, 1), (1, 1), (2, 1)], "every question's press counted once"
    duplicates = sum(questions) - 3 + reveals - 3 + podiums - 1
    print(
        f"KILLPOINT {case_id(point, sig, acted)}: "
        f"questions {questions} reveals {reveals} podiums {podiums} duplicates {duplicates} "
        f"presses stored {len(stored)} acknowledged {len(acked)}"
    )
