"""/dashboard, /board, /settings board and the /stats link: the way into a chat's web pages.

The links are signed (bot/commands/weblinks.py) with the database's secret unless QUIZHOST_WEB_SECRET
says otherwise, and point at QUIZHOST_WEB_URL, or at `quizhost web` on this machine.
"""

from __future__ import annotations

from typing import Protocol

from bot.commands.weblinks import LinkSigner, Scope, WebAddress, signer_for
from bot.domain.model import ChatRef, Player, Reply
from bot.ports.clock import Clock
from bot.ports.store import ChatRecords, WebRecords
from bot.texts.render import t

BOARD_WORDS = {"public": True, "private": False}
JOIN_SCHEMES = ("https://", "http://")  # a join link the big screen shows and draws as a QR code
MAX_JOIN = 300


class WebLinkStore(WebRecords, ChatRecords, Protocol):
    """The links' secret and a chat's public board (its chat made known first)."""


class WebCommands:
    def __init__(self, store: WebLinkStore, clock: Clock, address: WebAddress) -> None:
        self.store, self.clock = store, clock
        self.address = address
        self._signer: LinkSigner | None = None

    async def signer(self) -> LinkSigner:
        if self._signer is None:
            self._signer = await signer_for(self.store, self.address)
        return self._signer

    async def dashboard(self, chat: ChatRef, player: Player, lang: str, may: bool, args: str = "") -> Reply:
        """The admin link, for the caller's eyes only (kind "link": adapters keep it out of a group);
        `revoke`: every link of the chat given until now stops working."""
        words = args.casefold().split()
        if words not in ([], ["revoke"]):
            return Reply(
                t(lang, "Usage: /dashboard, or /dashboard revoke to end every link to this chat's pages given so far."),
                language=lang,
                kind="error",
            )
        if not may:
            text = (
                t(lang, "Only chat admins can end this chat's web links.")
                if words
                else t(lang, "Only chat admins get the link to this chat's web pages.")
            )
            return Reply(text, language=lang, kind="error", private=not words)
        if words:
            await self.store.revoke_links(chat.key, self.clock.now())
            text = t(
                lang,
                "Every link to this chat's web pages given until now has stopped working. /dashboard gives a new one.",
            )
            return Reply(text, language=lang)
        url = (await self.signer()).url(chat.key, Scope.ADMIN, self.clock.now(), player.key)
        text = t(
            lang,
            "This chat's web pages: leaderboard, run history, question charts and quiz upload. "
            "The link works for 24 hours; do not share it.",
        )
        return Reply(f"{text}\n{url}", language=lang, kind="link", private=True)

    async def board(self, chat: ChatRef, lang: str) -> Reply:
        if not await self.store.board_public(chat.key):
            return Reply(
                t(
                    lang,
                    "This chat's leaderboard has no public link. An admin can turn one on with /settings board public.",
                ),
                language=lang,
                kind="error",
            )
        url = (await self.signer()).url(chat.key, Scope.BOARD, self.clock.now())
        text = t(lang, "This chat's leaderboard on the web (the link works for 24 hours):")
        return Reply(f"{text}\n{url}", language=lang)

    async def set_board(self, chat: ChatRef, words: list[str], lang: str) -> Reply:
        """/settings board public|private (the caller is an admin)."""
        if len(words) != 1 or words[0] not in BOARD_WORDS:
            return Reply(
                t(lang, "Usage: /settings board public or /settings board private."), language=lang, kind="error"
            )
        public = BOARD_WORDS[words[0]]
        await self.store.ensure_chat(chat)
        await self.store.set_board_public(chat.key, public)
        if public:
            return Reply(t(lang, "The leaderboard has a public link now: /board gives it."), language=lang)
        return Reply(t(lang, "The leaderboard has no public link now; links given before stop working."), language=lang)

    async def stats_link(self, chat: ChatRef, player: Player, lang: str) -> str:
        """A line for /stats: the caller's row on the public leaderboard, when there is one."""
        if not await self.store.board_public(chat.key):
            return ""
        url = (await self.signer()).url(chat.key, Scope.BOARD, self.clock.now(), player.key)
        text = t(lang, "Your row on the web leaderboard (the link works for 24 hours):")
        return f"{text}\n{url}"

    async def screen(self, chat: ChatRef, player: Player, lang: str, host: bool, args: str = "") -> Reply:
        """/screen [join link]: the big screen of the chat's runs; a host (an admin) also gets the
        link with controls, for their eyes only. The join link (the group's invite link, say) is
        the host's to give: a bot cannot know how players reach every chat."""
        join = args.strip()
        if join and (not join.startswith(JOIN_SCHEMES) or len(join) > MAX_JOIN or any(c.isspace() for c in join)):
            usage = t(lang, "Usage: /screen, or /screen followed by the link players join this chat with.")
            return Reply(usage, language=lang, kind="error")
        signer, now = await self.signer(), self.clock.now()
        watch = signer.screen_url(chat.key, False, now, join=join)
        text = t(lang, "This chat's big screen, for a projector or a stream (the link works for 24 hours):")
        if not host:
            return Reply(f"{text}\n{watch}", language=lang)
        controls = signer.screen_url(chat.key, True, now, player.key, join)
        own = t(lang, "The same screen with the host's controls; do not share this one:")
        return Reply(f"{text}\n{watch}\n\n{own}\n{controls}", language=lang, kind="link", private=True)
