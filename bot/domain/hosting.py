"""A hosted run (/host): its host paces it. Pure transitions of the run's row, time passed in.

Nothing in a hosted run advances by itself: after a close it waits for its host (`UNTIL_HOST`,
a due time no clock reaches). Its questions have no time limit unless the quiz file gives one
its own `seconds` or the host gave one (`/host TOPIC 45s`); a limit is a maximum, and a question
still closes early once everyone playing has answered (`session.should_close_early`). Without a
limit, speed points count over a nominal window (`session.speed_window`) and no hint comes by
itself. A pause keeps the time
the open question had left (`RunRow.paused_left`), so a restart or another worker resumes it
with that time; a skip closes the question for nobody (its answers are dropped, no streak, no
review card, no board moves); a hint, shown by the host or at half time, halves the speed
points of the answers after it (`session.answer_row`).
"""

from __future__ import annotations

from enum import StrEnum

from bot.domain.records import UNTIL_HOST, Phase, RunRow, RunStatus
from bot.domain.session import Run, after_close, open_span, time_limit


class HostAction(StrEnum):
    """What a host asks of the run (a command, a panel button)."""

    NEXT = "next"  # close the open question, or post the next one
    PAUSE = "pause"
    RESUME = "resume"
    SKIP = "skip"  # close the open question without scoring it
    HINT = "hint"  # show the open question's hint
    END = "end"  # end the game, with its podium


class HostRefusal(StrEnum):
    """Why a host action changed nothing."""

    NO_RUN = "no_run"  # no run in the chat
    NOT_HOSTED = "not_hosted"  # the run plays on the bot's clock
    NOT_HOST = "not_host"  # the one asking is not its host
    NO_QUESTION = "no_question"  # pause, skip or hint with no question open
    POSTING = "posting"  # the question is on its way to the chat: a moment
    PAUSED = "paused"  # already paused
    NOT_PAUSED = "not_paused"  # resume without a pause
    NO_HINT = "no_hint"  # the open question has none
    HINT_SHOWN = "hint_shown"


def is_hosted(row: RunRow) -> bool:
    return bool(row.host_key)


def is_paused(row: RunRow) -> bool:
    return row.paused_left is not None


def may_host(row: RunRow, player_key: str) -> bool:
    """Only its host paces a hosted run."""
    return row.host_key == player_key


def check(run: Run, action: HostAction) -> HostRefusal | None:
    """Whether `action` applies to the run as it is now (END always does)."""
    row = run.row
    if not is_hosted(row):
        return HostRefusal.NOT_HOSTED
    if action is HostAction.END:
        return None
    if row.phase == Phase.POSTING:
        return HostRefusal.POSTING
    if action is HostAction.RESUME:
        return None if is_paused(row) else HostRefusal.NOT_PAUSED
    if action is HostAction.NEXT:
        return None
    if row.phase != Phase.ASKING:
        return HostRefusal.NO_QUESTION
    if action is HostAction.PAUSE:
        return HostRefusal.PAUSED if is_paused(row) else None
    if action is HostAction.HINT:
        if run.question.hint is None:
            return HostRefusal.NO_HINT
        return HostRefusal.HINT_SHOWN if row.hint_at else None
    return None  # SKIP


def pause(row: RunRow, now: float) -> None:
    """Keep what the open question had left; no deadline until the host resumes."""
    row.paused_left = max(0.0, row.due - now)
    row.due = UNTIL_HOST


def resume(run: Run, now: float) -> None:
    """The open question gets the time it had left. Its start moves by the pause, so that
    `due - asked_at` stays its span (`session.open_span`) and an answer's time counts none of
    the pause."""
    row = run.row
    left = row.paused_left or 0.0
    row.due, row.paused_left = now + left, None
    row.asked_at = row.due - open_span(run)


def time_left(run: Run) -> float | None:
    """What the paused question has left of its time limit; None when it has none."""
    return (run.row.paused_left or 0.0) if time_limit(run) else None


def next_now(row: RunRow, now: float) -> None:
    """NEXT: what is due (the open question's close, or the next question) is due now."""
    row.paused_left = None
    row.due = now


def skip(run: Run, now: float) -> None:
    """Close the open question for nobody: its answers (held here) are dropped, streaks and
    players stay as they were, and it is noted as skipped (scored for nobody)."""
    row = run.row
    run.answers.clear()
    run.names.clear()
    row.skipped = (*row.skipped, row.index)
    row.paused_left = None
    row.phase, row.due = Phase.PAUSING, after_close(row, now)


def hint_due(run: Run) -> float | None:
    """When the open question's hint is due by itself: at half its time, in any run whose
    question has a hint not shown yet (a paused question's clock is stopped: not then)."""
    row = run.row
    if row.phase != Phase.ASKING or row.hint_at or is_paused(row) or row.status != RunStatus.OPEN:
        return None
    if run.question.hint is None or not (limit := time_limit(run)):
        return None
    half_time = row.asked_at + limit / 2  # from its start: a question closed early shows no hint
    return half_time if half_time < row.due else None


def wake_at(run: Run) -> float:
    """The run's next moment: its half-time hint, else its due time."""
    hint = hint_due(run)
    return min(hint, run.row.due) if hint is not None else run.row.due


def show_hint(row: RunRow, now: float) -> None:
    row.hint_at = now


def scored_questions(row: RunRow, asked: int) -> list[int]:
    """The 0-based questions of the first `asked` that count: those not skipped."""
    return [i for i in range(asked) if i not in row.skipped]
