"""Telegram webhook workers as real `quizhost run` processes on one PostgreSQL, behind the fake
Bot API's load balancer, and group members who press until the bot says their answer is in."""

from __future__ import annotations

import asyncio
import functools
import os
import random
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bot.domain.tokens import AnswerToken, decode
from bot.testing.fake_telegram import FakeBotApi, Press, Sent
from tests.support.telegram_harness import quiz_folder

SECRET = "one_secret_for_every_worker"
HOOK = "https://quiz.example.org/telegram/hook"  # the public URL Telegram is given; workers listen on loopback
QUIZHOST = Path(sys.executable).with_name("quizhost")  # the console script of this virtualenv
ANSWER_WAIT = 3.0  # seconds a player waits for the bot's answer before pressing again
AGAIN = 0.2  # the share of locked-in answers a player presses a button again on


@dataclass
class Worker:
    name: str
    url: str  # where the load balancer reaches its webhook
    process: subprocess.Popen
    log: Path

    def stop(self) -> int:
        """SIGTERM, as a deploy stops it; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def start_worker(
    fake: FakeBotApi, folder: Path, db: str, name: str, port: int, seconds: int, named: bool = True
) -> Worker:
    """`quizhost run` as a webhook worker; `named`: QUIZHOST_WORKER is `name` (else unset, the
    default name; `name` then only names its log)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "QUIZHOST_"))}
    env.update(
        {
            "HOME": str(folder),
            "XDG_CACHE_HOME": str(folder / "cache"),
            "LOG_LEVEL": "WARNING",
            "QUIZHOST_DB": db,
            "QUIZHOST_QUIZZES": str(quiz_folder(folder)),
            "QUIZHOST_QUESTION_SECONDS": str(seconds),
            "QUIZHOST_PAUSE_SECONDS": "0",
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_URL": fake.url,
            "TELEGRAM_WEBHOOK_URL": HOOK,
            "TELEGRAM_WEBHOOK_LISTEN": f"127.0.0.1:{port}",
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
        }
    )
    if named:
        env["QUIZHOST_WORKER"] = name
    log = folder / f"{name}.log"
    with log.open("w") as out:
        process = subprocess.Popen([str(QUIZHOST), "run"], cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Worker(name, f"http://127.0.0.1:{port}/telegram/hook", process, log)


@dataclass(frozen=True)
class PressMade:
    query_id: str
    update_id: int
    chat_id: int
    user_id: int
    token: AnswerToken


@dataclass
class Players:
    """Members of the groups pressing answers; every press they make is kept."""

    fake: FakeBotApi
    seed: int = 0
    made: list[PressMade] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    async def play(self, chat: dict, members: list[dict], questions: int, hold: asyncio.Event | None) -> None:
        """Every member answers every question, in a random order; with `hold`, only the first
        member answers question 2 before it is set."""
        for number in range(1, questions + 1):
            await self.fake.wait_for(
                functools.partial(asked, self.fake, chat, number),
                timeout=120,
                what=f"question {number} in {chat['title']}",
            )
            order = self._rng.sample(members, len(members))
            await self._answer(chat, order[0], number)
            if number == 2 and hold is not None:
                await hold.wait()
            await asyncio.gather(*(self._answer(chat, member, number) for member in order[1:]))

    async def _answer(self, chat: dict, member: dict, number: int) -> None:
        """Press until the answer is locked in, refused for good, or the question is over. A
        press the bot never answers (its worker died holding it) is pressed again, as people do."""
        await asyncio.sleep(self._rng.uniform(0.0, 1.5))
        while (question := live_question(self.fake, chat, number)) is not None:
            buttons = question.buttons()  # an edit closing the question takes them off the message
            button = self._rng.choice(buttons)
            query_id = await self.fake.press(chat, member, question.message_id, button["callback_data"])
            press = self.fake.presses[query_id]
            token = decode(button["callback_data"])
            assert token is not None
            self.made.append(PressMade(query_id, press.update_id, chat["id"], member["id"], token))
            try:
                text = await self.fake.wait_for(functools.partial(answer_text, press), timeout=ANSWER_WAIT)
            except AssertionError:
                continue
            if text.startswith("Locked in") and self._rng.random() < AGAIN:
                await self._press_again(chat, member, question.message_id, buttons)
            if text.startswith("Locked in") or "already answered" in text or "closed" in text:
                return
            await asyncio.sleep(0.2)  # not saved: press again

    async def _press_again(self, chat: dict, member: dict, message_id: int, buttons: list[dict]) -> None:
        """A second press on a question already answered (another option, or the same)."""
        data = self._rng.choice(buttons)["callback_data"]
        query_id = await self.fake.press(chat, member, message_id, data)
        press = self.fake.presses[query_id]
        token = decode(data)
        assert token is not None
        self.made.append(PressMade(query_id, press.update_id, chat["id"], member["id"], token))


def question_token(message: Sent) -> AnswerToken | None:
    tokens = [decode(b.get("callback_data", "")) for b in message.buttons()]
    return next((t for t in tokens if t is not None), None)


def answer_text(press: Press) -> str | None:
    """The bot's answer to a press ("" for one without text), None before it answered."""
    return (press.text or "") if press.answered else None


def question_posts(fake: FakeBotApi, chat: dict) -> list[AnswerToken]:
    """Every question the bot posted in the chat, in order, as (run, number) of its buttons."""
    posts = []
    for call in fake.called("sendMessage"):
        if call.params.get("chat_id") == chat["id"]:
            rows = (call.params.get("reply_markup") or {}).get("inline_keyboard") or []
            tokens = [decode(b.get("callback_data", "")) for row in rows for b in row]
            posts += [t for t in tokens[:1] if t is not None]
    return posts


def asked(fake: FakeBotApi, chat: dict, number: int) -> bool:
    """Question `number` (or a later one) was posted, or the quiz is over."""
    return any(t.number >= number for t in question_posts(fake, chat)) or over(fake, chat)


def live_question(fake: FakeBotApi, chat: dict, number: int) -> Sent | None:
    """Question `number` as members can still press it (after a re-post, the newest)."""
    live = [m for m in fake.questions(chat) if m.keyboard and (t := question_token(m)) and t.number == number]
    return live[-1] if live else None


def over(fake: FakeBotApi, chat: dict) -> bool:
    return any("Quiz over" in m.text for m in fake.sent_to(chat))
