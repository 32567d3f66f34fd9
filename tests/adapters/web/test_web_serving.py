"""Where the pages are served: `quizhost web` as a process over a database `quizhost play` left,
and `quizhost run` beside the Telegram webhook on one aiohttp server, with /dashboard's link
sent privately to the admin who asked in a group."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import aiohttp

from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401
from tests.adapters.terminal.test_terminal import play
from tests.support.telegram_harness import Member, running_bot, settings_for


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def test_quizhost_web_shows_the_terminal_chat_that_quizhost_play_left(tmp_path: Path):
    play(tmp_path, "pipeline", stdin="a\n" * 8, extra_env={"QUIZHOST_LANGUAGE": "en"})
    dashboard = play(tmp_path, stdin="/dashboard\n").stdout
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db")}
    env.pop("QUIZHOST_QUIZZES", None)
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "web",
        "--listen",
        "127.0.0.1:0",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert server.stdout is not None
        address = (await server.stdout.readline()).decode().split(" on ")[1].split(" ")[0]
        link = (await server.stdout.readline()).decode().rsplit(" ", 1)[1].strip()
        assert link.startswith(address + "/c/")
        status, html = await get(link)
        assert status == 200 and "You" in html and "Model and Pipeline Parallelism" in html
        # /dashboard in the terminal links to `quizhost web`'s default address, signed with the same secret
        played = next(line for line in dashboard.splitlines() if "http://127.0.0.1:8080/c/" in line)
        token = played.split("http://127.0.0.1:8080")[1].strip()
        status, html = await get(address + token + "runs")
        assert status == 200 and "Run history" in html and "You" in html
        assert (await get(address + "/c/nonsense/"))[0] == 403
    finally:
        server.terminate()
        await asyncio.wait_for(server.wait(), 10)
    assert server.returncode == 0, "SIGTERM stops it cleanly"


async def test_run_serves_the_pages_on_the_webhooks_server_and_dashboard_goes_private(
    fake, clock, tmp_path, unused_tcp_port_factory
):
    hook_port, web_port = unused_tcp_port_factory(), unused_tcp_port_factory()
    settings = settings_for(
        fake,
        tmp_path,
        telegram_webhook_url=f"http://127.0.0.1:{hook_port}/telegram/hook",
        telegram_webhook_listen=f"127.0.0.1:{hook_port}",
        telegram_webhook_secret="s3cret",
        quizhost_web_url=f"http://127.0.0.1:{web_port}",
        quizhost_web_listen=f"127.0.0.1:{web_port}",
    )
    group = fake.group(-1007)
    ann = Member(fake, group, fake.user(81, "Ann"))
    fake.make_admin(group, ann.user)
    fake.expected_refusals.add("Bad Request: chat not found")  # Ann has no private chat with the bot yet
    async with running_bot(fake, settings, clock):
        refused = await ann.says("/dashboard")
        assert "Start a private chat with me first" in refused.text and "http" not in refused.text
        fake.private(ann.user)
        told = await ann.says("/dashboard")
        assert "private message" in told.text and "http" not in told.text  # the group never sees the link
        private = [m for m in fake.sent_to(fake.private(ann.user)) if "/c/" in m.text]
        link = private[-1].text.split()[-1]
        assert link.startswith(f"http://127.0.0.1:{web_port}/c/")
        status, html = await get(link)
        assert status == 200 and "Leaderboard" in html
        path = link.split(str(web_port), 1)[1]
        assert (await get(f"http://127.0.0.1:{hook_port}{path}"))[0] == 200  # one server, both addresses
        # /dashboard revoke, in the group: a member may not, an admin ends every link given so far
        bob = Member(fake, group, fake.user(82, "Bob"))
        assert "Only chat admins can end" in (await bob.says("/dashboard revoke")).text
        assert (await get(link))[0] == 200
        clock.advance(1)
        assert "stopped working" in (await ann.says("/dashboard revoke")).text
        status, html = await get(link)
        assert status == 403 and "ended every link given before this one" in html
        await ann.says("/dashboard")
        fresh = [m for m in fake.sent_to(fake.private(ann.user)) if "/c/" in m.text][-1].text.split()[-1]
        assert (await get(fresh))[0] == 200
