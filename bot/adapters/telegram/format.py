"""Telegram markup for the engine's neutral texts: HTML parse mode, inline keyboards, limits.

Every quiz and user text goes through `escape`: Telegram's HTML mode rejects a bare `<` or
`&` ("can't parse entities") and would turn `<b>` in a quiz text into bold.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import InlineKeyboardButtonLimit, InlineKeyboardMarkupLimit, MessageLimit

from bot.domain.model import Button, MediaView, QuestionCard, Reply, Reveal
from bot.texts import answer_buttons, render, textcut

log = logging.getLogger("quizhost.telegram")

TEXT_LIMIT = MessageLimit.MAX_TEXT_LENGTH  # 4096, counted after entity parsing
CAPTION_LIMIT = MessageLimit.CAPTION_LENGTH  # 1024: a photo's caption, counted alike
DATA_LIMIT = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA  # 64 bytes of UTF-8
PER_ROW = InlineKeyboardMarkupLimit.BUTTONS_PER_ROW  # 8
# An option's text joins its letter on a one-per-row button only when a phone shows the
# whole label; otherwise the buttons carry the letters and the message carries the text.
LABEL_ROOM = 32
LETTERS_PER_ROW = 5
SHORT_LABEL = 14  # reply buttons this short share a row (language names, letters)
ELLIPSIS = "…"


def escape(text: str) -> str:
    return html.escape(text, quote=False)


def units(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units (an emoji can be two)."""
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, room: int) -> str:
    """Cut plain text to `room` UTF-16 units at a grapheme boundary, marking the cut (before
    escaping, so no entity breaks)."""
    return textcut.cut(text, room, units, ELLIPSIS)


def titled(title: str, body: str, limit: int = TEXT_LIMIT) -> str:
    """`<b>title</b>` and the body, both escaped, the body cut so the whole fits one message
    (or, with `limit` CAPTION_LIMIT, one caption)."""
    title = fit(title, 256)
    if not title:
        return escape(fit(body, limit) or "…")
    room = limit - units(title) - 2
    return f"<b>{escape(title)}</b>\n\n{escape(fit(body, room))}" if body else f"<b>{escape(title)}</b>"


def checked_data(data: str) -> str:
    """Telegram refuses a whole message over one bad button: say which one, early and clearly."""
    size = len(data.encode("utf-8"))
    if not 1 <= size <= DATA_LIMIT:
        raise ValueError(f"callback data must be 1 to {DATA_LIMIT} bytes, got {size}: {data[:80]!r}")
    return data


# questions -----------------------------------------------------------------------------


def answer_way(card: QuestionCard) -> render.AnswerWay:
    """How a typed or numeric answer reaches the bot from this card's chat: in a group the
    "Answer" deep link into the private chat (the bot reads no group chat), in the private chat
    the next message."""
    return render.AnswerWay.MESSAGE if card.chat.is_private else render.AnswerWay.DEEP_LINK


def question_html(card: QuestionCard) -> str:
    return titled(render.question_title(card), render.question_body(card, answer_way(card)))


def question_caption(card: QuestionCard) -> str | None:
    """The question as a photo's caption; None when the whole of it does not fit one (then the
    photo goes first with `photo_title` and the question follows as text: cutting a question
    could cut the options the buttons point at)."""
    title, body = fit(render.question_title(card), 256), render.question_body(card, answer_way(card))
    said = picture_said(card.language, card.media)
    room = CAPTION_LIMIT - (units(said) + 2 if said else 0)
    return described(said, titled(title, body, room)) if units(title) + 2 + units(body) <= room else None


def photo_title(card: QuestionCard) -> str:
    """The caption of a picture sent ahead of a question too long to be its caption."""
    return described(picture_said(card.language, card.media), f"<b>{escape(fit(render.question_title(card), 256))}</b>")


def picture_said(lang: str, media: MediaView | None) -> str:
    """A picture's description for the start of its caption in plain text (Telegram has no
    alt text of its own), cut to leave most of the caption to the question."""
    return fit(render.picture_said(lang, media), CAPTION_LIMIT // 2)


def described(said: str, caption_html: str) -> str:
    return f"{escape(said)}\n\n{caption_html}" if said else caption_html


def question_keyboard(card: QuestionCard, bot_username: str = "", answer_start: str = "") -> InlineKeyboardMarkup:
    """Letters with their option text where the whole text fits a button; else letters only.
    Select-all-that-apply in a private chat adds "Done"; a typed or numeric question has one
    "Answer" button, a deep link into the private chat, where the next message is the answer:
    `answer_start` is its signed payload (bot/commands/deeplinks.py)."""
    if all(len(o.text) <= LABEL_ROOM for o in card.options):
        rows = [
            [InlineKeyboardButton(f"{o.letter} · {o.text}", callback_data=checked_data(o.token))] for o in card.options
        ]
    else:
        buttons = [InlineKeyboardButton(o.letter, callback_data=checked_data(o.token)) for o in card.options]
        rows = _rows(buttons, LETTERS_PER_ROW)
    if card.done_token:
        rows.append([InlineKeyboardButton(answer_buttons.done_label(card.language), callback_data=card.done_token)])
    if card.answer_token and answer_start:  # the commands remember what the next message answers
        link = deep_link(bot_username, checked_data(answer_start))
        rows.append([InlineKeyboardButton(answer_buttons.answer_label(card.language), url=link)])
    return InlineKeyboardMarkup(rows)


def deep_link(bot_username: str, payload: str, link: str = "start") -> str:
    """t.me/<bot>?start=<payload>: Telegram opens the private chat and sends /start <payload>
    (`startgroup`: in a group the user picks)."""
    return f"https://t.me/{bot_username}?{link}={payload}"


def revealed_html(reveal: Reveal, limit: int = TEXT_LIMIT) -> str:
    """The question message once closed: its own reveal, cut to one message's 4096 units (a
    photo's caption: 1024, render.revealed cuts who scored and why first)."""
    title = fit(render.question_title(reveal.card), 256)
    return titled(title, render.revealed(reveal, limit - units(title) - 2, units), limit)


def revealed_caption(reveal: Reveal, picture: MediaView | None) -> str:
    """The reveal as the caption of `picture` (the question's, or the explanation's in its place),
    its description first in plain text."""
    said = picture_said(reveal.card.language, picture)
    return described(said, revealed_html(reveal, CAPTION_LIMIT - (units(said) + 2 if said else 0)))


# replies to commands and presses ----------------------------------------------------------


def reply_html(reply: Reply) -> str:
    return titled(reply.title, reply.text)


def reply_keyboard(buttons: Sequence[Button], bot_username: str = "") -> InlineKeyboardMarkup | None:
    """The reply's buttons; short labels share rows. A button whose data is too long is left out.

    A button that continues in the private chat is a deep link, t.me/<bot>?start=<data>:
    Telegram opens the chat with the bot and sends /start <data> when the user taps Start.
    One that continues in a group is t.me/<bot>?startgroup=<data>: the user picks a group, the
    bot is added to it if need be, and /start <data> is sent there.
    """
    usable = []
    for button in buttons[: InlineKeyboardMarkupLimit.TOTAL_BUTTON_NUMBER]:
        try:
            if button.in_private or button.in_group:  # startgroup: the user picks a group to add the bot to
                link = "startgroup" if button.in_group else "start"
                usable.append(
                    InlineKeyboardButton(
                        fit(button.label, 64), url=deep_link(bot_username, checked_data(button.data), link)
                    )
                )
                continue
            usable.append(InlineKeyboardButton(fit(button.label, 64), callback_data=checked_data(button.data)))
        except ValueError as exc:
            log.warning("left a button out: %s", exc)
    if not usable:
        return None
    short = all(len(b.text) <= SHORT_LABEL for b in usable)
    return InlineKeyboardMarkup(_rows(usable, 4 if short else 1))


def ack_text(text: str) -> str:
    """A callback answer's text: at most 200 characters (a toast is no place for more)."""
    return fit(text, 200)


def _rows(buttons: list[InlineKeyboardButton], per_row: int) -> list[list[InlineKeyboardButton]]:
    per_row = max(1, min(per_row, PER_ROW))
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]
