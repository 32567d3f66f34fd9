"""Who asks, where, and with which rights: the part of an interaction the commands need.

The gateway hands discord.py's `Interaction`; the interactions endpoint (bot/adapters/discord/
endpoint.py) has the JSON Discord posted, read here field by field without building discord.py's
state (which needs a gateway session). Both give the same `Asker`, handled one way
(bot/adapters/discord/handling.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.commands.core import Caller
from bot.domain.model import ChatRef, Player
from bot.texts.textcut import clean

PLATFORM = "discord"
THREADS = frozenset({10, 11, 12})  # channel types of threads (announcement, public, private)
_MENTION = re.compile(r"<@!?(\d{1,20})>")  # a user's mention as Discord writes it in text


@dataclass(frozen=True, slots=True)
class Asker:
    chat: ChatRef
    player: Player
    user_id: int
    permissions: discord.Permissions  # the user's, resolved in this channel (sent with every interaction)
    app_permissions: discord.Permissions  # the bot's own in this channel
    threaded: bool
    in_guild: bool

    def caller(self, moderated: bool = False) -> Caller:
        """Admins manage the server (or, for a command moderators may use, its messages: /stop);
        a DM's one player is its admin."""
        perms = self.permissions
        admin = self.chat.is_private or perms.manage_guild or (moderated and perms.manage_messages)
        return Caller(self.chat, self.player, is_admin=bool(admin), private_replies=True)  # ephemeral replies


def mentioned(words: tuple[str, ...]) -> tuple[Player, ...]:
    """The members a command's words mention, each once, in order: a member picked in an option's
    text arrives as `<@id>`, which is also their name here (Discord shows it as the member's)."""
    ids = dict.fromkeys(m.group(1) for word in words for m in _MENTION.finditer(word))
    return tuple(Player(PLATFORM, user_id, f"<@{user_id}>") for user_id in ids)


def of_interaction(interaction: discord.Interaction) -> Asker:
    """The asker of an interaction discord.py read from the gateway."""
    chat, player = _where_and_who(interaction)
    return Asker(
        chat,
        player,
        interaction.user.id,
        interaction.permissions,
        interaction.app_permissions,
        isinstance(interaction.channel, discord.Thread),
        not chat.is_private,
    )


def answerer(interaction: discord.Interaction) -> Caller:
    """Who pressed an option of a question, for `Commands.press`: an answer needs no rights, so
    neither permission field is read (nearly every press on the gateway is one)."""
    chat, player = _where_and_who(interaction)
    return Caller(chat, player, private_replies=True)


def _where_and_who(interaction: discord.Interaction) -> tuple[ChatRef, Player]:
    user, private = interaction.user, interaction.guild_id is None
    chat = ChatRef(
        PLATFORM,
        str(interaction.channel_id),
        is_private=private,
        title="" if private else clean(getattr(interaction.channel, "name", "")),
    )
    return chat, Player(PLATFORM, str(user.id), clean(user.display_name), interaction.locale.value)


def of_json(payload: dict[str, Any]) -> Asker | None:
    """The asker of an interaction as Discord posts it; None when it names no user or channel.

    A user's shown name is discord.py's `display_name`: the server nickname, else the global
    name, else the user name."""
    found_member = payload.get("member")
    member: dict[str, Any] | None = found_member if isinstance(found_member, dict) else None
    user = member.get("user") if member is not None else payload.get("user")
    channel_id = _snowflake(payload.get("channel_id"))
    if not isinstance(user, dict) or (user_id := _snowflake(user.get("id"))) is None or channel_id is None:
        return None
    found = payload.get("channel")
    channel: dict[str, Any] = found if isinstance(found, dict) else {}
    private = payload.get("guild_id") is None
    nick = member.get("nick") if member is not None else None
    name = next((n for n in (nick, user.get("global_name"), user.get("username")) if isinstance(n, str) and n), "")
    locale = payload.get("locale")
    title = channel.get("name") if not private and isinstance(channel.get("name"), str) else ""
    return Asker(
        ChatRef(PLATFORM, str(channel_id), is_private=private, title=clean(title)),
        Player(PLATFORM, str(user_id), clean(name), locale if isinstance(locale, str) and locale.isascii() else None),
        user_id,
        _permissions((member or payload).get("permissions")),
        _permissions(payload.get("app_permissions")),
        channel.get("type") in THREADS,
        not private,
    )


def _snowflake(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) <= 20 else None


def _permissions(value: Any) -> discord.Permissions:
    """A permissions field (a decimal string); nothing at all when it is missing or malformed."""
    return discord.Permissions(int(value) if isinstance(value, str) and value.isdigit() and len(value) < 40 else 0)
