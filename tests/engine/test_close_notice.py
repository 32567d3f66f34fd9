"""A question's reveal is its closing edit, which notifies nobody; a chat may ask for a short
reply as well (/settings notify on), in its language. Off unless an admin turns it on."""

from __future__ import annotations

from bot.commands.core import Caller
from bot.testing.fakes import group, player
from tests.engine.test_outbox import run_for, seen
from tests.support.house import house_of

ADMIN, MEMBER = Caller(group(), player(1, "Ann"), is_admin=True), Caller(group(), player(2, "Bob"))
PODIUM = "🏁 Quiz over: Demo quiz"


async def test_a_close_is_one_edit_unless_the_chat_asks_for_a_short_reply(engine, adapter, quiz):
    commands = house_of(engine).commands
    assert "A short reply when a question closes: off" in (await commands.handle("settings", "", MEMBER)).text
    await engine.start(group(), "demo", player(1), count=2)
    await run_for(engine, 100, press=adapter)
    assert seen(adapter) == ([1, 2], [1, 2], [PODIUM]), "the reveals are the closes: nothing else is sent"

    refused = await commands.handle("settings", "notify on", MEMBER)
    assert refused.kind == "error" and "Only chat admins" in refused.text
    wrong = await commands.handle("settings", "notify loudly", ADMIN)
    assert wrong.kind == "error" and "/settings notify on" in wrong.text
    assert (await house_of(engine).chats.settings(group())).close_notice is False, "a refusal changes nothing"
    turned = await commands.handle("settings", "notify on", ADMIN)
    assert "A short reply when a question closes: on" in turned.text

    adapter.sent.clear()
    await engine.start(group(), "demo", player(1), count=2)
    await run_for(engine, 100, press=adapter)
    letters = [r.right_letter for _, r in adapter.reveals[2:]]
    assert seen(adapter)[2] == [f"Question {n} closed: {letter}" for n, letter in zip((1, 2), letters)] + [PODIUM]


async def test_the_short_reply_speaks_the_chats_language(engine, adapter):
    commands = house_of(engine).commands
    await commands.handle("language", "hi", ADMIN)
    await commands.handle("settings", "notify on", ADMIN)
    await engine.start(group(), "demo", player(1), count=1)
    await run_for(engine, 60, press=adapter)
    [(_, reveal)] = adapter.reveals
    assert adapter.sent[0][1].text == f"प्रश्न 1 बंद: {reveal.right_letter}"
    assert adapter.sent[0][1].language == "hi"
