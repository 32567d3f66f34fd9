"""`quizhost bench --tuning on|off|both`: the bot's phases with the interpreter tuning
(bot/app/interpreter.py, QUIZHOST_INTERPRETER_TUNING), without it, or each way in the same run,
side by side. Without the flag, as the setting says (the environment's, as `quizhost run` reads it).
"""

from __future__ import annotations

import argparse

CHOICES = ("on", "off", "both")


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tuning",
        choices=CHOICES,
        help="the bot's phases with the interpreter tuning (QUIZHOST_INTERPRETER_TUNING), without it, "
        "or both, side by side in one run (the first way the setting's); default: as the setting says",
    )


def ways(choice: str | None) -> tuple[bool, ...]:
    """The tunings to run, the setting's first: (True,), (False,), or both."""
    if choice == "on":
        return (True,)
    if choice == "off":
        return (False,)
    setting = _setting()
    return (setting, not setting) if choice == "both" else (setting,)


def name(way: bool) -> str:
    return "on" if way else "off"


def _setting() -> bool:
    from bot.app.settings import Settings

    # the environment only, as the platform bench's bot settings: no .env of this machine
    return Settings(_env_file=None).quizhost_interpreter_tuning  # type: ignore[call-arg]
