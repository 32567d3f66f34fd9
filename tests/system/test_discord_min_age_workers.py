"""/settings min_age with two `quizhost run` workers taking Discord's interactions over HTTP on
one PostgreSQL: the worker running the quiz and the other one both refuse a young account's
press (the other reads the age with the run's row, bot/engine/remote_press.py) and both take an
old enough account's."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import button_id, fake, is_question, right_letter  # noqa: F401
from tests.support.discord_workers import start_worker, stop, worker_env

pytestmark = pytest.mark.postgres
DAY = 86400
REFUSED = "Your account must be at least 7 days old to score here."


async def pressed(fake, user, message_id: int, custom_id: str) -> tuple[dict, int]:
    """What the presser was shown, and which worker showed it."""
    interaction = fake.push_press(user, message_id, custom_id)
    shown = await asyncio.wait_for(asyncio.shield(interaction.shown), 10)
    return shown, next(d.worker for d in fake.deliveries if d.interaction_id == interaction.id)


async def test_both_workers_refuse_a_two_day_old_account_where_the_server_asks_seven_days(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    guild = fake.add_guild("Server")
    channel = fake.guilds[guild]["channels"][0]
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=time.time() - 900 * DAY)
    young = fake.add_user("Young", made_at=time.time() - 2 * DAY)
    old = fake.add_user("Old", made_at=time.time() - 10 * DAY)
    env = worker_env(fake, tmp_path, postgres_url)
    ports = [unused_tcp_port_factory() for _ in range(2)]
    fake.use_endpoints(*(f"http://127.0.0.1:{port}/interactions" for port in ports))
    workers = [
        start_worker(
            fake,
            env,
            f"http-{n}",
            DISCORD_INTERACTIONS_LISTEN=f"127.0.0.1:{port}/interactions",
            DISCORD_PUBLIC_KEY=fake.public_key,
        )
        for n, port in enumerate(ports)
    ]
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
