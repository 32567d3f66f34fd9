"""The chat platform port: what the engine asks of Telegram, Discord or the terminal (ChatAdapter).

Adapters (bot/adapters/*) implement it; the engine and the commands see nothing else of them.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Protocol, runtime_checkable

from bot.domain.model import ChatRef, MessageRef, Player, QuestionCard, Reply, Reveal

# The outbox key of the message a ChatAdapter send is delivering (None outside the outbox), the
# same across retries and restarts: a platform that can drop a repeated create (Discord's
# message nonce) derives its idempotency key from it.
DELIVERING: ContextVar[str | None] = ContextVar("delivering", default=None)


class DeliveryUncertain(Exception):
    """A send failed in a way that leaves open whether the platform acted on it (the reply was
    lost or timed out after the request went out). Any other exception from a ChatAdapter send
    means the platform certainly did not: an error status, a refused connection."""


class ChatAdapter(Protocol):
    """The chat platform. The three sends below raise DeliveryUncertain when the platform may
    have acted although the call failed, ChatUnreachable when it refuses the bot in that chat
    (forbidden: removed from the group, blocked), anything else when it certainly did not
    (`post_question`: MessageRefused when it refuses that message as it is)."""

    platform: str

    async def post_question(self, card: QuestionCard) -> MessageRef:
        """Post the question with one button per option; the buttons carry the option tokens."""

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        """Edit the question into its own reveal: live buttons off, the right option marked, the
        split, why, who scored; one edit, no reply. Idempotent: the outbox repeats it until the
        platform acknowledges it (an edit that changes nothing is acknowledged)."""

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        """Post a message the engine decides on its own (the podium, an ended run)."""

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        """Whether the player belongs to the group now (an assignment is for its members alone).
        Raises MembershipUnknown when the platform could not be asked (a network failure)."""


@runtime_checkable
class PrivateChats(Protocol):
    """A platform where the bot can find a player's private chat from the player alone (Telegram:
    the user's id; Discord: a DM it opens), to tell them something they asked for elsewhere."""

    async def private_chat(self, player: Player) -> ChatRef:
        """The player's private chat with the bot; raises ChatUnreachable when there is none."""


@runtime_checkable
class MessageBoard(Protocol):
    """A platform whose messages the engine keeps up to date (an assignment's group message:
    bot/engine/assignments.py). Optional: the engine asks `isinstance`; the terminal has none.
    Both raise as the sends of ChatAdapter do."""

    async def post(self, chat: ChatRef, reply: Reply) -> MessageRef:
        """Post the reply, buttons and all; where it is, for later edits."""

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        """Make the message show `reply` (buttons left out: none). Idempotent: an edit that
        changes nothing is no error."""


@runtime_checkable
class MemberGroups(Protocol):
    """A platform whose membership is not the chat's own: on Discord a channel's members are its
    server's, so an assignment in #general is for the members of the server, named by it.
    Optional: the engine asks `isinstance`, and names the chat where a platform has none."""

    def members_of(self, group: ChatRef) -> str | None:
        """The name of what the group's members belong to; None when the platform has not said."""


class ChatUnreachable(Exception):
    """Raised by any `ChatAdapter` send when the platform says the bot may not post in the chat
    any more (forbidden: removed from the group, blocked by the user): retrying will not help."""


class MessageRefused(Exception):
    """Raised by `post_question` when the platform refuses the message itself (a 400 Bad Request:
    it will refuse the same message every time): sending it again cannot help."""


class MembershipUnknown(Exception):
    """Raised by `ChatAdapter.is_member` when the platform could not say (a network failure, an
    outage): the player may try again; letting them in on a guess is not safe."""
