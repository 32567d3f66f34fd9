"""A gateway event discord.py cannot read ends one gateway session, never the bot.

discord.py reads each dispatch in its gateway loop (DiscordWebSocket.received_message calls
a parser in discord/state.py). A payload it does not expect (an INTERACTION_CREATE without
`data`, a message whose author is not an object) raises there, out of `Client.connect`, and
unhandled it ended the Discord client and every chat with it. discord.py has no hook around
its parsers, and resuming a session needs its private state; so the adapter serves each
session on a new client (login, IDENTIFY) and starts another when one breaks. The bad event
belonged to the broken session: a new one never replays it, and every chat's later events
arrive on the new one. Network faults never get here: `connect(reconnect=True)` resumes
after those itself.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

log = logging.getLogger("quizhost.discord")

# seconds before the next session, by how many sessions in a row broke early; Discord's
# identify limit (bot/adapters/discord/identify.py) spaces identifies 5 s apart on top of this
RECONNECT_AFTER = (0.0, 1.0, 5.0, 15.0, 60.0)
HEALTHY_SESSION = 60.0  # a session that lived this long was not part of a run of failures


@dataclass(frozen=True)
class BadEvent:
    """The gateway event discord.py could not read, as far as the traceback tells."""

    kind: str = ""  # the dispatch's type, "INTERACTION_CREATE"
    sequence: int | None = None
    event_id: str = ""  # the payload's own id (an interaction's, a server's), when it has one

    def __str__(self) -> str:
        kind = self.kind or "a gateway event"
        sequence = f" #{self.sequence}" if self.sequence is not None else ""
        return f"{kind}{sequence}" + (f" (id {self.event_id})" if self.event_id else "")


def bad_event(error: BaseException) -> BadEvent:
    """Which event `error` rose in: the locals of discord.py's receiving frame in its traceback.

    Read from the traceback, not from the client: the event is gone from every public
    attribute by the time `connect` has raised. Payload values other than its id stay out
    of the log (an interaction carries its token)."""
    for frame, _ in traceback.walk_tb(error.__traceback__):
        if frame.f_code.co_name == "received_message" and frame.f_globals.get("__name__") == "discord.gateway":
            found = frame.f_locals
            data, sequence = found.get("data"), found.get("seq")
            event_id = data.get("id") if isinstance(data, dict) else None
            return BadEvent(
                str(found.get("event") or ""),
                sequence if isinstance(sequence, int) else None,
                str(event_id)[:32] if isinstance(event_id, str | int) else "",
            )
    return BadEvent()


@dataclass
class Reconnects:
    in_a_row: int = 0

    def delay(self, lived: float) -> float:
        """Seconds to wait before the next session, after one that broke having lived `lived` s."""
        self.in_a_row = 1 if lived >= HEALTHY_SESSION else self.in_a_row + 1
        return RECONNECT_AFTER[min(self.in_a_row, len(RECONNECT_AFTER)) - 1]


async def serve_sessions(logged_in: Callable[[], Awaitable[discord.Client]], ended: Callable[[], None]) -> None:
    """Listen on the gateway, a new client from `logged_in()` for each session, until one ends
    cleanly. A refused login or a fatal close (a wrong intent, a bad shard) still ends the bot;
    `ended()` runs whenever a session's client has gone."""
    loop, reconnects = asyncio.get_running_loop(), Reconnects()
    while True:
        client = await logged_in()
        began = loop.time()
        try:
            await client.connect(reconnect=True)
            return
        except discord.DiscordException:
            raise
        except Exception as error:  # nothing but an unreadable event leaves connect(reconnect=True) so
            delay = reconnects.delay(loop.time() - began)
            log.error(
                "Discord: discord.py could not read %s (%s: %s); that event is skipped and a new gateway "
                "session starts in %.0f s; every chat goes on",
                bad_event(error),
                type(error).__name__,
                error,
                delay,
                exc_info=error,
            )
        finally:
            ended()
            if not client.is_closed():
                await client.close()
        await asyncio.sleep(delay)
