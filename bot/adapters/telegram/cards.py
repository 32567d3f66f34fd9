"""Question messages on Telegram: posted as text or as a photo with caption, closed by one edit.

A question with a picture is one message, the photo with the question as its caption and the
buttons under it; closing it edits the caption (editMessageCaption), as closing a text
question edits its text. A question too long for a caption (1024 characters) sends its photo
first, captioned with the question's title, and the question follows as text with the buttons:
the players read all of it, and the message that closes is the text one.
"""

from __future__ import annotations

import logging

from telegram import Bot, InlineKeyboardMarkup, InputFile, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.photos import PhotoIds
from bot.adapters.telegram.runtime import with_retries
from bot.domain.model import MediaKind, QuestionCard, Reveal

log = logging.getLogger("quizhost.telegram")

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
NO_CAPTION = "there is no caption in the message to edit"  # Telegram's 400 for a text message
NO_TEXT = "there is no text in the message to edit"  # and for a photo


async def post_card(bot: Bot, chat_id: int | str, card: QuestionCard, photos: PhotoIds) -> Message:
    """Post the question (with its picture when it has one Telegram can show); the message returned
    carries the buttons and is the one the reveal edits."""
    keyboard = fmt.question_keyboard(card, bot.username)
    photo = await photos.photo(card.media)
    if photo is None:
        return await _text(bot, chat_id, fmt.question_html(card), keyboard)
    caption = fmt.question_caption(card)
    sent = await _photo(bot, chat_id, photo, caption or fmt.photo_title(card), keyboard if caption else None)
    photos.sent(card.media, photo, sent)
    return sent if caption else await _text(bot, chat_id, fmt.question_html(card), keyboard)


async def _text(bot: Bot, chat_id: int | str, html: str, keyboard: InlineKeyboardMarkup | None) -> Message:
    return await with_retries(
        lambda: bot.send_message(
            chat_id, html, parse_mode=ParseMode.HTML, reply_markup=keyboard, link_preview_options=NO_PREVIEW
        ),
        "posting a question",
        once=True,
    )


async def _photo(
    bot: Bot, chat_id: int | str, photo: str | InputFile, caption: str, keyboard: InlineKeyboardMarkup | None
) -> Message:
    return await with_retries(
        lambda: bot.send_photo(chat_id, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=keyboard),
        "posting a question's picture",
        once=True,
    )


def posted_as_photo(card: QuestionCard) -> bool:
    """Whether the question was most likely posted as a photo with caption (the edit tries that first)."""
    return card.media is not None and card.media.kind is MediaKind.IMAGE and fmt.question_caption(card) is not None


async def edit_closed(bot: Bot, chat_id: int | str, message_id: int, reveal: Reveal) -> None:
    """Edit the question into its reveal: the caption of a photo, else the text. The card says
    which it most likely is; Telegram's answer settles it (a picture that could not be read when
    the question was posted went as text)."""
    caption_first = posted_as_photo(reveal.card)
    for as_caption in (caption_first, not caption_first):
        try:
            await _edit(bot, chat_id, message_id, reveal, as_caption)
            return
        except BadRequest as exc:
            wrong_kind = NO_CAPTION if as_caption else NO_TEXT
            if wrong_kind not in str(exc).lower():
                raise


async def _edit(bot: Bot, chat_id: int | str, message_id: int, reveal: Reveal, as_caption: bool) -> None:
    if as_caption:
        caption = fmt.revealed_html(reveal, fmt.CAPTION_LIMIT)
        await with_retries(
            lambda: bot.edit_message_caption(
                chat_id=chat_id, message_id=message_id, caption=caption, parse_mode=ParseMode.HTML
            ),
            "closing a question",
        )
        return
    html = fmt.revealed_html(reveal)
    await with_retries(
        lambda: bot.edit_message_text(
            html, chat_id=chat_id, message_id=message_id, parse_mode=ParseMode.HTML, link_preview_options=NO_PREVIEW
        ),
        "closing a question",
    )
