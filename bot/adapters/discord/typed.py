"""Typed and numeric answers on Discord: the question's "Answer" button opens a modal with one
text field; its submission is the answer, acknowledged to the player alone (ephemeral).

The modal is not kept in discord.py's memory (stopped before it is sent): every submission is
read from its custom_id, which carries the question's token, so one opened before a restart,
or answered through another worker's shard, is still taken.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.adapters.discord import views
from bot.domain import tokens
from bot.texts import answer_buttons

ANSWER_MAX = 200  # characters a typed answer keeps (the engine cuts longer ones alike)
FIELD_ID = "answer"
MODAL_ID = re.compile(f"{views.PREFIX}(?P<data>qt:[0-9]{{1,12}}:[0-9]{{1,3}})")


def answer_modal(lang: str, data: str, number: int) -> discord.ui.Modal:
    """The modal an "Answer" press opens: its custom_id is the press's own data."""
    modal = discord.ui.Modal(title=answer_buttons.modal_title(lang, number), custom_id=views.custom_id(data))
    modal.add_item(
        discord.ui.TextInput(
            label=answer_buttons.modal_field(lang), custom_id=FIELD_ID, max_length=ANSWER_MAX, required=True
        )
    )
    modal.stop()  # not kept: on_interaction reads every submission (see above)
    return modal


def submitted(interaction: discord.Interaction) -> tuple[tokens.QuestionToken, str] | None:
    """The question and the text of a modal submission of ours; None for anything else."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    match = MODAL_ID.fullmatch(str(data.get("custom_id", "")))
    token = tokens.decode_question(match["data"]) if match else None
    if token is None:
        return None
    for row in data.get("components") or []:
        for field in row.get("components") or []:
            if field.get("custom_id") == FIELD_ID and isinstance(field.get("value"), str):
                return token, field["value"]
    return None
