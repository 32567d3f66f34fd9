"""The web pages' words in the chat's language (bot/texts/locales; tests check every catalog has them).

One function per page family keeps extraction simple: each label is a literal `t(lang, ...)`.
"""

from __future__ import annotations

from bot.domain.questionstats import Flag
from bot.texts.render import t  # right-to-left texts get isolates around their Latin runs (bot/texts/bidi.py)


def common(lang: str) -> dict[str, str]:
    return {
        "leaderboard": t(lang, "Leaderboard"),
        "runs": t(lang, "Run history"),
        "quizzes": t(lang, "Quizzes and questions"),
        "upload": t(lang, "Upload a quiz"),
        "nav": t(lang, "Pages of this chat"),
        "footer": t(lang, "This page is for this chat only. Its link works for 24 hours; /dashboard gives a new one."),
    }


def board(lang: str) -> dict[str, str]:
    return {
        "period": t(lang, "Period"),
        "all": t(lang, "All time"),
        "month": t(lang, "This month"),
        "week": t(lang, "This week"),
        "quiz": t(lang, "Quiz"),
        "every_quiz": t(lang, "Every quiz"),
        "rank": t(lang, "Rank"),
        "name": t(lang, "Name"),
        "points": t(lang, "Points"),
        "right": t(lang, "Right answers"),
        "accuracy": t(lang, "Accuracy"),
        "you": t(lang, "(you)"),
        "empty": t(lang, "Nobody has answered in this period yet."),
    }


def runs(lang: str) -> dict[str, str]:
    return {
        "date": t(lang, "Date"),
        "quiz": t(lang, "Quiz"),
        "players": t(lang, "Players"),
        "podium": t(lang, "Podium"),
        "running": t(lang, "running"),
        "empty": t(lang, "No quiz has been played in this chat yet."),
    }


def questions(lang: str) -> dict[str, str]:
    return {
        "questions": t(lang, "Questions"),
        "own": t(lang, "uploaded to this chat"),
        "answers": t(lang, "Answers"),
        "share_right": t(lang, "Right"),
        "median": t(lang, "Median time"),
        "discrimination": t(lang, "Discrimination"),
        "flags": t(lang, "Flags"),
        "no_flags": t(lang, "No flags."),
        "explanation": t(lang, "Explanation"),
        "right_option": t(lang, "right answer"),
        "split": t(lang, "How the answers split"),
        "unanswered": t(lang, "Not answered yet."),
        "empty": t(lang, "This chat has neither played nor uploaded a quiz yet."),
        "download": t(lang, "Download the quiz file (YAML)"),
    }


def flag(lang: str, which: Flag, option: str) -> str:
    texts = {
        Flag.TOO_EASY: t(lang, "Too easy: 90% or more answer it right."),
        Flag.TOO_HARD: t(lang, "Too hard: 20% or fewer answer it right."),
        Flag.CHECK_KEY: t(
            lang, "Check the key: the best players chose {option} more often than the right answer.", option=option
        ),
        Flag.DEAD_OPTION: t(lang, "Option {option} is never chosen.", option=option),
    }
    return texts[which]


def upload(lang: str) -> dict[str, str]:
    return {
        "file": t(lang, "Quiz file"),
        "formats": t(
            lang,
            "quizhost YAML, GIFT, Aiken, Open Trivia DB JSON, or a Kahoot or Quizizz spreadsheet "
            "(.xlsx), at most 1 MB.",
        ),
        "check": t(lang, "Check the file"),
        "problems": t(lang, "Nothing was saved. The file has these problems:"),
        "skipped": t(lang, "These questions will be skipped:"),
        "preview": t(lang, "The questions as they will appear:"),
        "confirm": t(lang, "Save this quiz for the chat"),
        "saved": t(lang, "Saved. The chat can play it now."),
        "taken": t(lang, "Nothing was saved: the id belongs to a quiz this bot ships. Give the quiz another id."),
        "gone": t(lang, "That upload is no longer waiting; send the file again."),
        "missing": t(lang, "Choose a file first."),
    }


def refused(lang: str) -> dict[str, str]:
    return {
        "title": t(lang, "This link does not open anything"),
        "altered": t(lang, "The link is not one this bot made, or part of it is missing. Copy the whole link again."),
        "expired": t(lang, "The link has expired: links work for 24 hours. Ask for a new one with /dashboard."),
        "foreign": t(
            lang, "This link opens the leaderboard only. Chat admins get a link to the other pages with /dashboard."
        ),
        "revoked": t(
            lang, "A chat admin has ended every link given before this one. Ask for a new one with /dashboard."
        ),
        "private": t(lang, "This chat's leaderboard is not public any more."),
        "form": t(lang, "The form has expired or did not come from this page. Open the page again and retry."),
        "home": t(lang, "quizhost web pages: open the link that /dashboard (admins) or /board gives in a chat."),
    }
