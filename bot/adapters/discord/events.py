"""Discord, what users do on the gateway: slash commands, uploads, button presses, the forms
and modals they open and submit, and interactions that are not ours. Each is answered by
handling.py's rules (the same as on the interactions endpoint) within Discord's 3 seconds.
DiscordAdapter builds one for each `serve`, and routes the client's events to it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

import discord  # the library: absolute imports never resolve to this module

from bot.adapters.discord import asked, forms, replies, typed, views
from bot.adapters.discord.handling import FileOffer, Handling
from bot.adapters.keepalive import KeepAlivePoster
from bot.commands.authoring import FORM_SUGGESTED
from bot.content.drafts import QuestionForm
from bot.domain import tokens
from bot.domain.model import Ack, Quiz, Reply
from bot.texts import render

log = logging.getLogger("quizhost.discord")


class GatewayEvents:
    """The gateway's interactions, each handed to Handling and answered."""

    def __init__(self, handling: Handling, answers: KeepAlivePoster | None) -> None:
        """`answers`: the presses' acknowledgements, on connections of our own (None: discord.py's)."""
        self.handling, self._answers = handling, answers

    async def on_command(self, interaction: discord.Interaction, name: str, *changes: str) -> None:
        await self._answer(interaction, self.handling.handle_command(asked.of_interaction(interaction), name, changes))

    async def on_upload(self, interaction: discord.Interaction, attachment: discord.Attachment) -> None:
        offer = FileOffer(attachment.filename, attachment.size, attachment.read)
        await self._answer(interaction, self.handling.handle_upload(asked.of_interaction(interaction), offer))

    async def own_quizzes(self, interaction: discord.Interaction) -> list[Quiz]:
        return await self.handling.own_quizzes(asked.of_interaction(interaction))

    async def _on_press(self, interaction: discord.Interaction, data: str) -> None:
        if tokens.kind_of(data) is tokens.Kind.ANSWER:  # nearly every press: no form, no rights to read
            await self._answer(interaction, self.handling.press_answer(data, asked.answerer(interaction)))
            return
        asker = asked.of_interaction(interaction)
        if (target := tokens.form_target(data)) is not None:  # "Add question", "Edit N": a form opens
            await self._open_form(interaction, asker, target)
            return
        question = tokens.decode_question(data)
        if question is not None and question.kind is tokens.Kind.TEXT:  # "Answer": a modal, at once
            caller = asker.caller()
            lang = await self.handling.commands.language_for(caller.chat, caller.player)
            await interaction.response.send_modal(typed.answer_modal(lang, data, question.number))
            return
        await self._answer(interaction, self.handling.handle_press(asker, data))

    async def on_question_form(self, interaction: discord.Interaction, name: str) -> None:
        """A command that takes a question (/suggest): in a server, the form of a question to
        suggest; in a DM, why not."""
        asker = asked.of_interaction(interaction)
        if not asker.in_guild:
            await self.on_command(interaction, name)
            return
        await self._open_form(interaction, asker, FORM_SUGGESTED)

    async def _open_form(self, interaction: discord.Interaction, asker: asked.Asker, target: str) -> None:
        """A question's form, filled in with the question it edits; answered within Discord's 3 s."""
        opening = await self.handling.form_to_open(asker, target)
        if opening is None:  # the question it would edit is gone: the press says so
            await self._answer(interaction, self.handling.handle_press(asker, tokens.form_edit(target)))
            return
        await interaction.response.send_modal(forms.QuestionModal(opening, interaction.id, self._on_form))

    async def _on_form(self, interaction: discord.Interaction, form: QuestionForm, target: str) -> None:
        await self._answer(interaction, self.handling.handle_form(asked.of_interaction(interaction), form, target))

    async def _typed_answer(self, interaction: discord.Interaction, question: tokens.QuestionToken, text: str) -> Ack:
        """A modal's answer to a typed or numeric question, for the player alone."""
        caller, commands = asked.of_interaction(interaction).caller(), self.handling.commands
        ack = await commands.engine.answer_text(
            caller.chat, caller.player, text, run_id=question.run_id, number=question.number
        )
        if ack is None:  # the run is over, or gone
            lang = await commands.language_for(caller.chat, caller.player)
            return Ack(render.ack_refused(lang, "closed"), False, lang)
        return ack

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every press and every modal submit, routed by its custom_id; a button that is not one
        of ours (or a forged id) still gets a clear answer."""
        try:
            await self._route(interaction)
        except Exception:  # this interaction's alone: the gateway and every other one go on
            log.exception("Discord: handling interaction %s failed", interaction.id)

    async def _route(self, interaction: discord.Interaction) -> None:
        """A press of one of our buttons to `_on_press` by its custom_id, as the endpoint routes
        it (interactions.py): no view rebuilt from the message, nothing kept per message, so a
        button posted before a restart works as any other. Slash commands and the question
        forms are discord.py's (the command tree, the modal it keeps until its submit)."""
        if interaction.type is discord.InteractionType.component:
            match = views.TEMPLATE.fullmatch(_custom_id(interaction))
            if match is not None:
                await self._on_press(interaction, match["data"])
                return
            lang = await self.handling.commands.language_for(asked.of_interaction(interaction).chat)
            await interaction.response.send_message(render.ack_invalid(lang), ephemeral=True)
            return
        answered = typed.submitted(interaction)
        if answered is not None:
            await self._answer(interaction, self._typed_answer(interaction, *answered))

    async def _answer(self, interaction: discord.Interaction, work: Awaitable[Ack | Reply]) -> None:
        await replies.answer_in_time(interaction, work, self._answers)


def _custom_id(interaction: discord.Interaction) -> str:
    data = interaction.data
    return str(data.get("custom_id", "")) if isinstance(data, dict) else ""
