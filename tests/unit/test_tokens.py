"""Button data: every button the bot makes is one the platforms carry and the bot reads back."""

from __future__ import annotations

import re

import pytest

from bot.adapters.discord import views as discord_views
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain import tokens
from bot.domain.model import LANGUAGES


def test_every_shipped_quiz_and_language_has_a_pick_button_both_platforms_carry():
    picks = [tokens.quiz_pick(q.id) for q in Catalog.load(default_quiz_folders()).all()]
    picks += [tokens.language_pick(code) for code in LANGUAGES]
    for data in picks:
        assert len(data.encode()) <= 64, "Telegram's callback_data limit"
        assert discord_views.fits(data), data
        assert discord_views.TEMPLATE.fullmatch(discord_views.custom_id(data))["data"] == data
    assert tokens.pick(tokens.quiz_pick("pipeline")) == tokens.Pick(tokens.Kind.QUIZ, "pipeline")
    assert tokens.pick(tokens.language_pick("ur")) == tokens.Pick(tokens.Kind.LANGUAGE, "ur")


def test_an_answer_token_reads_back_and_is_not_a_pick():
    data = tokens.AnswerToken(42, 3, 1).encode()
    assert tokens.decode(data) == tokens.AnswerToken(42, 3, 1)
    assert tokens.pick(data) is None and not tokens.needs_admin(data)
    assert discord_views.fits(data)


@pytest.mark.parametrize("data", ["ql:xx", "ql:en ", "qp:Pipeline", "qp:" + "a" * 41, "qa:0:1:0", "qx:1", ""])
def test_forged_or_stale_data_is_not_a_button_of_ours(data):
    assert tokens.pick(data) is None and tokens.decode(data) is None
    assert not discord_views.fits(data)


def test_a_pick_that_could_not_be_pressed_is_refused_when_made():
    with pytest.raises(ValueError):
        tokens.quiz_pick("No Such Quiz")
    with pytest.raises(ValueError):
        tokens.language_pick("fr")


def test_every_button_is_known_by_its_prefix_and_nothing_else_is():
    """Each press is dispatched on its prefix alone (`kind_of`): every kind's own buttons name
    it, and data that only looks alike (a prefix without its colon, another letter) names none."""
    made = {
        tokens.Kind.ANSWER: tokens.AnswerToken(12, 3, 1).encode(),
        tokens.Kind.QUIZ: tokens.quiz_pick("pipeline"),
        tokens.Kind.SUGGESTION: tokens.suggestion_pick(True, 4),
        tokens.Kind.FORM: tokens.form_edit("q3"),
    }
    for kind, data in made.items():
        assert tokens.kind_of(data) is kind
    for kind in tokens.Kind:
        assert tokens.kind_of(kind.prefix + "1") is kind
        assert tokens.kind_of(kind.value) is None
        assert tokens.kind_of(kind.value + "-1") is None
    assert tokens.kind_of("") is None
    assert tokens.kind_of("zz:1") is None


def test_an_answer_deep_link_carries_a_proof_that_fits_telegram_and_binds_run_and_number():
    key, other = b"k" * 32, b"o" * 32
    biggest = tokens.QuestionToken(tokens.Kind.TEXT, 10**12 - 1, 999)
    payload = tokens.answer_start(biggest, key)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload), "a Telegram start parameter"
    assert tokens.decode_answer_start(payload, key) == biggest
    assert tokens.decode_answer_start(payload, other) is tokens.StartRefusal.ALTERED, "made with another secret"
    run, number, proof = payload.removeprefix("answer_").split("_")
    for forged in (f"answer_{run}_{int(number) - 1}_{proof}", f"answer_{int(run) - 1}_{number}_{proof}"):
        assert tokens.decode_answer_start(forged, key) is tokens.StartRefusal.ALTERED
    assert tokens.decode_answer_start(f"answer_{run}_{number}_", key) is tokens.StartRefusal.ALTERED
    assert tokens.decode_answer_start(f"answer_{run}_{number}", key) is tokens.StartRefusal.UNSIGNED
    assert tokens.decode_answer_start("assign_12", key) is None
