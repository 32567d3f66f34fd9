"""/settings min_age with two `quizhost run` workers taking Discord's interactions over HTTP on
one PostgreSQL: the worker running the quiz and the other one both refuse a young account's
press (the other reads the age with the run's row, bot/engine/remote_press.py) and both take an
old enough account's; a game started on the worker that did not take the setting keeps it."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import button_id, fake, is_question, right_letter  # noqa: F401
from tests.support.discord_workers import http_workers, stop

pytestmark = pytest.mark.postgres
DAY = 86400
REFUSED = "Your account must be at least 7 days old to score here."


async def pressed(fake, user, message_id: int, custom_id: str) -> tuple[dict, int]:
    """What the presser was shown, and which worker showed it."""
    interaction = fake.push_press(user, message_id, custom_id)
    shown = await asyncio.wait_for(asyncio.shield(interaction.shown), 10)
    return shown, next(d.worker for d in fake.deliveries if d.interaction_id == interaction.id)


def two_workers(fake, tmp_path, postgres_url, unused_tcp_port_factory) -> list:
    return http_workers(fake, tmp_path, postgres_url, [unused_tcp_port_factory() for _ in range(2)])


async def test_both_workers_refuse_a_two_day_old_account_where_the_server_asks_seven_days(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    guild = fake.add_guild("Server")
    channel = fake.guilds[guild]["channels"][0]
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=time.time() - 900 * DAY)
    young = fake.add_user("Young", made_at=time.time() - 2 * DAY)
    old = fake.add_user("Old", made_at=time.time() - 10 * DAY)
    workers = two_workers(fake, tmp_path, postgres_url, unused_tcp_port_factory)
    try:
        await fake.wait_for(lambda: len(fake.syncs) >= 2, timeout=60, what="the syncs")
        await fake.wait_endpoints(timeout=60)
        assert "age to score: 7 days" in str(await fake.slash(boss, channel, "settings", min_age="7d"))
        await fake.slash(boss, channel, "quiz", topic="tiny")
        q1 = await fake.wait_message(channel, is_question(1), timeout=30)
        right = button_id(q1, right_letter(q1))
        refused = [await pressed(fake, young, q1.id, right) for _ in range(2)]  # round robin: one each
        assert [shown["content"] for shown, _ in refused] == [REFUSED, REFUSED]
        taken, _ = await pressed(fake, old, q1.id, right)
        assert taken["content"].startswith("Locked in")
        await fake.slash(boss, channel, "stop")
    finally:
        errors = [await stop(w) for w in workers]
        print(*errors, sep="\n")  # pytest shows what the workers logged when the test fails
    assert {worker for _, worker in refused} == {0, 1}, "the quiz's owner and the other worker each refused"
    conn = await asyncpg.connect(postgres_url)
    try:
        answered = {r["player_key"] for r in await conn.fetch("SELECT player_key FROM answers")}
        ages = {r["min_age"] for r in await conn.fetch("SELECT min_age FROM runs")}
    finally:
        await conn.close()
    assert answered == {f"discord:{old.id}"} and ages == {7 * DAY}
    assert all(w.returncode == 0 for w in workers), errors
    assert fake.violations == []


async def test_a_game_started_on_the_other_worker_keeps_a_minimum_age_set_after_it_read_the_settings(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    """Both workers have read the channel's settings (/settings shown on each, in turn); the age
    is then set on one and the game started on the other, which must not start it from what it
    had read before."""
    guild = fake.add_guild("Server")
    channel = fake.guilds[guild]["channels"][0]
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=time.time() - 900 * DAY)
    young = fake.add_user("Young", made_at=time.time() - 2 * DAY)
    workers = two_workers(fake, tmp_path, postgres_url, unused_tcp_port_factory)
    try:
        await fake.wait_for(lambda: len(fake.syncs) >= 2, timeout=60, what="the syncs")
        await fake.wait_endpoints(timeout=60)
        for _ in range(2):  # round robin: each worker reads the settings, no minimum age yet
            assert "age to score: none" in str(await fake.slash(boss, channel, "settings"))
        assert "age to score: 7 days" in str(await fake.slash(boss, channel, "settings", min_age="7d"))
        await fake.slash(boss, channel, "quiz", topic="tiny")
        q1 = await fake.wait_message(channel, is_question(1), timeout=30)
        shown, _ = await pressed(fake, young, q1.id, button_id(q1, right_letter(q1)))
        assert shown["content"] == REFUSED
        await fake.slash(boss, channel, "stop")
    finally:
        errors = [await stop(w) for w in workers]
        print(*errors, sep="\n")
    started_on = [d.worker for d in fake.deliveries][:4]
    assert started_on == [0, 1, 0, 1], "the age was set on one worker, the game started on the other"
    conn = await asyncpg.connect(postgres_url)
    try:
        ages = [r["min_age"] for r in await conn.fetch("SELECT min_age FROM runs")]
        answered = await conn.fetchval("SELECT count(*) FROM answers")
    finally:
        await conn.close()
    assert ages == [7 * DAY] and answered == 0
    assert all(w.returncode == 0 for w in workers), errors


async def test_settings_shown_on_the_other_worker_say_the_minimum_age_just_set(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    guild = fake.add_guild("Server")
    channel = fake.guilds[guild]["channels"][0]
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=time.time() - 900 * DAY)
    workers = two_workers(fake, tmp_path, postgres_url, unused_tcp_port_factory)
    try:
        await fake.wait_for(lambda: len(fake.syncs) >= 2, timeout=60, what="the syncs")
        await fake.wait_endpoints(timeout=60)
        for _ in range(2):  # round robin: each worker reads the settings
            assert "age to score: none" in str(await fake.slash(boss, channel, "settings"))
        assert "age to score: 7 days" in str(await fake.slash(boss, channel, "settings", min_age="7d"))
        shown = str(await fake.slash(boss, channel, "settings"))
    finally:
        errors = [await stop(w) for w in workers]
        print(*errors, sep="\n")
    assert [d.worker for d in fake.deliveries] == [0, 1, 0, 1]
    assert "age to score: 7 days" in shown
    assert all(w.returncode == 0 for w in workers), errors
