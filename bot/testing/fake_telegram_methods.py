"""The Bot API methods of the fake, answered as Telegram answers them, limits included.

A mixin of `FakeBotApi` (bot/testing/fake_telegram.py), which holds the state these methods read
and change: chats, messages, presses, admins, the update queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from dataclasses import dataclass, field
from typing import Any, cast

from aiohttp.web_request import FileField

from bot.domain.tokens import Kind
from bot.testing.fake_telegram_html import HtmlError, parse_html, utf16_len

ANSWER = Kind.ANSWER.prefix  # a message with answer buttons is a question (the bench waits for them)

POLL_CAP = 0.5  # seconds a getUpdates is held open at most, whatever timeout the bot asks for
MAX_TEXT, MAX_DATA, MAX_ANSWER, MAX_CAPTION = 4096, 64, 200, 1024
MAX_PHOTO = 10 * 1000 * 1000  # a photo sent by upload
IMAGE_STARTS = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"RIFF")


def _asks(keyboard: list[list[dict]]) -> bool:
    """Whether a message is a question: answer buttons, or a typed question's "Answer" deep link."""
    buttons = [b for row in keyboard for b in row]
    return any(b.get("callback_data", "").startswith(ANSWER) or "start=answer_" in b.get("url", "") for b in buttons)


class ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict | None = None) -> None:
        super().__init__(description)
        self.code, self.description, self.parameters = code, description, parameters


# what a restricted member may do (ChatMemberRestricted); the fake's restricted members may do nothing
RESTRICTED_RIGHTS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
    "can_react_to_messages",
)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    status: int = 200
    error: str = ""
    at: float = 0.0  # when the fake received it, on the fake's `stamp` clock


@dataclass
class Sent:
    """A message the bot sent, as members would see it now (after any edits)."""

    chat_id: int
    message_id: int
    html: str
    text: str  # what Telegram shows: tags applied, entities decoded
    bold: list[str]
    keyboard: list[list[dict]]  # rows of {"text", "callback_data"}
    reply_to: int | None
    edits: int = 0
    photo: str | None = None  # a photo's file_id: `text` is then its caption
    reply_keyboard: list[list[dict]] = field(default_factory=list)  # a ReplyKeyboardMarkup's rows of buttons

    def buttons(self) -> list[dict]:
        return [b for row in self.keyboard for b in row]


@dataclass
class Press:
    id: str
    update_id: int
    answered: bool = False
    text: str | None = None
    show_alert: bool = False


class BotApiMethods:
    """`_m_<method>(params) -> result`, or ApiError with Telegram's status and description."""

    bot_id: int
    username: str
    chats: dict[int, dict]
    admins: dict[int, set[int]]
    members: dict[int, dict[int, str]]
    commands: dict[str, list[dict]]
    webhook: dict | None
    allowed_updates: list[str] | None
    presses: dict[str, Press]
    messages: dict[tuple[int, int], Sent]
    _updates: list[dict]
    _changed: asyncio.Condition
    _questions: dict[int, set[int]]
    _last_message_id: dict[int, int]
    files: dict[str, bytes]
    photo_uploads: list[tuple[str, str]]
    messages_sent_by_users: dict[tuple[int, int], dict]
    bot_deletes_in: set[int]
    deleted: list[tuple[int, int]]
    photo_urls: list[str]

    async def _m_getMe(self, p: dict) -> dict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Quiz Host",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _m_deleteWebhook(self, p: dict) -> bool:
        self.webhook = None
        return True

    async def _m_setWebhook(self, p: dict) -> bool:
        secret = p.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self.webhook = {"url": p["url"], "secret_token": secret}
        self.allowed_updates = p.get("allowed_updates") or self.allowed_updates
        return True

    async def _m_getUpdates(self, p: dict) -> list[dict]:
        offset = p.get("offset") or 0
        self.allowed_updates = p.get("allowed_updates") or self.allowed_updates
        self._updates = [u for u in self._updates if u["update_id"] >= offset]  # confirmed ones go
        if not self._updates and p.get("timeout"):
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: bool(self._updates)), min(POLL_CAP, float(p["timeout"]))
                    )
        return self._updates[: p.get("limit") or 100]

    async def _m_setMyCommands(self, p: dict) -> bool:
        for command in p["commands"]:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", command["command"]):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(command["description"]) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[p.get("language_code") or ""] = p["commands"]
        return True

    async def _m_getFile(self, p: dict) -> dict:
        file_id = str(p.get("file_id", ""))
        if file_id not in self.files:
            raise ApiError(400, "Bad Request: invalid file_id")
        if len(self.files[file_id]) > 20_000_000:  # bots may fetch files up to 20 MB
            raise ApiError(400, "Bad Request: file is too big")
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(self.files[file_id]),
            "file_path": f"documents/{file_id}",
        }

    async def _m_getChatMember(self, p: dict) -> dict:
        chat_id, user_id = p["chat_id"], p["user_id"]
        user = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        if user_id in self.admins.get(chat_id, set()):
            rights = dict.fromkeys(
                [
                    "can_be_edited",
                    "is_anonymous",
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_promote_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_post_stories",
                    "can_edit_stories",
                    "can_delete_stories",
                ],
                False,
            )
            return {"status": "administrator", "user": user, **rights}
        status = self.members.get(chat_id, {}).get(user_id)
        if status is None:
            raise ApiError(400, "Bad Request: user not found")
        if status == "kicked":
            return {"status": status, "user": user, "until_date": 0}
        if status == "creator":
            return {"status": status, "user": user, "is_anonymous": False}
        if status.startswith("restricted"):  # "restricted": in the group, muted; "restricted_out": not in it
            rights = dict.fromkeys(RESTRICTED_RIGHTS, False)
            return {
                "status": "restricted",
                "user": user,
                "is_member": status == "restricted",
                "until_date": 0,
                **rights,
            }
        return {"status": status, "user": user}

    async def _m_sendMessage(self, p: dict) -> dict:
        chat_id = p["chat_id"]
        if chat_id not in self.chats:
            raise ApiError(400, "Bad Request: chat not found")
        text, bold = self._rendered(p)
        keyboard = self._keyboard(p.get("reply_markup"))
        reply = p.get("reply_parameters") or {}
        reply_to = reply.get("message_id")
        missing = reply_to is not None and not self._exists(chat_id, reply_to)
        if missing and not reply.get("allow_sending_without_reply"):
            raise ApiError(400, "Bad Request: message to be replied not found")
        sent = Sent(chat_id, self._next_message_id(chat_id), p["text"], text, bold, keyboard, reply_to)
        sent.reply_keyboard = _reply_keyboard(p.get("reply_markup"))
        self.messages[(chat_id, sent.message_id)] = sent
        if _asks(keyboard):
            self._questions.setdefault(chat_id, set()).add(sent.message_id)
        return self._message_json(sent)

    async def _m_sendPhoto(self, p: dict) -> dict:
        """A photo by upload (multipart), by a file_id of an earlier one, or by URL (recorded, not
        fetched: tests never reach the internet); its caption as a message's text, 1024 at most."""
        chat_id = p["chat_id"]
        if chat_id not in self.chats:
            raise ApiError(400, "Bad Request: chat not found")
        file_id = self._photo_id(p)
        text, bold = self._rendered(p, "caption", MAX_CAPTION) if p.get("caption") else ("", [])
        keyboard = self._keyboard(p.get("reply_markup"))
        sent = Sent(chat_id, self._next_message_id(chat_id), p.get("caption") or "", text, bold, keyboard, None)
        sent.photo = file_id
        self.messages[(chat_id, sent.message_id)] = sent
        if _asks(keyboard):
            self._questions.setdefault(chat_id, set()).add(sent.message_id)
        return self._message_json(sent)

    def _photo_id(self, p: dict) -> str:
        photo = p.get("photo")
        if isinstance(photo, str) and photo.startswith("attach://"):
            photo = p.get(photo.removeprefix("attach://"))
        if isinstance(photo, str):
            if photo in self.files:
                return photo
            if not photo.startswith(("https://", "http://")):
                raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            if "unreachable" in photo:  # a test's address Telegram cannot fetch
                raise ApiError(400, "Bad Request: failed to get HTTP URL content")
            self.photo_urls.append(photo)
            file_id = f"photo{len(self.files) + 1}"
            self.files[file_id] = b""
            return file_id
        if not isinstance(photo, FileField):
            raise ApiError(400, "Bad Request: there is no photo in the request")
        data = photo.file.read()
        if len(data) > MAX_PHOTO:
            raise ApiError(413, "Request Entity Too Large")
        if not data.startswith(IMAGE_STARTS):
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        file_id = f"photo{len(self.files) + 1}"
        self.files[file_id] = data
        self.photo_uploads.append((photo.filename, file_id))
        return file_id

    async def _m_editMessageCaption(self, p: dict) -> dict:
        sent = self._own_message(p)
        if sent.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        text, bold = self._rendered(p, "caption", MAX_CAPTION) if p.get("caption") else ("", [])
        return self._edited(sent, p.get("caption") or "", text, bold, self._keyboard(p.get("reply_markup")))

    async def _m_editMessageMedia(self, p: dict) -> dict:
        """A photo message's photo and caption replaced in one edit (a text message has no media)."""
        sent = self._own_message(p)
        if sent.photo is None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        media = p.get("media") or {}
        if media.get("type") != "photo":
            raise ApiError(400, "Bad Request: wrong media type")
        file_id = self._photo_id({**p, "photo": media.get("media")})
        fields = {"caption": media.get("caption"), "parse_mode": media.get("parse_mode")}
        text, bold = self._rendered(fields, "caption", MAX_CAPTION) if media.get("caption") else ("", [])
        keyboard = self._keyboard(p.get("reply_markup"))
        if file_id == sent.photo and (text, bold, keyboard) == (sent.text, sent.bold, sent.keyboard):
            raise ApiError(400, "Bad Request: message is not modified")
        sent.photo = file_id
        sent.html, sent.text, sent.bold, sent.keyboard = media.get("caption") or "", text, bold, keyboard
        sent.edits += 1
        return self._message_json(sent)

    async def _m_editMessageText(self, p: dict) -> dict:
        sent = self._own_message(p)
        if sent.photo is not None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text, bold = self._rendered(p)
        keyboard = self._keyboard(p.get("reply_markup"))  # no reply_markup: the keyboard goes
        return self._edited(sent, p["text"], text, bold, keyboard)

    def _edited(self, sent: Sent, raw: str, text: str, bold: list[str], keyboard: list[list[dict]]) -> dict:
        if (text, bold, keyboard) == (sent.text, sent.bold, sent.keyboard):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        sent.html, sent.text, sent.bold, sent.keyboard = raw, text, bold, keyboard
        sent.edits += 1
        return self._message_json(sent)

    async def _m_editMessageReplyMarkup(self, p: dict) -> dict:
        sent = self._own_message(p)
        keyboard = self._keyboard(p.get("reply_markup"))
        if keyboard == sent.keyboard:
            raise ApiError(400, "Bad Request: message is not modified")
        sent.keyboard, sent.edits = keyboard, sent.edits + 1
        return self._message_json(sent)

    async def _m_deleteMessage(self, p: dict) -> bool:
        """The bot deletes a message: its own, or (as an admin with can_delete_messages) a member's."""
        key = cast(tuple[int, int], (p.get("chat_id"), p.get("message_id")))
        if key in self.messages:
            del self.messages[key]
        elif key in self.messages_sent_by_users and key[0] in self.bot_deletes_in:
            del self.messages_sent_by_users[key]
        else:
            raise ApiError(400, "Bad Request: message can't be deleted for everyone")
        self.deleted.append(key)
        return True

    async def _m_answerCallbackQuery(self, p: dict) -> bool:
        press = self.presses.get(p["callback_query_id"])
        if press is None or press.answered:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        text = p.get("text")
        if text is not None and utf16_len(text) > MAX_ANSWER:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        press.answered, press.text, press.show_alert = True, text, p.get("show_alert") == "true"
        return True

    # helpers ---------------------------------------------------------------------------

    def _next_message_id(self, chat_id: int) -> int:
        self._last_message_id[chat_id] = self._last_message_id.get(chat_id, 0) + 1
        return self._last_message_id[chat_id]

    def _exists(self, chat_id: int, message_id: int) -> bool:
        return 0 < message_id <= self._last_message_id.get(chat_id, 0)

    def _own_message(self, p: dict) -> Sent:
        # whatever the bot sent: a wrong key finds nothing
        key = cast(tuple[int, int], (p.get("chat_id"), p.get("message_id")))
        sent = self.messages.get(key)
        if sent is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return sent

    @staticmethod
    def _rendered(p: dict, name: str = "text", limit: int = MAX_TEXT) -> tuple[str, list[str]]:
        raw = p.get(name) or ""
        if p.get("parse_mode") == "HTML":
            try:
                text, bold = parse_html(raw)
            except HtmlError as exc:
                raise ApiError(400, f"Bad Request: can't parse entities: {exc}") from None
        else:
            text, bold = raw, []
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(text) > limit:
            raise ApiError(
                400,
                "Bad Request: message caption is too long" if name == "caption" else "Bad Request: message is too long",
            )
        return text, bold

    @staticmethod
    def _keyboard(markup: dict | None) -> list[list[dict]]:
        rows = (markup or {}).get("inline_keyboard") or []
        if sum(len(r) for r in rows) > 100 or any(len(r) > 8 for r in rows):
            raise ApiError(400, "Bad Request: too many buttons")
        for button in (b for row in rows for b in row):
            data = button.get("callback_data")
            if not button.get("text"):
                raise ApiError(400, "Bad Request: BUTTON_TEXT_EMPTY")
            if data is not None and not 1 <= len(data.encode("utf-8")) <= MAX_DATA:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        return rows

    def _message_json(self, sent: Sent) -> dict:
        message = {
            "message_id": sent.message_id,
            "date": int(time.time()),
            "chat": self.chats[sent.chat_id],
            "from": {"id": self.bot_id, "is_bot": True, "first_name": "Quiz Host", "username": self.username},
        }
        if sent.photo is not None:
            size = len(self.files.get(sent.photo, b""))
            message["photo"] = [
                {
                    "file_id": sent.photo,
                    "file_unique_id": f"u{sent.photo}",
                    "width": 320,
                    "height": 240,
                    "file_size": size,
                }
            ]
            if sent.text:
                message["caption"] = sent.text
        else:
            message["text"] = sent.text
        if sent.keyboard:
            message["reply_markup"] = {"inline_keyboard": sent.keyboard}
        return message


def _reply_keyboard(markup: dict | None) -> list[list[dict]]:
    """A reply keyboard's rows; a poll button may ask for a quiz or a regular poll only, as Telegram checks."""
    rows = (markup or {}).get("keyboard") or []
    for button in (b for row in rows for b in row):
        if not button.get("text"):
            raise ApiError(400, "Bad Request: BUTTON_TEXT_EMPTY")
        kind = (button.get("request_poll") or {}).get("type")
        if "request_poll" in button and kind not in (None, "quiz", "regular"):
            raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
    return rows
