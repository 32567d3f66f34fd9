"""Discord messages for quizhost: embeds and answer buttons (their state in their custom_ids).

Every text from bot.texts.render is plain; here it is escaped for Discord's markdown and cut to
Discord's limits (embed title 256, description 4096, content 2000, button label 80,
custom_id 100).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

import discord

from bot.domain import tokens
from bot.domain.model import Ack, Button, QuestionCard, Reply, Reveal
from bot.texts import answer_buttons, bidi, render
from bot.texts.i18n import t

log = logging.getLogger("quizhost.discord")

PREFIX = "quizhost:"
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
CONTENT_MAX = 2000
BUTTONS_MAX = 25  # 5 rows of 5
# The whole state of a button lives in its custom_id, so a press works after a restart:
# "quizhost:" + the button data of bot.domain.tokens (an answer, a quiz pick or a language pick).
TEMPLATE = re.compile(f"{PREFIX}(?P<data>{tokens.PATTERN})")

COLOURS = {
    "error": discord.Colour.red(),
    "podium": discord.Colour.gold(),
    "leaderboard": discord.Colour.gold(),
    "question": discord.Colour.blurple(),
    "right": discord.Colour.green(),
}


def press_button(
    data: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary
) -> discord.ui.Button[Any]:
    """One of our buttons (an answer, a quiz or a language pick). Its whole state is its
    custom_id, which TEMPLATE parses: the adapter routes every press by it (events.py on the
    gateway, interactions.py on the endpoint), so a press on a message sent before a restart
    is answered as any other, and discord.py keeps nothing per message."""
    return discord.ui.Button(label=label or None, style=style, custom_id=custom_id(data))


def unkept(view: discord.ui.View) -> discord.ui.View:
    """A view discord.py does not keep (stopped): every press is routed by its custom_id (see
    press_button), so a view kept per sent message would only cost memory."""
    view.stop()
    return view


def custom_id(data: str) -> str:
    if not fits(data):
        raise ValueError(f"button data {data[:40]!r} does not fit a Discord custom_id")
    return PREFIX + data


def fits(data: str) -> bool:
    return len(PREFIX + data) <= CUSTOM_ID_MAX and tokens.is_valid(data)


def escape(text: str) -> str:
    return discord.utils.escape_markdown(text or "")


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def directed(text: str, lang: str) -> str:
    """Every Urdu line starts with an RLM (bot/texts/bidi.py), also once escaped for markdown."""
    return bidi.line(text) if bidi.is_rtl(lang) else text


def option_label(letter: str, text: str, suffix: str = "") -> str:
    """'A) text' when it fits the 80-character label, else just the letter."""
    full = f"{letter}) {text}{suffix}"
    return full if len(full) <= LABEL_MAX else cut(f"{letter}{suffix}", LABEL_MAX)


# questions and reveals -----------------------------------------------------------------------


def question_embed(card: QuestionCard) -> discord.Embed:
    body = directed(escape(render.question_body(card, render.AnswerWay.MODAL)), card.language)
    # <t:UNIX:R> counts down in every client with no edit from us
    # (a review card has no deadline: nothing counts down)
    closes = t(card.language, "Closes {when}", when=f"<t:{int(card.deadline)}:R>") if card.seconds > 0 else ""
    return discord.Embed(
        title=cut(escape(render.question_title(card)), TITLE_MAX),
        description=(cut(body, DESCRIPTION_MAX - len(closes) - 2) + "\n\n" + closes).rstrip(),
        colour=COLOURS["question"],
    )


def question_view(card: QuestionCard) -> discord.ui.View:
    """A button per option; "Done" under a select-all-that-apply question in a DM; "Answer"
    (it opens a modal) for a typed or numeric question."""
    view = discord.ui.View(timeout=None)
    for option in card.options:
        view.add_item(press_button(option.token, label=option_label(option.letter, option.text)))
    if card.done_token:
        view.add_item(
            press_button(
                card.done_token, label=answer_buttons.done_label(card.language), style=discord.ButtonStyle.success
            )
        )
    if card.answer_token:
        view.add_item(press_button(card.answer_token, label=answer_buttons.answer_label(card.language)))
    return unkept(view)


def revealed_embed(reveal: Reveal) -> discord.Embed:
    """The question once closed, as its own reveal (render.revealed), cut to an embed's description."""
    lang = reveal.card.language

    def shown(text: str) -> int:  # as the description counts it: escaped, and with RLMs in Urdu
        return len(directed(escape(text), lang))

    body = render.revealed(reveal, DESCRIPTION_MAX, shown)
    return discord.Embed(
        title=cut(escape(render.question_title(reveal.card)), TITLE_MAX),
        description=cut(directed(escape(body), lang), DESCRIPTION_MAX),
        colour=COLOURS["right"],
    )


# replies and acks ----------------------------------------------------------------------------


def button_data(button: Button) -> str:
    """A button that goes on in the private chat becomes a press that opens a DM (discord.py)."""
    return tokens.in_private(button.data) if button.in_private else button.data


def reply_view(buttons: tuple[Button, ...]) -> discord.ui.View | None:
    buttons = tuple(b for b in buttons if _shown(b))
    usable = [b for b in buttons if fits(button_data(b))]
    if len(usable) < len(buttons):
        log.warning("%d button(s) dropped: their data does not fit a custom_id", len(buttons) - len(usable))
    if not usable:
        return None
    view = discord.ui.View(timeout=None)
    for button in usable[:BUTTONS_MAX]:
        view.add_item(
            press_button(button_data(button), label=cut(button.label, LABEL_MAX), style=discord.ButtonStyle.secondary)
        )
    return unkept(view)


def _shown(button: Button) -> bool:
    """Telegram's links to a group or a payload no DM button carries have no Discord button."""
    if button.in_group:
        return False
    try:
        button_data(button)
    except ValueError:
        return False
    return True


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """send()/send_message() arguments for a Reply: an embed when it has a title, else plain content."""
    text = directed(escape(reply.text), reply.language)
    kwargs: dict[str, Any] = {}
    if reply.title:
        kwargs["embed"] = discord.Embed(
            title=cut(escape(reply.title), TITLE_MAX),
            description=cut(text, DESCRIPTION_MAX),
            colour=COLOURS.get(reply.kind, discord.Colour.blurple()),
        )
    else:
        kwargs["content"] = cut(text, CONTENT_MAX) or "…"
    buttons = reply.buttons
    if reply.poll_button and not any(b.data == tokens.FORM_ADD for b in buttons):  # Discord's way: a form
        buttons = (Button(t(reply.language, "Add question"), tokens.FORM_ADD), *buttons)
    view = reply_view(buttons)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def is_private(result: Ack | Reply) -> bool:
    """Acks and errors are shown only to the person who pressed or typed."""
    return isinstance(result, Ack) or result.private or result.kind == "error"


def response_kwargs(result: Ack | Reply) -> dict[str, Any]:
    if isinstance(result, Ack):
        return dict(_ack_kwargs(result.text))
    return {**message_kwargs(result), "ephemeral": is_private(result)}


@lru_cache(maxsize=1024)
def _ack_kwargs(text: str) -> dict[str, Any]:
    """Nearly every press gets one of a few acks ("Locked in: B"): escape each once."""
    return {"content": cut(escape(text), CONTENT_MAX), "ephemeral": True}


# the same, as the JSON of an interaction callback (the endpoint's HTTP reply, a follow-up) -------

EPHEMERAL = 64  # message flag: shown only to the person who pressed or typed
NO_MENTIONS = discord.AllowedMentions.none().to_dict()  # names and quiz text never ping anyone


def callback_data(result: Ack | Reply) -> dict[str, Any]:
    """What `response_kwargs` gives discord.py's send_message, as the message JSON Discord takes."""
    if isinstance(result, Ack):
        return ack_data(result.text)
    kwargs = message_kwargs(result)
    data: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
    if "content" in kwargs:
        data["content"] = kwargs["content"]
    if "embed" in kwargs:
        data["embeds"] = [kwargs["embed"].to_dict()]
    if "view" in kwargs:
        data["components"] = kwargs["view"].to_components()
    if is_private(result):
        data["flags"] = EPHEMERAL
    return data


@lru_cache(maxsize=1024)
def ack_data(text: str) -> dict[str, Any]:
    """Shared between presses: never changed once made."""
    return {"content": cut(escape(text), CONTENT_MAX), "flags": EPHEMERAL, "allowed_mentions": NO_MENTIONS}
