"""What an uploaded quiz points at, through the fake Bot API: a media `src` holding a control
character is refused at upload (it could never be opened, and its question would never be
posted, holding the group), and a sound or video beside an uploaded quiz is named by its file
name alone, never by a path on the server."""

from __future__ import annotations

from pathlib import Path

from bot.testing.fake_telegram import FakeBotApi
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_uploads import sends_file
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

NUL_MEDIA = b"""\
id: nul
title: Nul
description: A picture whose name holds a NUL
questions:
  - id: q1
    prompt: Which one?
    media: "pics/a\\0b.png"
    options: ["x", "y"]
    answer: 0
"""

LOCAL_SOUNDS = b"""\
id: sounds
title: Sounds
description: A sound and a video beside the quiz
questions:
  - id: q1
    prompt: Which bird sings?
    media: sounds/secret.mp3
    options: ["Robin", "Crow"]
    answer: 0
    explanation: The robin.
    explanation_media: {src: clips/secret-clip.mp4}
"""


async def test_a_nul_in_a_media_src_is_refused_at_upload_and_the_group_plays_on(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2101, "Club")
    ann = Member(fake, group, fake.user(2101, "Ann"))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(ann, "nul.yaml", NUL_MEDIA)
        assert reply.text.startswith("Nothing was saved: nul.yaml has these problems:\n• 7: question 'q1' media: ")
        assert "holds the control character U+0000: a file name or URL has none" in reply.text
        assert "\x00" not in reply.text
        assert "No quiz matches" in (await ann.says("/quiz nul")).text
        await ann.says("/quiz tiny")  # nothing holds the group: another quiz starts and is posted
        assert (await next_question(fake, group, 1)).text


async def test_local_sound_and_video_are_named_by_file_name_never_by_a_server_path(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2102, "Birds")
    ann = Member(fake, group, fake.user(2102, "Ann"))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Saved sounds: 1 question." in (await sends_file(ann, "sounds.yaml", LOCAL_SOUNDS)).text
        await ann.says("/quiz sounds")
        question = await next_question(fake, group, 1)
        assert "🔊 Listen: secret.mp3" in question.text
        clock.advance(31)
        reveal = await reveal_of(fake, group, question)
        assert "🎬 Watch: secret-clip.mp4" in reveal.text
        for shown in (question.text, question.html, reveal.text, reveal.html):
            assert str(Path.cwd()) not in shown and "telegram:" not in shown and "sounds/" not in shown
