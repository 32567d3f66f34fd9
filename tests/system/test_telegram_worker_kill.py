"""Three Telegram webhook workers (`quizhost run` processes, real PTB) on one PostgreSQL behind
the fake Bot API's load balancer, which hands updates round-robin and repeats some of them to
another worker. Twenty groups play at once; one worker is killed with SIGKILL while its groups'
second question is open, and the other two take its runs over.

Every quiz finishes; every press the bot acknowledged ("Locked in") is stored once, with the
option pressed; an answer stored without an acknowledgement is one the killed worker took; no
question is posted twice, except at most once in a run that was taken over; and every group's
leaderboard and podium equal the points computed here from the accepted presses with the
scoring rule, question by question, streaks and all.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import time
from collections import Counter
from dataclasses import dataclass

import asyncpg
import pytest

from bot.content.catalog import Catalog
from bot.domain import scoring
from bot.domain.model import Quiz
from bot.domain.session import option_order
from bot.testing.fake_telegram_balancer import LoadBalancer
from storage.postgres.store import PostgresStore
from tests.support.telegram_harness import fake, quiz_folder  # noqa: F401
from tests.support.telegram_workers_harness import (
    SECRET,
    Players,
    PressMade,
    Worker,
    asked,
    live_question,
    over,
    question_posts,
    start_worker,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
GROUPS = 20
MEMBERS = 4
WORKERS = 3
SECONDS = 10  # per question: the kill must fall inside the second one of the victim's groups
REPEATED = 0.15  # share of updates the load balancer delivers twice
Key = tuple[int, int, str]  # run id, question index, player key


@dataclass(frozen=True)
class Stored:
    option: int
    correct: bool
    elapsed: float


@pytest.mark.parametrize("named", [True, False], ids=["QUIZHOST_WORKER", "default-names"])
async def test_sigkill_one_of_three_webhook_workers_mid_question(
    fake, tmp_path, postgres_url, unused_tcp_port_factory, named
):
    groups = [fake.group(-1_001_000_000 - n, f"Group {n}") for n in range(GROUPS)]
    members = {
        g["id"]: [fake.user(10_000 + 10 * n + j, f"P{n}", str(j)) for j in range(MEMBERS)] for n, g in enumerate(groups)
    }
    workers = [
        start_worker(fake, tmp_path, postgres_url, f"w{n}", unused_tcp_port_factory(), SECONDS, named)
        for n in range(WORKERS)
    ]
    fake.balancer = LoadBalancer([w.url for w in workers], SECRET, repeat=REPEATED, seed=5)
    players = Players(fake, seed=7)
    games: list[asyncio.Task] = []
    try:
        await fake.wait_for(lambda: len(fake.called("setWebhook")) == WORKERS, timeout=60, what="three workers")
        await asyncio.gather(*(fake.send_text(g, members[g["id"]][0], "/quiz tiny") for g in groups))
        owners = await wait_for_runs(postgres_url)
        victim = Counter(owners.values()).most_common(1)[0][0]
        doomed = [g for g in groups if owners[f"telegram:{g['id']}"] == victim]
        hold = asyncio.Event()
        games += [
            asyncio.create_task(players.play(g, members[g["id"]], 3, hold if g in doomed else None)) for g in groups
        ]
        # question 2 asked in every group of the worker to kill, open and pressed in one at least
        # (on a busy machine a group may have reached its deadline while the last one caught up)
        await fake.wait_for(
            lambda: (
                all(asked(fake, g, 2) for g in doomed) and any(second_question_acked(fake, players, g) for g in doomed)
            ),
            timeout=90,
            what="question 2 open and pressed in the groups of the worker to kill",
        )
        hold.set()  # the others press: the kill comes while the worker holds some of their presses
        killed = next(w for w in workers if worker_name(w, named) == victim)
        in_flight = await busy(fake.balancer, workers.index(killed))
        mid_question = [g for g in doomed if live_question(fake, g, 2)]
        killed.process.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        assert killed.process.wait(timeout=10) == -signal.SIGKILL
        await asyncio.wait_for(asyncio.gather(*games), 180)
        try:
            await fake.wait_for(lambda: all(over(fake, g) for g in groups), timeout=60, what="every podium")
        except AssertionError:
            await show_stuck(fake, postgres_url, [g for g in groups if not over(fake, g)], killed_at)
            for w in workers:
                print("WORKER", w.name, w.process.poll(), w.log.read_text()[-3000:])
            raise
    finally:
        for game in games:
            game.cancel()
        await asyncio.gather(*games, return_exceptions=True)
        exits = {w.name: w.stop() for w in workers}
        await fake.balancer.close()
    assert mid_question, "the kill came after question 2 had closed everywhere"
    assert all(code == 0 for name, code in exits.items() if name != killed.name), {
        w.name: w.log.read_text()[-2000:] for w in workers
    }

    stored, runs = await read_database(postgres_url)
    assert sorted(status for status, *_ in runs.values()) == ["finished"] * GROUPS
    acked = acknowledged(fake, players)
    assert len(acked) == len(set(acked)), "a player's answer to one question was acknowledged twice"
    lost = [key for key in acked if key not in stored]
    assert not lost, f"acknowledged presses not stored: {lost}"
    quiz = Catalog.load([quiz_folder(tmp_path)]).get("tiny")
    assert quiz is not None
    for key, choice in acked.items():  # the option the player pressed, not another
        assert stored[key].option == pressed_option(quiz, runs[key[0]], key[1], choice), key
    unacknowledged = set(stored) - set(acked)
    for key in unacknowledged:  # stored, never locked in: only a press the killed worker held
        assert held_by(fake, players, key, workers.index(killed)), (key, presses_of(fake, players, key))

    doomed_runs = {run_id for run_id, (*_, chat) in runs.items() if chat in {g["id"] for g in doomed}}
    repeats = {}
    for group in groups:
        posted = Counter((t.run_id, t.number) for t in question_posts(fake, group))
        extra = sum(n - 1 for n in posted.values())
        run_id = next(iter(posted))[0]
        assert extra <= (1 if run_id in doomed_runs else 0), (group["title"], posted)
        repeats[group["title"]] = extra
        # the reveal is the question's closing edit: one revealed copy per question
        answers = Counter(m.text.splitlines()[0] for m in fake.questions(group) if "Right answer" in m.text)
        assert sorted(answers.values()) == [1, 1, 1], ("every question revealed once", group["title"], answers)
        assert sum("Quiz over" in m.text for m in fake.sent_to(group)) == 1, group["title"]

    expected = expected_points(stored, acked, runs, quiz)
    podiums = {g["id"]: next(m for m in fake.sent_to(g) if "Quiz over" in m.text) for g in groups}
    store = await PostgresStore.open(postgres_url, owner="checker")
    try:
        for run_id, (_, _, _, chat_id) in runs.items():
            board = await store.leaderboard(f"telegram:{chat_id}")
            assert {s.player_key: (s.points, s.answered) for s in board} == expected[run_id], chat_id
            for standing in board:  # what the group saw at the end says the same
                assert f"{standing.name}: {standing.points} pts" in podiums[chat_id].text
    finally:
        await store.close()

    takeover = first_post_after(fake, doomed, killed_at) - killed_at
    deliveries = fake.balancer.deliveries
    unanswered = sum(not fake.presses[p.query_id].answered for p in players.made)
    print(
        f"\nkill test ({'QUIZHOST_WORKER' if named else 'default'} names): {len(players.made)} presses "
        f"({unanswered} never answered), {len(acked)} acknowledged, "
        f"{len(unacknowledged)} stored unacknowledged; {sum(d.repeat for d in deliveries)} repeated deliveries, "
        f"{sum(d.status != 200 for d in deliveries)} failed ones; takeover of {len(doomed)} runs in "
        f"{takeover:.1f} s ({len(mid_question)} of them mid-question), {in_flight} update(s) in the killed "
        f"worker's hands; repeated question posts: {sum(repeats.values())}"
    )


def worker_name(worker: Worker, named: bool) -> str:
    """The worker's name in the runs table: its QUIZHOST_WORKER, or the default host:pid."""
    return worker.name if named else f"{socket.gethostname()}:{worker.process.pid}"


async def show_stuck(fake, db: str, groups: list[dict], killed_at: float) -> None:  # debugging aid
    conn = await asyncpg.connect(db)
    for g in groups:
        print(
            "STUCK",
            g["title"],
            [
                tuple(r)
                for r in await conn.fetch(
                    "SELECT id, status, phase, idx, due, message_id, owner, lease_until, now() "
                    "FROM runs WHERE chat_key = $1",
                    f"telegram:{g['id']}",
                )
            ],
            [
                tuple(r)
                for r in await conn.fetch(
                    "SELECT key, kind, tries, failed FROM outbox o JOIN runs r ON r.id = o.run_id "
                    "WHERE r.chat_key = $1",
                    f"telegram:{g['id']}",
                )
            ],
        )
        print(
            "  posts",
            [
                (round(c.at - killed_at, 2), c.method, c.params.get("text", "")[:40])
                for c in fake.calls
                if c.params.get("chat_id") == g["id"]
            ],
        )
    await conn.close()


async def busy(balancer: LoadBalancer, worker: int) -> int:
    """Wait until `worker` has updates in flight (sent to it, not answered yet); how many."""
    for _ in range(10_000):
        if balancer.in_flight[worker]:
            return balancer.in_flight[worker]
        await asyncio.sleep(0.001)
    raise AssertionError("no update in flight at the worker to kill")


async def wait_for_runs(db: str) -> dict[str, str]:
    """chat key -> the worker that runs its quiz, once every group's /quiz made a run."""
    conn = await asyncpg.connect(db)
    try:
        for _ in range(300):
            rows = await conn.fetch("SELECT chat_key, owner FROM runs")
            if len(rows) == GROUPS:
                return {r["chat_key"]: r["owner"] for r in rows}
            await asyncio.sleep(0.1)
    finally:
        await conn.close()
    raise AssertionError(f"{len(rows)} runs of {GROUPS}")


def second_question_acked(fake, players: Players, group: dict) -> bool:
    return live_question(fake, group, 2) is not None and any(
        p.chat_id == group["id"] and p.token.number == 2 and locked(fake, p) for p in players.made
    )


def locked(fake, press: PressMade) -> bool:
    return (fake.presses[press.query_id].text or "").startswith("Locked in")


def acknowledged(fake, players: Players) -> dict[Key, int]:
    """Every press the bot said was locked in: (run, question index, player) -> the option position pressed."""
    acked: dict[Key, int] = {}
    for press in (p for p in players.made if locked(fake, p)):
        key = (press.token.run_id, press.token.number - 1, f"telegram:{press.user_id}")
        assert key not in acked, f"acknowledged twice: {key}"
        acked[key] = press.token.choice
    return acked


def held_by(fake, players: Players, key: Key, worker: int) -> bool:
    """Some press of that player on that question went to `worker`, which never answered it (it
    died holding it), and no worker said it was locked in. The load balancer offers it again; once
    the dead worker's claim has lapsed (30 s: a slow machine gets there before the test ends),
    another worker answers it as a repeat of the answer the dead one stored."""
    return any(
        not locked(fake, p) and any(d.worker == worker and d.status == 0 for d in fake.balancer.delivered(p.update_id))
        for p in presses_of_key(players, key)
    )


def presses_of_key(players: Players, key: Key) -> list[PressMade]:
    run_id, index, player = key
    return [
        p
        for p in players.made
        if p.token.run_id == run_id and p.token.number == index + 1 and f"telegram:{p.user_id}" == player
    ]


def presses_of(fake, players: Players, key: Key) -> list[tuple]:
    """What became of each press of that player on that question: for a failure's message."""
    return [
        (p.query_id, fake.presses[p.query_id].text, fake.balancer.delivered(p.update_id))
        for p in presses_of_key(players, key)
    ]


async def read_database(db: str) -> tuple[dict[Key, Stored], dict[int, tuple]]:
    conn = await asyncpg.connect(db)
    try:
        answers = await conn.fetch("SELECT run_id, idx, player_key, option, correct, elapsed FROM answers")
        rows = await conn.fetch(
            "SELECT r.id, r.status, r.seed, r.question_ids, r.seconds, c.chat_id "
            "FROM runs r JOIN chats c ON c.key = r.chat_key"
        )
    finally:
        await conn.close()
    stored = {
        (a["run_id"], a["idx"], a["player_key"]): Stored(a["option"], bool(a["correct"]), a["elapsed"]) for a in answers
    }
    runs = {r["id"]: (r["status"], r["seed"], tuple(r["question_ids"]), int(r["chat_id"])) for r in rows}
    seconds = {r["seconds"] for r in rows}
    assert seconds == {SECONDS}
    return stored, runs


def pressed_option(quiz: Quiz, run: tuple, index: int, choice: int) -> int:
    """The quiz file's option behind the button at `choice` of question `index` of the run."""
    _, seed, question_ids, _ = run
    question = next(q for q in quiz.questions if q.id == question_ids[index])
    return option_order(seed, question)[choice]


def expected_points(
    stored: dict[Key, Stored], acked: dict[Key, int], runs: dict[int, tuple], quiz: Quiz
) -> dict[int, dict[str, tuple[int, int]]]:
    """Each run's points per player, from the accepted presses alone: the option pressed (the
    acknowledged one, or the stored one the killed worker took), right by the quiz file, the
    time the worker stored, and the streak counted here question by question; and how many
    answers each player has (each accepted press counted once)."""
    right = {q.id: q.answer for q in quiz.questions}
    points: dict[int, dict[str, tuple[int, int]]] = {}
    for run_id, run in runs.items():
        question_ids = run[2]
        players = {player for (r, _, player) in stored if r == run_id}
        totals, streaks = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
        for index, question_id in enumerate(question_ids):
            for player in players:
                key = (run_id, index, player)
                if key not in stored:
                    streaks[player] = 0
                    continue
                option = pressed_option(quiz, run, index, acked[key]) if key in acked else stored[key].option
                correct = option == right[question_id]
                streaks[player] = streaks[player] + 1 if correct else 0
                totals[player] += scoring.points_for(correct, stored[key].elapsed, SECONDS, streaks[player])
        points[run_id] = {p: (totals[p], sum(k[0] == run_id and k[2] == p for k in stored)) for p in players}
    return points


def first_post_after(fake, groups: list[dict], moment: float) -> float:
    """When the bot first wrote to one of `groups` after `moment` (the fake's clock is monotonic)."""
    ids = {g["id"] for g in groups}
    return min(
        c.at
        for c in fake.calls
        if c.at > moment
        and c.status == 200
        and c.method in ("sendMessage", "editMessageText")
        and c.params.get("chat_id") in ids
    )
