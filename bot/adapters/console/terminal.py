"""The terminal as a chat: type /commands, answer with a letter, /quit (or Ctrl-D) to leave.
Works with piped input too.

Every kind of question: a letter answers; letters toggle the picks of a select-all-that-apply
question ("a c") and "done" (or an empty line) makes them final; a typed or numeric question
takes the line as typed. A picture is said in words ("[image: a lion]"), sound and video as links."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path
from typing import IO

from bot.commands.core import Caller, Commands, parse
from bot.commands.table import command, leaves, stopping
from bot.content.drafts import SEPARATOR
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain.model import LETTERS, Ack, ChatRef, MessageRef, Player, QuestionCard, Reply, Reveal
from bot.domain.tokens import with_choice
from bot.domain.worth import Verdict
from bot.kinds import kind_of
from bot.texts import render
from bot.texts.render import t
from bot.texts.verdicts import verdict_text

PLATFORM = "console"
TERMINAL = ChatRef(PLATFORM, "terminal", is_private=True, title="terminal")  # the one chat of `quizhost play`
_STYLES = {"bold": "1", "dim": "2", "green": "32", "red": "31", "cyan": "36", "yellow": "33"}
VERDICT_COLOURS = {Verdict.RIGHT: "green", Verdict.PARTIAL: "yellow", Verdict.WRONG: "red"}
REVEAL_ROOM = 4096  # a terminal has no limit; a screenful is enough to read


def wants_colour(stream: IO[str]) -> bool:
    """Colours only on a terminal that takes them, and never when NO_COLOR is set."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


class ConsoleAdapter:
    platform = PLATFORM

    def __init__(
        self, out: IO[str] | None = None, colour: bool | None = None, name: str = "You", queue_answers: bool = False
    ) -> None:
        self.out = out or sys.stdout
        self.colour = wants_colour(self.out) if colour is None else colour
        self.chat = TERMINAL
        self.player = Player(PLATFORM, name.strip().casefold() or "you", name.strip() or "You")
        # piped input: a letter read between questions is the answer to the next one
        self.queue_answers = queue_answers
        self._card: QuestionCard | None = None
        self._changed = asyncio.Event()
        self._buttons: tuple = ()
        self.out_closed = False

    # the port --------------------------------------------------------------------------

    async def post_question(self, card: QuestionCard) -> MessageRef:
        self._card = card
        self._print("")
        lang = card.language
        self._print(render.question_title(card), "bold", "cyan")
        self._print(render.prompt(card))
        for line in render.media_lines(lang, card.media, image_too=True):
            self._print(line, "dim")
        self._print("")
        for option in card.options:
            letter = self._style(option.letter, "bold")
            self._print("  " + render.option_line(lang, letter, option.text, rtl=card.direction_rtl))
        how = render.answer_instruction(lang, card.kind, render.AnswerWay.PROMPT)
        self._print(self._style(" · ".join(p for p in (how, render.time_limit(card), _hint(card)) if p), "dim"))
        self._notify()
        return MessageRef(card.chat, f"q{card.run_id}-{card.number}")

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        """The terminal is one chat with one player, and it keeps no assignments (no MessageBoard)."""
        return True

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        self._card = None
        self._print("")
        self._print(render.question_title(reveal.card), "bold", "green")
        self._print(render.revealed(reveal, REVEAL_ROOM))
        mine = next((a for a in reveal.answers if a.name == self.player.name), None)
        if mine is not None and not kind_of(reveal.kind).is_scored:  # a poll: no right answer, no verdict
            self._print(t(reveal.card.language, "Your vote: {letter}", letter=mine.letter), "bold")
        elif mine is not None:
            lang = reveal.card.language
            worth = mine.worth
            self._print(
                t(
                    lang,
                    "Your answer: {letter} ({verdict}), +{points} points",
                    letter=mine.letter,
                    verdict=verdict_text(lang, worth),
                    points=mine.points,
                ),
                "bold",
                VERDICT_COLOURS[worth.verdict],
            )
        self._notify()

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        self.show(reply)
        self._notify()

    # the chat loop ---------------------------------------------------------------------

    async def serve(self, commands: Commands, lines: asyncio.Queue[str | None]) -> None:
        """Read lines until end of input, then let a run in progress finish or stop it."""
        while (line := await lines.get()) is not None and not leaves(parse(line.strip())):
            await self.handle_line(commands, line.strip())
        await commands.engine.run_due()
        await commands.review.settle()
        if commands.engine.run_in(self.chat) is not None:
            await commands.handle(stopping().name, "", self._caller())

    async def handle_line(self, commands: Commands, line: str) -> None:
        if not line:
            if self._card is not None and self._card.done_token is not None:  # Enter: the picks are final
                await self._press(commands, self._card.done_token)
            return
        lang = await commands.language_for(self.chat, self.player)
        if line.startswith("/"):
            parsed = parse(line)
            found = command(parsed[0]) if parsed else None
            if parsed and found is not None and found.file is not None and parsed[1]:  # /upload <path>
                self.show(await self._upload(commands, Path(parsed[1]), lang))
                return
            reply = await commands.handle(*parsed, self._caller()) if parsed else None
            if found is not None and found.stops and not commands.review.active(self.player):
                self._card = None  # a review's card left open: no letter answers it any more
            hint = t(lang, "Type a letter to answer or a /command. /help lists them.")
            self.show(reply or Reply(hint, language=lang))
        elif line.isdigit() and 0 < int(line) <= len(self._buttons) and not self._takes_text():
            button = self._buttons[int(line) - 1]
            if button.in_private:  # the terminal is the private chat already
                self.show(await commands.deep_link(button.data, self._caller()))
            else:
                await self._press(commands, button.data)
        elif SEPARATOR in line and not self._takes_text():  # a question in the fixed layout, for /newquiz's quiz
            written = await commands.draft_line(line, self._caller())
            self.show(
                written
                or Reply(
                    t(lang, "Send /newquiz [title] first: then every line like this is a question."),
                    language=lang,
                    kind="error",
                )
            )
        else:
            await self._answer(commands, line, lang)

    async def _upload(self, commands: Commands, path: Path, lang: str) -> Reply:
        """`/upload PATH`: the terminal's way of sending a file to the chat."""
        try:  # in a thread: a file on a slow disk must not hold up the quiz's timers
            size, data = await asyncio.to_thread(_read_upload, path)
        except OSError as error:
            return Reply(
                t(lang, "Cannot read {path}: {error}", path=str(path), error=error.strerror or str(error)),
                language=lang,
                kind="error",
            )
        return await commands.upload(self._caller(), path.name, data, size=size)

    async def _answer(self, commands: Commands, line: str, lang: str) -> None:
        """A line that is no command: the open question's answer, as its kind takes one."""
        picks = _letters(line)
        card = self._card
        if card is None and self.queue_answers:
            card = await self._next_card(commands)
        if card is None:
            if picks:
                self._print(t(lang, "No question is open right now."), "dim")
            else:
                self._print(t(lang, "Type a letter to answer or a /command. /help lists them."), "dim")
        elif not kind_of(card.kind).has_options:  # typed or numeric (a quiz's or a review's): the line is the answer
            await self._typed(commands, line)
        elif card.done_token is not None and line.casefold() in DONE_WORDS:
            await self._press(commands, card.done_token)
        elif not picks or not card.options or (len(picks) > 1 and card.done_token is None):
            self._print(t(lang, "Type a letter to answer or a /command. /help lists them."), "dim")
        else:  # a letter past the last option still goes to the engine, which says it is not an option
            for letter in picks:
                await self._press(commands, with_choice(card.options[0].token, LETTERS.index(letter)))

    async def _typed(self, commands: Commands, text: str) -> None:
        ack = await commands.answer_text(self._caller(), text)
        if ack is not None:
            self._acknowledged(ack)

    def _takes_text(self) -> bool:
        return self._card is not None and not kind_of(self._card.kind).has_options

    async def _next_card(self, commands: Commands) -> QuestionCard | None:
        """Wait for the next question while a run is on (piped input runs ahead of the quiz)."""
        while self._card is None and (
            commands.engine.run_in(self.chat) is not None or commands.review.active(self.player)
        ):
            self._changed.clear()
            await self._changed.wait()
        return self._card

    async def _press(self, commands: Commands, data: str) -> None:
        result = await commands.press(data, self._caller())
        if isinstance(result, Ack):
            # a toggle of a select-all-that-apply question leaves it open for more picks
            self._acknowledged(result, final=not (self._picking() and data != self._done_token()))
        else:
            self.show(result)

    def _acknowledged(self, ack: Ack, final: bool = True) -> None:
        if ack.accepted and final:
            self._card = None  # the terminal is a private chat: this question is done for us
        self._print(f"  → {ack.text}", "dim" if ack.accepted else "yellow")

    def _done_token(self) -> str | None:
        return self._card.done_token if self._card is not None else None

    def _picking(self) -> bool:
        """A select-all-that-apply question is open: a letter toggles, "done" ends it."""
        return self._card is not None and self._card.done_token is not None

    def _caller(self) -> Caller:
        return Caller(self.chat, self.player, is_admin=True, typed_only=True)

    # output ----------------------------------------------------------------------------

    def show(self, reply: Reply) -> None:
        self._print("")
        if reply.title:
            self._print(reply.title, "bold", "red" if reply.kind == "error" else "cyan")
        self._print(reply.text, "red" if reply.kind == "error" and not reply.title else "")
        self._buttons = reply.buttons
        for number, button in enumerate(reply.buttons, 1):
            self._print(f"  {self._style(str(number), 'bold')}) {button.label}")
        if reply.buttons:
            self._print(self._style(t(reply.language, "type a number to choose"), "dim"))

    def _notify(self) -> None:
        self._changed.set()

    def _style(self, text: str, *styles: str) -> str:
        codes = ";".join(_STYLES[s] for s in styles if s)
        return f"\033[{codes}m{text}\033[0m" if self.colour and codes else text

    def _print(self, text: str, *styles: str) -> None:
        if self.out_closed:
            return
        try:
            self.out.write(self._style(text, *styles) + "\n")
            self.out.flush()
        except BrokenPipeError:
            # the reader left (`quizhost play | head`): the game goes on unseen until input ends,
            # as with a closed terminal; answers are stored all the same
            self.out_closed = True


DONE_WORDS = frozenset({"done", "ok", "."})  # what ends the picks of a select-all-that-apply question


def _letters(line: str) -> list[str]:
    """The letters of a line like "a", "A C" or "a,c" (empty when it is anything else)."""
    letters = [ch.upper() for ch in line if not ch.isspace() and ch != ","]
    return letters if letters and all(ch in LETTERS for ch in letters) else []


def _hint(card: QuestionCard) -> str:
    """What to type, in the card's language (a typed or numeric card's instruction says it)."""
    lang = card.language
    if not kind_of(card.kind).has_options:
        return ""
    if card.done_token is not None:
        return t(lang, "type letters to pick, then done")
    return t(lang, "type a letter")


def _read_upload(path: Path) -> tuple[int, bytes]:
    """The file's size and bytes; a file over MAX_FILE_BYTES is refused unread."""
    path = path.expanduser()
    size = path.stat().st_size
    return size, path.read_bytes() if size <= MAX_FILE_BYTES else b""


def stdin_lines(loop: asyncio.AbstractEventLoop, stream: IO[str] | None = None) -> asyncio.Queue[str | None]:
    """Lines of standard input in a queue, None at the end; a daemon thread never blocks exit."""
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    source = stream or sys.stdin

    def pump() -> None:
        for line in source:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=pump, name="stdin", daemon=True).start()
    return queue
