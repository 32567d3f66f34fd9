"""/dashboard, /board, /settings board and /stats: the links into a chat's web pages, who gets
them, and what they open (checked with the same secret the pages use)."""

from __future__ import annotations

from bot.commands.core import Caller
from bot.commands.weblinks import DEFAULT_BASE_URL, Link, Refusal, Scope, WebAddress, signer_for
from bot.testing.fakes import group, player
from tests.support.house import build, house_of

ADMIN, MEMBER = Caller(group(), player(1, "Ann"), is_admin=True), Caller(group(), player(2, "Bob"))


async def opened(engine, url: str) -> Link:
    token = url.removeprefix(DEFAULT_BASE_URL + "/c/").rstrip("/")
    found = (await signer_for(house_of(engine).store)).check(token, house_of(engine).clock.now())
    assert isinstance(found, Link), found
    return found


async def test_dashboard_gives_admins_a_private_link_to_their_chat_only(engine):
    commands = house_of(engine).commands
    refused = await commands.handle("dashboard", "", MEMBER)
    assert refused.kind == "error" and "Only chat admins" in refused.text and "http" not in refused.text
    reply = await commands.handle("dashboard", "", ADMIN)
    assert reply.private and reply.kind == "link" and "24 hours" in reply.text
    url = reply.text.splitlines()[-1]
    assert url.startswith(DEFAULT_BASE_URL + "/c/")  # without QUIZHOST_WEB_URL: `quizhost web` on this machine
    link = await opened(engine, url)
    assert (link.chat_key, link.scope) == (group().key, Scope.ADMIN)


async def test_the_public_board_link_exists_only_once_an_admin_turns_it_on(engine):
    commands = build(
        house_of(engine).catalog,
        house_of(engine).store,
        house_of(engine).clock,
        web=WebAddress(url="https://quiz.example.org"),
    ).commands
    off = await commands.handle("board", "", MEMBER)
    assert off.kind == "error" and "/settings board public" in off.text
    assert (await commands.handle("settings", "board public", MEMBER)).kind == "error"  # admins only
    turned = await commands.handle("settings", "board public", ADMIN)
    assert "/board gives it" in turned.text
    url = (await commands.handle("board", "", MEMBER)).text.splitlines()[-1]
    assert url.startswith("https://quiz.example.org/c/")
    assert "Usage: /settings board public" in (await commands.handle("settings", "board sideways", ADMIN)).text
    await commands.handle("settings", "board private", ADMIN)
    assert (await commands.handle("board", "", MEMBER)).kind == "error"


async def test_stats_link_to_the_callers_row_when_the_board_is_public(engine):
    commands = house_of(engine).commands
    assert "http" not in (await commands.handle("stats", "", MEMBER)).text
    await commands.handle("settings", "board public", ADMIN)
    url = (await commands.handle("stats", "", MEMBER)).text.splitlines()[-1]
    link = await opened(engine, url)
    assert (link.scope, link.player_key) == (Scope.BOARD, MEMBER.player.key)


async def test_the_replies_speak_the_chats_language(engine):
    commands = house_of(engine).commands
    await commands.handle("language", "ur", ADMIN)
    reply = await commands.handle("dashboard", "", ADMIN)
    assert "24" in reply.text and "hours" not in reply.text and reply.language == "ur"


async def test_dashboard_revoke_ends_every_link_given_before_it_for_admins_only(engine, clock):
    commands = house_of(engine).commands
    signer = await signer_for(house_of(engine).store)
    before = (await commands.handle("dashboard", "", ADMIN)).text.splitlines()[-1]
    refused = await commands.handle("dashboard", "revoke", MEMBER)
    assert refused.kind == "error" and "Only chat admins can end" in refused.text
    assert isinstance(await signer.opened(house_of(engine).store, token_of(before), clock.now()), Link), (
        "a member changes nothing"
    )
    assert "Usage: /dashboard, or /dashboard revoke" in (await commands.handle("dashboard", "sideways", ADMIN)).text
    clock.advance(60)
    revoked = await commands.handle("dashboard", "Revoke", ADMIN)
    assert revoked.kind != "error" and not revoked.private and "stopped working" in revoked.text
    assert await signer.opened(house_of(engine).store, token_of(before), clock.now()) is Refusal.REVOKED
    after = (await commands.handle("dashboard", "", ADMIN)).text.splitlines()[-1]  # the same instant: it works
    assert isinstance(await signer.opened(house_of(engine).store, token_of(after), clock.now()), Link)
    other = Caller(group("g2"), player(1, "Ann"), is_admin=True)
    elsewhere = (await commands.handle("dashboard", "", other)).text.splitlines()[-1]
    await commands.handle("dashboard", "revoke", ADMIN)
    assert isinstance(await signer.opened(house_of(engine).store, token_of(elsewhere), clock.now()), Link), (
        "another chat's"
    )


async def test_dashboard_revoke_answers_in_the_chats_language(engine):
    commands = house_of(engine).commands
    await commands.handle("language", "hi", ADMIN)
    reply = await commands.handle("dashboard", "revoke", ADMIN)
    assert reply.language == "hi" and "/dashboard" in reply.text and "stopped" not in reply.text
    refused = await commands.handle("dashboard", "revoke", MEMBER)
    assert refused.kind == "error" and "एडमिन" in refused.text


def token_of(url: str) -> str:
    return url.removeprefix(DEFAULT_BASE_URL + "/c/").rstrip("/")
