"""The fake Bot API's users writing a quiz (issue #23): polls sent in a chat (made with the
composer or forwarded from elsewhere), and the deep links of buttons opened as Telegram does
(`start` in the private chat with the bot, `startgroup` in a group the user picks)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, urlparse

_poll_ids = itertools.count(1)


def poll_json(
    question: str,
    options: Sequence[str],
    correct: int | Sequence[int] | None = None,
    explanation: str = "",
    quiz: bool = True,
) -> dict[str, Any]:
    """A Poll as the Bot API (9.6) gives it in a private chat with the bot: the right options in
    `correct_option_ids` (left out: Telegram hid them, as for a quiz forwarded from elsewhere)."""
    poll: dict[str, Any] = {
        "id": f"poll{next(_poll_ids)}",
        "question": question,
        "options": [{"text": text, "voter_count": 0, "persistent_id": f"o{i}"} for i, text in enumerate(options)],
        "total_voter_count": 0,
        "is_closed": False,
        "is_anonymous": True,
        "type": "quiz" if quiz else "regular",
        "allows_multiple_answers": False,
        "allows_revoting": False,
        "members_only": False,
    }
    if correct is not None:
        poll["correct_option_ids"] = [correct] if isinstance(correct, int) else list(correct)
        poll["allows_multiple_answers"] = len(poll["correct_option_ids"]) > 1
    if explanation:
        poll["explanation"] = explanation
    return poll


class UserPolls:
    """Mixed into FakeBotApi: what it supplies is named here for the type checker."""

    username: str
    chats: dict[int, dict]
    messages_sent_by_users: dict[tuple[int, int], dict]

    def _next_message_id(self, chat_id: int) -> int:
        raise NotImplementedError

    def text_update(self, chat: dict, user: dict, text: str, sender_chat: dict | None = None) -> dict:
        raise NotImplementedError

    async def _deliver(self, update: dict) -> None:
        raise NotImplementedError

    def _new_update_id(self) -> int:
        raise NotImplementedError

    async def send_poll(self, chat: dict, user: dict, poll: dict, forwarded_from: dict | None = None) -> int:
        """The user sends `poll` (poll_json) in `chat`, made there or forwarded from another user."""
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "date": int(time.time()),
            "chat": chat,
            "from": user,
            "poll": poll,
        }
        if forwarded_from is not None:
            message["forward_origin"] = {"type": "user", "sender_user": forwarded_from, "date": int(time.time()) - 60}
        self.messages_sent_by_users[(chat["id"], message["message_id"])] = message
        await self._deliver({"update_id": self._new_update_id(), "message": message})
        return message["message_id"]

    async def open_link(self, url: str, user: dict, group: dict | None = None) -> int:
        """The user opens a t.me deep link: `start` sends /start <payload> in their private chat
        with the bot; `startgroup` sends /start@bot <payload> in `group`, the one they picked."""
        link = urlparse(url)
        assert link.netloc == "t.me" and link.path == f"/{self.username}", f"not a link to this bot: {url}"
        query = {k: v[0] for k, v in parse_qs(link.query).items()}
        if "startgroup" in query:
            assert group is not None, "a startgroup link needs the group the user picks"
            update = self.text_update(group, user, f"/start@{self.username} {query['startgroup']}")
        else:
            chat = self.chats.get(user["id"]) or {"id": user["id"], "type": "private", "first_name": user["first_name"]}
            self.chats[user["id"]] = chat
            update = self.text_update(chat, user, f"/start {query['start']}")
        await self._deliver(update)
        return int(update["message"]["message_id"])
