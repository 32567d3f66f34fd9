"""What /upload and /remove answer, in the chat's language.

Places come from the importers and the quiz file checks as the file's tools name them ("line 12",
"row 9"); the reasons, marked with bot.texts.i18n.later, are translated here (a library's own words stay
English after a translated lead). What the file wrote is inserted as values, never as templates.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.content.chatquizzes import UploadOutcome, UploadStatus
from bot.content.importers.common import Problem
from bot.domain.model import Quiz, Reply
from bot.texts.answer_keys import key_line
from bot.texts.render import shown, t, tn

SHOWN_AT_MOST = 15  # a reply stays well inside a chat message; the rest is counted


def admins_only(lang: str) -> Reply:
    return Reply(t(lang, "Only chat admins can add or remove quizzes."), language=lang, kind="error", private=True)


def usage(lang: str) -> Reply:
    return Reply(
        t(
            lang,
            "Send a quiz file with /upload: quizhost YAML, GIFT, Aiken, Open Trivia DB JSON, or a "
            "Kahoot or Quizizz spreadsheet (.xlsx), at most 1 MB.",
        ),
        language=lang,
        kind="error",
    )


def _listed(lang: str, lines: Sequence[str]) -> list[str]:
    shown = [f"• {line}" for line in lines[:SHOWN_AT_MOST]]
    if len(lines) > SHOWN_AT_MOST:
        shown.append(tn(lang, "… and {n} more", "… and {n} more", len(lines) - SHOWN_AT_MOST))
    return shown


def _placed(lang: str, problems: Sequence[Problem]) -> list[str]:
    return [f"{p.where}: {shown(lang, p.why)}" for p in problems]


def outcome(lang: str, name: str, result: UploadOutcome, keys: bool) -> Reply:
    """The reply to an upload; `keys`: with each question's answer key (never where players read it)."""
    skipped = _placed(lang, result.skipped)
    if result.status is UploadStatus.REFUSED:
        lines = [
            t(lang, "Nothing was saved: {file} has these problems:", file=name),
            *_listed(lang, _placed(lang, result.problems)),
        ]
        return Reply("\n".join(lines), language=lang, kind="error")
    if result.status is UploadStatus.EMPTY:
        lines = [t(lang, "Nothing was saved: no question in {file} could be used:", file=name), *_listed(lang, skipped)]
        return Reply("\n".join(lines), language=lang, kind="error")
    quiz = result.quiz
    assert quiz is not None  # every other status carries the quiz
    if result.status is UploadStatus.TAKEN:
        return Reply(
            t(
                lang,
                "Nothing was saved: the id {id} belongs to a quiz this bot ships. Give the quiz another id.",
                id=quiz.id,
            ),
            language=lang,
            kind="error",
        )
    head = (
        tn(
            lang,
            "Replaced {id}: {n} question. A quiz already running keeps its old version.",
            "Replaced {id}: {n} questions. A quiz already running keeps its old version.",
            quiz.question_count,
            id=quiz.id,
        )
        if result.status is UploadStatus.REPLACED
        else tn(lang, "Saved {id}: {n} question.", "Saved {id}: {n} questions.", quiz.question_count, id=quiz.id)
    )
    lines = [head, t(lang, "Start it with {command}.", command=f"/quiz {quiz.id}"), "", *_keys(lang, quiz, keys)]
    if skipped:
        lines += [
            "",
            tn(lang, "{n} question was skipped:", "{n} questions were skipped:", len(skipped)),
            *_listed(lang, skipped),
        ]
    if result.notes:
        lines += ["", t(lang, "Imported, but not all of it came through:"), *_listed(lang, _placed(lang, result.notes))]
    return Reply("\n".join(lines), title=quiz.title.get(lang), language=lang)


def _keys(lang: str, quiz: Quiz, shown_here: bool) -> list[str]:
    if not shown_here:
        return [
            t(lang, "The answer keys are not shown here, where players read them: /dashboard's upload page shows them.")
        ]
    lines = [key_line(n, q, lang) for n, q in enumerate(quiz.questions, start=1)]
    more = len(lines) - SHOWN_AT_MOST
    return [
        t(lang, "Answer keys:"),
        *lines[:SHOWN_AT_MOST],
        *([tn(lang, "… and {n} more", "… and {n} more", more)] if more > 0 else []),
    ]


def removed(lang: str, quiz_id: str, done: bool) -> Reply:
    if done:
        return Reply(t(lang, "Removed {id}.", id=quiz_id), language=lang)
    return Reply(
        t(lang, "This chat has no quiz {id} of its own. /quizzes lists them.", id=quiz_id or "?"),
        language=lang,
        kind="error",
    )
