"""/upload on Telegram: a document sent with the caption /upload, or /upload in reply to one.

The file is fetched as the Bot API serves it: getFile, then a download from the file address,
which is TELEGRAM_API_URL with `/bot` turned into `/file/bot` (a self-hosted Bot API server
and the test fakes work alike). Only admins' files are fetched, and only up to 1 MB.
"""

from __future__ import annotations

from telegram import Bot, Document, Message

from bot.adapters.telegram.runtime import with_retries
from bot.commands.core import Caller, Commands
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain.model import Reply

UNNAMED = "upload"  # the name of a document sent without one


def document_of(message: Message) -> Document | None:
    """The document sent with /upload as its caption, or the one /upload replies to."""
    if message.document is not None:
        return message.document
    replied = message.reply_to_message
    return replied.document if replied is not None else None


async def upload(bot: Bot, commands: Commands, caller: Caller, document: Document, args: str = "") -> Reply:
    """The reply to /upload with a document an admin sent: the file fetched and stored, or why
    not. The caption's argument (`/upload es`) is the language tag of an imported file's texts."""
    language = args.split()[0] if args.split() else "en"
    name = document.file_name or UNNAMED
    if document.file_size is not None and document.file_size > MAX_FILE_BYTES:
        return await commands.upload(caller, name, b"", size=document.file_size)  # refused unfetched
    # a failure here is the platform's: the command's own error handling answers it
    telegram_file = await with_retries(lambda: bot.get_file(document.file_id), "getFile")
    data = bytes(await telegram_file.download_as_bytearray())
    return await commands.upload(caller, name, data, language=language)
