"""Writing a quiz in the chat (issue #23): /newquiz, a question per poll (or per line in the
fixed layout), /edit, /delete, /move, /discard, /done; the link that adds a saved quiz to a
group, or copies it into anyone's private chat.

The draft lives in the store (it survives a restart) under its author; /done saves it as the
author's own chat quiz through the same door an uploaded file goes through (ChatQuizzes), so
it is checked, stored and exported as a file would be.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.commands.authoring_replies import asking_poll, error, too_big, unusable
from bot.commands.keyed_locks import KeyedLocks
from bot.commands.sharing import Shelf
from bot.commands.suggestions import SuggestionDesk
from bot.content import drafts
from bot.content.drafts import Draft, PollSpec, QuestionForm, Refusal
from bot.domain import tokens
from bot.domain.model import Ack, Button, ChatRef, Player, Reply
from bot.domain.records import DraftRow
from bot.ports.clock import Clock
from bot.ports.store import QuizDrafts
from bot.texts.i18n import shown
from bot.texts.plain import decor
from bot.texts.render import t, tn
from bot.texts.textcut import clean

T = TypeVar("T")
TRIES = 20  # a change made again this often when another worker's change of the draft came first
LISTED_BUTTONS = 12  # questions of a draft listed with Edit and Delete buttons (Discord shows 25 buttons)
FORM_NEW = "add"  # a form for a new question (tokens.FORM_ADD)
FORM_SUGGESTED = "suggest"  # the form of a question suggested to the group (tokens.FORM_SUGGEST)


@dataclass(frozen=True)
class Author:
    """Who writes, where, in which language."""

    chat: ChatRef
    player: Player
    lang: str
    is_admin: bool = False
    private_replies: bool = False  # Caller.private_replies: a draft may be written in a group (Discord)
    typed_only: bool = False  # Caller.typed_only: questions come as typed lines, never polls (the terminal)


class DraftChanged(Exception):
    """The author's draft changed between reading and storing it (another message of theirs came
    first, on another worker): the change is made again from the draft as it is now."""


class Authoring:
    def __init__(self, store: QuizDrafts, clock: Clock, suggestions: SuggestionDesk, shelf: Shelf) -> None:
        self.store, self.clock = store, clock
        self.suggestions = suggestions
        self.shelf = shelf
        self._turns = KeyedLocks()  # an author's changes of their draft, one after another

    # the draft --------------------------------------------------------------------------

    async def newquiz(self, args: str, who: Author) -> Reply:
        if not who.chat.is_private and not who.private_replies:
            return error(who.lang, t(who.lang, "Write a quiz in a private chat with me: send /newquiz there."))
        return await self._serially(who, lambda: self._newquiz(args, who))

    async def _newquiz(self, args: str, who: Author) -> Reply:
        row, draft = await self._read(who)
        if draft is not None:
            return self._listing(
                who.lang, draft, t(who.lang, "You are writing a quiz already: /done saves it, /discard drops it.")
            )
        title = drafts.title_of(args) or t(who.lang, "My quiz")
        await self._save(who, Draft(title), row)  # in place of a suggestion being written, if any
        if who.typed_only:
            text = t(
                who.lang,
                "New quiz “{title}”. Type each question on a line: prompt | option | *right option | option > "
                "explanation (a * marks each right option; none makes a poll). /done saves it.",
                title=title,
            )
            return Reply(text, language=who.lang)
        text = t(
            who.lang,
            "New quiz “{title}”. Send quiz polls (the button below makes one; forwarded ones do too). /done saves it.",
            title=title,
        )
        return asking_poll(who.lang, text)

    async def poll(self, spec: PollSpec, who: Author) -> Reply:
        """A poll sent in the private chat: a question of the draft (or how to open one)."""
        taken = await self._serially(who, lambda: self._take(drafts.from_poll(spec), who))
        if taken is None:
            text = t(who.lang, "Send /newquiz [title] first: then every quiz poll you send becomes a question.")
            return error(who.lang, text)
        return taken

    async def line(self, text: str, who: Author) -> Reply | None:
        """A line in the fixed layout, typed while a draft is open (None: no draft is open)."""
        return await self._serially(who, lambda: self._take(drafts.from_line(text), who))

    async def form(self, form: QuestionForm, target: str, who: Author) -> Reply:
        """A question's form sent (Discord's modal): added to the draft, or question `target` replaced."""
        return await self._serially(who, lambda: self._form(drafts.from_form(form), target, who))

    async def _form(self, made: dict | Refusal, target: str, who: Author) -> Reply:
        if target != FORM_NEW:
            row, draft = await self._read(who)
            number = draft.number_of(target) if draft else None
            if draft is None or number is None:
                return error(who.lang, t(who.lang, "That question is not in your draft any more."))
            if isinstance(made, Refusal):
                return error(who.lang, shown(who.lang, made.why, t))
            return await self._replace(draft, number, made, who, row)
        taken = await self._take(made, who)
        return taken or error(who.lang, t(who.lang, "You have no quiz draft. /newquiz starts one."))

    async def form_defaults(self, target: str, who: Author) -> QuestionForm | None:
        """What the form of question `target` starts with (None: a new question, or none such)."""
        _, draft = await self._read(who)
        number = draft.number_of(target) if draft else None
        return drafts.form_of(draft.questions[number - 1]) if draft and number else None

    async def _take(self, made: dict | Refusal, who: Author) -> Reply | None:
        row = await self.store.draft(who.player.key)
        if row is not None and row.target:  # a suggestion to a group: one question, then done
            await self.store.delete_draft(who.player.key)
            platform, _, chat_id = row.target.partition(":")
            return await self.suggestions.suggest(made, who, ChatRef(platform, chat_id, is_private=False))
        draft = Draft.loads(row.title, row.content, row.replacing) if row else None
        if draft is None:
            return None
        if isinstance(made, Refusal):
            return error(who.lang, shown(who.lang, made.why, t))
        if draft.replacing and draft.has(draft.replacing):
            return await self._replace(draft, draft.replacing, made, who, row)
        if len(draft.questions) >= drafts.MAX_QUESTIONS:
            return error(
                who.lang,
                t(who.lang, "A quiz holds at most {most} questions: /done saves this one.", most=drafts.MAX_QUESTIONS),
            )
        if refused := self._refused(draft, made, who.lang):
            return refused
        number = draft.add(made)
        if not draft.fits():
            return too_big(who.lang)
        await self._save(who, draft, row)
        text = t(who.lang, "Question {number} added: {prompt}", number=number, prompt=made["prompt"])
        undo = Button(t(who.lang, "Undo"), tokens.draft_undo(draft.questions[-1]["id"]))
        return Reply(text, buttons=(undo,), language=who.lang)

    async def _replace(self, draft: Draft, number: int, made: dict, who: Author, row: DraftRow | None) -> Reply:
        if refused := self._refused(draft, made, who.lang):
            return refused
        draft.replace(number, made)
        if not draft.fits():
            return too_big(who.lang)
        draft.replacing = 0
        await self._save(who, draft, row)
        return Reply(
            t(who.lang, "Question {number} replaced: {prompt}", number=number, prompt=made["prompt"]), language=who.lang
        )

    def _refused(self, draft: Draft, made: dict, lang: str) -> Reply | None:
        found = drafts.problems(draft.title, [made])
        return unusable(lang, found) if found else None

    async def undo(self, question_id: str, who: Author) -> Ack | Reply:
        return await self._serially(who, lambda: self._undo(question_id, who))

    async def _undo(self, question_id: str, who: Author) -> Ack | Reply:
        row, draft = await self._read(who)
        number = draft.number_of(question_id) if draft else None
        if draft is None or number is None:  # pressed twice, or after /done: said to the presser alone
            return Ack(t(who.lang, "That question is not in your draft any more."), accepted=False, language=who.lang)
        draft.delete(number)
        await self._save(who, draft, row)
        return self._listing(who.lang, draft, t(who.lang, "Question {number} removed.", number=number))

    async def edit(self, args: str, who: Author) -> Reply:
        return await self._serially(who, lambda: self._edit(args, who))

    async def _edit(self, args: str, who: Author) -> Reply:
        row, draft, number, rest = await self._numbered(args, who)
        if isinstance(draft, Reply):
            return draft
        if rest:
            made = drafts.from_line(rest)
            if isinstance(made, Refusal):
                return error(who.lang, shown(who.lang, made.why, t))
            return await self._replace(draft, number, made, who, row)
        draft.replacing = number
        await self._save(who, draft, row)
        text = t(
            who.lang,
            "Send the new poll for question {number}, or /edit {number} prompt | option | *right option.",
            number=number,
        )
        return asking_poll(who.lang, text)

    async def edit_by_id(self, question_id: str, who: Author) -> Reply:
        """An "Edit" button where no form opens: as /edit N."""
        return await self._serially(who, lambda: self._edit_by_id(question_id, who))

    async def _edit_by_id(self, question_id: str, who: Author) -> Reply:
        _, draft = await self._read(who)
        number = draft.number_of(question_id) if draft else None
        if number is None:
            return error(who.lang, t(who.lang, "That question is not in your draft any more."))
        return await self._edit(str(number), who)

    async def ask_poll(self, who: Author) -> Reply:
        """An "Add question" button where no form opens: send a poll."""
        if (await self._read(who))[1] is None:
            return error(who.lang, t(who.lang, "You have no quiz draft. /newquiz starts one."))
        return asking_poll(who.lang, t(who.lang, "Send a quiz poll: it becomes the next question."))

    async def delete(self, args: str, who: Author) -> Reply:
        return await self._serially(who, lambda: self._delete(args, who))

    async def _delete(self, args: str, who: Author) -> Reply:
        row, draft, number, _ = await self._numbered(args, who)
        if isinstance(draft, Reply):
            return draft
        draft.delete(number)
        await self._save(who, draft, row)
        return self._listing(who.lang, draft, t(who.lang, "Question {number} removed.", number=number))

    async def move(self, args: str, who: Author) -> Reply:
        return await self._serially(who, lambda: self._move(args, who))

    async def _move(self, args: str, who: Author) -> Reply:
        row, draft, number, rest = await self._numbered(args, who)
        if isinstance(draft, Reply):
            return draft
        place = draft.number(rest)
        if place is None:
            return error(
                who.lang,
                t(who.lang, "Usage: /move N M moves question N to place M (1 to {count}).", count=len(draft.questions)),
            )
        draft.move(number, place)
        await self._save(who, draft, row)
        return self._listing(
            who.lang, draft, t(who.lang, "Question {number} moved to place {place}.", number=number, place=place)
        )

    async def hint(self, args: str, who: Author) -> Reply | None:
        """/hint <text>: the last question's hint (shown when a host asks, or at half time); None
        when no draft is open (a host's /hint, in a hosted game, is another matter)."""
        return await self._serially(who, lambda: self._hint(args, who))

    async def _hint(self, args: str, who: Author) -> Reply | None:
        row, draft = await self._read(who)
        if draft is None:
            return None
        hint = " ".join(clean(args).split())
        if not draft.questions or not hint:
            text = t(who.lang, "Write a question first, then /hint <text> gives it a hint that helps without telling.")
            return error(who.lang, text)
        number = draft.set_hint(hint)
        if refused := self._refused(draft, draft.questions[-1], who.lang):
            return refused
        await self._save(who, draft, row)
        return Reply(t(who.lang, "Hint for question {number}: {hint}", number=number, hint=hint), language=who.lang)

    async def round(self, args: str, who: Author) -> Reply:
        return await self._serially(who, lambda: self._round(args, who))

    async def _round(self, args: str, who: Author) -> Reply:
        """/round <name> [x2]: the questions written next make a round (its points times the multiplier)."""
        row, draft = await self._read(who)
        if draft is None:
            return error(who.lang, t(who.lang, "You have no quiz draft. /newquiz starts one."))
        made = drafts.round_of(args)
        if isinstance(made, Refusal):
            return error(who.lang, shown(who.lang, made.why, t))
        name, multiplier = made
        number = draft.start_round(name, multiplier, t(who.lang, "Round {number}", number=1))
        await self._save(who, draft, row)
        text = t(who.lang, "Round {number}: {name}. The next questions belong to it.", number=number, name=name)
        if multiplier != 1:
            text += " " + t(who.lang, "points ×{multiplier}", multiplier=f"{multiplier:g}")
        return Reply(text, language=who.lang)

    async def discard(self, who: Author) -> Reply:
        dropped = await self.store.delete_draft(who.player.key)
        if not dropped:
            return error(who.lang, t(who.lang, "You have no quiz draft. /newquiz starts one."))
        return Reply(t(who.lang, "Draft dropped."), language=who.lang)

    async def _numbered(self, args: str, who: Author) -> tuple[DraftRow | None, Draft | Reply, int, str]:
        row, draft = await self._read(who)
        if draft is None:
            return row, error(who.lang, t(who.lang, "You have no quiz draft. /newquiz starts one.")), 0, ""
        first, _, rest = args.strip().partition(" ")
        number = draft.number(first)
        if number is None:
            text = tn(
                who.lang,
                "Give a question number: the draft has {n} question.",
                "Give a question number: the draft has {n} questions.",
                len(draft.questions),
            )
            return row, error(who.lang, text), 0, ""
        return row, draft, number, rest.strip()

    # saving and sharing ----------------------------------------------------------------------

    async def done(self, who: Author) -> Reply:
        return await self._serially(who, lambda: self._done(who))

    async def _done(self, who: Author) -> Reply:
        _, draft = await self._read(who)
        if draft is None:
            return error(who.lang, t(who.lang, "You have no quiz draft. /newquiz starts one."))
        if not draft.questions:
            return error(who.lang, t(who.lang, "The draft has no question yet: send a quiz poll first."))
        if not (who.chat.is_private or who.is_admin):
            text = t(who.lang, "Only admins save a quiz here: send /done in a direct message with me to keep it there.")
            return error(who.lang, text)
        saved = await self.shelf.save(draft, who)
        if saved.kind != "error":
            await self.store.delete_draft(who.player.key)
        return saved

    # storage --------------------------------------------------------------------------------

    async def _read(self, who: Author) -> tuple[DraftRow | None, Draft | None]:
        """The author's draft as stored, and as a quiz draft (a pending suggestion to a group is
        none: /newquiz replaces it)."""
        row = await self.store.draft(who.player.key)
        return row, Draft.loads(row.title, row.content, row.replacing) if row and not row.target else None

    async def _save(self, who: Author, draft: Draft, before: DraftRow | None) -> None:
        """Store the draft over `before`, the row it was read from: DraftChanged if it is not
        that any more (stored over it, the other change would be lost)."""
        row = DraftRow(who.player.key, draft.title, draft.dumps(), draft.replacing, self.clock.now())
        if not await self.store.change_draft(row, before):
            raise DraftChanged(who.player.key)

    async def _serially(self, who: Author, change: Callable[[], Awaitable[T]]) -> T:
        """One author's changes of their draft one after another. A dozen polls forwarded at once
        come as a dozen updates handled together: each read the draft, added its question and
        stored it, and all but the last question were lost. In this process they wait in turn;
        a change another worker made first (DraftChanged) is made again from the draft as it is."""
        async with self._turns(who.player.key):
            for _ in range(TRIES - 1):
                try:
                    return await change()
                except DraftChanged:
                    continue
            return await change()

    def _listing(self, lang: str, draft: Draft, head: str) -> Reply:
        """The draft, with a button to add a question and, for the first ones, to edit or delete each."""
        lines = [head, ""]
        starts = {r["first"]: r["name"] for r in draft.rounds}
        for i, q in enumerate(draft.questions, 1):
            lines += [f"— {starts[q['id']]} —"] if q["id"] in starts else []
            lines.append(f"{i}. {q['prompt']}")
        lines = lines if draft.questions else [*lines, t(lang, "(no question yet)")]
        buttons = [Button(t(lang, "Add question"), tokens.FORM_ADD)]
        for i, q in enumerate(draft.questions[:LISTED_BUTTONS], 1):
            buttons += [
                Button(t(lang, "Edit {number}", number=i), tokens.form_edit(q["id"])),
                Button(t(lang, "Delete {number}", number=i), tokens.draft_undo(q["id"])),
            ]
        title = decor(lang, "📝 ") + draft.title
        return Reply("\n".join(lines)[:3500], title=title, buttons=tuple(buttons), language=lang)
