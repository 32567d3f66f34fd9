"""The Telegram end-to-end harness: `quizhost run` against the fake Bot API, members who type
and press, and the answer key a test needs to press the right button."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.adapters.telegram import runtime as telegram_runtime
from bot.app.settings import Settings
from bot.app.wiring import run
from bot.domain.model import Quiz
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi, Press, Sent
from bot.texts.bidi import strip

# Every text has a character Telegram's HTML mode would choke on unless escaped.
TINY_QUIZ = """\
id: tiny
aliases: [small]
tags: [test]
difficulty: easy
title: "Tiny <Quiz> & Co"
description: "Three questions for the Telegram tests."
questions:
  - id: one
    prompt: "Is 1 < 2 & 3 > 2 in <b>Python</b>?"
    options: ["<b>no</b>", "yes & always", "only if x > y", "&amp; maybe"]
    answer: 1
    explanation: "Comparisons chain: 1 < 2 and 3 > 2 are both true, so the <i>whole</i> & is true."
  - id: two
    prompt: "Which tag makes text bold in Telegram's HTML mode?"
    options: ["<i>", "<b>", "<u>"]
    answer: 1
    explanation: "<b> and <strong> do; a quiz text shows them as written."
  - id: three
    prompt: "How many bytes may callback data have?"
    options: ["32", "64", "128", "256"]
    answer: 1
    explanation: "Telegram allows 1 to 64 bytes & refuses more."
"""


@pytest.fixture
async def fake(monkeypatch) -> AsyncIterator[FakeBotApi]:
    """The fake Bot API on loopback, the machine's settings cleared, PTB's back-off shortened
    (a test module uses it by importing it)."""
    clean_environment(monkeypatch)
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)
    api = FakeBotApi()
    await api.start()
    yield api
    await api.stop()


def clean_environment(monkeypatch) -> None:
    """The tests' settings only: a token or a .env of the machine must not start anything else."""
    for name in list(os.environ):
        if name.startswith(("TELEGRAM_", "DISCORD_", "QUIZHOST_")) or name == "LOG_LEVEL":
            monkeypatch.delenv(name)


def quiz_folder(folder: Path) -> Path:
    """`folder`/quizzes with the tiny quiz in it (the shipped quizzes load besides)."""
    quizzes = folder / "quizzes"
    quizzes.mkdir(exist_ok=True)
    (quizzes / "tiny.yaml").write_text(TINY_QUIZ, encoding="utf-8")
    return quizzes


def settings_for(fake: FakeBotApi, folder: Path, **overrides: object) -> Settings:
    quizzes = quiz_folder(folder)
    values: dict[str, object] = dict(
        telegram_bot_token=fake.token,
        telegram_api_url=fake.url,
        quizhost_db=folder / "quizhost.db",
        quizhost_quizzes=str(quizzes),
        quizhost_pause_seconds=0,
        quizhost_question_seconds=30,
    )
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def webhook_workers(fake: FakeBotApi, folder: Path, db: str, urls: list[str], secret: str) -> list[Settings]:
    """Settings of webhook workers on one database, one per URL, all with the same secret (as
    behind a load balancer: `fake.balancer`)."""
    return [
        settings_for(
            fake,
            folder,
            quizhost_db=db,
            quizhost_worker=f"w{n}",
            telegram_webhook_url=url,
            telegram_webhook_listen=url.split("/")[2],
            telegram_webhook_secret=secret,
        )
        for n, url in enumerate(urls)
    ]


@contextlib.asynccontextmanager
async def running_bot(fake: FakeBotApi, settings: Settings, clock: FakeClock) -> AsyncIterator[asyncio.Task]:
    """`quizhost run` (its real wiring) until the block ends; then the stop a SIGTERM would give."""
    stop = asyncio.Event()
    before = len(fake.calls)
    task = asyncio.create_task(run(settings, clock=clock, stop=stop), name="quizhost run")
    ready = "setWebhook" if settings.telegram_webhook_url else "getUpdates"
    await fake.wait_for(
        lambda: task.done() or any(c.method == ready for c in fake.calls[before:]), what=f"the bot to call {ready}"
    )
    if task.done():
        task.result()  # raises what stopped it
    try:
        yield task
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0


class Member:
    """A Telegram user in a chat: types commands, presses buttons, reads the answers."""

    def __init__(self, fake: FakeBotApi, chat: dict, user: dict) -> None:
        self.fake, self.chat, self.user = fake, chat, user

    @property
    def name(self) -> str:
        return " ".join(filter(None, [self.user["first_name"], self.user.get("last_name")]))

    async def says(
        self, text: str, sender_chat: dict | None = None, mentions: Sequence[dict] = (), reply_to: int | None = None
    ) -> Sent:
        """Type `text` (with a text mention of each user of `mentions`; replying to message
        `reply_to` of a user's); returns the bot's reply. In a group the bot answers the command
        itself (quoting it); in a private chat, its next message that is neither a question nor a reveal."""
        seen = {m.message_id for m in self.fake.sent_to(self.chat)}
        typed = await self.fake.send_text(self.chat, self.user, text, sender_chat, mentions, reply_to)

        def reply() -> Sent | None:
            fresh = [m for m in self.fake.sent_to(self.chat) if m.message_id not in seen]
            if self.chat["type"] == "private":
                return next((m for m in fresh if m.reply_to is None and not _asks(m)), None)
            return next((m for m in fresh if m.reply_to == typed), None)

        return await self.fake.wait_for(reply, what=f"a reply to {text!r}")

    async def presses(self, message: Sent, letter: str) -> Press:
        return await self.presses_data(message.message_id, button(message, letter)["callback_data"])

    async def presses_data(self, message_id: int, data: str, inaccessible: bool = False) -> Press:
        query = await self.fake.press(self.chat, self.user, message_id, data, inaccessible)
        return await self.fake.answer_of(query)


def _asks(message: Sent) -> bool:
    return any(b.get("callback_data", "").startswith("qa:") for b in message.buttons())


def button(message: Sent, letter: str) -> dict:
    """The button of option `letter`: its label is the letter, alone or before the option text."""
    return next(
        b for b in message.buttons() if strip(b["text"]) == letter or strip(b["text"]).startswith(f"{letter} · ")
    )


def right_letter(message: Sent, quiz: Quiz, lang: str = "en") -> str:
    """The letter the right option got in this run's shuffle (a test knows the key; players don't)."""
    shown = strip(message.text)  # without the marks that order right-to-left lines
    question = next(q for q in quiz.questions if q.prompt.get(lang) in shown)
    right = question.options[question.answer].get(lang)
    return next(
        m.group(1)
        for line in shown.splitlines()
        if (m := re.fullmatch(r"(?:✅ |▫️ )?([A-J])\) (.*?)(?: · \d+)?", line)) and m.group(2) == right
    )


def wrong_letter(message: Sent, quiz: Quiz, lang: str = "en") -> str:
    right = right_letter(message, quiz, lang)
    letters = [strip(b["text"])[0] for b in message.buttons()]
    return next(letter for letter in letters if letter != right)


async def next_question(fake: FakeBotApi, chat: dict, number: int) -> Sent:
    """Wait for question `number` (1-based) of the chat's run to be posted."""
    questions = await fake.wait_for(
        lambda: len(fake.questions(chat)) >= number and fake.questions(chat), what=f"question {number}"
    )
    return questions[number - 1]


async def reveal_of(fake: FakeBotApi, chat: dict, question: Sent) -> Sent:
    """Wait until `question` is closed: edited into its own reveal (no reply is posted)."""
    return await fake.wait_for(
        lambda: question.edits and not question.keyboard and question,  # the live buttons are gone
        what=f"the reveal of message {question.message_id}",
    )
