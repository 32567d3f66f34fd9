"""The Discord adapter's pure parts: labels, custom ids, autocomplete choices, settings."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.adapters.discord import views
from bot.adapters.discord.commands import topic_choices
from bot.adapters.discord.identify import IdentifyTurns
from bot.app.settings import SettingsError, load_settings
from bot.content.catalog import Catalog
from bot.domain.model import Reply
from bot.testing.fakes import make_quiz


def test_labels_carry_the_option_text_only_where_it_fits_80_characters():
    assert views.option_label("A", "Mars") == "A) Mars"
    assert views.option_label("B", "x" * 77) == "B) " + "x" * 77  # exactly 80
    assert views.option_label("B", "x" * 78) == "B"
    assert views.option_label("C", "Mars", " · 3") == "C) Mars · 3"
    assert views.option_label("D", "y" * 76, " · 12") == "D · 12"


def test_custom_ids_carry_the_engine_token_and_never_exceed_100_characters():
    assert views.custom_id("qa:123456789012:10:9") == "quizhost:qa:123456789012:10:9"
    assert views.TEMPLATE.fullmatch("quizhost:qp:training-stacks")["data"] == "qp:training-stacks"
    with pytest.raises(ValueError):
        views.custom_id("qp:" + "a" * 90)
    with pytest.raises(ValueError):
        views.custom_id("qa:1:1:0 drop")
    assert not views.fits("qp:" + "a" * 90)


def test_reply_text_is_escaped_for_discord_markdown_and_cut_to_the_limits():
    kwargs = views.message_kwargs(Reply("**Ann** _wins_ " + "z" * 5000, title="🏆 `top`"))
    embed = kwargs["embed"]
    assert embed.title == "🏆 \\`top\\`"
    assert embed.description.startswith("\\*\\*Ann\\*\\* \\_wins\\_") and len(embed.description) == 4096
    plain = views.message_kwargs(Reply("@everyone *hi*"))
    assert plain == {"content": "@everyone \\*hi\\*"}  # mentions are off client-wide: no ping


def test_autocomplete_offers_at_most_25_quizzes_with_names_discord_accepts():
    quizzes = [make_quiz(f"quiz-{i}", 2, title="A very long title " * 8) for i in range(30)]
    choices = topic_choices(Catalog.from_quizzes(quizzes), "", "en")
    assert len(choices) == 25 and all(len(c.name) <= 100 for c in choices)
    assert [c.value for c in topic_choices(Catalog.from_quizzes(quizzes), "quiz-7", "en")] == ["quiz-7"]


def test_autocomplete_puts_the_channels_own_quizzes_first_and_still_offers_25():
    shipped = Catalog.from_quizzes([make_quiz(f"quiz-{i}", 2) for i in range(20)])
    own = [make_quiz(f"mine-{i}", 2, title="Ours " * 30) for i in range(10)]
    choices = topic_choices(shipped, "", "en", own)
    assert len(choices) == 25 and [c.value for c in choices[:10]] == [f"mine-{i}" for i in range(10)]
    assert all(len(c.name) <= 100 for c in choices)
    assert [c.value for c in topic_choices(shipped, "mine-3", "en", own)] == ["mine-3"]


@pytest.mark.parametrize("shards, ok", [("", True), ("auto", True), (" 3 ", True), ("0", False), ("many", False)])
def test_discord_shards_must_be_auto_or_a_count(shards, ok):
    if ok:
        assert load_settings(env_file=None, discord_shards=shards).discord_shards == shards.strip()
    else:
        with pytest.raises(SettingsError, match="DISCORD_SHARDS"):
            load_settings(env_file=None, discord_shards=shards)


def test_discord_guild_ids_are_numbers_separated_by_commas():
    assert load_settings(env_file=None, discord_guild_ids=" 12, 34 ,").discord_guilds() == [12, 34]
    with pytest.raises(SettingsError, match="DISCORD_GUILD_IDS"):
        load_settings(env_file=None, discord_guild_ids="12,my-server")


def test_a_process_runs_the_shards_named_in_discord_shard_ids_of_discord_shard_count():
    settings = load_settings(env_file=None, discord_shard_count="4", discord_shard_ids=" 1, 3 ,")
    assert (settings.discord_shard_list(), settings.discord_shard_count) == ([1, 3], 4)
    assert load_settings(env_file=None, discord_shard_count="", discord_shard_ids="").discord_shard_list() == []


@pytest.mark.parametrize(
    "values, named, says",
    [
        ({"discord_shard_ids": "0,1"}, "DISCORD_SHARD_IDS", "needs DISCORD_SHARD_COUNT"),
        (
            {"discord_shard_ids": "0,2", "discord_shard_count": "2"},
            "DISCORD_SHARD_IDS",
            "below DISCORD_SHARD_COUNT (2)",
        ),
        (
            {"discord_shard_ids": "0,zero", "discord_shard_count": "2"},
            "DISCORD_SHARD_IDS",
            "numbers separated by commas",
        ),
        ({"discord_shard_ids": "1,1", "discord_shard_count": "2"}, "DISCORD_SHARD_IDS", "twice"),
        ({"discord_shard_ids": "0", "discord_shard_count": "0"}, "DISCORD_SHARD_COUNT", "greater than or equal to 1"),
        ({"discord_shard_ids": "0", "discord_shard_count": "two"}, "DISCORD_SHARD_COUNT", "integer"),
        (
            {"discord_shard_ids": "0", "discord_shard_count": "2", "discord_shards": "auto"},
            "DISCORD_SHARD_IDS",
            "DISCORD_SHARDS exclude each other",
        ),
    ],
)
def test_wrong_shard_settings_name_their_variable(values, named, says):
    with pytest.raises(SettingsError) as caught:
        load_settings(env_file=None, **values)
    line = next(line for line in str(caught.value).splitlines() if line.strip().startswith(named + ":"))
    assert says in line


async def test_a_shard_still_identifies_when_the_database_lock_fails():
    @contextlib.asynccontextmanager
    async def broken(bucket: int) -> AsyncIterator[None]:
        raise OSError("connection refused")
        yield

    turns = IdentifyTurns(broken, spacing=0.0)
    await asyncio.wait_for(turns.wait_turn(3), 10)  # returns: discord.py goes on to identify
    await turns.close()


async def test_shards_of_one_bucket_identify_one_at_a_time():
    lock = asyncio.Lock()
    holders: list[int] = []

    @contextlib.asynccontextmanager
    async def counted(bucket: int) -> AsyncIterator[None]:
        async with lock:
            holders.append(bucket)
            yield

    turns = IdentifyTurns(counted, spacing=60.0)
    await turns.wait_turn(0)
    second = asyncio.create_task(turns.wait_turn(1))  # max_concurrency 1: the same bucket 0
    await asyncio.sleep(0.05)
    assert not second.done() and holders == [0]
    await turns.close()  # a stopping bot lets the bucket go and identifies no more
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(second, 10)
    assert holders == [0] and not lock.locked()
