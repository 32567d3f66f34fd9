"""Discord's forms for writing a quiz (issue #23): a modal per question, opened by a draft's
"Add question" and "Edit N" buttons and by /suggest; its submit goes to the commands as a
`QuestionForm`. On the gateway a modal lives in discord.py's memory until it is submitted or
times out; through the interactions endpoint it is sent as JSON and its submit read back from
the fields' ids (`submitted`), so any worker takes it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.commands.authoring import FORM_SUGGESTED
from bot.content.drafts import QuestionForm
from bot.content.quizfile import PROMPT_MAX
from bot.domain.model import LETTERS, QUESTION_SECONDS
from bot.texts.i18n import t
from bot.texts.textcut import cut

Submit = Callable[[discord.Interaction, QuestionForm, str], Awaitable[None]]
TITLE_MAX, LABEL_MAX = 45, 45  # characters Discord takes in a modal's title and a field's label
OPTIONS_MAX = 4000  # a paragraph field's most characters
EXPLANATION_MAX = 1000
FORM_SECONDS = 900.0  # how long an opened form waits for its submit
FIELDS = ("prompt", "options", "right", "explanation", "seconds")  # each field's custom_id, in QuestionForm's order

if TYPE_CHECKING:
    from bot.adapters.discord.handling import FormOpening


class QuestionModal(discord.ui.Modal):
    """Prompt, options one per line, which is right, why, seconds: five fields, Discord's most."""

    def __init__(self, opening: FormOpening, opened_by: int, submit: Submit | None = None) -> None:
        lang, target, defaults = opening.lang, opening.target, opening.defaults
        title = t(lang, "Suggest a question") if target == FORM_SUGGESTED else t(lang, "A question of your quiz")
        # one form per opening: two people adding questions at once each get their own
        super().__init__(title=cut(title, TITLE_MAX), timeout=FORM_SECONDS, custom_id=f"df:{target}:{opened_by}")
        self.target, self._submit = target, submit
        before = defaults or QuestionForm("", "")
        self.prompt = self._field("prompt", t(lang, "Question"), before.prompt, PROMPT_MAX, long=True)
        self.options = self._field("options", t(lang, "Options, one per line"), before.options, OPTIONS_MAX, long=True)
        right = t(lang, "Right option(s): 2, or 1, 3 (empty: a poll)")
        self.right = self._field("right", right, before.right, 3 * len(LETTERS), required=False)
        self.explanation = self._field(
            "explanation", t(lang, "Why (optional)"), before.explanation, EXPLANATION_MAX, long=True, required=False
        )
        seconds = t(lang, "Seconds ({low} to {high}, optional)", low=QUESTION_SECONDS.low, high=QUESTION_SECONDS.high)
        self.seconds = self._field("seconds", seconds, before.seconds, 3, required=False)

    def _field(
        self, key: str, label: str, default: str, most: int, long: bool = False, required: bool = True
    ) -> discord.ui.TextInput:
        field: discord.ui.TextInput = discord.ui.TextInput(
            custom_id=key,
            label=cut(label, LABEL_MAX),
            style=discord.TextStyle.paragraph if long else discord.TextStyle.short,
            default=default[:most] or None,
            required=required,
            max_length=most,
        )
        self.add_item(field)
        return field

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if self._submit is None:  # sent through the endpoint: its submit comes back there
            return
        form = QuestionForm(
            self.prompt.value, self.options.value, self.right.value, self.explanation.value, self.seconds.value
        )
        await self._submit(interaction, form, self.target)


def submitted(data: dict[str, Any]) -> tuple[str, QuestionForm] | None:
    """What a form's submit (the endpoint's MODAL_SUBMIT data) is for and what it holds; None for
    a form that is not one of ours."""
    parts = str(data.get("custom_id", "")).split(":")
    if len(parts) != 3 or parts[0] != "df" or not parts[1]:
        return None
    values: dict[str, str] = {}
    for row in data.get("components") or []:
        inner = row.get("components") or ([row["component"]] if "component" in row else [])
        values |= {str(c.get("custom_id")): str(c.get("value") or "") for c in inner if isinstance(c, dict)}
    return parts[1], QuestionForm(*(values.get(key, "") for key in FIELDS))
