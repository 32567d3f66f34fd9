"""The key that signs the deep links which act on a group (bot/domain/tokens.py answer_start).

A typed question's "Answer" in a Telegram group is a deep link, t.me/<bot>?start=<payload>, and
anyone can open such a link with any payload: its proof keeps guessed and altered payloads out
cheaply, before anything is asked of the platform or stored. A member may still forward a real
link to someone outside the group, so the player's membership is checked when it is used
(bot/commands/typed.py): the proof is not what lets them play.

The key is derived from the secret that signs web links (QUIZHOST_WEB_SECRET, or the database's
own), so every process on the database signs and checks alike, and a link signed for one
purpose is never valid for another.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.domain import tokens
from bot.domain.tokens import QuestionToken, StartRefusal
from bot.ports.store import WebRecords

_PURPOSE = b"quizhost deep links"


class DeepLinks:
    def __init__(self, store: WebRecords, secret: str = "") -> None:
        self._store, self._secret = store, secret
        self._key: bytes | None = None

    async def key(self) -> bytes:
        if self._key is None:
            secret = self._secret or await self._store.web_secret(secrets.token_urlsafe(32))
            self._key = hmac.new(secret.encode(), _PURPOSE, hashlib.sha256).digest()
        return self._key

    async def answer_start(self, token: QuestionToken) -> str:
        """The signed /start payload of a typed or numeric question's "Answer" deep link."""
        return tokens.answer_start(token, await self.key())

    async def answer_of(self, payload: str) -> QuestionToken | StartRefusal | None:
        """The question a /start payload sends the player to answer, why not, or None (not such a payload)."""
        if not payload.startswith(tokens.ANSWER_START):
            return None
        return tokens.decode_answer_start(payload, await self.key())
