"""Signed links to a chat's web pages: HMAC-SHA256 over what the link opens and until when.

A link names one chat, what it may see (the admin pages, or only the public leaderboard),
when it was issued and when it stops working, and maybe the player who asked for it (their row
is highlighted). Whoever holds the secret (QUIZHOST_WEB_SECRET, or the one stored in the
database) makes and checks them; nothing is kept per link, only per chat the instant before
which its links were revoked (/dashboard revoke, Store.revoke_links). The clock is passed in.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote

from bot.ports.store import WebRecords

VALID_SECONDS = 24 * 3600
DEFAULT_BASE_URL = "http://127.0.0.1:8080"  # `quizhost web`'s default address


class Scope(StrEnum):
    ADMIN = "admin"  # every page of the chat, the upload form included
    BOARD = "board"  # the leaderboard only (the public link)
    SCREEN = "screen"  # the big screen of the chat's runs, to watch (/screen)
    HOST = "host"  # the big screen with the host's controls (/screen, for an admin)


class Refusal(StrEnum):
    ALTERED = "altered"  # not signed with this secret: changed, cut, or made elsewhere
    EXPIRED = "expired"
    FOREIGN = "foreign"  # a real link, but not to this page (a public link on an admin page)
    REVOKED = "revoked"  # issued before an admin's /dashboard revoke


@dataclass(frozen=True)
class Link:
    chat_key: str
    scope: Scope
    expires: int  # unix seconds
    player_key: str = ""  # who asked for it, when it came from /stats
    issued: float = 0.0  # unix seconds, exact: a link given right after a revocation works
    join: str = ""  # the big screen: the address players join the chat at, as the host gave it


@dataclass(frozen=True)
class WebAddress:
    """Where the pages are and what signs their links: QUIZHOST_WEB_URL and QUIZHOST_WEB_SECRET."""

    url: str = ""  # empty: DEFAULT_BASE_URL, `quizhost web` on this machine
    secret: str = ""  # empty: the database's own


async def signer_for(store: WebRecords, address: WebAddress | None = None) -> LinkSigner:
    """QUIZHOST_WEB_SECRET when set, else the database's own (made on first use), so every
    process on the database (`quizhost run`, `quizhost web`, `quizhost play`) signs alike."""
    address = address or WebAddress()
    chosen = address.secret or await store.web_secret(secrets.token_urlsafe(32))
    return LinkSigner(chosen, address.url or DEFAULT_BASE_URL)


class LinkSigner:
    def __init__(self, secret: str, base_url: str = DEFAULT_BASE_URL) -> None:
        self._key = secret.encode()
        self.base_url = base_url.rstrip("/") or DEFAULT_BASE_URL

    def at(self, base_url: str) -> LinkSigner:
        """The same secret, links to another address."""
        return LinkSigner(self._key.decode(), base_url)

    def token(self, link: Link) -> str:
        fields: dict[str, object] = {
            "c": link.chat_key,
            "s": link.scope.value,
            "x": link.expires,
            "p": link.player_key,
            "i": link.issued,
        }
        if link.join:  # only the big screen's links have one: the others' tokens stay as they were
            fields["j"] = link.join
        data = json.dumps(fields, separators=(",", ":"), ensure_ascii=False).encode()
        body = _b64(data)
        return f"{body}.{self._sign(body)}"

    def url(self, chat_key: str, scope: Scope, now: float, player_key: str = "") -> str:
        link = Link(chat_key, scope, int(now) + VALID_SECONDS, player_key, now)
        return f"{self.base_url}/c/{quote(self.token(link), safe='')}/"

    def screen_url(self, chat_key: str, host: bool, now: float, player_key: str = "", join: str = "") -> str:
        """The big screen of the chat (bot/adapters/web/screen.py); `host`: with the host's controls."""
        scope = Scope.HOST if host else Scope.SCREEN
        link = Link(chat_key, scope, int(now) + VALID_SECONDS, player_key, now, join)
        return f"{self.base_url}/s/{quote(self.token(link), safe='')}/"

    def check(self, token: str, now: float) -> Link | Refusal:
        body, _, signature = token.partition(".")
        if not hmac.compare_digest(signature.encode(), self._sign(body).encode()):
            return Refusal.ALTERED
        try:
            data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
            expires = int(data["x"])  # a link from before "i" was issued VALID_SECONDS before it expires
            issued = float(data.get("i", expires - VALID_SECONDS))
            player, join = str(data.get("p", "")), str(data.get("j", ""))
            link = Link(str(data["c"]), Scope(data["s"]), expires, player, issued, join)
        except (ValueError, KeyError, TypeError, binascii.Error):  # signed by us, so only an old format
            return Refusal.ALTERED
        return Refusal.EXPIRED if now >= link.expires else link

    async def opened(self, store: WebRecords, token: str, now: float) -> Link | Refusal:
        """`check`, and refused as revoked when issued before the chat's last /dashboard revoke."""
        found = self.check(token, now)
        if isinstance(found, Link) and found.issued < await store.links_not_before(found.chat_key):
            return Refusal.REVOKED
        return found

    def form_token(self, token: str, purpose: str) -> str:
        """The CSRF token of a form on the page `token` opens: only a page of that link has it."""
        return self._sign(f"form:{purpose}:{token}")

    def form_ok(self, token: str, purpose: str, sent: str) -> bool:
        return hmac.compare_digest(sent.encode(), self.form_token(token, purpose).encode())

    def _sign(self, text: str) -> str:
        return _b64(hmac.new(self._key, text.encode(), hashlib.sha256).digest())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
