"""Webhook workers (`quizhost run` processes) on one machine and one PostgreSQL cannot collide:
with no QUIZHOST_WORKER each has its own name and keeps its own quizzes; a second live worker
under an explicit name refuses to start, and one restarted under it after the first died takes
its quizzes back; and a press held by a worker killed before answering is answered by another
when Telegram delivers it again."""

from __future__ import annotations

import asyncio
import signal
import socket
from collections import Counter

import asyncpg
import pytest

from bot.app.wiring import NAME_TAKEN
from bot.testing.fake_telegram_balancer import LoadBalancer
from tests.support.telegram_harness import fake  # noqa: F401
from tests.support.telegram_workers_harness import (
    SECRET,
    Players,
    Worker,
    answer_text,
    live_question,
    over,
    question_posts,
    start_worker,
)

pytestmark = pytest.mark.postgres
SECONDS = 5  # per question


async def runs_of(db: str, count: int) -> dict[str, tuple[str, bool]]:
    """chat key -> (the run's owner, whether its lease is held) once `count` runs exist."""
    conn = await asyncpg.connect(db)
    try:
        for _ in range(300):
            rows = await conn.fetch("SELECT chat_key, owner, lease_until IS NOT NULL AS held FROM runs")
            if len(rows) >= count:
                return {r["chat_key"]: (r["owner"], r["held"]) for r in rows}
            await asyncio.sleep(0.1)
    finally:
        await conn.close()
    raise AssertionError(f"{len(rows)} runs of {count}")


def folder(path):
    path.mkdir(exist_ok=True)
    return path


async def started(fake, workers: list[Worker]) -> None:
    await fake.wait_for(
        lambda: len(fake.called("setWebhook")) >= len(workers), timeout=60, what=f"{len(workers)} workers"
    )


def stop_all(workers: list[Worker]) -> dict[str, int]:
    return {w.name: w.stop() for w in workers}


async def test_workers_named_by_default_on_one_machine_keep_their_own_quizzes(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    groups = [fake.group(-100_700 - n, f"Default {n}") for n in range(6)]
    members = {
        g["id"]: [fake.user(7_000 + 10 * n + j, f"P{n}", str(j)) for j in range(2)] for n, g in enumerate(groups)
    }
    workers = [
        start_worker(fake, tmp_path, postgres_url, f"d{n}", unused_tcp_port_factory(), SECONDS, named=False)
        for n in range(2)
    ]
    fake.balancer = LoadBalancer([w.url for w in workers], SECRET, seed=11)
    players = Players(fake, seed=3)
    try:
        await started(fake, workers)
        await asyncio.gather(*(fake.send_text(g, members[g["id"]][0], "/quiz tiny") for g in groups))
        owners = await runs_of(postgres_url, len(groups))
        names = {f"{socket.gethostname()}:{w.process.pid}" for w in workers}
        assert {owner for owner, _ in owners.values()} == names, "each worker runs quizzes under its own name"
        await asyncio.wait_for(asyncio.gather(*(players.play(g, members[g["id"]], 3, None) for g in groups)), 120)
        await fake.wait_for(lambda: all(over(fake, g) for g in groups), timeout=60, what="every podium")
        assert {key: owner for key, (owner, _) in (await runs_of(postgres_url, len(groups))).items()} == {
            key: owner for key, (owner, _) in owners.items()
        }, "a worker took another's quiz over"
    finally:
        exits = stop_all(workers)
        await fake.balancer.close()
    assert set(exits.values()) == {0}
    for group in groups:  # each question, answer and podium posted once: nobody ran a quiz twice
        assert set(Counter(question_posts(fake, group)).values()) == {1}, group["title"]
        # the reveal is the question's closing edit: one revealed copy per question
        answers = Counter(m.text.splitlines()[0] for m in fake.questions(group) if "Right answer" in m.text)
        assert sorted(answers.values()) == [1, 1, 1], (group["title"], answers)
        assert sum("Quiz over" in m.text for m in fake.sent_to(group)) == 1, group["title"]


async def test_a_second_live_worker_with_the_same_name_refuses_and_a_restarted_one_resumes(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    group, ann = fake.group(-100_800, "Twins"), fake.user(8_001, "Ann")
    first = start_worker(fake, tmp_path, postgres_url, "twin", unused_tcp_port_factory(), 15)
    fake.balancer = LoadBalancer([first.url], SECRET)
    workers = [first]
    try:
        await started(fake, workers)
        await fake.send_text(group, ann, "/quiz tiny")
        await fake.wait_for(lambda: fake.questions(group), what="the first question")

        second = start_worker(fake, folder(tmp_path / "second"), postgres_url, "twin", unused_tcp_port_factory(), 15)
        workers.append(second)
        assert await asyncio.to_thread(second.process.wait, 60) == 2
        assert second.log.read_text().strip() == NAME_TAKEN.format(name="twin")
        ((owner, held),) = (await runs_of(postgres_url, 1)).values()
        assert (owner, held) == ("twin", True), "the refused worker let the live one's quiz go"

        first.process.send_signal(signal.SIGKILL)  # the machine's worker dies; it is started again
        assert first.process.wait(timeout=10) == -signal.SIGKILL
        again = start_worker(fake, folder(tmp_path / "again"), postgres_url, "twin", unused_tcp_port_factory(), 15)
        workers.append(again)
        fake.balancer.workers[:] = [again.url]
        await started(fake, [first, again])
        question = live_question(fake, group, 1)
        assert question is not None, "the first question closed before the worker was back"
        query_id = await fake.press(group, ann, question.message_id, question.buttons()[0]["callback_data"])
        assert (answer_text(await fake.answer_of(query_id)) or "").startswith("Locked in")
        # the quiz goes on there: the only live worker closes the question and asks the next
        await fake.wait_for(lambda: live_question(fake, group, 2), timeout=40, what="question 2 from the new worker")
    finally:
        exits = stop_all(workers)
        await fake.balancer.close()
    assert exits["twin"] == 0


async def test_a_press_held_by_a_worker_killed_before_answering_is_answered_by_another(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    group, ann = fake.group(-100_900, "Killed mid-press"), fake.user(9_001, "Ann")
    runner, doomed = (
        start_worker(fake, folder(tmp_path / name), postgres_url, name, unused_tcp_port_factory(), 60)
        for name in ("runner", "doomed")
    )
    fake.balancer = LoadBalancer([runner.url], SECRET)  # the quiz runs on `runner`
    workers = [runner, doomed]
    conn = await asyncpg.connect(postgres_url)
    try:
        await started(fake, workers)
        await fake.send_text(group, ann, "/quiz tiny")
        question = await fake.wait_for(lambda: live_question(fake, group, 1), what="the first question")
        async with conn.transaction():  # answers cannot be stored: a worker holds a press it claimed
            await conn.execute("LOCK TABLE answers IN EXCLUSIVE MODE")
            fake.balancer.workers[:] = [doomed.url]
            data = question.buttons()[0]["callback_data"]
            pressing = asyncio.create_task(fake.press(group, ann, question.message_id, data))
            update_id = await fake.wait_for(lambda: fake.presses and max(p.update_id for p in fake.presses.values()))
            await claimed(conn, update_id)
            fake.balancer.workers[:] = [runner.url]  # Telegram's next try reaches the other worker
            doomed.process.send_signal(signal.SIGKILL)
            assert doomed.process.wait(timeout=10) == -signal.SIGKILL
        await asyncio.wait_for(pressing, 30)
        (press,) = fake.presses.values()
        assert (answer_text(press) or "").startswith("Locked in"), "the press whose worker died was never answered"
        deliveries = fake.balancer.delivered(update_id)
        assert [d.status for d in deliveries] == [0, 200]
        stored = await conn.fetchval("SELECT count(*) FROM answers WHERE player_key = $1", f"telegram:{ann['id']}")
        assert stored == 1
    finally:
        await conn.close()
        exits = stop_all(workers)
        await fake.balancer.close()
    assert exits["runner"] == 0


async def claimed(conn: asyncpg.Connection, update_id: int) -> None:
    """Wait until a worker holds a claim of the update (and has not finished it)."""
    for _ in range(300):
        if await conn.fetchval("SELECT until IS NOT NULL FROM seen_updates WHERE update_id = $1", update_id):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"update {update_id} was never claimed")
