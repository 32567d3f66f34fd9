"""Payloads the fake Discord sends, and the limits it checks on what the bot sends.

Shapes follow Discord's API v10 as discord.py 2.7 reads them; limits follow Discord's
documentation (see shared/PLATFORMS.md).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from bot.testing.fake_discord_modals import MODAL, modal_problems

CUSTOM_ID_MAX = 100
LABEL_MAX = 80
BUTTONS_PER_ROW = 5
ROWS_MAX = 5
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
ATTACHMENT_DESCRIPTION_MAX = 1024
EMBED_DESCRIPTION_MAX = 4096
EMBED_TOTAL_MAX = 6000
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
COMMAND_DESCRIPTION_MAX = 100
COMMANDS_MAX = 100
COMMAND_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
EPHEMERAL = 64
ALL_PERMISSIONS = (1 << 50) - 1
MANAGE_MESSAGES = 1 << 13
MANAGE_GUILD = 1 << 5
# what a plain member may do in a channel: view, send, embed, read history, use slash commands
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 31)
DISCORD_LOCALES = {
    "id",
    "da",
    "de",
    "en-GB",
    "en-US",
    "es-ES",
    "es-419",
    "fr",
    "hr",
    "it",
    "lt",
    "hu",
    "nl",
    "no",
    "pl",
    "pt-BR",
    "ro",
    "fi",
    "sv-SE",
    "vi",
    "tr",
    "cs",
    "el",
    "bg",
    "ru",
    "uk",
    "hi",
    "th",
    "zh-CN",
    "ja",
    "zh-TW",
    "ko",
}


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    permissions: int = MEMBER_PERMISSIONS  # resolved in every channel of every server
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "nick": None,
            "roles": [],
            "joined_at": now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(self.permissions),
        }


@dataclass
class FakeMessage:
    """A message as Discord keeps it, with every version the bot gave it.

    A version is never changed in place once made: a change makes a new dict (`replace`, or an
    edit's new version), so a press keeps the message it was made on, and the gateway encodes
    a version's JSON once (FakeDiscord._send)."""

    id: int
    channel_id: int
    data: dict[str, Any]
    ephemeral: bool = False
    interaction_id: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)

    def replace(self, **fields: Any) -> None:
        """The latest version, with `fields` changed (Discord's own doings: a nonce, files)."""
        self.data = {**self.data, **fields}
        if self.history:
            self.history[-1] = self.data

    @property
    def text(self) -> str:
        return visible_text(self.data)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.data.get("components", []) for c in row.get("components", [])]

    def button(self, prefix: str) -> dict[str, Any]:
        """The button whose label starts with `prefix` ("A", "B) text"...)."""
        return next(b for b in self.buttons() if str(b.get("label", "")).startswith(prefix))


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def visible_text(data: dict[str, Any]) -> str:
    """What a reader sees of a message: its content and every embed's title and description."""
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    return "\n".join(p for p in parts if p)


def text_channel(channel_id: int, guild_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def dm_channel(channel_id: int, user: FakeUser) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 1, "recipients": [user.payload()], "last_message_id": None, "flags": 0}


def guild(guild_id: int, name: str, owner_id: int, channels: list[dict[str, Any]], bot: FakeUser) -> dict[str, Any]:
    everyone = {
        "id": str(guild_id),
        "name": "@everyone",
        "permissions": str(MEMBER_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "owner_id": str(owner_id),
        "roles": [everyone],
        "channels": channels,
        "members": [bot.member()],
        "member_count": 1,
        "features": [],
        "emojis": [],
        "stickers": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "system_channel_id": None,
        "afk_timeout": 300,
        "large": False,
        "unavailable": False,
        "joined_at": now_iso(),
        "voice_states": [],
        "presences": [],
        "threads": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }


def message(
    message_id: int, channel_id: int, guild_id: int | None, author: FakeUser, data: dict[str, Any], flags: int = 0
) -> dict[str, Any]:
    payload = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author.payload(),
        "content": data.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": data.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "components": data.get("components") or [],
        "flags": flags,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
    return payload


# limits ----------------------------------------------------------------------------------------


def message_problems(data: dict[str, Any], creating: bool = True) -> list[str]:
    """Why Discord would answer 400 Invalid Form Body to this message (nothing when it is fine)."""
    problems = []
    content, embeds, rows = data.get("content") or "", data.get("embeds") or [], data.get("components") or []
    if creating and not (content or embeds or rows):
        problems.append("message: empty (no content, embeds or components)")
    if len(content) > CONTENT_MAX:
        problems.append(f"content: {len(content)} characters > {CONTENT_MAX}")
    problems += _embed_problems(embeds)
    problems += component_problems(rows)
    return problems


def attachment_problems(data: dict[str, Any], files: list[str]) -> list[str]:
    """An embed image `attachment://name` must name a file of the message; an attachment's
    description (its alt text) is at most 1024 characters."""
    problems = [
        f"attachments[{i}].description: {len(a['description'])} characters > {ATTACHMENT_DESCRIPTION_MAX}"
        for i, a in enumerate(data.get("attachments") or [])
        if len(a.get("description") or "") > ATTACHMENT_DESCRIPTION_MAX
    ]
    for i, embed in enumerate(data.get("embeds") or []):
        url = str((embed.get("image") or {}).get("url") or "")
        if url.startswith("attachment://") and url.removeprefix("attachment://") not in files:
            problems.append(f"embeds[{i}].image: {url} names no file of the message")
    return problems


def _embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(embeds) > EMBEDS_MAX:
        problems.append(f"embeds: {len(embeds)} > {EMBEDS_MAX}")
    total = 0
    for i, embed in enumerate(embeds):
        title, description = embed.get("title") or "", embed.get("description") or ""
        total += len(title) + len(description)
        if len(title) > EMBED_TITLE_MAX:
            problems.append(f"embeds[{i}].title: {len(title)} characters > {EMBED_TITLE_MAX}")
        if len(description) > EMBED_DESCRIPTION_MAX:
            problems.append(f"embeds[{i}].description: {len(description)} characters > {EMBED_DESCRIPTION_MAX}")
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds: {total} characters in all > {EMBED_TOTAL_MAX}")
    return problems


def component_problems(rows: list[dict[str, Any]]) -> list[str]:
    problems, seen = [], set()
    if len(rows) > ROWS_MAX:
        problems.append(f"components: {len(rows)} rows > {ROWS_MAX}")
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= BUTTONS_PER_ROW:
            problems.append(f"components[{r}]: an action row holds 1 to {BUTTONS_PER_ROW} buttons, got {len(items)}")
        for b, item in enumerate(items):
            where = f"components[{r}].components[{b}]"
            custom_id, label = item.get("custom_id") or "", item.get("label") or ""
            if item.get("style") != 5 and not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
                problems.append(f"{where}.custom_id: {len(custom_id)} characters, must be 1 to {CUSTOM_ID_MAX}")
            if len(label) > LABEL_MAX:
                problems.append(f"{where}.label: {len(label)} characters > {LABEL_MAX}")
            if custom_id in seen:
                problems.append(f"{where}.custom_id: {custom_id!r} is used twice")
            seen.add(custom_id)
    return problems


def choice_problems(choices: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(choices) > CHOICES_MAX:
        problems.append(f"choices: {len(choices)} > {CHOICES_MAX}")
    for i, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name", ""))) <= CHOICE_NAME_MAX:
            problems.append(f"choices[{i}].name: must be 1 to {CHOICE_NAME_MAX} characters")
        if len(str(choice.get("value", ""))) > CHOICE_NAME_MAX:
            problems.append(f"choices[{i}].value: longer than {CHOICE_NAME_MAX}")
    return problems


def callback_problems(kind: object, data: dict[str, Any]) -> list[str]:
    """Why Discord would refuse this interaction callback (a REST callback or an endpoint's reply)."""
    if kind == 9:
        return modal_problems(data)
    if kind == 8:
        return choice_problems(data.get("choices") or [])
    if kind in (4, 7):
        return message_problems(data, creating=kind == 4)
    if kind == MODAL:
        return modal_problems(data)
    return [] if kind in (1, 5, 6) else [f"no interaction callback of type {kind!r}"]


def command_problems(commands: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(commands) > COMMANDS_MAX:
        problems.append(f"commands: {len(commands)} > {COMMANDS_MAX}")
    for command in commands:
        name = command.get("name", "")
        if not COMMAND_NAME.match(name):
            problems.append(f"command {name!r}: the name must be 1 to 32 lowercase letters, digits, - or _")
        problems += _described(f"/{name}", command)
        for option in command.get("options") or []:
            problems += _described(f"/{name} {option.get('name')}", option)
            problems += choice_problems(option.get("choices") or [])
    return problems


def _described(where: str, item: dict[str, Any]) -> list[str]:
    problems = []
    if not 1 <= len(item.get("description") or "") <= COMMAND_DESCRIPTION_MAX:
        problems.append(f"{where}: the description must be 1 to {COMMAND_DESCRIPTION_MAX} characters")
    for locale, text in (item.get("description_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            problems.append(f"{where}: {locale!r} is not a Discord locale")
        if not 1 <= len(text) <= COMMAND_DESCRIPTION_MAX:
            problems.append(f"{where}: the {locale} description must be 1 to {COMMAND_DESCRIPTION_MAX} characters")
    return problems
