"""QUIZHOST_INTERPRETER_TUNING (bot/app/interpreter.py): the process-wide interpreter settings a
serving bot may change (the switch interval, the collector's thresholds, what is frozen).

Off, `quizhost run` plays a quiz and leaves every one of them as it found them, while it serves
and after; on, it sets them while it serves and gives every one back when it stops. Played as
an operator would: the real wiring against the fake Bot API, the setting as `.env` spells it.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from bot.app.interpreter import SWITCH_INTERVAL_SECONDS, YOUNG_THRESHOLD, serving_interpreter
from bot.content.catalog import Catalog
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from tests.support.telegram_harness import (
    Member,
    fake,  # noqa: F401  (the fixture)
    next_question,
    quiz_folder,
    right_letter,
    running_bot,
    settings_for,
)

State = tuple[float, tuple[int, int, int], int]


def interpreter() -> State:
    return sys.getswitchinterval(), gc.get_threshold(), gc.get_freeze_count()


@pytest.fixture
def untouched() -> Iterator[State]:
    """The interpreter as CPython starts it (nothing frozen: `gc.unfreeze` has no partial form, so
    what another test froze would be unfrozen too); whatever a test leaves is undone after it."""
    gc.unfreeze()
    before = interpreter()
    yield before
    sys.setswitchinterval(before[0])
    gc.set_threshold(*before[1])
    gc.unfreeze()


async def play_one_question(api: FakeBotApi, tmp_path, setting: str) -> State:
    """`quizhost run` with QUIZHOST_INTERPRETER_TUNING=`setting`; a member starts a quiz and
    answers; the interpreter as it was while the bot served."""
    quiz = Catalog.load([quiz_folder(tmp_path)]).get("tiny")
    dev = api.user(31, "Dev")
    me = Member(api, api.private(dev), dev)
    settings = settings_for(api, tmp_path, quizhost_interpreter_tuning=setting)
    async with running_bot(api, settings, FakeClock()):
        assert "3 questions" in (await me.says("/start quiz_tiny")).text
        question = await next_question(api, me.chat, 1)
        letter = right_letter(question, quiz)
        assert (await me.presses(question, letter)).text == f"Locked in: {letter}"
        return interpreter()


async def test_with_the_tuning_off_the_bot_leaves_the_interpreter_as_it_found_it(fake, tmp_path, untouched):
    serving = await play_one_question(fake, tmp_path, "off")
    assert serving == untouched, "the bot changed the interpreter although its tuning is off"
    assert interpreter() == untouched


async def test_with_the_tuning_on_the_bot_sets_the_interpreter_while_it_serves_and_restores_it(
    fake,
    tmp_path,
    untouched,
):
    switch, thresholds, frozen = await play_one_question(fake, tmp_path, "on")
    assert switch == pytest.approx(SWITCH_INTERVAL_SECONDS) != untouched[0]
    assert thresholds[0] == max(untouched[1][0], YOUNG_THRESHOLD) and thresholds != untouched[1]
    assert frozen > 0, "nothing was frozen while the bot served"
    assert interpreter() == untouched, "the bot left its tuning behind when it stopped"


def test_the_module_alone_off_changes_nothing_on_applies_and_undoes_everything(untouched):
    with serving_interpreter(tuning=False):
        assert interpreter() == untouched
    assert interpreter() == untouched
    with serving_interpreter(tuning=True):  # no loop running: no paced collector, the rest as serving
        switch, thresholds, frozen = interpreter()
        assert switch == pytest.approx(SWITCH_INTERVAL_SECONDS)  # CPython keeps it in microseconds
        assert thresholds[0] == max(untouched[1][0], YOUNG_THRESHOLD)
        assert frozen > 0
    assert interpreter() == untouched


@pytest.mark.parametrize("spelled", ["off", "OFF", "false", "0", "no"])
def test_the_setting_reads_off_as_env_files_spell_it(spelled, tmp_path, monkeypatch):
    monkeypatch.delenv("QUIZHOST_INTERPRETER_TUNING", raising=False)
    env = tmp_path / ".env"
    env.write_text(f"QUIZHOST_INTERPRETER_TUNING={spelled}\n", encoding="utf-8")
    from bot.app.settings import Settings

    assert Settings(_env_file=env).quizhost_interpreter_tuning is False  # type: ignore[call-arg]
