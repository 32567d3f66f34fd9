"""How much the bot says to one user: the replies to their commands and messages come out of a
token bucket of their own, and what names nothing alive is refused once a minute at most.

One member typing 300 /help in a burst was answered 300 times: every reply took a place of
the bot's 30 messages a second, so another group's first question waited 11 s behind them
(in a group, 256 handlers queued on that group's 20 a minute, and the bot read nothing else
for minutes). Now a burst gets BURST replies, then one "slow down", then silence: the command
is not even carried out until the bucket has a reply in it again, and the slow-down is said
once per burst (again only after the bucket has filled up, i.e. the user paused).

The numbers, in one place:
- BURST = 10: someone trying the bot types a few commands in a row (/quizzes, /quiz x,
  /leaderboard, /stats...), an admin works through /suggestions, a member sends the ten
  questions they suggest at once: all of them are answered at once.
- REFILL_SECONDS = 4: then a reply each 4 s (15 a minute), as fast as anyone reads one; a
  member who keeps at it spends at most 15 of a Telegram group's 20 messages a minute, so the
  group's quiz is slowed but never stopped, and no other group is touched at all.
- DEAD_SECONDS = 60: an unknown command, a deep link whose question is gone, a message that
  answers nothing open: one refusal a minute tells the user; 999 more of the same would only
  spend the bot's sends. Each different one is refused as well, within the bucket.

Only what a user's own command or message makes the bot say is counted here: a quiz's own
messages (questions, reveals, podiums) are the engine's and never wait for this, and a button
press's private answer is not a message (Telegram's toast, Discord's ephemeral reply), so it
is not held back. Each process keeps its own budgets (several webhook workers each give a
user theirs): a budget is a courtesy to the other chats, not an account.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from bot.domain.model import Ack
from bot.ports.clock import Clock
from bot.texts.render import t

BURST = 10  # replies a user gets at once
REFILL_SECONDS = 4.0  # then one each this many seconds
DEAD_SECONDS = 60.0  # a refusal of what names nothing alive: once a minute per user
USERS_KEPT = 10_000  # users' buckets kept before the full ones (idle users) are dropped


class Admission(enum.Enum):
    SAY = "say"  # answer as usual
    SLOW_DOWN = "slow down"  # answer with `slow_down` instead, once per burst
    QUIET = "quiet"  # say nothing, do nothing


@dataclass
class _Bucket:
    replies: float  # replies the user may have now (up to BURST)
    at: float  # when `replies` was last brought up to date
    warned: bool = False  # told to slow down during this burst


class ReplyBudgets:
    """Every user's bucket and their last refusal, on the engine's clock."""

    def __init__(
        self, clock: Clock, burst: int = BURST, refill: float = REFILL_SECONDS, dead_every: float = DEAD_SECONDS
    ) -> None:
        self._clock, self.burst, self.refill, self.dead_every = clock, burst, refill, dead_every
        self._buckets: dict[str, _Bucket] = {}
        self._refused: dict[tuple[str, str], float] = {}  # (user, what) -> when its refusal was said
        self._last_refused: dict[str, float] = {}  # user -> when any refusal was said to them

    def admit(self, user: str) -> Admission:
        """One reply to `user` taken from their bucket, if it has one."""
        bucket = self._refilled(user)
        if bucket.replies >= 1:
            bucket.replies -= 1
            return Admission.SAY
        if bucket.warned or self._refused_lately(user):  # one message a burst, a refusal counting as one
            return Admission.QUIET
        bucket.warned = True
        return Admission.SLOW_DOWN

    def seconds_to_next(self, user: str) -> int:
        """Whole seconds until `user` is answered again."""
        bucket = self._refilled(user)
        return max(1, math.ceil((1 - bucket.replies) * self.refill))

    def may_refuse(self, user: str, what: str = "") -> bool:
        """Whether the refusal of `what` (a payload, a command, "" for a message) may be said to
        `user` now (then it is counted said). Once a minute for the same thing: a different
        payload is refused as well (someone trying links is told why each fails), the bucket
        bounding how many they get."""
        now = self._clock.now()
        last = self._refused.get((user, what))
        if last is not None and now - last < self.dead_every:
            return False
        if len(self._refused) >= USERS_KEPT:
            self._refused = {k: at for k, at in self._refused.items() if now - at < self.dead_every}
            self._last_refused = {u: at for u, at in self._last_refused.items() if now - at < self.dead_every}
        self._refused[(user, what)] = self._last_refused[user] = now
        return True

    def _refused_lately(self, user: str) -> bool:
        last = self._last_refused.get(user)
        return last is not None and self._clock.now() - last < self.dead_every

    def _refilled(self, user: str) -> _Bucket:
        now = self._clock.now()
        bucket = self._buckets.get(user)
        if bucket is None:
            if len(self._buckets) >= USERS_KEPT:
                self._forget_full(now)
            bucket = self._buckets[user] = _Bucket(float(self.burst), now)
        bucket.replies = min(float(self.burst), bucket.replies + max(0.0, now - bucket.at) / self.refill)
        bucket.at = now
        if bucket.replies >= self.burst:  # a pause long enough to fill it: the burst is over
            bucket.warned = False
        return bucket

    def _forget_full(self, now: float) -> None:
        """A full bucket is what a new user gets: dropping it changes nothing."""
        full_after = self.burst * self.refill
        self._buckets = {u: b for u, b in self._buckets.items() if now - b.at < full_after}


def slow_down(lang: str, seconds: int) -> str:
    return t(lang, "You are sending me a lot at once: I will answer again in {seconds} s.", seconds=seconds)


def refuses(ack: Ack) -> bool:
    """An acknowledgement that the message answered nothing open (not "not a number, try again")."""
    return not ack.accepted and not ack.retry
