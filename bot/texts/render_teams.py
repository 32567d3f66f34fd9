"""Teams in words: the line-up message with its join buttons, the team standings a reveal and
the podium add, and the replies of /teams and /join (bot/commands/teams.py)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain import tokens
from bot.domain.model import Button, Reply, is_plain
from bot.domain.teams import Lineup, Member, TeamScoring, TeamStanding, shown_score
from bot.texts import i18n
from bot.texts.message import t, tn

MEDALS = ("🥇", "🥈", "🥉")


def place(lang: str, rank: int) -> str:
    """A place on a podium or board: a medal for the first three, else "4." (always in plain text)."""
    return MEDALS[rank - 1] if rank <= len(MEDALS) and not is_plain(lang) else f"{rank}."


def default_names(lang: str, count: int) -> tuple[str, ...]:
    """The teams' names when the admin gives none: colours, in the chat's language."""
    names = (
        i18n.t(lang, "Red"),
        i18n.t(lang, "Blue"),
        i18n.t(lang, "Green"),
        i18n.t(lang, "Yellow"),
        i18n.t(lang, "Purple"),
        i18n.t(lang, "Orange"),
        i18n.t(lang, "Silver"),
        i18n.t(lang, "Gold"),
    )
    return names[:count]


def scoring_name(lang: str, scoring: TeamScoring) -> str:
    names = {
        TeamScoring.MEAN: t(lang, "the mean of its members' points"),
        TeamScoring.SUM: t(lang, "the sum of its members' points"),
        TeamScoring.TOP3: t(lang, "the sum of its three best members' points"),
    }
    return names[scoring]


def lineup_message(lang: str, lineup: Lineup, typed: bool = False) -> Reply:
    """The line-up with who joined which team; its join buttons while it is open (`typed`: the
    terminal, where /join N is typed instead)."""
    lines = [t(lang, "A team scores {how}.", how=scoring_name(lang, lineup.scoring)), ""]
    for team, name in enumerate(lineup.names, 1):
        members = lineup.in_team(team)
        who = ", ".join(_member(m) for m in members) if members else "—"
        lines.append(t(lang, "{number}. {team} ({n}): {members}", number=team, team=name, n=len(members), members=who))
    if lineup.locked:
        lines += ["", t(lang, "The teams are locked: the quiz has begun.")]
    elif typed:
        lines += ["", t(lang, "Join a team with /join and its number, e.g. /join 1.")]
    else:
        lines += ["", t(lang, "Press a team to join it (press another to switch) before the first question.")]
    buttons = (
        () if lineup.locked else tuple(_join_button(lineup, team, name) for team, name in enumerate(lineup.names, 1))
    )
    return Reply("\n".join(lines), title=t(lang, "👥 Teams"), buttons=buttons if not typed else (), language=lang)


def _member(m: Member) -> str:
    return m.name


def _join_button(lineup: Lineup, team: int, name: str) -> Button:
    return Button(f"{team}. {name}", tokens.team_join(lineup.id, team))


def standing_lines(lang: str, teams: Sequence[TeamStanding]) -> list[str]:
    """One short line per team: its place, name, score and members (in plain text the members
    counted in words)."""
    return [_standing_line(lang, s) for s in teams]


def _standing_line(lang: str, s: TeamStanding) -> str:
    values = {"medal": place(lang, s.rank), "team": s.name, "points": shown_score(s.score)}
    if is_plain(lang):
        return tn(
            lang, "{medal} {team}: {points} · {n} member", "{medal} {team}: {points} · {n} members", s.members, **values
        )
    return t(lang, "{medal} {team}: {points} · 👤 {n}", n=s.members, **values)


def reveal_lines(lang: str, teams: Sequence[TeamStanding], late: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """What a reveal adds in a run with teams: who was placed in a team late, then the standings."""
    return (*placed_lines(lang, late), t(lang, "Teams:"), *standing_lines(lang, teams))


def placed_lines(lang: str, late: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Who was placed in a team late (name, team): all a reveal adds in a quiz of rounds."""
    return tuple(t(lang, "{name} joins team {team} (the teams were locked).", name=n, team=team) for n, team in late)


def podium_lines(lang: str, teams: Sequence[TeamStanding]) -> list[str]:
    return [t(lang, "Teams:"), *standing_lines(lang, teams), "", t(lang, "Players:")]


def usage(lang: str) -> str:
    return t(
        lang,
        "/teams [2-8 | names…] [mean | sum | top3]: teams for the next quiz; /teams balanced: teams by past "
        "accuracy; /teams off: no teams.",
    )


def opened(lang: str) -> str:
    return t(lang, "Teams for the next quiz are open: press a team above to join it.")


def joined(lang: str, team: str) -> str:
    return t(lang, "You are in team {team}.", team=team)


def refused_locked(lang: str) -> str:
    return t(lang, "The teams are locked: the quiz has begun. Whoever answers now is placed in the smallest team.")


def refused_stale(lang: str) -> str:
    return t(lang, "These teams are gone: an admin started new ones or turned them off. Look for the latest /teams.")


def no_lineup(lang: str) -> str:
    return t(lang, "No teams are open here. An admin starts them with /teams.")


def admins_only(lang: str) -> str:
    return t(lang, "Only chat admins can set up teams.")


def not_in_private(lang: str) -> str:
    return t(lang, "Teams are for groups: send /teams there.")


def teams_off(lang: str, dropped: bool) -> str:
    return t(lang, "Teams are off for the next quiz.") if dropped else no_lineup(lang)


def off_message(lang: str) -> Reply:
    """The line-up's message once /teams off dropped it: no buttons left to press."""
    return Reply(teams_off(lang, True), title=t(lang, "👥 Teams"), language=lang)


def replaced_message(lang: str) -> Reply:
    """An earlier line-up's message once a new /teams replaced it."""
    return Reply(refused_stale(lang), title=t(lang, "👥 Teams"), language=lang)


def moved_message(lang: str) -> Reply:
    """An open line-up's earlier message once /teams posted it again below."""
    return Reply(t(lang, "The teams moved: join them in the latest message."), title=t(lang, "👥 Teams"), language=lang)


def balanced(lang: str, players: int) -> str:
    return tn(
        lang,
        "{n} player placed by past accuracy in this chat.",
        "{n} players placed by past accuracy in this chat.",
        players,
    )


def bad_team(lang: str, teams: int) -> str:
    return t(lang, "Give a team's number, 1 to {n}: e.g. /join 1.", n=teams)
