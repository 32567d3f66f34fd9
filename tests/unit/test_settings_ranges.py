"""The ranges the docs promise are the ones the bot enforces (bot.domain.model has each one once)."""

from __future__ import annotations

import pytest

from bot.app.settings import SettingsError, load_settings
from bot.domain.model import PAUSE_SECONDS, QUESTION_SECONDS, TELEGRAM_WORKERS
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR


def test_the_configuration_page_and_env_example_state_the_enforced_ranges():
    readme = (ROOT / "docs" / "CONFIGURATION.md").read_text(encoding="utf-8")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert f"(1 to {TELEGRAM_WORKERS.high})" in readme and f"1 to {TELEGRAM_WORKERS.high}" in example
    for allowed in (QUESTION_SECONDS, PAUSE_SECONDS):
        assert f"({allowed.low} to {allowed.high})" in readme
        assert f"{allowed.low} to {allowed.high}" in example


@pytest.mark.parametrize(
    ("variable", "allowed"),
    [
        ("quizhost_question_seconds", QUESTION_SECONDS),
        ("quizhost_pause_seconds", PAUSE_SECONDS),
        ("telegram_workers", TELEGRAM_WORKERS),
    ],
)
def test_settings_take_the_range_and_refuse_past_it(variable, allowed):
    assert getattr(load_settings(None, **{variable: allowed.high}), variable) == allowed.high
    assert getattr(load_settings(None), variable) == allowed.default
    with pytest.raises(SettingsError, match=variable.upper()):
        load_settings(None, **{variable: allowed.high + 1})
