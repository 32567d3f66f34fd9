"""The group commit's batching policy (storage/shared/group_commit.py): which run states ride
with which answers, seen through a writer whose commit only records what it was given."""

from __future__ import annotations

import asyncio

from bot.domain.records import AnswerRow
from storage.shared.group_commit import FIRST_BATCH, IDLE_RUNS, MAX_BATCH, MAX_RUNS, GroupCommit


class RecordingWriter(GroupCommit):
    """Commits nothing; notes (answers, run states) per batch and holds the first commit until
    `release` is set, so work piles up behind it as it does behind a slow disk."""

    def __init__(self) -> None:
        super().__init__()
        self.batch_sizes: list[tuple[int, int]] = []
        self.release = asyncio.Event()

    async def commit(self, rows, players, runs, outbox, replaced=None) -> list[bool]:
        self.batch_sizes.append((len(rows), len(runs)))
        await self.release.wait()
        return [True] * len(rows)


def state(run_id: int) -> tuple:
    return ("open", "pausing", 0, 0.0, 0.0, None, 0, None, run_id)  # `run_state`'s shape, id last


def press(n: int) -> AnswerRow:
    return AnswerRow(n, 0, "q1", f"test:u{n}", f"test:g{n}", "demo", 0, True, 3.0, 900, 1, 0.0)


async def test_closes_due_together_with_no_press_waiting_share_commits():
    writer = RecordingWriter()
    writer.release.set()
    await asyncio.gather(*(writer.submit_run(state(n)) for n in range(20)))
    assert [runs for _, runs in writer.batch_sizes] == [IDLE_RUNS, IDLE_RUNS, 20 - 2 * IDLE_RUNS]


async def test_a_waiting_press_never_waits_behind_more_than_one_close():
    writer = RecordingWriter()
    first = writer.submit_run(state(0))
    await asyncio.sleep(0)  # the writer takes it and holds its commit
    closes = [writer.submit_run(state(n)) for n in range(1, 11)]
    presses = [writer.submit(press(n)) for n in range(1, 4)]
    writer.release.set()
    await asyncio.gather(first, *closes, *presses)
    with_answers = [runs for answers, runs in writer.batch_sizes if answers]
    assert with_answers and all(runs <= MAX_RUNS for runs in with_answers)
    assert sum(runs for _, runs in writer.batch_sizes) == 11, "every close committed once"
    assert len(writer.batch_sizes) <= 2 + -(-10 // IDLE_RUNS), "the closes left over went together"


class SteppedWriter(GroupCommit):
    """Commits nothing; notes the batches as RecordingWriter does, and holds each commit until
    one `steps.release()` lets it through."""

    def __init__(self) -> None:
        super().__init__()
        self.batch_sizes: list[tuple[int, int]] = []
        self.steps = asyncio.Semaphore(0)

    async def commit(self, rows, players, runs, outbox, replaced=None) -> list[bool]:
        self.batch_sizes.append((len(rows), len(runs)))
        await self.steps.acquire()
        return [True] * len(rows)


async def test_a_burst_is_acknowledged_from_its_first_presses_not_once_all_are_stored():
    writer = SteppedWriter()
    presses = [writer.submit(press(n)) for n in range(1000)]
    await asyncio.sleep(0)  # the writer takes its first batch and holds its commit
    writer.steps.release()  # that one commit ends
    await asyncio.sleep(0.01)
    acknowledged = sum(p.done() for p in presses)
    assert acknowledged == FIRST_BATCH and all(p.done() for p in presses[:acknowledged])
    for _ in range(len(presses)):
        writer.steps.release()
    await asyncio.gather(*presses)
    assert sum(answers for answers, _ in writer.batch_sizes) == 1000


async def test_a_backlog_that_lasts_is_taken_in_batches_that_grow():
    writer = RecordingWriter()
    writer.release.set()
    await asyncio.gather(*(writer.submit(press(n)) for n in range(10_000)))
    sizes = [answers for answers, _ in writer.batch_sizes]
    assert sizes[0] == FIRST_BATCH and max(sizes) == MAX_BATCH
    assert len(sizes) <= 12, "ten thousand presses in a few commits, not hundreds"


async def test_after_the_writer_waited_the_next_burst_starts_small_again():
    writer = RecordingWriter()
    writer.release.set()
    await asyncio.gather(*(writer.submit(press(n)) for n in range(500)))
    await asyncio.sleep(0.01)  # nothing to write: the writer waits
    before = len(writer.batch_sizes)
    await asyncio.gather(*(writer.submit(press(n)) for n in range(500, 1000)))
    assert writer.batch_sizes[before][0] == FIRST_BATCH
