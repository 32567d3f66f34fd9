"""Rows the contract tests store: one chat's runs and answers with few arguments."""

from __future__ import annotations

from bot.domain.model import ChatRef
from bot.domain.records import AnswerRow, RunRow
from bot.ports.store import Store

CHAT = ChatRef("test", "g1", title="Group one")


def run_row(chat: ChatRef = CHAT, quiz_id: str = "demo", questions: int = 2) -> RunRow:
    return RunRow(
        chat_key=chat.key,
        chat_id=chat.chat_id,
        platform=chat.platform,
        is_private=chat.is_private,
        quiz_id=quiz_id,
        language="en",
        seed=7,
        question_ids=tuple(f"q{i + 1}" for i in range(questions)),
        seconds=30,
        pause=5,
        started_by="test:u1",
        started_at=0.0,
    )


def answer(
    run_id: int,
    player: str,
    at: float,
    points: int = 900,
    correct: bool = True,
    index: int = 0,
    quiz_id: str = "demo",
    chat: ChatRef = CHAT,
    option: int = 0,
    streak: int | None = None,
) -> AnswerRow:
    return AnswerRow(
        run_id,
        index,
        f"q{index + 1}",
        player,
        chat.key,
        quiz_id,
        option,
        correct,
        3.0,
        points if correct else 0,
        (1 if correct else 0) if streak is None else streak,
        at,
    )


async def stored_run(store: Store, chat: ChatRef = CHAT, questions: int = 2) -> RunRow:
    """A new open run of `chat`, stored (with its chat), its id filled in."""
    await store.ensure_chat(chat)
    row = run_row(chat, questions=questions)
    row.id = await store.create_run(row)
    return row
