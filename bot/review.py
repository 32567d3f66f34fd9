"""/review: a player's missed questions, asked again in a private chat, spaced in Leitner boxes.

A review session asks the cards that were due when it started, one at a time, with the same
buttons, reveal and explanation as a quiz, in the player's language. It keeps nothing in a
chat's runs or answers, so no leaderboard ever sees it. Sessions live in memory: after a
restart a press says the review ended and /review starts again (the deck itself is stored).
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import leitner
from bot import render_learning as texts
from bot.leitner import ReviewCard
from bot.model import LETTERS, Ack, ChatRef, MessageRef, OptionView, Player, Question, QuestionCard, Quiz, Reply, Reveal
from bot.render import ack_locked, ack_refused
from bot.session import option_order
from bot.tokens import ReviewToken, decode_review

if TYPE_CHECKING:
    from bot.engine import Engine

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


@dataclass(slots=True)
class ReviewSession:
    id: int
    chat: ChatRef
    player: Player
    language: str
    cards: list[ReviewCard]
    number: int = 0  # 1-based number of the card asked now; 0 before the first
    right: int = 0
    asked: _Asked | None = None


class ReviewDesk:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.store = engine.store
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
        now = self.engine.clock.now()
        deck = await self._deck(player)
        due = leitner.due_now(deck, now)
        if not due:
            return texts.nothing_due(lang, len(deck), min((c.due for c in deck), default=None), await self._zone(chat))
        session = ReviewSession(self._rng.randrange(1, 10**9), chat, player, lang, due)
        self._sessions[player.key] = session
        self._spawn(self._next(session, delay=START_DELAY))
        return texts.review_starts(lang, len(due), len(deck))

    async def answer(self, data: str, player: Player) -> Ack:
        """A press on a review card: stored in the deck first, then acknowledged."""
        token = decode_review(data)
        session = self._sessions.get(player.key)
        lang = session.language if session else self.engine.client_language(player)
        if token is None or session is None or token.session != session.id:
            return Ack(texts.review_ended(lang), False, lang)
        asked = session.asked
        if asked is None or token.number != session.number or asked.answered:
            return Ack(ack_refused(lang, "closed"), False, lang)
        if token.choice >= len(asked.order):
            return Ack(ack_refused(lang, "out_of_range"), False, lang)
        asked.answered = True
        correct = asked.order[token.choice] == asked.question.answer
        now = self.engine.clock.now()
        moved = leitner.answered(asked.card, correct, now)
        try:
            await self._keep(asked.card, moved)
        except Exception:
            asked.answered = False
            log.exception("review of %s: the deck was not updated", player.key)
            return Ack(texts.not_saved(lang), False, lang)
        session.right += correct
        self._spawn(self._reveal_and_next(session, asked, token, moved, now))
        return Ack(ack_locked(lang, LETTERS[token.choice]), True, lang)

    # the deck -----------------------------------------------------------------------

    async def _deck(self, player: Player) -> list[ReviewCard]:
        """The player's cards whose question still exists; the others leave quietly."""
        cards = []
        for card in await self.store.review_deck(player.key):
            if self._question(card) is None:
                await self.store.remove_review_card(card.player_key, card.quiz_id, card.question_id)
            else:
                cards.append(card)
        return cards

    def _question(self, card: ReviewCard) -> tuple[Quiz, Question] | None:
        quiz = self.engine.catalog.get(card.quiz_id)
        question = next((q for q in quiz.questions if q.id == card.question_id), None) if quiz else None
        return (quiz, question) if quiz and question else None

    async def _keep(self, card: ReviewCard, moved: ReviewCard | None) -> None:
        if moved is None:
            await self.store.remove_review_card(card.player_key, card.quiz_id, card.question_id)
        else:
            await self.store.put_review_cards([moved])

    async def _zone(self, chat: ChatRef) -> str:
        return (await self.engine.chat_settings(chat)).time_zone or "UTC"

    # showing cards ------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _next(self, session: ReviewSession, delay: float = 0.0) -> None:
        if delay:
            await self.engine.clock.sleep(delay)
        if self._sessions.get(session.player.key) is not session:
            return  # a newer /review replaced this one
        while session.number < len(session.cards):
            session.number += 1
            card = session.cards[session.number - 1]
            found = self._question(card)
            if found is None:  # removed from its quiz while the review ran
                await self.store.remove_review_card(card.player_key, card.quiz_id, card.question_id)
                continue
            await self._ask(session, card, *found)
            return
        del self._sessions[session.player.key]
        deck = await self._deck(session.player)
        nxt = min((c.due for c in deck), default=None)
        await self._send(session.chat, texts.review_done(session.language, session.right, session.number,
                                                         len(deck), nxt, await self._zone(session.chat)))

    async def _ask(self, session: ReviewSession, card: ReviewCard, quiz: Quiz, question: Question) -> None:
        lang, now = session.language, self.engine.clock.now()
        order = tuple(option_order(session.id, question.id, len(question.options)))
        options = tuple(OptionView(LETTERS[pos], question.options[src].get(lang),
                                   ReviewToken(session.id, session.number, pos).encode())
                        for pos, src in enumerate(order))
        shown = QuestionCard(run_id=0, chat=session.chat, language=lang,
                             quiz_title=texts.review_title(lang, quiz.title.get(lang)), number=session.number,
                             total=len(session.cards), prompt=question.prompt.get(lang), options=options,
                             seconds=0, deadline=now)
        session.asked = _Asked(card, quiz, question, order, shown)
        try:
            session.asked.message = await self.engine.adapter(session.chat.platform).post_question(shown)
        except Exception:
            log.exception("review of %s: posting a card failed; the review ends", session.player.key)
            self._sessions.pop(session.player.key, None)

    async def _reveal_and_next(self, session: ReviewSession, asked: _Asked, token: ReviewToken,
                               moved: ReviewCard | None, now: float) -> None:
        lang, question = session.language, asked.question
        right = asked.order.index(question.answer)
        counts = tuple(int(pos == token.choice) for pos in range(len(asked.order)))
        why = question.explanation.get(lang) if question.explanation else ""  # imports may have none
        reveal = Reveal(asked.shown, LETTERS[right], asked.shown.options[right].text, why,
                        counts, answers=(), note=texts.card_moved(lang, moved, now))
        try:
            await self.engine.adapter(session.chat.platform).close_question(asked.message, reveal)
        except Exception:
            log.exception("review of %s: showing an answer failed", session.player.key)
        await self._next(session)

    async def _send(self, chat: ChatRef, reply: Reply) -> None:
        try:
            await self.engine.adapter(chat.platform).send(chat, reply)
        except Exception:
            log.exception("review: a message to %s failed", chat.key)
