"""Question messages on Telegram: posted as text or as a photo with caption, closed by one edit.

A question with a picture is one message, the photo with the question as its caption and the
buttons under it; closing it edits the caption (editMessageCaption), as closing a text
question edits its text. A question too long for a caption (1024 characters) sends its photo
first, captioned with the question's title, and the question follows as text with the buttons:
the players read all of it, and the message that closes is the text one.
"""

from __future__ import annotations

import logging

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.photos import PhotoIds
from bot.adapters.telegram.runtime import with_retries
from bot.domain.model import MediaKind, MediaView, QuestionCard, Reveal

log = logging.getLogger("quizhost.telegram")

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# Telegram's 400s for a text message edited as a photo's caption or media
NO_CAPTION = ("there is no caption in the message to edit", "there is no media in the message to edit")
NO_TEXT = ("there is no text in the message to edit",)  # and for a photo edited as text
# Telegram's 400s for a photo it will not show: an unknown file_id, a URL it cannot fetch or read,
# a file that is no picture it can process
PHOTO_REFUSED = ("file identifier", "http url", "web page content", "image_process_failed", "photo_invalid")


async def post_card(
    bot: Bot, chat_id: int | str, card: QuestionCard, photos: PhotoIds, answer_start: str = ""
) -> Message:
    """Post the question (with its picture when it has one Telegram can show), a typed one with
    its "Answer" deep link's signed payload `answer_start`; the message returned
    carries the buttons and is the one the reveal edits. A file_id Telegram no longer knows (kept
    from another bot token, say) is dropped and the file uploaded again; a picture Telegram
    refuses (a URL it cannot fetch, a file it cannot read as a photo) leaves the question as text."""
    keyboard = fmt.question_keyboard(card, bot.username, answer_start)
    caption = fmt.question_caption(card)
    for _ in range(2):  # the second round: after a stale file_id, the upload
        photo = await photos.photo(card.media)
        if photo is None:
            break
        try:
            sent = await _photo(bot, chat_id, photo, caption or fmt.photo_title(card), keyboard if caption else None)
        except BadRequest as exc:
            if not any(said in str(exc).lower() for said in PHOTO_REFUSED):
                raise
            log.warning("Telegram refused the picture of question %s: %s", card.number, exc)
            if not photos.refused(card.media, photo):
                break
            continue
        await photos.sent(card.media, photo, sent)
        return sent if caption else await _text(bot, chat_id, fmt.question_html(card), keyboard)
    return await _text(bot, chat_id, fmt.question_html(card), keyboard)


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


async def edit_closed(bot: Bot, chat_id: int | str, message_id: int, reveal: Reveal, photos: PhotoIds) -> None:
    """Edit the question into its reveal: the caption of a photo, else the text. The card says
    which it most likely is; Telegram's answer settles it (a picture that could not be read when
    the question was posted went as text). An explanation's picture replaces the question's
    photo in the same edit (editMessageMedia); under a text question, a picture at a URL is the
    message's link preview (a file cannot be added to a text message by an edit)."""
    caption_first = posted_as_photo(reveal.card)
    for as_caption in (caption_first, not caption_first):
        try:
            if as_caption and (why := await photos.photo(reveal.explanation_media)) is not None:
                await _edit_media(bot, chat_id, message_id, reveal, why, photos)
            else:
                await _edit(bot, chat_id, message_id, reveal, as_caption)
            return
        except BadRequest as exc:
            said = str(exc).lower()
            if not any(wrong in said for wrong in (NO_CAPTION if as_caption else NO_TEXT)):
                raise


async def _edit(bot: Bot, chat_id: int | str, message_id: int, reveal: Reveal, as_caption: bool) -> None:
    if as_caption:
        caption = fmt.revealed_caption(reveal, reveal.card.media)
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
            html,
            chat_id=chat_id,
            message_id=message_id,
            parse_mode=ParseMode.HTML,
            link_preview_options=_preview(reveal.explanation_media),
        ),
        "closing a question",
    )


async def _edit_media(
    bot: Bot, chat_id: int | str, message_id: int, reveal: Reveal, photo: str | InputFile, photos: PhotoIds
) -> None:
    caption = fmt.revealed_caption(reveal, reveal.explanation_media)
    media = InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML)
    edited = await with_retries(
        lambda: bot.edit_message_media(media, chat_id=chat_id, message_id=message_id), "closing a question"
    )
    if isinstance(edited, Message):
        await photos.sent(reveal.explanation_media, photo, edited)


def _preview(media: MediaView | None) -> LinkPreviewOptions:
    """The explanation's picture at a URL as the text's preview, large and under it; else none."""
    if media is None or media.kind is not MediaKind.IMAGE or not media.is_url:
        return NO_PREVIEW
    return LinkPreviewOptions(url=media.location, prefer_large_media=True, show_above_text=False)
