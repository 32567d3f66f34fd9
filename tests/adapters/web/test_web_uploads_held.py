"""An upload on its way in is spooled to disk, not held in memory; a previewed file waits on disk
for its confirm, and one chat's previews never push out another chat's."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.web.spool import MEMORY_BYTES
from bot.adapters.web.uploads import PER_ADMIN, PER_CHAT, PendingUploads
from bot.commands.weblinks import Scope
from bot.testing.fakes import group, player
from tests.adapters.web.test_web_pages import GIFT_FIXED, fetch, form_value, text_of
from tests.support.house import house_of
from tests.support.web_harness import Site, serving

ANN, BOB = player(1, "Ann"), player(2, "Bob")
PADDED = ("// padding, a comment line\n" * 16_000 + "\n" + GIFT_FIXED).encode()  # ~440 KB, a valid quiz


def open_in(folder: Path) -> list[str]:
    """The files this process has open in `folder` (a spooled upload is an unnamed one there)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)):
            found.append(target)
    return found


async def preview(site: Site, link: str, body: bytes, name: str = "capitals.gift") -> str:
    _, html, _ = await fetch(link + "upload")
    data = aiohttp.FormData({"csrf": form_value(html, "csrf")})
    data.add_field("file", body, filename=name)
    status, html, _ = await fetch(link + "upload", data)
    assert status == 200, text_of(html)
    return form_value(html, "held")


async def confirm(site: Site, link: str, held: str) -> int:
    token = link.split("/c/")[1].rstrip("/")
    data = aiohttp.FormData({"csrf": site.signer.form_token(token, "confirm"), "held": held})
    status, _, _ = await fetch(link + "upload/confirm", data)
    return status


async def test_an_upload_on_its_way_in_is_on_disk_and_gone_once_answered(engine, tmp_path):
    folder = tmp_path / "uploads"
    folder.mkdir()
    assert len(PADDED) > 3 * MEMORY_BYTES
    async with serving(engine, uploads=folder) as site:
        link = site.link(group(), Scope.ADMIN, ANN.key)
        _, html, _ = await fetch(link + "upload")
        boundary = "quizhostboundary"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{form_value(html, "csrf")}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="capitals.gift"\r\n'
            "Content-Type: text/plain\r\n\r\n"
        ).encode()
        half = len(PADDED) // 2
        go_on = asyncio.Event()

        async def body():
            yield head + PADDED[:half]
            await go_on.wait()
            yield PADDED[half:] + f"\r\n--{boundary}--\r\n".encode()

        async with aiohttp.ClientSession() as http:
            sending = asyncio.create_task(
                http.post(
                    link + "upload", data=body(), headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}
                )
            )
            for _ in range(100):  # the server reads the first half
                if open_in(folder):
                    break
                await asyncio.sleep(0.05)
            assert open_in(folder), "half an upload past the memory threshold is in a file in the uploads folder"
            go_on.set()
            async with await sending as response:
                html = await response.text()
        assert response.status == 200 and "Save this quiz" in html
        assert open_in(folder) == [], "the spooled file is closed once the preview is answered"
        assert [p.name.startswith("held-") for p in folder.iterdir()] == [True], "the previewed file waits on disk"
        assert await confirm(site, link, form_value(html, "held")) == 200
        assert list(folder.iterdir()) == [], "and is gone once confirmed"


async def test_one_chats_previews_never_push_out_another_chats(engine, tmp_path):
    mine, theirs = group("g1"), group("g2")
    async with serving(engine) as site:
        link = site.link(mine, Scope.ADMIN, ANN.key)
        held = await preview(site, link, GIFT_FIXED.encode())
        other = site.link(theirs, Scope.ADMIN, BOB.key)
        for _ in range(110):  # past the 100 the whole process used to keep
            await preview(site, other, GIFT_FIXED.encode())
        assert await confirm(site, link, held) == 200
        assert [q.id for q in await house_of(engine).chat_quizzes.all(mine.key)] == ["capitals"]


@pytest.fixture
def pending(clock, tmp_path) -> PendingUploads:
    return PendingUploads(clock, tmp_path)


def test_an_admin_keeps_their_latest_few_and_another_admin_keeps_theirs(pending):
    ann = [pending.hold("test:g1", ANN.key, f"{n}.gift", b"quiz") for n in range(PER_ADMIN + 1)]
    bob = pending.hold("test:g1", BOB.key, "bob.gift", b"bob's quiz")
    assert pending.take("test:g1", ann[0]) is None, "Ann's oldest made room for her newest"
    assert all(pending.take("test:g1", key) is not None for key in ann[1:])
    assert pending.take("test:g1", bob) == ("bob.gift", b"bob's quiz")
    assert pending.take("test:g1", bob) is None, "taken once"


def test_a_chat_keeps_at_most_its_share_and_others_are_untouched(pending, clock):
    other = pending.hold("test:g2", BOB.key, "other.gift", b"other")
    keys = [pending.hold("test:g1", f"test:u{n}", "a.gift", b"a") for n in range(PER_CHAT + 5)]
    assert pending.waiting("test:g1") == PER_CHAT
    assert pending.take("test:g1", keys[0]) is None and pending.take("test:g1", keys[-1]) is not None
    assert pending.take("test:g1", other) is None, "another chat's id opens nothing here"
    clock.advance(3601)
    assert pending.take("test:g2", other) is None, "stale after an hour"
