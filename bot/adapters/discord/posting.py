"""Discord, outbound: the chat port's side that posts questions as embeds with their buttons,
edits them into their reveals, and sends the replies and messages the engine edits later (a
mixin of DiscordAdapter, which holds the client). A channel the bot may no longer post in is
ChatUnreachable; a failure that leaves open whether a message landed is retried by the outbox.
"""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord  # the library: absolute imports never resolve to this module

from bot.adapters.discord import pictures, replies, views
from bot.adapters.discord.asked import PLATFORM
from bot.adapters.discord.handling import PRESSED_IN
from bot.domain.model import ChatRef, MediaView, MessageRef, Player, QuestionCard, Reply, Reveal
from bot.ports.chat import ChatUnreachable, MembershipUnknown
from bot.texts.textcut import clean

log = logging.getLogger("quizhost.discord")

READY_TIMEOUT = 60.0  # how long an engine post waits for the first login


class DiscordPosting:
    """The outbound half of DiscordAdapter, and who is where (its constructor sets these)."""

    client: discord.Client | None
    _ready: asyncio.Event  # set once a client is logged in (its setup hook ran)

    async def _client_ready(self) -> discord.Client:
        await asyncio.wait_for(self._ready.wait(), READY_TIMEOUT)
        assert self.client is not None
        return self.client

    # who is where (ports/chat.py PrivateChats, MemberGroups) ---------------------------------

    async def private_chat(self, player: Player) -> ChatRef:
        """The player's DM channel with the bot, opened if need be (ports/chat.py PrivateChats)."""
        if self.client is None:
            raise ChatUnreachable(player.key)
        try:
            dm = await self.client.create_dm(discord.Object(int(player.user_id)))
        except discord.HTTPException as exc:  # the user accepts no DMs from this server
            raise ChatUnreachable(player.key) from exc
        return ChatRef(PLATFORM, str(dm.id), is_private=True)

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        """Whether the player is in the server of the group's channel (ports/chat.py). A Start
        pressed in that channel comes from a member already; a copied or forged Start pressed in
        another server, or in a DM, does not, and Get Guild Member says so (404); so that request
        is made only for a Start pressed anywhere but in the group's channel (PRESSED_IN)."""
        if PRESSED_IN.get() == group.key:
            return True
        if not group.chat_id.isdecimal():  # a payload's junk: no channel has that id
            return False
        if self.client is None:
            raise MembershipUnknown("no Discord client")
        try:
            channel = self.client.get_channel(int(group.chat_id)) or await self.client.fetch_channel(int(group.chat_id))
            guild = getattr(channel, "guild", None)
            if not isinstance(guild, discord.Guild):  # a DM is no server: it has no members to be among
                return False
            await guild.fetch_member(int(player.user_id))
        except discord.NotFound:  # Unknown Member (or the channel is gone)
            return False
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            raise MembershipUnknown(f"membership in {group.key}: {exc}") from exc
        return True

    def members_of(self, group: ChatRef) -> str | None:
        """The name of the server of the group's channel, as the gateway last gave it (ports/chat.py
        MemberGroups): an assignment there is for the server's members. None when the client
        does not hold that channel's server (the interactions endpoint keeps no gateway state)."""
        channel = self.client.get_channel(int(group.chat_id)) if self.client is not None else None
        guild = getattr(channel, "guild", None)
        return clean(guild.name) if isinstance(guild, discord.Guild) else None

    # posting -------------------------------------------------------------------------------

    async def post_question(self, card: QuestionCard) -> MessageRef:
        channel = (await self._client_ready()).get_partial_messageable(int(card.chat.chat_id))
        embed = views.question_embed(card)
        picture = await asyncio.to_thread(pictures.add_picture, embed, card.media, True)
        with replies.reachable(card.chat), replies.refusable(), replies.uncertain("posting a question"):
            message = await channel.send(
                embed=embed, view=views.question_view(card), files=_files(picture), **replies.nonce()
            )
        return MessageRef(card.chat, str(message.id))

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        """Edit the question's embed into its own reveal and take its buttons off: one edit, no
        reply. An edit is idempotent: any failure raises and the outbox tries again. With no
        message to edit (deleted, or no longer ours), the reveal is posted."""
        channel = (await self._client_ready()).get_partial_messageable(int(reveal.card.chat.chat_id))
        embed = views.revealed_embed(reveal)
        why = reveal.explanation_media if await asyncio.to_thread(pictures.shows, reveal.explanation_media) else None
        if message is not None:
            try:
                await self._edit_revealed(channel.get_partial_message(int(message.message_id)), embed, reveal, why)
                return
            except (discord.NotFound, discord.Forbidden) as exc:  # deleted, or no longer ours to edit
                log.warning("question message %s could not be edited (%s)", message.message_id, exc.status)
        picture = await asyncio.to_thread(pictures.add_picture, embed, why or reveal.card.media, True)
        with replies.reachable(reveal.card.chat), replies.uncertain("posting an answer"):
            await channel.send(embed=embed, files=_files(picture), **replies.nonce())

    async def _edit_revealed(
        self, message: discord.PartialMessage, embed: discord.Embed, reveal: Reveal, why: MediaView | None
    ) -> None:
        """The question's embed becomes its reveal. The explanation's picture (`why`) takes the
        place of the question's (its file replaces the message's attachment); else the question's
        picture stays, the edit keeping the message's attachments."""
        if why is None:
            await asyncio.to_thread(pictures.add_picture, embed, reveal.card.media, False)
            await message.edit(embed=embed, view=None)
            return
        picture = await asyncio.to_thread(pictures.add_picture, embed, why, True)
        await message.edit(embed=embed, view=None, attachments=[picture] if picture is not None else [])

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        channel = (await self._client_ready()).get_partial_messageable(int(chat.chat_id))
        with replies.reachable(chat), replies.uncertain("sending a message"):
            await channel.send(**views.message_kwargs(reply), **replies.nonce())

    async def post(self, chat: ChatRef, reply: Reply) -> MessageRef:
        """A message the engine edits later (an assignment's progress in its channel)."""
        channel = (await self._client_ready()).get_partial_messageable(int(chat.chat_id))
        with replies.reachable(chat), replies.uncertain("posting a message"):
            message = await channel.send(**views.message_kwargs(reply), **replies.nonce())
        return MessageRef(chat, str(message.id))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        channel = (await self._client_ready()).get_partial_messageable(int(message.chat.chat_id))
        kwargs = {"view": None, "content": None, "embed": None, **views.message_kwargs(reply)}
        with replies.reachable(message.chat), replies.uncertain("editing a message"):
            await channel.get_partial_message(int(message.message_id)).edit(**kwargs)


def _files(picture: discord.File | None) -> list[discord.File]:
    # discord.py's MISSING: no files at all (the JSON body, as before pictures), not an empty list
    return [picture] if picture is not None else discord.utils.MISSING
