"""How the Discord adapter answers: an interaction within Discord's 3 s, and what a failed
post to a channel means for the sender (unreachable chat, or a delivery nobody can be sure of)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Iterator
from functools import lru_cache
from http import HTTPStatus
from typing import Any

import aiohttp
import discord

from bot.adapters.deadlines import Deadlines
from bot.adapters.discord import views
from bot.adapters.keepalive import JSON, KeepAlivePoster
from bot.domain.model import Ack, ChatRef, Reply
from bot.ports.chat import DELIVERING, ChatUnreachable, DeliveryUncertain, MessageRefused
from bot.texts.i18n import t

log = logging.getLogger("quizhost.discord")

# Discord drops an interaction that is not answered within 3 s; anything slower is deferred
# (the "thinking…" state) and answered with a follow-up, which may come up to 15 min later.
DEFER_AFTER = 2.0
DEFERRALS = Deadlines(DEFER_AFTER)  # one loop timer for every interaction's deferral
CHANNEL_MESSAGE = 4  # an interaction callback's type: a message in answer
USER_AGENT = f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) quizhost"
NONCE_MAX = 25  # characters Discord takes in a message nonce


async def answer_in_time(
    interaction: discord.Interaction,
    work: Awaitable[Ack | Reply],
    answers: KeepAlivePoster | None = None,
) -> None:
    """Answer within Discord's 3 s: at once when the work is quick, else defer and follow up.

    A deadline starts the deferral only when it is due; nearly every press is answered long
    before, and a deadline costs less than running the work as a task of its own to wait on.
    An acknowledgement goes on `answers`' connections when given (see `acknowledged`)."""
    deferral: list[asyncio.Task] = []
    # a press's or a modal's answer is for the one who pressed; a slash command's for the channel
    ephemeral = interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit)

    def defer() -> None:
        deferral.append(asyncio.ensure_future(interaction.response.defer(ephemeral=ephemeral, thinking=True)))

    deadline = DEFERRALS.set(defer)
    try:
        result = await outcome(work, interaction.id)
    finally:
        DEFERRALS.cancel(deadline)
    if (
        not deferral
        and isinstance(result, Ack)
        and answers is not None
        and await acknowledged(interaction, result, answers)
    ):
        return
    kwargs = views.response_kwargs(result)
    if deferral:
        await deferral[0]
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def acknowledged(interaction: discord.Interaction, ack: Ack, answers: KeepAlivePoster) -> bool:
    """A press's acknowledgement posted as Discord's HTTP API takes an interaction's callback,
    on connections of our own: discord.py's `send_message` through aiohttp's client (it also
    asks for the message back and parses it) was about half of the bot's loop per press.
    False (nothing certain was posted): the caller answers through discord.py."""
    url = f"{discord.http.Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
    return await answers.post(url, ack_callback(ack.text), JSON) in (200, 204)


@lru_cache(maxsize=1024)
def ack_callback(text: str) -> bytes:
    """An ack as an interaction callback's JSON (posted on the gateway, the HTTP reply on the
    endpoint): nearly every press gets one of a few acks, each encoded once."""
    return json.dumps({"type": CHANNEL_MESSAGE, "data": views.ack_data(text)}).encode()


async def outcome(work: Awaitable[Ack | Reply], interaction_id: object) -> Ack | Reply:
    """What to show for an interaction: its work's result, or an apology when the work failed
    (logged; the interaction's alone, every other one goes on)."""
    try:
        return await work
    except Exception:
        log.exception("Discord: handling interaction %s failed", interaction_id)
        return Reply(t("en", "Something went wrong. Please try again."), kind="error")


@contextlib.contextmanager
def reachable(chat: ChatRef) -> Iterator[None]:
    """A 403 (Missing Access: the bot was removed, or may not post there) or a channel that is
    gone makes the chat unreachable: retrying will not help."""
    try:
        yield
    except (discord.Forbidden, discord.NotFound) as exc:
        raise ChatUnreachable(chat.key) from exc


@contextlib.contextmanager
def refusable() -> Iterator[None]:
    """A 400 (Bad Request: an embed or a file Discord will not take) refuses the message as it
    is: sending it again cannot help."""
    try:
        yield
    except discord.HTTPException as exc:
        if exc.status != HTTPStatus.BAD_REQUEST:
            raise
        raise MessageRefused(f"{exc.status} {exc.text}") from exc


@contextlib.contextmanager
def uncertain(what: str) -> Iterator[None]:
    """A reply lost after the request went out: Discord may have posted it (see DeliveryUncertain).
    An error status (discord.HTTPException) or a refused connection certainly posted nothing."""
    try:
        yield
    except (TimeoutError, aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError) as exc:
        raise DeliveryUncertain(f"{what}: {type(exc).__name__}") from exc


def nonce() -> dict[str, Any]:
    """`send`'s nonce for the outbox message being delivered (none outside the outbox: discord.py
    picks a random one).

    discord.py 2.7 sends `enforce_nonce: true` with every nonce (`handle_message_parameters` in
    discord/http.py), and Discord then answers a create repeated within a few minutes with the
    message it already made: a send retried after a lost reply is not posted twice. The nonce
    comes from the outbox key, so it is the same across retries and restarts; a key longer
    than Discord takes is hashed (the run id in it keeps keys of other chats apart)."""
    key = DELIVERING.get()
    if key is None:
        return {}
    if len(key) > NONCE_MAX:
        key = hashlib.blake2b(key.encode(), digest_size=NONCE_MAX // 2).hexdigest()
    return {"nonce": key}
