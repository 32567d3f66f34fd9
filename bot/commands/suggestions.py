"""Members suggest questions to a group, its admins decide (issue #23).

`/suggest` in the group (in reply to a poll, or with a question in the fixed layout), or in the
private chat after the group's "Suggest privately" link: the question waits in the group's queue.
Admins see `/suggestions`, approve one into a named quiz of the group (made if new), edit it
first, or reject it; the member is told in their private chat. QUIZHOST_SUGGESTIONS_PER_DAY
and QUIZHOST_SUGGESTIONS_WAITING keep the queue clean.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from bot.commands.authoring_replies import asking_poll, error, unusable
from bot.commands.keyed_locks import KeyedLocks
from bot.content import drafts
from bot.content.drafts import PollSpec, Refusal
from bot.content.quiz_check import raw_questions
from bot.content.reading import UploadStatus
from bot.domain import tokens
from bot.domain.model import QUIZ_ID, Ack, Button, ChatRef, Player, Reply, is_plain
from bot.domain.records import DraftRow, Suggestion, SuggestionStatus
from bot.ports.chat import ChatAdapter, MembershipUnknown, PrivateChats
from bot.ports.store import ChatQuizRecords, QuizDrafts, SuggestionRecords
from bot.texts import i18n, render_acks
from bot.texts.i18n import shown
from bot.texts.render import t, tn

if TYPE_CHECKING:
    from bot.commands.authoring import Author
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.chats import Chats
    from bot.engine.run_start import EngineSettings
    from bot.ports.clock import Clock

log = logging.getLogger("quizhost.suggestions")

SUGGEST_PREFIX = "sg_"  # /start sg_<group chat id>: a group's "Suggest privately" link
DAY = 24 * 3600.0
DEFAULT_QUIZ = "suggested"  # the quiz "Approve" buttons add to
SHOWN = 10  # suggestions listed (with buttons) at once


class SuggestionStore(SuggestionRecords, QuizDrafts, ChatQuizRecords, Protocol):
    """The suggestions, the suggester's draft, and the chat's quizzes whose ids are taken."""


class SuggestionDesk:
    def __init__(
        self,
        *,
        store: SuggestionStore,
        catalog: Catalog,
        chat_quizzes: ChatQuizzes,
        clock: Clock,
        chats: Chats,
        adapters: Mapping[str, ChatAdapter],
        settings: EngineSettings,
    ) -> None:
        """`settings`: how many suggestions a day and waiting; `adapters`: who is in a group."""
        self.store, self.catalog, self.chat_quizzes = store, catalog, chat_quizzes
        self.clock, self.chats, self.adapters, self.settings = clock, chats, adapters, settings
        self._turns = KeyedLocks()  # a group's suggestions queued, and decided, one after another

    async def suggest(self, made: dict[str, Any] | Refusal, who: Author, group: ChatRef) -> Reply:
        """A question `who` suggests to `group`: queued, or why not (nothing queued)."""
        if isinstance(made, Refusal):
            return error(who.lang, shown(who.lang, made.why, t))
        if found := drafts.problems("-", [made]):
            return unusable(who.lang, found)
        row = Suggestion(
            group.key, 0, who.player.key, who.player.name, json.dumps(made, ensure_ascii=False), self._now()
        )
        async with self._turns(group.key):  # ten sent together must not all pass the limits, then all queue
            if refused := await self._over_limits(who, group):
                return refused
            number = await self.store.add_suggestion(row)
        text = t(
            who.lang, "Thanks! Your question is suggestion #{number}: the group's admins will decide.", number=number
        )
        return Reply(text, language=who.lang)

    async def _over_limits(self, who: Author, group: ChatRef) -> Reply | None:
        settings = self.settings
        today = await self.store.suggested_since(group.key, who.player.key, self._now() - DAY)
        if today >= settings.suggestions_per_day:
            text = tn(
                who.lang,
                "You suggested {n} question to this group in the last 24 hours, the most allowed: try again tomorrow.",
                "You suggested {n} questions to this group in the last 24 hours, the most allowed: try again tomorrow.",
                today,
            )
            return error(who.lang, text)
        if len(await self.store.open_suggestions(group.key)) >= settings.suggestions_waiting:
            return error(who.lang, t(who.lang, "The group's queue of suggestions is full until its admins decide."))
        return None

    async def command(self, args: str, who: Author) -> Reply:
        """/suggest in a group: the question on the line, or how to suggest one."""
        if who.chat.is_private:
            return error(
                who.lang, t(who.lang, "Send /suggest in the group you suggest to, then tap “Suggest privately”.")
            )
        if args:
            return await self.suggest(drafts.from_line(args), who, who.chat)
        text = t(
            who.lang,
            "Reply to a poll with /suggest, or write /suggest prompt | option | *right option, or suggest in private:",
        )
        button = Button(t(who.lang, "Suggest privately"), SUGGEST_PREFIX + who.chat.chat_id, in_private=True)
        return Reply(text, buttons=(button,), language=who.lang)

    async def poll(self, spec: PollSpec, who: Author) -> Reply:
        """/suggest in reply to a poll in a group."""
        return await self.suggest(drafts.from_poll(spec), who, who.chat)

    async def open_private(self, group_id: str, who: Author) -> Reply:
        """/start sg_<group>: the next poll (or line) the member sends here is their suggestion to it."""
        if (row := await self.store.draft(who.player.key)) is not None and not row.target:
            return error(who.lang, t(who.lang, "You are writing a quiz already: /done saves it, /discard drops it."))
        group = ChatRef(who.chat.platform, group_id, is_private=False)
        if (refused := await self._outsider(group, who)) is not None:
            return refused
        await self.store.save_draft(DraftRow(who.player.key, "", "[]", 0, self.clock.now(), target=group.key))
        return asking_poll(who.lang, t(who.lang, "Send me the quiz poll you suggest to the group (or /discard)."))

    async def _outsider(self, group: ChatRef, who: Author) -> Reply | None:
        """Why `who` may not suggest to `group` (anyone can open the link with any group's id, and
        a suggestion fills its admins' queue); None for a member. It costs a request."""
        try:
            if await self.adapters[group.platform].is_member(group, who.player):
                return None
        except MembershipUnknown:
            return error(who.lang, render_acks.link_unchecked(who.lang))
        return error(who.lang, t(who.lang, "Only the group's members can suggest questions to it."))

    # the admins' side -------------------------------------------------------------------------

    async def desk(self, args: str, who: Author) -> Reply:
        """/suggestions [approve N [quiz] | reject N | edit N question]: the queue, or a decision."""
        if who.chat.is_private:
            return error(who.lang, t(who.lang, "Suggestions belong to a group: send /suggestions there."))
        if not who.is_admin:
            return error(who.lang, t(who.lang, "Only chat admins can decide on suggestions."))
        words = args.split(maxsplit=2)
        action = words[0].lower() if words else ""
        number = int(words[1]) if len(words) > 1 and words[1].isdecimal() and len(words[1]) < 7 else 0
        rest = words[2].strip() if len(words) > 2 else ""
        if action in ("approve", "reject", "edit") and number:
            async with self._turns(who.chat.key):  # see press
                return await getattr(self, f"_{action}")(number, rest, who)
        if action:
            return error(who.lang, _usage(who.lang))
        return await self._listing(who)

    async def press(self, data: str, who: Author) -> Ack | Reply:
        """An "Approve" or "Reject" button under the listing (admins only)."""
        decision = tokens.suggestion_decision(data)
        if decision is None or not who.is_admin:
            return Ack(t(who.lang, "Only chat admins can decide on suggestions."), accepted=False, language=who.lang)
        approve, number = decision
        # one decision at a time in a group: four Approve pressed together each read the quiz,
        # added their question and stored it, and three approved questions were lost
        async with self._turns(who.chat.key):
            return await (self._approve(number, "", who) if approve else self._reject(number, "", who))

    async def _listing(self, who: Author) -> Reply:
        waiting = await self.store.open_suggestions(who.chat.key)
        if not waiting:
            return Reply(t(who.lang, "No suggestion is waiting. Members send theirs with /suggest."), language=who.lang)
        lines = [tn(who.lang, "{n} suggestion is waiting:", "{n} suggestions are waiting:", len(waiting)), ""]
        buttons: list[Button] = []
        for s in waiting[:SHOWN]:
            q = json.loads(s.content)
            lines.append(f"#{s.number} · {s.player_name}: {q['prompt']}")
            lines += [_suggested_option(who.lang, o, _right(q, i)) for i, o in enumerate(q.get("options", []))]
            buttons += [
                Button(t(who.lang, "Approve #{number}", number=s.number), tokens.suggestion_pick(True, s.number)),
                Button(t(who.lang, "Reject #{number}", number=s.number), tokens.suggestion_pick(False, s.number)),
            ]
        lines += ["", _usage(who.lang)]
        return Reply("\n".join(lines)[:3800], buttons=tuple(buttons), language=who.lang)

    async def _approve(self, number: int, quiz_id: str, who: Author) -> Reply:
        quiz_id = (quiz_id.split() or [DEFAULT_QUIZ])[0].casefold()
        suggestion = await self._open(who, number)
        if isinstance(suggestion, Reply):
            return suggestion
        if self.catalog.named(quiz_id) is not None or not _is_quiz_id(quiz_id):
            return error(
                who.lang,
                t(
                    who.lang,
                    "“{name}” cannot be this group's quiz: choose another name (a-z, 0-9, -).",
                    name=quiz_id[:40],
                ),
            )
        data = await self._quiz_with(who, quiz_id, json.loads(suggestion.content))
        outcome = await self.chat_quizzes.upload(
            who.chat, who.player, f"{quiz_id}.yaml", json.dumps(data, ensure_ascii=False).encode()
        )
        if outcome.status not in (UploadStatus.STORED, UploadStatus.REPLACED) or outcome.quiz is None:
            return unusable(who.lang, [f"{p.where}: {shown(who.lang, p.why, t)}" for p in outcome.problems])
        await self.store.decide_suggestion(who.chat.key, number, SuggestionStatus.APPROVED, suggestion.content)
        title = outcome.quiz.title.get(who.lang)
        await self._tell(suggestion, who, approved=True, title=title)
        text = tn(
            who.lang,
            "Approved #{number} by {name} into “{title}” ({n} question). /quiz {id} plays it.",
            "Approved #{number} by {name} into “{title}” ({n} questions). /quiz {id} plays it.",
            len(raw_questions(data)),
            number=number,
            name=suggestion.player_name,
            title=title,
            id=quiz_id,
        )
        return Reply(text, language=who.lang)

    async def _reject(self, number: int, why: str, who: Author) -> Reply:
        suggestion = await self._open(who, number)
        if isinstance(suggestion, Reply):
            return suggestion
        await self.store.decide_suggestion(who.chat.key, number, SuggestionStatus.REJECTED, suggestion.content)
        await self._tell(suggestion, who, approved=False, title=why[:200])
        return Reply(
            t(who.lang, "Rejected #{number} by {name}.", number=number, name=suggestion.player_name), language=who.lang
        )

    async def _edit(self, number: int, line: str, who: Author) -> Reply:
        suggestion = await self._open(who, number)
        if isinstance(suggestion, Reply):
            return suggestion
        made = drafts.from_line(line)
        if isinstance(made, Refusal):
            return error(who.lang, shown(who.lang, made.why, t))
        if found := drafts.problems("-", [made]):
            return unusable(who.lang, found)
        await self.store.decide_suggestion(
            who.chat.key, number, SuggestionStatus.OPEN, json.dumps(made, ensure_ascii=False)
        )
        return Reply(
            t(who.lang, "Suggestion #{number} edited: {prompt}", number=number, prompt=made["prompt"]),
            language=who.lang,
        )

    async def _open(self, who: Author, number: int) -> Suggestion | Reply:
        found = await self.store.suggestion(who.chat.key, number)
        if found is None or found.status is not SuggestionStatus.OPEN:
            return error(
                who.lang, t(who.lang, "No suggestion #{number} is waiting. /suggestions lists them.", number=number)
            )
        return found

    async def _quiz_with(self, who: Author, quiz_id: str, question: dict[str, Any]) -> dict[str, Any]:
        """The group's quiz `quiz_id` (a new one if it has none) with the question added at its end."""
        row = await self.store.chat_quiz(who.chat.key, quiz_id)
        if row is not None:
            data: dict[str, Any] = json.loads(row.content)
        else:
            about = t(who.lang, "Questions this group's members suggested.")
            data = drafts.quiz_data(quiz_id, quiz_id.replace("-", " ").capitalize(), [], about, who.lang)
        # a quiz of rounds takes it into its last round
        into = data["rounds"][-1] if data.get("rounds") else data
        taken = {q.get("id") for _, q in raw_questions(data) if isinstance(q, dict)}
        qid = next(f"s{n}" for n in range(1, 100_000) if f"s{n}" not in taken)
        into["questions"] = [*into["questions"], {**question, "id": qid}]
        return data

    async def _tell(self, suggestion: Suggestion, who: Author, approved: bool, title: str) -> None:
        """The member hears what became of their question, in their private chat, where the platform
        finds it; one who never opened it (or blocked the bot) is not told there: the group's reply
        names them anyway."""
        platform, _, user_id = suggestion.player_key.partition(":")
        adapter = self.adapters[platform]
        if not isinstance(adapter, PrivateChats):
            return
        try:
            chat = await adapter.private_chat(Player(platform, user_id, suggestion.player_name))
            lang = await self.chats.language_for(chat)
            prompt = json.loads(suggestion.content).get("prompt", "")
            if approved:
                text = t(
                    lang, "Your suggested question “{prompt}” was approved into “{title}”.", prompt=prompt, title=title
                )
            else:
                text = t(lang, "Your suggested question “{prompt}” was not taken.", prompt=prompt)
                text += f"\n{title}" if title else ""
            await adapter.send(chat, Reply(text, language=lang))
        except Exception:
            log.info("could not tell %s about suggestion #%d", suggestion.player_key, suggestion.number, exc_info=True)

    def _now(self) -> float:
        return self.clock.now()


def _right(question: dict[str, Any], index: int) -> bool:
    answer = question.get("answer")
    return index in answer if isinstance(answer, list) else index == answer


def _is_quiz_id(name: str) -> bool:
    return re.fullmatch(QUIZ_ID, name) is not None


def _usage(lang: str) -> str:
    return t(
        lang,
        "/suggestions approve N [quiz] · /suggestions reject N [why] · /suggestions edit N prompt | *right | option",
    )


def _suggested_option(lang: str, text: str, right: bool) -> str:
    """'   ✓ Paris' for a right option, '   · Rome' for another; in plain text the word: '   · Paris (right)'."""
    if is_plain(lang):
        return f"   · {text}" + (f" ({i18n.t(lang, 'right')})" if right else "")
    return f"   {'✓' if right else '·'} {text}"
