"""Fair play: how old a Discord account is, whether it may score where a server asks for a
minimum age (/settings min_age), and whether a right answer came faster than its question can
be read (the run report flags it; nothing is unscored).

Discord user ids are snowflakes: their top 42 bits are the milliseconds since the Discord epoch
(2015-01-01 UTC) when the account was made. Telegram user ids say nothing of an account's age,
so the rule is Discord's alone.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.domain.model import Player, Question
from bot.domain.teams import Lineup

DISCORD = "discord"
DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01T00:00:00Z, the snowflakes' zero
TIMESTAMP_SHIFT = 22  # the bits below a snowflake's timestamp: worker, process, increment

HOUR, DAY = 3600, 86400
MIN_AGE_HIGHEST = 365 * DAY  # a year: an older requirement would shut out whole communities
_AGE = re.compile(r"^(\d{1,4})([dh])$")

# about how fast adults read silently (Brysbaert 2019, 238 words a minute for non-fiction): a
# right answer sooner than the prompt and options take to read was not read, most likely
READING_WORDS_PER_MINUTE = 238
SEVERAL_TOO_FAST = 2  # a report lists the players with this many such answers or more


def account_created(player: Player) -> float | None:
    """When the player's Discord account was made (seconds since 1970), from its id; None for
    another platform or an id that is no snowflake."""
    if player.platform != DISCORD or not player.user_id.isdecimal():
        return None
    return ((int(player.user_id) >> TIMESTAMP_SHIFT) + DISCORD_EPOCH_MS) / 1000


def too_young(player: Player, min_age: int, now: float) -> bool:
    """Whether the player's account is younger than `min_age` seconds (0: no minimum). Only a
    Discord id tells an age; any other player is never too young."""
    if not min_age:
        return False
    created = account_created(player)
    return created is not None and now - created < min_age


def key_too_young(player_key: str, min_age: int, now: float) -> bool:
    """`too_young` for the player with this key (Player.key: "platform:user id")."""
    platform, _, user_id = player_key.partition(":")
    return too_young(Player(platform, user_id, ""), min_age, now)


def parse_min_age(word: str) -> int | None:
    """`/settings min_age` words as seconds: "7d", "12h", "off" (0); None for anything else or
    more than MIN_AGE_HIGHEST."""
    if word == "off":
        return 0
    found = _AGE.match(word)
    if found is None:
        return None
    seconds = int(found.group(1)) * (DAY if found.group(2) == "d" else HOUR)
    return seconds if 0 < seconds <= MIN_AGE_HIGHEST else None


def reading_seconds(question: Question, lang: str) -> float:
    """How long the question's prompt and options take to read, in `lang`, at
    READING_WORDS_PER_MINUTE."""
    words = len(question.prompt.get(lang).split())
    words += sum(len(option.get(lang).split()) for option in question.options)
    return words * 60 / READING_WORDS_PER_MINUTE


def reading_allowed(reading: float, limit: float) -> float:
    """The reading time an answer is held to: `reading`, but at most half the question's time
    limit (`limit` seconds; 0 for none). A question given less time than it takes to read at
    READING_WORDS_PER_MINUTE asks to be skimmed, and holding its every right answer to the
    whole reading time would flag them all."""
    return min(reading, limit / 2) if limit > 0 else reading


def faster_than_reading(seconds: float, reading: float) -> bool:
    """An answer given in `seconds` came before a question that takes `reading` seconds to read
    could be read."""
    return seconds < reading


def scoring_members(lineup: Lineup, min_age: int, started_at: float) -> Lineup:
    """The line-up as a run counts it: without a member whose account was too young to score
    under the run's min_age when it started (set after they joined). Never answering, they would
    pull their team's mean down, and a hosted question would wait for them."""
    if not min_age:
        return lineup
    young = {m.player_key for m in lineup.members if key_too_young(m.player_key, min_age, started_at)}
    return replace(lineup, members=tuple(m for m in lineup.members if m.player_key not in young))
