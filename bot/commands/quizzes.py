"""/quiz, /quizzes, /stop, /upload and /remove: a quiz started and stopped (a review too), the
quizzes a chat can play and the ones its admins add.

One group of `bot.commands.core.Commands`: `(args, caller, lang) -> Reply` handlers, the rules
of bot/commands/group.py (admins configure a group, a private chat is its player's own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands import upload_replies
from bot.commands.group import may_configure
from bot.domain import tokens
from bot.domain.extra_time import stretched
from bot.domain.model import Button, Reply
from bot.engine.core import StartOutcome, StartStatus, StopStatus
from bot.texts import render
from bot.texts.render import t, tn

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.chats import Chats
    from bot.engine.core import Engine
    from bot.engine.review import ReviewDesk


class QuizCommands:
    def __init__(
        self, engine: Engine, catalog: Catalog, chat_quizzes: ChatQuizzes, chats: Chats, review: ReviewDesk
    ) -> None:
        """`review`: /stop ends a review too."""
        self.engine, self.catalog, self.chat_quizzes = engine, catalog, chat_quizzes
        self.chats, self.review = chats, review

    async def cmd_quiz(self, args: str, caller: Caller, lang: str) -> Reply:
        topic, count = split_count(args)
        if count is not None and count < 1:
            return Reply(t(lang, "The number of questions must be at least 1."), language=lang, kind="error")
        outcome = await self.engine.start(caller.chat, topic, caller.player, count)
        return started(outcome, topic, lang)

    async def cmd_quizzes(self, args: str, caller: Caller, lang: str) -> Reply:
        own = await self.chat_quizzes.all(caller.chat.key)
        return render.catalog(lang, self.catalog.all(), own)

    async def cmd_stop(self, args: str, caller: Caller, lang: str) -> Reply:
        outcome = await self.engine.stop(caller.chat, caller.player, caller.is_admin)
        if outcome.status is StopStatus.NONE and (reviewed := await self.review.stop(caller.chat, caller.player)):
            return reviewed
        texts = {
            StopStatus.STOPPED: t(lang, "Quiz stopped by {name}. Answers so far count.", name=caller.player.name),
            StopStatus.NONE: t(lang, "No quiz is running here. Start one with /quiz."),  # nor a review
            StopStatus.REFUSED: t(lang, "Only the person who started this quiz or a chat admin can stop it."),
        }
        stopped = outcome.status is StopStatus.STOPPED
        return Reply(
            texts[outcome.status],
            language=lang,
            kind="text" if stopped else "error",
            private=outcome.status is StopStatus.REFUSED,
        )

    def may_upload(self, caller: Caller) -> bool:
        """Adapters ask before they download anything: only admins add quizzes."""
        return may_configure(caller)

    async def upload(
        self, caller: Caller, name: str, data: bytes, size: int | None = None, language: str = "en"
    ) -> Reply:
        """A file sent with /upload: stored as this chat's quiz, or every reason it was not.

        `size` is the file's size when the adapter did not fetch a file too big to accept;
        `language` what an imported file's texts are in (`/upload es`: any language tag)."""
        lang = await self.chats.language_for(caller.chat, caller.player)
        if not self.may_upload(caller):
            return upload_replies.admins_only(lang)
        outcome = await self.chat_quizzes.upload(caller.chat, caller.player, name, data, size, language)
        return upload_replies.outcome(lang, name, outcome, keys=caller.chat.is_private)

    async def cmd_upload(self, args: str, caller: Caller, lang: str) -> Reply:
        """/upload with no file attached (an adapter handles the ones with a file)."""
        if not self.may_upload(caller):
            return upload_replies.admins_only(lang)
        return upload_replies.usage(lang)

    async def cmd_remove(self, args: str, caller: Caller, lang: str) -> Reply:
        if not may_configure(caller):
            return upload_replies.admins_only(lang)
        quiz_id = args.strip().casefold()
        removed = bool(quiz_id) and await self.chat_quizzes.remove(caller.chat.key, quiz_id)
        return upload_replies.removed(lang, quiz_id, removed)


def started(outcome: StartOutcome, topic: str, lang: str) -> Reply:
    """The reply to a start: its first words, or why none started (with the quizzes to pick from)."""
    if outcome.status is StartStatus.STARTED and (run := outcome.run) is not None:
        row, rl = run.row, run.row.language
        own = {run.quiz_question(i).seconds or row.seconds for i in range(run.total)}
        limits = sorted({stretched(seconds, row.time_factor) for seconds in own})  # with the player's extra time
        text = get_ready(rl, run.total, limits)
        return Reply(text, title=render.quiz_heading(rl, run.quiz.title.get(rl)), language=rl, kind="start")
    if outcome.status is StartStatus.RUNNING:
        quiz = outcome.run.quiz if outcome.run is not None else outcome.quizzes[0]
        title = quiz.title.get(lang)
        return Reply(
            t(lang, "A quiz is already running here: {title}. /stop ends it.", title=title),
            language=lang,
            kind="error",
        )
    buttons = tuple(Button(q.title.get(lang), tokens.quiz_pick(q.id)) for q in outcome.quizzes[:20])
    if outcome.status is StartStatus.CHOICES:
        text = t(lang, "Several quizzes match “{topic}”. Pick one:", topic=topic)
        return Reply(text, buttons=buttons, language=lang)
    if outcome.status is StartStatus.CATALOG:
        return Reply(t(lang, "Pick a quiz:"), buttons=buttons, language=lang)
    names = ", ".join(q.id for q in outcome.quizzes) or "-"
    text = t(lang, "No quiz matches “{topic}”. Available: {names}. /quizzes lists them.", topic=topic[:60], names=names)
    return Reply(text, buttons=buttons, language=lang, kind="error")


def get_ready(lang: str, total: int, limits: list[int]) -> str:
    """A start's first words: how many questions, and their time limits (0: none)."""
    if 0 in limits:  # a hosted game's: each open until its host closes it, or at its own limit
        return tn(
            lang,
            "{n} question: the host closes it. Get ready!",
            "{n} questions: the host closes each. Get ready!",
            total,
        )
    if len(limits) == 1:
        return tn(
            lang,
            "{n} question, {seconds} s each. Get ready!",
            "{n} questions, {seconds} s each. Get ready!",
            total,
            seconds=limits[0],
        )
    return tn(  # a file that times its questions
        lang,
        "{n} question, {low} to {high} s each. Get ready!",
        "{n} questions, {low} to {high} s each. Get ready!",
        total,
        low=limits[0],
        high=limits[-1],
    )


def split_seconds(args: str) -> tuple[str, int | None]:
    """'science 10 45s' -> ('science 10', 45): a trailing number of seconds, written with its s."""
    words = args.split()
    if words and (last := words[-1].casefold()).endswith("s") and last[:-1].isdecimal() and len(last) <= 4:
        return " ".join(words[:-1]), int(last[:-1])
    return " ".join(words), None


def split_count(args: str) -> tuple[str, int | None]:
    """'pipeline 5' -> ('pipeline', 5); a lone trailing number is the question count."""
    words = args.split()
    if words and words[-1].isdecimal() and len(words[-1]) <= 3:
        return " ".join(words[:-1]), int(words[-1])
    return " ".join(words), None
