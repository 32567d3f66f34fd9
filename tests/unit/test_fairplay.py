"""Fair play's rules: a Discord account's age from its id, /settings min_age's words, and how
long a question takes to read."""

from __future__ import annotations

import pytest

from bot.domain.fairplay import (
    DAY,
    HOUR,
    account_created,
    faster_than_reading,
    parse_min_age,
    reading_allowed,
    reading_seconds,
    too_young,
)
from bot.domain.model import LocalText, Player, Question

NOW = 1_700_000_000.0


def discord_player(made_at: float) -> Player:
    """A Discord user whose id is a snowflake made at `made_at` (seconds since 1970)."""
    snowflake = (int(made_at * 1000) - 1_420_070_400_000) << 22 | 0b10101  # low bits: worker and count
    return Player("discord", str(snowflake), "Dee")


def test_a_discord_id_tells_when_its_account_was_made():
    assert account_created(discord_player(NOW)) == pytest.approx(NOW, abs=0.001)
    # Discord's own example: 175928847299117063 was made 2016-04-30T11:18:25.796Z
    assert account_created(Player("discord", "175928847299117063", "x")) == 1462015105.796
    assert account_created(Player("telegram", "175928847299117063", "x")) is None
    assert account_created(Player("discord", "not-a-number", "x")) is None


def test_younger_than_the_minimum_is_too_young_and_only_on_discord():
    two_days, ten_days = discord_player(NOW - 2 * DAY), discord_player(NOW - 10 * DAY)
    assert too_young(two_days, 7 * DAY, NOW) and not too_young(ten_days, 7 * DAY, NOW)
    assert not too_young(two_days, 0, NOW), "0: any age"
    assert not too_young(discord_player(NOW - 7 * DAY), 7 * DAY, NOW), "exactly old enough"
    assert not too_young(Player("telegram", "5", "Tom"), 7 * DAY, NOW)


@pytest.mark.parametrize(
    ("word", "seconds"),
    [("7d", 7 * DAY), ("12h", 12 * HOUR), ("off", 0), ("365d", 365 * DAY), ("8760h", 365 * DAY)],
)
def test_min_age_words(word, seconds):
    assert parse_min_age(word) == seconds


@pytest.mark.parametrize("word", ["0d", "366d", "7", "7 d", "-1d", "1w", "", "on", "12m", "99999d"])
def test_min_age_refuses_other_words(word):
    assert parse_min_age(word) is None


def test_a_thirty_word_question_takes_about_seven_and_a_half_seconds_to_read():
    prompt = " ".join(["word"] * 22)
    question = Question(
        "q",
        LocalText({"en": prompt, "hi": "एक दो"}),
        tuple(LocalText({"en": text}) for text in ("one", "two words", "three more words", "x y")),
        0,
    )
    assert reading_seconds(question, "en") == pytest.approx(30 * 60 / 238)  # 7.56 s
    assert reading_seconds(question, "hi") == pytest.approx(10 * 60 / 238), "the prompt in the run's language"
    assert faster_than_reading(0.3, reading_seconds(question, "en"))
    assert not faster_than_reading(8.0, reading_seconds(question, "en"))


def test_a_question_given_less_time_than_it_takes_to_read_is_held_to_half_its_limit():
    assert reading_allowed(20.0, 12) == 6.0
    assert reading_allowed(5.0, 12) == 5.0, "time enough to read it: the whole reading time"
    assert reading_allowed(20.0, 0) == 20.0, "paced by its host: no limit to go by"
