"""/review: a player's missed questions, asked again in a private chat, spaced by FSRS (recall.py).

A review session asks the cards that were due when it started, one at a time, with the same
buttons, reveal and explanation as a quiz, in the player's language. It keeps nothing in a
chat's runs or answers, so no leaderboard ever sees it. The open session is stored at each
step (one per player; a new /review replaces it), so after a restart a press on its card
still answers it and the review goes on. A card of a chat's own quiz is asked from that
chat's current upload; a question no longer there leaves the deck quietly.

Every kind: a select-all-that-apply card's letters toggle the picks (kept in memory: a restart
starts its picks afresh) and its "Done" answers it, all or nothing; a typed or numeric card takes
the next message the player types (`answer_text`); a poll is never a miss, so never a card.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.domain.answering import content_rtl, media_view, shortened, typed_response
from bot.domain.deck import ReviewCard, ReviewLogRow, ReviewSessionRow, due_now
from bot.domain.model import (
    LETTERS,
    NO_ANSWER,
    Ack,
    ChatRef,
    MessageRef,
    OptionView,
    Player,
    Question,
    QuestionCard,
    Quiz,
    Reply,
    Reveal,
)
from bot.domain.session import option_order
from bot.domain.tokens import REVIEW_DONE, ReviewToken, decode_review
from bot.engine import recall
from bot.kinds import kind_of
from bot.ports.chat import ChatAdapter, ChatUnreachable
from bot.ports.store import ReviewDecks
from bot.texts import render
from bot.texts import render_learning as texts
from bot.texts.render import ack_locked, ack_refused

if TYPE_CHECKING:
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.chats import Chats
    from bot.engine.sender import Sender
    from bot.ports.clock import Clock

log = logging.getLogger("quizhost.review")

START_DELAY = 1.0  # seconds between /review's reply and its first card, so they arrive in order


@dataclass(slots=True)
class _Asked:
    card: ReviewCard
    quiz: Quiz
    question: Question
    order: tuple[int, ...]  # displayed position -> authoring index
    shown: QuestionCard
    message: MessageRef | None = None
    answered: bool = False
    picks: str = ""  # a multi card's picks so far, as an answer stores them


@dataclass(slots=True)
class ReviewSession:
    id: int
    chat: ChatRef
    player_key: str
    language: str
    cards: list[ReviewCard]
    number: int = 0  # 1-based number of the card asked now; 0 before the first
    right: int = 0
    asked: _Asked | None = None

    def row(self) -> ReviewSessionRow:
        """The session as the store keeps it."""
        asked = self.asked
        message = asked.message.message_id if asked and asked.message else None
        return ReviewSessionRow(
            self.player_key,
            self.id,
            self.chat,
            self.language,
            tuple(self.cards),
            self.number,
            self.right,
            asked.order if asked else (),
            message,
            bool(asked and asked.answered),
        )


class ReviewDesk:
    def __init__(
        self,
        *,
        store: ReviewDecks,
        catalog: Catalog,
        chat_quizzes: ChatQuizzes,
        clock: Clock,
        chats: Chats,
        adapters: Mapping[str, ChatAdapter],
        sender: Sender,
    ) -> None:
        self.store = store
        self.catalog, self.chat_quizzes = catalog, chat_quizzes
        self.clock, self.chats = clock, chats
        self.adapters, self.sender = adapters, sender
        self._sessions: dict[str, ReviewSession] = {}  # by player key
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng = random.Random()

    def active(self, player: Player) -> bool:
        return player.key in self._sessions

    async def settle(self) -> None:
        """Wait until every card and reveal on its way has been shown (tests, the terminal)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def start(self, chat: ChatRef, player: Player, lang: str) -> Reply:
        if not chat.is_private:
            return texts.review_in_private(lang)
        now = self.clock.now()
        deck = await self._deck(player.key)
        due = due_now(deck, now)
        if not due:
            return texts.nothing_due(lang, len(deck), min((c.due for c in deck), default=None), await self._zone(chat))
        session = ReviewSession(self._rng.randrange(1, 10**9), chat, player.key, lang, due)
        await self.store.save_review_session(session.row())  # in place of an older one
        self._sessions[player.key] = session
        self._spawn(self._next(session, delay=START_DELAY))
        return texts.review_starts(lang, len(due), len(deck))

    async def stop(self, chat: ChatRef, player: Player) -> Reply | None:
        """/stop: ends the player's review in this chat, how far it got; None when none is open here.
        The cards not reached keep their due dates, so the next /review asks them."""
        session = await self._session(player.key)
        if session is None or session.chat.key != chat.key:
            return None
        await self._end(session)  # a card or reveal on its way finds the session gone and stops
        asked = session.asked
        answered = session.number - (0 if asked is not None and asked.answered else 1)
        return texts.review_stopped(session.language, session.right, max(answered, 0))

    async def answer(self, data: str, player: Player) -> Ack:
        """A press on a review card: stored in the deck first, then acknowledged."""
        token = decode_review(data)
        session = await self._session(player.key) if token is not None else None
        lang = session.language if session else self.chats.client_language(player)
        if token is None or session is None or token.session != session.id:
            return Ack(texts.review_ended(lang), False, lang)
        asked = session.asked
        if asked is None or token.number != session.number or asked.answered:
            return Ack(ack_refused(lang, "closed"), False, lang)
        if token.choice >= len(asked.order) or (token.choice == REVIEW_DONE and not asked.picks):
            return Ack(ack_refused(lang, "no_picks" if token.choice == REVIEW_DONE else "out_of_range"), False, lang)
        kind = kind_of(asked.question)
        if kind.collects_picks and token.choice != REVIEW_DONE:
            asked.picks = kind.toggled(asked.picks, asked.order[token.choice])
            said = kind.said_so_far(asked.question, asked.order, asked.picks)
            return Ack(render.ack_step(lang, asked.question.kind, said), True, lang)
        if token.choice == REVIEW_DONE:
            said = kind.answered_label(asked.question, asked.order, NO_ANSWER, asked.picks)
            chosen = frozenset(kind.chosen_options(NO_ANSWER, asked.picks))
            correct = kind.judge(asked.question, NO_ANSWER, asked.picks, 0.0, 1.0, 0).correct
        else:
            said, chosen = LETTERS[token.choice], frozenset({asked.order[token.choice]})
            correct = asked.order[token.choice] == asked.question.answer
        return await self._answered(session, player, correct, chosen, ack_locked(lang, said))

    async def answer_text(self, player: Player, text: str) -> Ack | None:
        """A message typed in the private chat: the answer to an open typed or numeric card, else
        None (ordinary chat)."""
        session = self._sessions.get(player.key) or await self._session(player.key)
        asked = session.asked if session else None
        kind = kind_of(asked.question) if asked else None
        if session is None or asked is None or kind is None or asked.answered or kind.has_options:
            return None
        lang, typed = session.language, typed_response(text)
        if not kind.accepts_text(typed):
            return Ack(render.ack_not_a_number(lang, shortened(typed)), False, lang, retry=True)
        correct = kind.judge(asked.question, NO_ANSWER, typed, 0.0, 1.0, 0).correct
        return await self._answered(
            session, player, correct, frozenset(), render.ack_text_locked(lang, shortened(typed))
        )

    async def _answered(
        self, session: ReviewSession, player: Player, correct: bool, chosen: frozenset[int], ack: str
    ) -> Ack:
        """The card is answered: the deck moves it, then the answer is acknowledged and revealed."""
        lang, asked = session.language, session.asked
        assert asked is not None
        asked.answered = True
        now = self.clock.now()
        moved, graded = recall.answered(asked.card, correct, now)
        try:
            await self._keep(asked.card, moved, graded)
        except Exception:
            asked.answered = False
            log.exception("review of %s: the deck was not updated", player.key)
            return Ack(texts.not_saved(lang), False, lang)
        session.right += correct
        await self._save(session)
        self._spawn(self._reveal_and_next(session, asked, chosen, texts.card_moved(lang, correct, moved, now)))
        return Ack(ack, True, lang)

    # the deck -----------------------------------------------------------------------

    async def _deck(self, player_key: str) -> list[ReviewCard]:
        """The player's cards whose question still exists; the others leave quietly."""
        cards = []
        for card in await self.store.review_deck(player_key):
            found = await self._question(card)
            if found is None or not kind_of(found[1]).is_scored:  # gone, or now a poll: no answer to learn
                await self.store.remove_review_card(card)
            else:
                cards.append(card)
        return cards

    async def _question(self, card: ReviewCard) -> tuple[Quiz, Question] | None:
        """The card's question as its quiz has it now: a shipped quiz, or the current upload
        of the chat whose own quiz it is."""
        quiz = (
            await self.chat_quizzes.get(card.quiz_chat, card.quiz_id)
            if card.quiz_chat
            else self.catalog.get(card.quiz_id)
        )
        question = next((q for q in quiz.questions if q.id == card.question_id), None) if quiz else None
        return (quiz, question) if quiz and question else None

    async def _keep(self, card: ReviewCard, moved: ReviewCard | None, graded: ReviewLogRow) -> None:
        if moved is None:
            await self.store.remove_review_card(card)
        else:
            await self.store.put_review_cards([moved])
        try:
            await self.store.add_review_log([graded])
        except Exception:  # the log only measures the scheduler; the deck is what the player needs
            log.exception("review of %s: logging a grade failed", card.player_key)

    async def _zone(self, chat: ChatRef) -> str:
        return (await self.chats.settings(chat)).time_zone or "UTC"

    # the stored session --------------------------------------------------------------

    async def _session(self, player_key: str) -> ReviewSession | None:
        """The player's open review: this process's, else the store's (after a restart)."""
        session = self._sessions.get(player_key)
        if session is not None:
            return session
        row = await self.store.review_session(player_key)
        if row is None:
            return None
        session = ReviewSession(row.session, row.chat, player_key, row.language, list(row.cards), row.number, row.right)
        if 0 < row.number <= len(row.cards):
            card = row.cards[row.number - 1]
            found = await self._question(card)
            if found is not None and sorted(row.order) == list(range(len(found[1].options))):
                message = MessageRef(row.chat, row.message_id) if row.message_id else None
                session.asked = _Asked(
                    card, *found, row.order, self._view(session, *found, row.order), message, row.answered
                )
        return self._sessions.setdefault(player_key, session)

    async def _save(self, session: ReviewSession) -> None:
        try:
            await self.store.save_review_session(session.row())
        except Exception:  # the review goes on; only a restart now would lose its place
            log.exception("review of %s: storing the session failed", session.player_key)

    async def _end(self, session: ReviewSession) -> None:
        if self._sessions.get(session.player_key) is session:
            del self._sessions[session.player_key]
        try:
            await self.store.end_review_session(session.player_key, session.id)
        except Exception:  # a stale session only answers "closed" to presses on its last card
            log.exception("review of %s: forgetting the session failed", session.player_key)

    # showing cards ------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _next(self, session: ReviewSession, delay: float = 0.0) -> None:
        if delay:
            await self.clock.sleep(delay)
        if self._sessions.get(session.player_key) is not session:
            return  # a newer /review replaced this one
        while session.number < len(session.cards):
            session.number += 1
            card = session.cards[session.number - 1]
            found = await self._question(card)
            if found is None:  # removed from its quiz while the review ran
                await self.store.remove_review_card(card)
                continue
            await self._ask(session, card, *found)
            return
        await self._end(session)
        deck = await self._deck(session.player_key)
        nxt = min((c.due for c in deck), default=None)
        await self._send(
            session.chat,
            texts.review_done(
                session.language, session.right, session.number, len(deck), nxt, await self._zone(session.chat)
            ),
        )

    async def _ask(self, session: ReviewSession, card: ReviewCard, quiz: Quiz, question: Question) -> None:
        order = tuple(kind_of(question).arranged(option_order(session.id, question)))
        session.asked = _Asked(card, quiz, question, order, self._view(session, quiz, question, order))
        try:
            session.asked.message = await self.adapters[session.chat.platform].post_question(session.asked.shown)
        except Exception as error:
            log.exception("review of %s: posting a card failed; the review ends", session.player_key)
            await self._end(session)
            await self._failed(error, session.chat)
            return
        await self._save(session)

    def _view(self, session: ReviewSession, quiz: Quiz, question: Question, order: tuple[int, ...]) -> QuestionCard:
        """The card as the player sees it, its options in `order` (displayed position -> authoring index)."""
        lang = session.language
        options = tuple(
            OptionView(
                LETTERS[pos], question.options[src].get(lang), ReviewToken(session.id, session.number, pos).encode()
            )
            for pos, src in enumerate(order)
        )
        done = ReviewToken(session.id, session.number, REVIEW_DONE).encode()
        return QuestionCard(
            run_id=0,
            chat=session.chat,
            language=lang,
            quiz_title=texts.review_title(lang, quiz.title.get(lang)),
            number=session.number,
            total=len(session.cards),
            prompt=question.prompt.get(lang),
            options=options,
            seconds=0,
            deadline=self.clock.now(),
            kind=question.kind,
            media=media_view(question.media, quiz, lang),
            done_token=done if kind_of(question).collects_picks else None,
            direction_rtl=content_rtl(quiz, question, lang),
        )

    async def _reveal_and_next(self, session: ReviewSession, asked: _Asked, chosen: frozenset[int], note: str) -> None:
        lang, question = session.language, asked.question
        right_letter, right_text = kind_of(question).right_answer(question, asked.shown, asked.order)
        counts = tuple(int(src in chosen) for src in asked.order)
        why = question.explanation.get(lang) if question.explanation else ""  # imports may have none
        reveal = Reveal(
            asked.shown,
            right_letter,
            right_text,
            why,
            counts,
            answers=(),
            note=note,  # what the answer did to the card
            kind=question.kind,
            explanation_media=media_view(question.explanation_media, asked.quiz, lang),
        )
        try:
            await self.adapters[session.chat.platform].close_question(asked.message, reveal)
        except Exception as error:
            log.exception("review of %s: showing an answer failed", session.player_key)
            await self._failed(error, session.chat)
        await self._next(session)

    async def _send(self, chat: ChatRef, reply: Reply) -> None:
        try:
            await self.adapters[chat.platform].send(chat, reply)
        except Exception as error:
            log.exception("review: a message to %s failed", chat.key)
            await self._failed(error, chat)

    async def _failed(self, error: Exception, chat: ChatRef) -> None:
        if isinstance(error, ChatUnreachable):  # the player blocked the bot: as any chat that refuses it
            await self.sender.refused(chat.key)
