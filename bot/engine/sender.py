"""Delivers the outbox: every message a run owes its chat, in order per chat, until the
platform takes it or it expires.

The engine stores a message with the run state that makes it due (`Store.save_run(send=...)`)
and hands it here. A chat's messages go out one at a time in the order they were made; chats
do not wait for each other. A try is recorded in the store before it starts. Every message is
sent again after any failure, certain or not (DeliveryUncertain: the platform may have taken
it), until the platform acknowledges it: a closing edit is idempotent, and a question or podium
posted twice is better than one lost (the first copy's buttons carry the same tokens, so its
presses count). Retries back off from 0 s to 15 s; a closing edit, podium or notice older than
15 minutes is dropped with a log line (a question waits for the engine: it gives the run up instead).
A question the platform refuses as it is (MessageRefused: it would refuse it every time) is not
tried again: the engine ends its run at once, and the chat is told.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace

from bot.domain import outbox_codec as codec
from bot.domain.model import MessageRef
from bot.domain.records import MessageKind, OutboxMessage
from bot.engine.timers import sleep_or_wake
from bot.ports.chat import DELIVERING, ChatAdapter, ChatUnreachable, DeliveryUncertain, MessageRefused
from bot.ports.clock import Clock
from bot.ports.store import Outbox

log = logging.getLogger("quizhost.sender")

BACKOFF_FIRST = 1.0
BACKOFF_MOST = 15.0  # once the platform is back, a chat hears from the bot within this
EXPIRE_SECONDS = 15 * 60.0
DRAIN_SECONDS = 10.0  # how long a stopping bot waits for messages in flight

Posted = Callable[[OutboxMessage, MessageRef | None], Awaitable[None]]
Refused = Callable[[OutboxMessage], Awaitable[None]]  # a question the platform will never take
Unreachable = Callable[[str], Awaitable[None]]  # told the key of a chat that refuses the bot


def backoff(tries: int) -> float:
    """After the first failed try, again at once (a blip); then 1 s, 2 s, 4 s ... up to 15 s."""
    return 0.0 if tries <= 1 else min(BACKOFF_MOST, BACKOFF_FIRST * 2 ** (tries - 2))


class Sender:
    def __init__(
        self, store: Outbox, clock: Clock, adapters: Mapping[str, ChatAdapter], posted: Posted, refused: Refused
    ) -> None:
        self._store = store
        self._clock = clock
        self._adapters = adapters  # by platform; the engine's own dict, so later attaches count
        self._posted = posted  # a question's delivery starts its clock: the engine stores that
        self._refused_question = refused  # the engine ends that question's run, and says so
        self._queues: dict[str, deque[OutboxMessage]] = {}  # chat key -> its messages, oldest first
        self._keys: dict[str, str] = {}  # the key of every queued message -> its chat's key
        self._pumps: dict[str, asyncio.Task[None]] = {}  # the chats being sent to now
        self._later: list[tuple[float, str]] = []  # (not before, chat key): chats backing off
        self._wake = asyncio.Event()
        self._stopping = False
        self.counts: Counter[str] = Counter()  # delivered, failed, uncertain, expired, refused
        self._unreachable: list[Unreachable] = []

    def on_unreachable(self, listener: Unreachable) -> None:
        """`listener(chat_key)` runs whenever the platform refuses a send as forbidden (the bot
        was removed from the chat, or blocked): the scheduler pauses that chat's schedules."""
        self._unreachable.append(listener)

    # what the engine calls ---------------------------------------------------------

    def add(self, messages: Iterable[OutboxMessage]) -> None:
        """Queue messages already stored; a key queued before is not queued again."""
        for m in messages:
            if m.key not in self._keys:
                self._keys[m.key] = m.chat_key
                self._queues.setdefault(m.chat_key, deque()).append(m)

    def take(self, messages: Iterable[OutboxMessage]) -> None:
        """Queue stored messages that no step of the engine will push (taken over from a worker
        that died): the serve loop sends them."""
        self.add(messages)
        self._wake.set()

    def has(self, key: str) -> bool:
        return key in self._keys

    def forget_runs(self, run_ids: set[int]) -> None:
        """Stop sending these runs' messages (another worker owns them now); one in flight ends."""
        for chat, queue in self._queues.items():
            busy = queue[0] if queue and self._is_pumping(chat) else None
            for m in [m for m in queue if m.run_id in run_ids and m is not busy]:
                queue.remove(m)
                self._keys.pop(m.key, None)

    def discard(self, key: str) -> None:
        """Forget a queued message the engine removed from the store (a question given up, or
        posted: every posted question's key comes here). Only its own chat's queue is looked
        at: walking every chat's cost 66 µs of the loop a question with 1,000 chats playing."""
        chat_key = self._keys.get(key)
        queue = self._queues.get(chat_key) if chat_key is not None else None
        if chat_key is None or queue is None:
            return
        for m in queue:
            if m.key == key and not (queue[0] is m and self._is_pumping(chat_key)):
                queue.remove(m)
                del self._keys[key]
                return

    async def push(self, chat_key: str) -> None:
        """Send the chat's ready messages now and wait for them (a step of the engine does)."""
        pump = self._pump(chat_key)
        if pump is not None:
            await asyncio.shield(pump)  # a cancelled step must not cut a send in half

    async def flush_due(self) -> None:
        """Send every chat's ready messages and wait for them (tests, and the loop below)."""
        now = self._clock.now()
        pumps = [self._pump(chat) for chat, queue in list(self._queues.items()) if queue and queue[0].not_before <= now]
        await asyncio.gather(*(asyncio.shield(p) for p in pumps if p is not None))

    async def serve(self) -> None:
        """Send what is ready, then sleep until a chat's back-off ends or something new comes."""
        while True:
            self._wake.clear()
            now = self._clock.now()
            while self._later and self._later[0][0] <= now:
                self._pump(heapq.heappop(self._later)[1])
            for chat, queue in list(self._queues.items()):
                if queue and queue[0].not_before <= now:
                    self._pump(chat)
            await sleep_or_wake(self._clock, self._wake, self._later[0][0] - now if self._later else None)

    async def drain(self, seconds: float = DRAIN_SECONDS) -> int:
        """Start nothing new, wait up to `seconds` for sends in flight; what is left stays stored.

        Returns how many messages were left in the outbox."""
        self._stopping = True
        pumps = list(self._pumps.values())
        if pumps:
            _, late = await asyncio.wait(pumps, timeout=seconds)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        left = sum(len(q) for q in self._queues.values())
        log.info("sender stopped: %d message(s) left in the outbox", left)
        return left

    # one chat's queue ----------------------------------------------------------------

    def _is_pumping(self, chat_key: str) -> bool:
        return chat_key in self._pumps

    def _pump(self, chat_key: str) -> asyncio.Task[None] | None:
        """The task sending this chat's queue: the running one, or a new one."""
        if self._stopping or not self._queues.get(chat_key):
            return None
        task = self._pumps.get(chat_key)
        if task is None:
            task = self._pumps[chat_key] = asyncio.ensure_future(self._send_queue(chat_key))
            task.add_done_callback(lambda _: self._pumps.pop(chat_key, None))
        return task

    async def _send_queue(self, chat_key: str) -> None:
        queue = self._queues[chat_key]
        while queue and not self._stopping:
            head = queue[0]
            if head.not_before > self._clock.now():
                self._wait_for(head)
                return
            try:
                finished = await self._deliver(head, queue)
            except Exception:  # the store failed to record a try: leave it queued, try later
                log.exception("outbox %s: recording a send failed", head.key)
                queue[0] = head = replace(head, not_before=self._clock.now() + backoff(head.tries + 1))
                finished = False
            if finished:
                queue.popleft()
                self._keys.pop(head.key, None)
        if not queue:
            self._queues.pop(chat_key, None)

    def _wait_for(self, head: OutboxMessage) -> None:
        heapq.heappush(self._later, (head.not_before, head.chat_key))
        self._wake.set()

    async def _deliver(self, m: OutboxMessage, queue: deque[OutboxMessage]) -> bool:
        """One try at the queue's head; True when it is done with (sent, or dropped)."""
        now = self._clock.now()
        if m.kind is not MessageKind.QUESTION and now - m.created_at > EXPIRE_SECONDS:
            log.warning("outbox %s: a %s older than %d minutes is dropped unsent", m.key, m.kind, EXPIRE_SECONDS // 60)
            self.counts["expired"] += 1
            await self._store.outbox_remove([m.key])
            return True
        queue[0] = m = replace(m, tries=m.tries + 1)
        await self._store.outbox_update(m)  # stored before the try: a crash in it counts as one
        try:
            ref = await self._call(m)
        except MessageRefused as error:
            self.counts["refused"] += 1
            log.warning("outbox %s: the platform refuses it as it is (%s); not sent again", m.key, error)
            await self._refused_question(m)  # removes it with the run's end, in one transaction
            return True
        except DeliveryUncertain as error:
            self.counts["uncertain"] += 1
            log.warning("outbox %s: the platform may have taken it (%s); try %d, sent again", m.key, error, m.tries)
            queue[0] = m = replace(m, not_before=self._clock.now() + backoff(m.tries))
        except Exception as error:
            self.counts["failed"] += 1
            log.warning("outbox %s: sending failed (%s: %s); try %d", m.key, type(error).__name__, error, m.tries)
            queue[0] = m = replace(m, failed=m.failed + 1, not_before=self._clock.now() + backoff(m.tries))
            if isinstance(error, ChatUnreachable):
                await self.refused(m.chat_key)
        else:
            self.counts["delivered"] += 1
            await self._done(m, ref)
            return True
        await self._store.outbox_update(m)
        return False

    async def refused(self, chat_key: str) -> None:
        """Tell the listeners that the platform refused a send to the chat as forbidden (the
        outbox's own sends, and others', such as a review's cards in a private chat)."""
        for listener in self._unreachable:
            try:
                await listener(chat_key)
            except Exception:  # the send is still recorded as failed and tried again
                log.exception("outbox: telling that %s refuses the bot failed", chat_key)

    async def _done(self, m: OutboxMessage, ref: MessageRef | None) -> None:
        if m.kind is MessageKind.QUESTION:
            await self._posted(m, ref)  # removes it in the same transaction as the run's new state
        else:
            await self._store.outbox_remove([m.key])

    async def _call(self, m: OutboxMessage) -> MessageRef | None:
        DELIVERING.set(m.key)  # this chat's pump task sends nothing but the outbox's messages
        if m.kind is MessageKind.QUESTION:
            card = codec.card_of(m)
            # the clock starts now: show the deadline from here, not from when it was asked
            card = replace(card, deadline=self._clock.now() + card.seconds)
            return await self._adapters[card.chat.platform].post_question(card)
        if m.kind is MessageKind.CLOSE:
            message, reveal = codec.close_of(m)
            await self._adapters[reveal.card.chat.platform].close_question(message, reveal)
            return None
        chat, reply = codec.reply_of(m)
        await self._adapters[chat.platform].send(chat, reply)
        return None
