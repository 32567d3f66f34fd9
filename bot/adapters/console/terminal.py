"""The terminal as a chat: type /commands, answer with a letter. Works with piped input too."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path
from typing import IO

from bot.commands.core import Caller, Commands, parse
from bot.content.drafts import SEPARATOR
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain.model import LETTERS, Ack, ChatRef, MessageRef, Player, QuestionCard, Reply, Reveal
from bot.domain.tokens import with_choice
from bot.texts import i18n, render
from bot.texts.render import t

PLATFORM = "console"
TERMINAL = ChatRef(PLATFORM, "terminal", is_private=True, title="terminal")  # the one chat of `quizhost play`
_STYLES = {"bold": "1", "dim": "2", "green": "32", "red": "31", "cyan": "36", "yellow": "33"}
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
        self._print(render.question_title(card), "bold", "cyan")
        self._print(render.prompt(card))
        self._print("")
        for option in card.options:
            self._print("  " + render.option_line(card.language, self._style(option.letter, "bold"), option.text))
        self._print(self._style(render.time_limit(card) + " · " + t(card.language, "type a letter"), "dim"))
        self._notify()
        return MessageRef(card.chat, f"q{card.run_id}-{card.number}")

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        self._card = None
        self._print("")
        self._print(render.question_title(reveal.card), "bold", "green")
        self._print(render.revealed(reveal, REVEAL_ROOM))
        mine = next((a for a in reveal.answers if a.name == self.player.name), None)
        if mine is not None:
            lang = reveal.card.language
            verdict = i18n.t(lang, "right") if mine.correct else i18n.t(lang, "wrong")  # a fragment: plain
            self._print(
                t(
                    lang,
                    "Your answer: {letter} ({verdict}), +{points} points",
                    letter=mine.letter,
                    verdict=verdict,
                    points=mine.points,
                ),
                "bold",
                "green" if mine.correct else "red",
            )
        self._notify()

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        self.show(reply)
        self._notify()

    # the chat loop ---------------------------------------------------------------------

    async def serve(self, commands: Commands, lines: asyncio.Queue[str | None]) -> None:
        """Read lines until end of input, then let a run in progress finish or stop it."""
        while (line := await lines.get()) is not None:
            await self.handle_line(commands, line.strip())
        await commands.engine.run_due()
        await commands.review.settle()
        if commands.engine.run_in(self.chat) is not None:
            await commands.handle("stop", "", self._caller())

    async def handle_line(self, commands: Commands, line: str) -> None:
        if not line:
            return
        lang = await commands.engine.language_for(self.chat, self.player)
        if line.startswith("/"):
            parsed = parse(line)
            if parsed and parsed[0] == "upload" and parsed[1]:
                self.show(await self._upload(commands, Path(parsed[1]), lang))
                return
            reply = await commands.handle(*parsed, self._caller()) if parsed else None
            hint = t(lang, "Type a letter to answer or a /command. /help lists them.")
            self.show(reply or Reply(hint, language=lang))
        elif line.isdigit() and 0 < int(line) <= len(self._buttons):
            button = self._buttons[int(line) - 1]
            if button.in_private:  # the terminal is the private chat already
                self.show(await commands.handle("start", button.data, self._caller()))
            else:
                await self._press(commands, button.data)
        elif len(line) == 1 and line.upper() in LETTERS:
            await self._answer(commands, line.upper(), lang)
        elif SEPARATOR in line:  # a question in the fixed layout, for the quiz being written (/newquiz)
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
            self._print(t(lang, "Type a letter to answer or a /command. /help lists them."), "dim")

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

    async def _answer(self, commands: Commands, letter: str, lang: str) -> None:
        card = self._card or (await self._next_card(commands) if self.queue_answers else None)
        if card is None:
            self._print(t(lang, "No question is open right now."), "dim")
            return
        # a letter past the last option still goes to the engine, which says it is not an option
        await self._press(commands, with_choice(card.options[0].token, LETTERS.index(letter)))

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
            if result.accepted:
                self._card = None  # the terminal is a private chat: this question is done for us
            self._print(f"  → {result.text}", "dim" if result.accepted else "yellow")
        else:
            self.show(result)

    def _caller(self) -> Caller:
        return Caller(self.chat, self.player, is_admin=True)

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
