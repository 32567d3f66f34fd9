"""Question statistics as people and scripts read them: a chat message, a table, stable JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.domain.model import LETTERS, Quiz, Reply, is_plain
from bot.domain.questionstats import FLAG_PLAYERS, Flag, FlagNote, QuestionStats
from bot.texts import bidi, i18n
from bot.texts.plain import decor
from bot.texts.render import t

PROMPT_CHARS = 48


def percent(share: float | None) -> str:
    return "-" if share is None else f"{round(100 * share)}%"


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"


def index(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"


def split(s: QuestionStats, right_mark: str = "✓") -> str:
    """'A 3 · B 9✓ · C 0 · D 1', options in authoring order, the right ones marked (a multi
    question's counts are the answers that picked each)."""
    return " · ".join(f"{LETTERS[i]} {n}{right_mark if i in s.rights else ''}" for i, n in enumerate(s.split))


def right_mark(lang: str) -> str:
    """How a split marks the right options: "✓", or in plain text the word: "B 9 (right)"."""
    return f" ({i18n.t(lang, 'right')})" if is_plain(lang) else "✓"


def reason(lang: str, s: QuestionStats, note: FlagNote) -> str:
    """One line that says why a question is flagged."""
    letter = LETTERS[note.option] if note.option is not None else ""
    if note.flag is Flag.TOO_EASY:
        return t(lang, "too easy: {share} answered right", share=percent(s.share_right))
    if note.flag is Flag.TOO_HARD:
        return t(lang, "too hard: only {share} answered right", share=percent(s.share_right))
    if note.flag is Flag.CHECK_KEY:
        return t(lang, "check the key: the best players chose {letter} more often than the key", letter=letter)
    return t(lang, "dead option {letter}: nobody chose it in {count} answers", letter=letter, count=s.attempts)


def few_players(lang: str, stats: Sequence[QuestionStats]) -> list[str]:
    """Why some answered questions carry no flag, said once: too few players answered them."""
    if not any(s.too_few_to_flag for s in stats):
        return []
    return [t(lang, "Questions answered by fewer than {n} players: no flags yet.", n=FLAG_PLAYERS)]


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= PROMPT_CHARS else line[: PROMPT_CHARS - 1] + "…"


def chat_report(lang: str, quiz: Quiz, stats: Sequence[QuestionStats]) -> Reply:
    """/quizstats: a block per question."""
    d = bidi.direction(lang)
    prompts = {q.id: q.prompt.get(lang) for q in quiz.questions}
    blocks = []
    for number, s in enumerate(stats, 1):
        head = d.line(f"{d.ltr(f'Q{number}')} {d.embed(_short(prompts.get(s.question_id, s.question_id)))}")
        figures = t(
            lang,
            "{count} answers · {share} right · median {median} · discrimination {index}",
            count=s.attempts,
            share=percent(s.share_right),
            median=seconds(s.median_seconds),
            index=index(s.discrimination),
        )
        lines = [head, figures, *([d.line(d.ltr(split(s, right_mark(lang))))] if s.split else [])]
        lines += [decor(lang, "⚠️ ") + reason(lang, s, note) for note in s.flags]
        blocks.append("\n".join(lines))
    if not any(s.attempts for s in stats):
        blocks = [t(lang, "Nobody here has answered this quiz yet.")]
    blocks += few_players(lang, stats)
    return Reply(
        "\n\n".join(blocks),
        title=t(lang, "📈 Question statistics · {title}", title=quiz.title.get(lang)),
        language=lang,
        kind="stats",
    )


def table(quiz: Quiz, stats: Sequence[QuestionStats]) -> str:
    """`quizhost stats`: one row per question, then the flags with their reasons (English)."""
    head = ("#", "question", "answers", "right", "median", "disc", "split (key ✓)")
    rows = [head] + [
        (
            str(n),
            s.question_id,
            str(s.attempts),
            percent(s.share_right),
            seconds(s.median_seconds),
            index(s.discrimination),
            split(s),
        )
        for n, s in enumerate(stats, 1)
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    flagged = [f"Q{n} {s.question_id}: {reason('en', s, note)}" for n, s in enumerate(stats, 1) for note in s.flags]
    notes = [*flagged, *few_players("en", stats)]
    return "\n".join([f"{quiz.id}: {quiz.title.get('en')}", *lines, *(["", *notes] if notes else [])])


def as_json(quiz: Quiz, chat_key: str | None, stats: Sequence[QuestionStats]) -> dict[str, Any]:
    """The figures for scripts: these keys and their meaning stay as they are."""
    return {
        "quiz": quiz.id,
        "chat": chat_key,
        "questions": [
            {
                "number": n,
                "id": s.question_id,
                "answer": s.answer,
                "attempts": s.attempts,
                "right": s.right,
                "share_right": None if s.share_right is None else round(s.share_right, 4),
                "median_seconds": s.median_seconds,
                "split": list(s.split),
                "discrimination": None if s.discrimination is None else round(s.discrimination, 4),
                "flags": [
                    {"flag": note.flag.value, "option": note.option, "reason": reason("en", s, note)}
                    for note in s.flags
                ],
            }
            for n, s in enumerate(stats, 1)
        ],
    }
