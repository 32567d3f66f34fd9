"""Button data: every button the bot makes is one the platforms carry and the bot reads back."""

from __future__ import annotations

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
