"""Interactions from the endpoint, answered in the HTTP reply as the gateway's are answered.

The JSON Discord posted is read without discord.py's state (bot/adapters/discord/asked.py); the
command, press, upload or form goes through the same handling as on the gateway (handling.py),
and its result becomes the callback in the reply: type 4, a message (ephemeral for acks and
refusals), or type 9, a question's form (a draft's "Add question", /suggest). Work still going
after DEFER_AFTER is deferred (type 5, "thinking…") and its result posted as a follow-up to the
interaction's webhook when it is done: Discord drops an interaction not answered within 3 s.
Interaction callbacks and follow-ups count against no global rate limit (they are the
interaction token's own).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable
from typing import Any

import aiohttp
import discord

from bot.adapters.discord import asked, forms, replies, views
from bot.adapters.discord.commands import command_words, topic_choices
from bot.adapters.discord.envelope import AUTOCOMPLETE, COMMAND, COMPONENT, MODAL_SUBMIT
from bot.adapters.discord.handling import FileOffer, Handling
from bot.adapters.platform_watch import CallWatch
from bot.commands import table
from bot.commands.authoring import FORM_SUGGESTED
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain import tokens
from bot.domain.model import FALLBACK_LANGUAGE, Ack, Reply
from bot.texts import render
from bot.texts.i18n import normalise

log = logging.getLogger("quizhost.discord")

MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, CHOICES, MODAL = replies.CHANNEL_MESSAGE, 5, 6, 8, 9  # callback types
ATTACHMENT = 11  # option type
SHUTDOWN_GRACE = 5.0  # seconds follow-ups in progress get when the bot stops


class HttpInteractions:
    def __init__(self, handling: Handling, calls: CallWatch) -> None:
        self.handling, self.calls = handling, calls
        self._session: aiohttp.ClientSession | None = None
        self._follow_ups: set[asyncio.Task[None]] = set()

    async def respond(self, interaction: dict[str, Any]) -> bytes:
        """The callback to reply with (its JSON), within Discord's 3 s."""
        found = interaction.get("data")
        data: dict[str, Any] = found if isinstance(found, dict) else {}
        kind = interaction["type"]
        pressed = _pressed(kind, data)
        asker = asked.of_json(interaction)
        if asker is not None and pressed is not None and tokens.kind_of(pressed) is tokens.Kind.ANSWER:
            # nearly every press, as on the gateway: no form to open, none of handle_press's checks
            return await self._in_time(interaction, self.handling.press_answer(pressed, asker.caller()), ephemeral=True)
        if asker is not None and kind == AUTOCOMPLETE:
            return _encoded({"type": CHOICES, "data": {"choices": await self._choices(asker, data)}})
        if asker is not None and (target := _form_target(asker, kind, data, pressed)) is not None:
            opening = await self.handling.form_to_open(asker, target)
            if opening is not None:
                return _encoded({"type": MODAL, "data": forms.QuestionModal(opening, int(interaction["id"])).to_dict()})
        work = self._work(asker, kind, data, pressed) if asker is not None else None
        if work is None:
            return _message(Ack(render.ack_invalid(_language(interaction)), False))
        return await self._in_time(interaction, work, ephemeral=kind == COMPONENT)

    def _work(
        self, asker: asked.Asker, kind: int, data: dict[str, Any], pressed: str | None
    ) -> Awaitable[Ack | Reply] | None:
        """What the interaction asks for; None for what is not ours (a button of another bot, a modal)."""
        if kind == COMPONENT:
            return self.handling.handle_press(asker, pressed) if pressed is not None else None
        if kind == MODAL_SUBMIT:
            form = forms.submitted(data)
            return self.handling.handle_form(asker, form[1], form[0]) if form else None
        name = data.get("name")
        if kind != COMMAND or not isinstance(name, str):
            return None
        options, found = _options(data), table.command(name)
        if found is not None and found.file is not None:
            offer = self._offer(data, options.get(found.file.name))
            return self.handling.handle_upload(asker, offer) if offer else None
        return self.handling.handle_command(asker, name, command_words(name, options))

    async def _in_time(self, interaction: dict[str, Any], work: Awaitable[Ack | Reply], ephemeral: bool) -> bytes:
        """The work's answer, or "thinking…" once DEFER_AFTER has passed (its answer follows up).

        A future set by whichever comes first, the work's end or its deadline: nearly every press
        ends long before, and this costs less than asyncio.wait's bookkeeping on every one."""
        loop = asyncio.get_running_loop()
        first: asyncio.Future[bool] = loop.create_future()
        answering = loop.create_task(replies.outcome(work, interaction.get("id")))
        answering.add_done_callback(lambda _: _settle(first, True))
        deadline = replies.DEFERRALS.set(lambda: _settle(first, False))
        if await first:
            replies.DEFERRALS.cancel(deadline)
            return _message(answering.result())
        follow_up = asyncio.ensure_future(self._follow_up(interaction, answering))
        self._follow_ups.add(follow_up)
        follow_up.add_done_callback(self._follow_ups.discard)
        return _encoded({"type": DEFERRED_MESSAGE, "data": {"flags": views.EPHEMERAL} if ephemeral else {}})

    async def _follow_up(self, interaction: dict[str, Any], answering: asyncio.Future[Ack | Reply]) -> None:
        """The deferred interaction's answer, posted to its webhook (it replaces "thinking…")."""
        result = await answering
        url = f"{discord.http.Route.BASE}/webhooks/{interaction.get('application_id')}/{interaction.get('token')}"
        try:
            async with self.session().post(url, json=views.callback_data(result)) as response:
                if response.status >= 400:
                    log.warning(
                        "Discord refused the follow-up of interaction %s (HTTP %d)",
                        interaction.get("id"),
                        response.status,
                    )
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning(
                "the follow-up of interaction %s was not posted (%s)", interaction.get("id"), type(exc).__name__
            )

    async def _choices(self, asker: asked.Asker, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The quizzes matching the focused option, as the gateway's autocomplete offers them."""
        focused = next((o for o in data.get("options") or [] if isinstance(o, dict) and o.get("focused")), None)
        typed = str(focused.get("value") or "") if focused else ""
        lang = normalise(asker.player.language or "") or FALLBACK_LANGUAGE
        choices = topic_choices(self.handling.catalog(), typed, lang, await self.handling.own_quizzes(asker))
        return [{"name": choice.name, "value": choice.value} for choice in choices]

    def _offer(self, data: dict[str, Any], attachment_id: object) -> FileOffer | None:
        """The /upload file as Discord resolved it, fetched from its URL only when read."""
        found = _within(_within(data, "resolved"), "attachments").get(str(attachment_id))
        if not isinstance(found, dict) or not isinstance(found.get("url"), str):
            return None
        size, url = found.get("size"), found["url"]
        size = size if type(size) is int else 0

        async def read() -> bytes:
            async with self.session().get(url) as response:
                response.raise_for_status()
                return await response.content.read(MAX_FILE_BYTES + 1)

        return FileOffer(str(found.get("filename") or "quiz"), size, read)

    def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(trace_configs=[self.calls.trace()])
        return self._session

    async def close(self) -> None:
        """Follow-ups in progress get their answers out before the session closes."""
        if self._follow_ups:
            _, late = await asyncio.wait(set(self._follow_ups), timeout=SHUTDOWN_GRACE)
            for task in late:
                task.cancel()
        if self._session is not None:
            await self._session.close()
            self._session = None


def repeated(interaction: dict[str, Any]) -> bytes:
    """The callback for an interaction posted again (bot/adapters/discord/endpoint.py): nothing
    changes. A press is acknowledged without a word, as one that updates its message later
    (Discord takes that for a press, and shows nothing); a command or a form is told it was done."""
    if interaction["type"] == COMPONENT:
        return _REPEATED_PRESS
    return replies.ack_callback(render.ack_handled_already(_language(interaction)))


_REPEATED_PRESS = json.dumps({"type": DEFERRED_UPDATE}).encode()


def _language(interaction: dict[str, Any]) -> str:
    """The language of the one who sent the interaction, as Discord sent it (English if none of ours)."""
    return normalise(str(interaction.get("locale") or "")) or FALLBACK_LANGUAGE


def _pressed(kind: int, data: dict[str, Any]) -> str | None:
    """The token of the pressed button when it is one of ours (views.TEMPLATE), else None."""
    match = views.TEMPLATE.fullmatch(str(data.get("custom_id", ""))) if kind == COMPONENT else None
    return match["data"] if match else None


def _form_target(asker: asked.Asker, kind: int, data: dict[str, Any], pressed: str | None) -> str | None:
    """The form an interaction opens: a draft's "Add question" or "Edit N", /suggest in a server."""
    if kind == COMMAND:
        found = table.command(str(data.get("name")))
        return FORM_SUGGESTED if found is not None and found.takes_question and asker.in_guild else None
    return tokens.form_target(pressed) if pressed is not None else None


def _options(data: dict[str, Any]) -> dict[str, Any]:
    """A command's options by name, as Discord sent their values."""
    return {o["name"]: o.get("value") for o in data.get("options") or [] if isinstance(o, dict) and "name" in o}


def _within(data: dict[str, Any], key: str) -> dict[str, Any]:
    found = data.get(key)
    return found if isinstance(found, dict) else {}


def _encoded(callback: dict[str, Any]) -> bytes:
    return json.dumps(callback).encode()


def _message(result: Ack | Reply) -> bytes:
    """A message in answer: an ack's JSON is made once per text (nearly every press gets one of a few)."""
    if isinstance(result, Ack):
        return replies.ack_callback(result.text)
    return _encoded({"type": MESSAGE, "data": views.callback_data(result)})


def _settle(future: asyncio.Future[bool], value: bool) -> None:
    if not future.done():
        future.set_result(value)
