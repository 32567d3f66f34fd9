"""Writing a quiz from polls on Telegram (issue #23): a poll the author sends in the private
chat (made with Telegram's composer or forwarded) read as a question, and the reply keyboard
whose button opens Telegram's own "create a quiz" composer."""

from __future__ import annotations

from telegram import KeyboardButton, KeyboardButtonPollType, Message, Poll, ReplyKeyboardMarkup

from bot.content.drafts import PollSpec


def poll_spec(poll: Poll) -> PollSpec:
    """What the poll says. A quiz poll's right options (several: a multi question) are visible to
    the bot in its private chat, unless Telegram hid them (a quiz forwarded from a channel, say)."""
    return PollSpec(
        question=poll.question,
        options=tuple(option.text for option in poll.options),
        right=tuple(sorted(poll.correct_option_ids)),
        explanation=poll.explanation or "",
        is_quiz=poll.type == Poll.QUIZ,
    )


def composer(label: str) -> ReplyKeyboardMarkup:
    """A keyboard with one button: Telegram's poll composer, in quiz mode."""
    button = KeyboardButton(label, request_poll=KeyboardButtonPollType(type=Poll.QUIZ))
    return ReplyKeyboardMarkup([[button]], resize_keyboard=True, is_persistent=True)


def replied_poll(message: Message) -> Poll | None:
    """The poll a /suggest replies to, if it replies to one."""
    replied = message.reply_to_message
    return replied.poll if replied is not None else None
