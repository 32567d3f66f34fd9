"""/teams, /join and the join buttons: a chat's teams for its next quiz (bot/engine/teams.py).

`/teams` (2 teams; the open line-up posted again when there is one), `/teams 3`, `/teams Owls
Foxes Hares`, each with `mean` (the default), `sum` or `top3` for how a team scores; `/teams
balanced` places the players who joined by their past accuracy; `/teams off` drops the line-up.
Admins set teams up (a private chat's player is its admin, but teams are a group's); anyone
joins, by button or by typing `/join N`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.domain import fairplay, tokens
from bot.domain.model import Ack, Reply
from bot.domain.teams import MAX_TEAMS, MIN_TEAMS, NAME_CHARS, Lineup, TeamScoring
from bot.engine.chats import Chats
from bot.engine.teams import JoinStatus, Teams
from bot.texts import render_fairplay
from bot.texts import render_teams as texts
from bot.texts.textcut import clean

if TYPE_CHECKING:
    from bot.commands.core import Caller

_SCORINGS = {s.value: s for s in TeamScoring} | {"top": TeamScoring.TOP3, "average": TeamScoring.MEAN}


def _error(lang: str, text: str) -> Reply:
    return Reply(text, language=lang, kind="error", private=True)


def read_teams(words: list[str], lang: str) -> tuple[tuple[str, ...], TeamScoring] | None:
    """(names, scoring) that /teams words ask for; None when they make no line-up (a count out
    of 2-8, one name alone, more than 8)."""
    scoring = TeamScoring.MEAN
    rest = []
    for word in words:
        if (found := _SCORINGS.get(word.casefold())) is not None:
            scoring = found
        else:
            rest.append(word)
    if not rest:
        return texts.default_names(lang, MIN_TEAMS), scoring
    if len(rest) == 1 and rest[0].isdecimal():
        count = int(rest[0]) if len(rest[0]) < 3 else 0
        return (texts.default_names(lang, count), scoring) if MIN_TEAMS <= count <= MAX_TEAMS else None
    names = tuple(clean(name)[:NAME_CHARS] for name in rest)
    return (names, scoring) if MIN_TEAMS <= len(names) <= MAX_TEAMS else None


class TeamCommands:
    def __init__(self, teams: Teams, chats: Chats) -> None:
        self.teams, self.chats = teams, chats

    async def cmd_teams(self, args: str, caller: Caller, lang: str) -> Reply:
        if caller.chat.is_private and not caller.typed_only:  # the terminal is a game night of its own
            return _error(lang, texts.not_in_private(lang))
        if not caller.is_admin:
            return _error(lang, texts.admins_only(lang))
        words = args.split()
        action = words[0].casefold() if words else ""
        if action == "off":
            dropped = await self.teams.drop(caller.chat, lang)
            return Reply(texts.teams_off(lang, dropped), language=lang)
        if action == "balanced":
            return await self._balanced(caller, lang)
        if not words and (lineup := await self.teams.open_lineup(caller.chat)) is not None:
            return await self._again(caller, lineup, lang)  # a bare /teams never wipes who joined
        asked = read_teams(words, lang)
        if asked is None:
            return _error(lang, texts.usage(lang))
        lineup = await self.teams.open(caller.chat, *asked, lang)
        if self.teams.posts(caller.chat):
            return Reply(texts.opened(lang), language=lang)
        return texts.lineup_message(lang, lineup, typed=True)

    async def _again(self, caller: Caller, lineup: Lineup, lang: str) -> Reply:
        """The open line-up shown again: posted anew below (the terminal: as the reply)."""
        if not self.teams.posts(caller.chat):
            return texts.lineup_message(lang, lineup, typed=True)
        await self.teams.repost(caller.chat, lineup, lang)
        return Reply(texts.opened(lang), language=lang)

    async def _balanced(self, caller: Caller, lang: str) -> Reply:
        lineup = await self.teams.balance(caller.chat)
        if lineup is None:
            return _error(lang, texts.no_lineup(lang))
        self.teams.show(caller.chat, lineup.id, lang)
        shown = texts.lineup_message(lang, lineup, typed=True)
        return Reply(f"{texts.balanced(lang, len(lineup.members))}\n\n{shown.text}", title=shown.title, language=lang)

    async def cmd_join(self, args: str, caller: Caller, lang: str) -> Reply:
        """/join N: the typed join button (the terminal, or anyone who prefers typing)."""
        lineup = await self.teams.open_lineup(caller.chat)
        if lineup is None:
            return _error(lang, texts.no_lineup(lang))
        word = args.split()[0] if args.split() else ""
        if len(word) != 1 or not word.isdecimal() or not 1 <= int(word) <= len(lineup.names):  # at most 8 teams
            return _error(lang, texts.bad_team(lang, len(lineup.names)))
        ack = await self._join(caller, lineup.id, int(word), lang)
        if not ack.accepted:
            return _error(lang, ack.text)
        if self.teams.posts(caller.chat):
            return Reply(ack.text, language=lang, private=True)
        latest = await self.teams.open_lineup(caller.chat)
        shown = texts.lineup_message(lang, latest, typed=True) if latest is not None else None
        return Reply(f"{ack.text}\n\n{shown.text}" if shown else ack.text, language=lang)

    async def press(self, data: str, caller: Caller) -> Ack:
        """A team's join button."""
        lang = await self.chats.language_for(caller.chat, caller.player)
        pressed = tokens.team_joined(data)
        if pressed is None:
            return Ack(texts.refused_stale(lang), accepted=False, language=lang)
        return await self._join(caller, *pressed, lang)

    async def _join(self, caller: Caller, lineup_id: int, team: int, lang: str) -> Ack:
        if (young := await self._too_young(caller)) is not None:
            return young
        joined = await self.teams.join(caller.chat, caller.player, lineup_id, team, lang)
        refusals = {
            JoinStatus.STALE: texts.refused_stale(lang),
            JoinStatus.LOCKED: texts.refused_locked(lang),
            JoinStatus.NO_TEAM: texts.refused_stale(lang),
        }
        if joined.status is JoinStatus.JOINED:
            return Ack(texts.joined(lang, joined.team), accepted=True, language=lang)
        return Ack(refusals[joined.status], accepted=False, language=lang)

    async def _too_young(self, caller: Caller) -> Ack | None:
        """A Discord account younger than the chat's /settings min_age joins no team: it could not
        score, and as a member who never answers it would pull a team's mean down to sabotage it.
        Refused in the player's own language, as their presses would be."""
        min_age = (await self.chats.fresh_settings(caller.chat.key)).min_age  # set on any worker
        if not fairplay.too_young(caller.player, min_age, self.teams.clock.now()):
            return None
        lang = self.chats.client_language(caller.player)
        return Ack(render_fairplay.ack_too_young(lang, min_age), accepted=False, language=lang)
