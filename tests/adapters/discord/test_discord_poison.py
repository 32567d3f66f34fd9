"""Discord: odd interactions harm only themselves, and a press counts only in its run's channel.

The real `quizhost run` wiring and discord.py against the fake Discord. Poisoned presses are
real presses with odd names (not strings, lone surrogates, huge), odd locales and button ids
copied from another channel or made up; after each batch, a member of another channel presses
and must be answered. Every press, poisoned or not, is answered within Discord's 3 s."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.testing.clock import FakeClock
from bot.testing.fake_discord_payloads import FakeUser
from tests.support.discord_harness import button_id, fake, is_question, make_settings, running_bot, server  # noqa: F401

ODD = st.one_of(
    st.none(), st.integers(), st.sampled_from(["\ud800", "a\udfffb", "x" * 100_000, "", "‮evil"]), st.text(max_size=20)
)


@dataclass
class OddUser(FakeUser):
    """A user whose names and locale are whatever a test says."""

    fields: dict[str, Any] | None = None

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), **(self.fields or {})}


async def test_odd_presses_never_stop_another_channels_presses(fake, server, tmp_path):
    guild, quiz_channel = server
    other_channel = fake.guilds[guild]["channels"][1]
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with running_bot(fake, make_settings(tmp_path, fake), FakeClock()):
        await fake.slash(ann, quiz_channel, "quiz", topic="tiny")
        await fake.slash(bob, other_channel, "quiz", topic="tiny")
        target = await fake.wait_message(quiz_channel, is_question(1))
        good = await fake.wait_message(other_channel, is_question(1))
        copied = button_id(target, "A")
        loop, ids = asyncio.get_running_loop(), itertools.count(10_000)

        async def one_round(names: dict[str, Any], custom_id: str, locale: str) -> None:
            honest = OddUser(next(ids), "Odd", locale, fields=names)  # an oddly named member presses C
            assert (await fake.press(honest, good.id, button_id(good, "C")))["content"] == "Locked in: C"
            stats = await fake.slash(honest, other_channel, "stats")  # stores the name through another path
            assert "went wrong" not in str(stats) and stats.get("embeds"), stats
            forger = OddUser(next(ids), "Odd", locale, fields=names)
            await fake.press(forger, good.id, custom_id, forge=True)  # a made-up or copied button
            player = fake.add_user(f"Player{next(ids)}")
            shown = await fake.press(player, good.id, button_id(good, "B"))
            assert shown["content"] == "Locked in: B"

        @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
        @given(
            st.fixed_dictionaries({}, optional={"global_name": ODD, "username": ODD}),
            st.sampled_from([copied, "quizhost:qa:1:1:9", "quizhost:qp:nope", "quizhost:ql:xx", "junk"]),
            st.sampled_from(["en-US", "hi", "zz-ZZ", ""]),
        )
        def check(names: dict[str, Any], custom_id: str, locale: str) -> None:
            asyncio.run_coroutine_threadsafe(one_round(names, custom_id, locale), loop).result(timeout=30)

        await asyncio.to_thread(check)
        own = await fake.press(ann, target.id, copied)
        assert own["content"] == "Locked in: A"
    with contextlib.closing(sqlite3.connect(tmp_path / "quizhost.db")) as db:
        stored = db.execute(
            "SELECT a.player_key FROM answers a JOIN runs r ON r.id = a.run_id WHERE r.chat_key = ?",
            (f"discord:{quiz_channel}",),
        ).fetchall()
        names = [n for (n,) in db.execute("SELECT name FROM players")]
    assert stored == [(f"discord:{ann.id}",)]  # the copied button counted nowhere
    for name in names:
        name.encode("utf-8")  # every stored name is text UTF-8 can carry (no lone surrogate)
    assert fake.violations == []
