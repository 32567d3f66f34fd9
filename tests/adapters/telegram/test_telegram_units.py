"""The Telegram adapter's parts on their own: markup and limits, retries, admin checks, webhook
settings, and an edit that changes nothing (checked against the fake Bot API)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from types import SimpleNamespace

import pytest
from telegram import Bot
from telegram.error import BadRequest, NetworkError, TimedOut

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram import runtime as telegram_runtime
from bot.adapters.telegram.adapter import TelegramAdapter
from bot.adapters.telegram.limits import SlidingWindowLimiter
from bot.adapters.telegram.runtime import AdminCache, with_retries
from bot.app.platforms import telegram_adapter, telegram_webhook
from bot.app.wiring import open_store_and_house
from bot.domain.model import Button, ChatRef, OptionView, QuestionCard, Reply, Reveal, Scorer
from bot.ports.chat import MembershipUnknown
from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_html import parse_html, utf16_len
from tests.support.telegram_harness import clean_environment, settings_for


def card(
    prompt: str = "Which?", options: tuple[str, ...] = ("one", "two"), token: str | None = None, chat_id: str = "-100"
) -> QuestionCard:
    views = tuple(OptionView("ABCDEFGHIJ"[i], text, token or f"qa:1:1:{i}") for i, text in enumerate(options))
    return QuestionCard(1, ChatRef("telegram", chat_id, False), "en", "Quiz <1>", 1, 2, prompt, views, 30, 0.0)


def reveal(c: QuestionCard) -> Reveal:
    return Reveal(c, "A", c.options[0].text, "Because A & not B.", (1,) + (0,) * (len(c.options) - 1), ())


# markup and limits ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1 < 2 & 3 > 2", "<b>bold?</b>", "&amp; stays", "a&b;c", "<<>>&&", "x</b>"])
def test_escaped_text_shows_exactly_as_written(text):
    shown, bold = parse_html(fmt.titled(text, text))
    assert shown == f"{text}\n\n{text}" and bold == [text]


def test_a_question_too_long_for_one_message_is_cut_to_fit_and_says_so():
    long = card("why? " * 900, tuple(f"option {i} " + "é" * 390 for i in range(10)))
    shown, bold = parse_html(fmt.question_html(long))
    assert utf16_len(shown) <= 4096 and shown.endswith("…") and bold == ["Question 1/2 · Quiz <1>"]


def test_a_reveal_too_long_for_one_message_cuts_who_scored_then_the_explanation_never_the_split():
    c = card("Which one? " * 40, tuple(f"option {i} 🎯" for i in range(4)))
    scorers = tuple(Scorer(f"Player {n} with a long display name 🎯", "A", True, 900, 1.5, 1) for n in range(300))
    r = Reveal(c, "A", c.options[0].text, "Because " + "it is so 🎯. " * 600, (300, 0, 0, 0), scorers)
    shown, bold = parse_html(fmt.revealed_html(r))
    assert utf16_len(shown) <= 4096 and bold == ["Question 1/2 · Quiz <1>"]
    assert "A 300 ▓▓▓▓▓▓▓▓▓▓" in shown and "D 0 ░░░░░░░░░░" in shown and "✅ Right answer: A) option 0 🎯" in shown
    kept = re.findall(r"^Player \d+ ", shown, re.M)
    assert 10 <= len(kept) < 300 and shown.endswith(f"… and {300 - len(kept)} more"), "whole lines, then a count"
    assert "Because it is so" in shown and "it is so 🎯. " * 600 not in shown, "the explanation is cut, not dropped"


def test_a_reveal_that_fits_is_whole():
    c = card()
    scorers = tuple(Scorer(f"P{n}", "A", True, 900 - n, 1.0 + n, 1) for n in range(3))
    shown, _ = parse_html(fmt.revealed_html(Reveal(c, "A", "one", "Because A & not B.", (3, 0), scorers)))
    assert shown.endswith("Because A & not B.\n\nScored:\nP0 +900 (1.0 s)\nP1 +899 (2.0 s)\nP2 +898 (3.0 s)")


def test_fit_counts_as_telegram_does_an_emoji_is_two_units():
    assert fmt.fit("🎯🎯🎯", 6) == "🎯🎯🎯"
    assert fmt.fit("🎯🎯🎯", 5) == "🎯🎯…" and fmt.units("🎯🎯…") == 5
    assert fmt.ack_text("x" * 300) == "x" * 199 + "…"


def test_buttons_carry_the_option_text_when_it_fits_and_letters_otherwise():
    short = fmt.question_keyboard(card(options=("yes", "no")))
    assert [[b.text for b in row] for row in short.inline_keyboard] == [["A · yes"], ["B · no"]]
    long = fmt.question_keyboard(card(options=("a" * 40, "b", "c", "d", "e", "f")))
    assert [[b.text for b in row] for row in long.inline_keyboard] == [list("ABCDE"), ["F"]]
    assert [b.callback_data for row in long.inline_keyboard for b in row][:2] == ["qa:1:1:0", "qa:1:1:1"]


def test_callback_data_over_64_bytes_is_refused_before_telegram_sees_it():
    assert fmt.checked_data("q" * 64) == "q" * 64
    with pytest.raises(ValueError, match="1 to 64 bytes, got 68"):
        fmt.question_keyboard(card(token="qa:" + "é" * 32 + "1"))


def test_a_reply_button_with_too_long_data_is_left_out_and_short_labels_share_a_row():
    markup = fmt.reply_keyboard(
        [Button("English", "ql:en"), Button("too long", "qp:" + "x" * 70), Button("اردو", "ql:ur")]
    )
    assert [[b.text for b in row] for row in markup.inline_keyboard] == [["English", "اردو"]]
    assert fmt.reply_keyboard([]) is None


def test_a_reply_without_title_is_plain_escaped_text():
    assert fmt.reply_html(Reply("a < b")) == "a &lt; b"


# retries and admins ---------------------------------------------------------------------


async def test_network_errors_are_retried_with_back_off_and_a_400_is_not(monkeypatch):
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.001)
    failures = [NetworkError("Bad Gateway"), TimedOut()]

    async def flaky() -> str:
        if failures:
            raise failures.pop(0)
        return "sent"

    assert await with_retries(flaky, "test") == "sent"

    calls = []

    async def refused() -> None:
        calls.append(1)
        raise BadRequest("Message is too long")

    with pytest.raises(BadRequest):
        await with_retries(refused, "test")
    assert calls == [1]

    async def down() -> None:
        calls.append(2)
        raise NetworkError("down")

    with pytest.raises(NetworkError):
        await with_retries(down, "test")
    assert calls.count(2) == telegram_runtime.RETRY_ATTEMPTS


class FakeMembers:
    """getChatMember answers without a network: who is admin where, and how often it was asked."""

    def __init__(self, admins: set[int], fail: bool = False) -> None:
        self.admins, self.fail, self.asked = admins, fail, 0

    async def get_chat_member(self, chat_id: int, user_id: int):
        self.asked += 1
        if self.fail:
            raise BadRequest("Chat not found")
        return SimpleNamespace(status="administrator" if user_id in self.admins else "member")


async def test_admin_rights_are_cached_briefly_and_a_failed_check_refuses():
    now = [0.0]
    cache, bot = AdminCache(ttl=60, now=lambda: now[0]), FakeMembers({7})
    assert await cache.is_admin(bot, -1, 7) and not await cache.is_admin(bot, -1, 8)
    assert await cache.is_admin(bot, -1, 7) and bot.asked == 2
    now[0] = 61
    bot.admins.clear()
    assert not await cache.is_admin(bot, -1, 7) and bot.asked == 3  # demoted: seen after the TTL
    assert not await AdminCache().is_admin(FakeMembers({7}, fail=True), -1, 7)


async def test_who_counts_as_a_groups_member_as_telegram_answers_it(monkeypatch):
    """Through PTB and the fake Bot API: in the group are its members, admins, owner and the
    restricted ones Telegram says are in it; not those who left, were banned, were restricted
    after leaving, or are unknown to it ("user not found")."""
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)  # back-off without the wait
    api = FakeBotApi()
    await api.start()
    try:
        group = api.group(-9)
        statuses = ("member", "creator", "restricted", "left", "kicked", "restricted_out")
        for n, status in enumerate(statuses, 1):
            api.join(group, api.user(n, status), status)
        api.make_admin(group, api.user(9, "admin"))
        async with Bot(api.token, base_url=api.url) as bot:
            found = {s: await telegram_runtime.is_member(bot, -9, n) for n, s in enumerate(statuses, 1)}
            assert found == {s: s in ("member", "creator", "restricted") for s in statuses}
            assert await telegram_runtime.is_member(bot, -9, 9), "an admin"
            assert not await telegram_runtime.is_member(bot, -9, 77), "never in it: user not found"
            api.fail("getChatMember", "500", times=telegram_runtime.RETRY_ATTEMPTS)
            with pytest.raises(MembershipUnknown):
                await telegram_runtime.is_member(bot, -9, 1)
    finally:
        await api.stop()


def test_sends_go_through_the_rate_limiter_with_telegrams_group_limit(tmp_path, monkeypatch):
    clean_environment(monkeypatch)
    limiter = telegram_adapter(settings_for(FakeBotApi(), tmp_path)).app.bot.rate_limiter
    assert isinstance(limiter, SlidingWindowLimiter)  # its limits: tests/adapters/telegram/test_send_limits.py


# webhook settings -----------------------------------------------------------------------


def test_webhook_settings(tmp_path, monkeypatch):
    clean_environment(monkeypatch)
    fake = FakeBotApi()
    assert telegram_webhook(settings_for(fake, tmp_path)) is None
    hook = telegram_webhook(
        settings_for(
            fake, tmp_path, telegram_webhook_url="https://bot.example.org/tg/a1", telegram_webhook_listen="[::]:8443"
        )
    )
    assert (hook.host, hook.port, hook.path) == ("::", 8443, "tg/a1")
    assert re.fullmatch(r"[A-Za-z0-9_-]{32,256}", hook.secret), "a secret is made up when none is set"
    again = telegram_webhook(settings_for(fake, tmp_path, telegram_webhook_url="https://bot.example.org/x"))
    assert again.secret != hook.secret


# an edit that changes nothing -----------------------------------------------------------


@contextlib.asynccontextmanager
async def serving_adapter(tmp_path, monkeypatch, fake: FakeBotApi) -> AsyncIterator[TelegramAdapter]:
    """The Telegram adapter serving against `fake` (started here), the engine behind it."""
    clean_environment(monkeypatch)
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)
    await fake.start()
    settings = settings_for(fake, tmp_path)
    adapter = telegram_adapter(settings)
    async with open_store_and_house(settings) as (store, house):
        serving = asyncio.create_task(adapter.serve(house.commands, store))
        try:
            yield adapter
        finally:
            serving.cancel()
            await asyncio.gather(serving, return_exceptions=True)
            await fake.stop()


async def test_closing_a_question_twice_is_not_an_error(tmp_path, monkeypatch):
    """After a restart the same close may be shown again: "message is not modified" is success."""
    fake = FakeBotApi()
    fake.group(-1007)
    async with serving_adapter(tmp_path, monkeypatch, fake) as adapter:
        question = card(chat_id="-1007")
        message = await adapter.post_question(question)
        await adapter.close_question(message, reveal(question))
        await adapter.close_question(message, reveal(question))
    sent = fake.questions({"id": -1007})[0]
    assert sent.edits == 1 and sent.keyboard == [] and "✅ A) one" in sent.text and "A 1 ▓▓▓▓▓▓▓▓▓▓" in sent.text
    assert [c.error[:36] for c in fake.refused()] == ["Bad Request: message is not modified"]
    # the reveal is the edit itself: the chat has one message, revealed once
    assert [m.message_id for m in fake.sent_to({"id": -1007})] == [sent.message_id]
    assert "Because A & not B." in sent.text


async def test_a_failed_close_raises_for_the_outbox_and_a_deleted_question_gets_the_reveal_posted(
    tmp_path, monkeypatch
):
    fake = FakeBotApi()
    fake.group(-1008)
    async with serving_adapter(tmp_path, monkeypatch, fake) as adapter:
        first, second = card(chat_id="-1008"), card("Another?", chat_id="-1008")
        message = await adapter.post_question(first)
        fake.fail("editMessageText", "500", times=3)  # more than the adapter's own retries
        with pytest.raises(NetworkError):  # not swallowed: the outbox tries again later
            await adapter.close_question(message, reveal(first))
        await adapter.close_question(message, reveal(first))
        gone = await adapter.post_question(second)
        del fake.messages[(-1008, int(gone.message_id))]  # an admin deleted it
        await adapter.close_question(gone, reveal(second))
    closed, posted = fake.sent_to({"id": -1008})
    assert closed.edits == 1 and "Right answer: A) one" in closed.text
    assert posted.keyboard == [] and "Another?" in posted.text and "Right answer: A) one" in posted.text
