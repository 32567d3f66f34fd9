"""The web pages' words in the chat's language (bot/texts/locales; tests check every catalog has them).

One function per page family keeps extraction simple: each label is a literal `t(lang, ...)`.
"""

from __future__ import annotations

from bot.domain.assignment import AssignmentStatus
from bot.domain.fairplay import READING_WORDS_PER_MINUTE, SEVERAL_TOO_FAST
from bot.domain.questionstats import FLAG_PLAYERS, Flag
from bot.domain.worth import Worth
from bot.texts.render import t, tn  # right-to-left texts get isolates around their Latin runs (bot/texts/bidi.py)
from bot.texts.verdicts import marked


def common(lang: str) -> dict[str, str]:
    return {
        "leaderboard": t(lang, "Leaderboard"),
        "runs": t(lang, "Run history"),
        "quizzes": t(lang, "Quizzes and questions"),
        "upload": t(lang, "Upload a quiz"),
        "nav": t(lang, "Pages of this chat"),
        "chat": t(lang, "Chat"),
        "footer": t(lang, "This page is for this chat only. Its link works for 24 hours; /dashboard gives a new one."),
        "footer_board": t(
            lang, "This leaderboard is public: anyone with its link can see it. The link works for 24 hours."
        ),
        "footer_mine": t(
            lang, "Your row is highlighted. The link works for 24 hours; /stats in the chat gives a new one."
        ),
        "pages": t(lang, "Pages of this table"),
        "previous": t(lang, "Previous page"),
        "next": t(lang, "Next page"),
    }


def rows_shown(lang: str, first: str, last: str, total: str) -> str:
    """`first`, `last` and `total` written with the language's grouping already."""
    return t(lang, "Rows {first}–{last} of {total}", first=first, last=last, total=total)


def not_found(lang: str) -> dict[str, str]:
    return {
        "title": t(lang, "Page not found"),
        "text": t(lang, "There is no page at this address. Check the link, or go back to the leaderboard."),
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
        "report": t(lang, "Report"),
        "download_all": t(lang, "Download every answer of this chat"),
        "since": t(lang, "From this day on (empty: from the first run)"),
        "bad_date": t(lang, "Write the day as YYYY-MM-DD, for example 2026-01-31."),
        "busy_title": t(lang, "The download has to wait"),
        "busy": t(lang, "Other downloads are being made just now. Try again in a minute."),
    }


def report(lang: str) -> dict[str, str]:
    return {
        "title": t(lang, "Run report"),
        "started": t(lang, "Started"),
        "started_by": t(lang, "Started by"),
        "stopped_by": t(lang, "Stopped by"),
        "finished": t(lang, "Played to the end"),
        "stopped": t(lang, "Stopped"),
        "silent": t(lang, "Ended: nobody answered two questions in a row"),
        "open": t(lang, "Still running"),
        "status": t(lang, "How it ended"),
        "podium": t(lang, "Podium"),
        "questions": t(lang, "Questions"),
        "answers": t(lang, "Every player's answers"),
        "player": t(lang, "Player"),
        "total": t(lang, "Total"),
        "points": t(lang, "points"),
        "download": t(lang, "Download this run"),
        "gone": t(lang, "This question is no longer in the quiz."),
        "nobody": t(lang, "Nobody answered in this run."),
        "summary": t(lang, "Summary"),
        "hardest": t(lang, "Questions, hardest first"),
        "question": t(lang, "Question"),
        "answered": t(lang, "Answered"),
        "players_summary": t(lang, "Players"),
        "not_answered": t(lang, "Not answered"),
        "needs_help": t(lang, "Needs help (under 50% right)"),
        "did_not_finish": t(lang, "Did not finish"),
        "no_one": t(lang, "No one."),
        "poll": t(lang, "poll: nothing is right"),
        "not_asked": t(lang, "not asked"),
        "skipped": t(lang, "skipped by the host"),
        "teams": t(lang, "Teams"),
        "team": t(lang, "Team"),
        "members": t(lang, "Members"),
        "score": t(lang, "Team score"),
        # fair play (bot/domain/fairplay.py): flagged, never unscored
        "too_fast": t(lang, "⚡ faster than it can be read"),
        "too_fast_h": t(lang, "Right faster than they could read"),
        "too_fast_count": t(lang, "answers faster than reading"),
        "about_too_fast": t(
            lang,
            "Players with {several} or more right answers given sooner than the question and its options "
            "can be read ({words} words a minute). Their points stand: look at their answers.",
            several=SEVERAL_TOO_FAST,
            words=READING_WORDS_PER_MINUTE,
        ),
    }


def verdict(lang: str, worth: Worth) -> str:
    """A run report's cell: the verdict's mark and its words ("✓ right"), never colour alone."""
    return marked(lang, worth)


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
        "accepted": t(lang, "Accepted answers"),
        "split": t(lang, "How the answers split"),
        "as_table": t(lang, "The figures as a table"),
        "option": t(lang, "Option"),
        "share": t(lang, "Share of answers"),
        "positions_right": t(lang, "Places right"),
        "orders_right": t(lang, "Whole order right"),
        "placed_right": t(lang, "Put in its right place, option by option (listed in the right order)"),
        "unanswered": t(lang, "Not answered yet."),
        "empty": t(lang, "This chat has neither played nor uploaded a quiz yet."),
        "download": t(lang, "Download the quiz file (YAML)"),
        "about": t(lang, "About these figures"),
        "about_discrimination": t(
            lang,
            "Discrimination: how much more often the chat's strongest players (the top 27% by points in this quiz) "
            "answer the question right than its weakest (the bottom 27%), from −1 to +1. Near 0 or below 0, the "
            "question does not tell those who know from those who guess.",
        ),
        "about_flags": t(
            lang,
            "Flags point at questions worth a second look. They appear once at least {n} players have answered "
            "a question: fewer prove nothing.",
            n=FLAG_PLAYERS,
        ),
        "few_players": t(lang, "Fewer than {n} players have answered it: no flags yet.", n=FLAG_PLAYERS),
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
        "right": t(lang, "right answer"),
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
        "screen_only": t(
            lang, "This link opens the big screen only. Chat admins get a link to the other pages with /dashboard."
        ),
        "not_screen": t(lang, "This link does not open the big screen: /screen in the chat gives one."),
        "form": t(lang, "The form has expired or did not come from this page. Open the page again and retry."),
        "home": t(lang, "quizhost web pages: open the link that /dashboard (admins) or /board gives in a chat."),
    }


# an assignment's page (bot/adapters/web/assignment_page.py) and its line in the run history


def assignment(lang: str) -> dict[str, str]:
    return {
        "title": t(lang, "Assignment"),
        "tag": t(lang, "assignment"),
        "page": t(lang, "Assignment page"),
        "quiz": t(lang, "Quiz"),
        "assigned": t(lang, "Assigned"),
        "deadline": t(lang, "Deadline"),
        "status": t(lang, "Status"),
        "combined": t(lang, "Combined accuracy of the finished attempts"),
        "finished": t(lang, "Finished"),
        "stopped": t(lang, "Started, not finished"),
        "not_started": t(lang, "Not started"),
        "player": t(lang, "Player"),
        "accuracy": t(lang, "Accuracy"),
        "points": t(lang, "Points"),
        "started": t(lang, "Started"),
        "last_answer": t(lang, "Last answer"),
        "state": t(lang, "Where it is"),
        "playing": t(lang, "still playing"),
        "stopped_state": t(lang, "stopped before the end"),
        "report": t(lang, "Report"),
        "nobody_finished": t(lang, "Nobody has finished it yet."),
        "nobody_stopped": t(lang, "Nobody has started it without finishing."),
        "everyone_started": t(lang, "Every member seen in the group has started it."),
        "about": t(lang, "About these figures"),
        "about_seen": t(
            lang,
            "“Not started” lists the members the bot has seen in the group: everyone who answered one of its "
            "quizzes (in the group, or an assignment of it in private) or started one there. Members who never "
            "played are unknown to the bot and are not listed; nor is the admin who assigned it.",
        ),
        "about_accuracy": t(
            lang,
            "Accuracy counts the scored questions a run asked (polls are left out): a right answer counts 1, "
            "a partly right one its share, a question not answered 0.",
        ),
    }


def assignment_status(lang: str, status: AssignmentStatus) -> str:
    words = {
        AssignmentStatus.OPEN: t(lang, "Open: members can start it until the deadline"),
        AssignmentStatus.CLOSED: t(lang, "Closed: the deadline has passed"),
        AssignmentStatus.CANCELLED: t(lang, "Cancelled by an admin"),
    }
    return words[status]


def attempts(lang: str, n: int) -> str:
    """How many members started an assignment, for its line in the run history."""
    return tn(lang, "{n} attempt", "{n} attempts", n)


# the big screen (bot/adapters/web/screen.py): its words, and the words its script fills in
# ({n}, {m}, {number}, {total}, {seconds} are put in by the page's script, in these words' order)


def screen(lang: str) -> dict[str, str]:
    return {
        "title": t(lang, "Big screen"),
        "waiting": t(lang, "Waiting for the next question…"),
        "question": t(lang, "Question {number} of {total}"),
        "answered": t(lang, "{n} of {m} answered"),
        "seconds": t(lang, "{seconds} s left"),
        "closed": t(lang, "Time is up"),
        "right": t(lang, "The right answer"),
        "right_mark": t(lang, "right answer"),
        "top": t(lang, "Top five"),
        "teams": t(lang, "Teams"),
        "players": t(lang, "Players"),
        "podium": t(lang, "Final standings"),
        "points": t(lang, "Points"),
        "paused": t(lang, "Paused"),
        "hint": t(lang, "Hint"),
        "join": t(lang, "Join the game"),
        "join_chat": t(lang, "Play in the chat"),
        "live": t(lang, "Live: following the game"),
        "offline": t(lang, "Reconnecting…"),
        "controls": t(lang, "Host controls"),
        "next": t(lang, "Next question"),
        "pause": t(lang, "Pause the game"),
        "resume": t(lang, "Resume the game"),
        "skip": t(lang, "Skip this question"),
        "hint_now": t(lang, "Show the hint"),
        "end": t(lang, "End the game"),
        "no_hosting": t(lang, "This bot has no hosted games yet: the controls do nothing here."),
        "busy": t(lang, "Too many screens follow this chat right now. Try again in a minute."),
    }
