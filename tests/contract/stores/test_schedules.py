"""A paused schedule comes back: resumed once, at the time given, and only if it was paused."""

from __future__ import annotations

from bot.domain.model import ChatRef
from bot.domain.schedule import Cadence, Rule, ScheduleRow, ScheduleStatus


async def test_a_paused_schedule_resumes_once_at_its_new_time(store):
    chat = ChatRef("tg", "-100", title="Group")
    await store.ensure_chat(chat)
    sid = await store.add_schedule(
        ScheduleRow(chat, "pipeline", Rule(Cadence.DAILY, 9, 0), next_due=1000.0, seed=5, created_by="tg:1")
    )
    assert not await store.resume_schedule(sid, 5000.0)  # active: nothing to resume, the time stays
    assert await store.pause_chat_schedules(chat.key) == 1
    assert await store.due_schedules(10**9) == []
    assert [await store.resume_schedule(sid, 87400.0) for _ in range(2)] == [True, False]
    (row,) = await store.chat_schedules(chat.key)
    assert (row.status, row.next_due) == (ScheduleStatus.ACTIVE, 87400.0)
    assert [s.id for s in await store.due_schedules(87400.0)] == [sid]
