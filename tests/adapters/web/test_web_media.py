"""A quiz's pictures on its web page: a file beside the quiz shown inline from the page's own
signed address (the CSP allows this site only), a URL as a link, nothing else served."""

from __future__ import annotations

import aiohttp
import pytest

from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.testing.fakes import group
from tests.adapters.web.test_web_pages import fetch
from tests.support.house import build
from tests.support.web_harness import serving

PICTURE = default_quiz_folders()[0] / "kinds-tour" / "pipeline-bubble.png"
PICTURES = """\
id: pictures
title: Pictures
description: Questions with pictures
questions:
  - id: local
    prompt: How many slots are idle?
    media: {src: pics/bubble.png, alt: "A grid of 4 GPUs by 7 time slots"}
    options: ["12", "16"]
    answer: 0
  - id: remote
    prompt: And this one?
    options: ["yes", "no"]
    answer: 0
    explanation: See the chart.
    explanation_media: {src: "https://example.org/chart.png", alt: "The chart"}
"""


@pytest.fixture
async def site(store, clock, adapter, tmp_path):
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "bubble.png").write_bytes(PICTURE.read_bytes())
    (tmp_path / "pictures.yaml").write_text(PICTURES, encoding="utf-8")
    catalog = Catalog.load([tmp_path])
    engine = build(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
    engine.attach(adapter)
    async with serving(engine) as site:
        yield site


async def test_the_quiz_page_shows_the_picture_from_its_own_signed_address(site):
    link = site.link(group())
    status, html, headers = await fetch(f"{link}quizzes/pictures")
    assert status == 200 and "img-src 'self'" in headers["Content-Security-Policy"]
    token = link.rstrip("/").rsplit("/", 1)[-1]
    address = f"/c/{token}/quizzes/pictures/media/1/question"
    assert f'<img src="{address}" alt="A grid of 4 GPUs by 7 time slots">' in html
    assert '<a href="https://example.org/chart.png" rel="noopener noreferrer" dir="ltr">The chart</a>' in html
    async with aiohttp.ClientSession() as http:
        async with http.get(site.base + address) as response:
            assert response.status == 200 and response.headers["Content-Type"] == "image/png"
            assert await response.read() == PICTURE.read_bytes()
        for wrong in ("media/2/question", "media/1/explanation", "media/99/question", "media/1/..%2f..%2fpipeline"):
            async with http.get(f"{site.base}/c/{token}/quizzes/pictures/{wrong}") as response:
                assert response.status == 404, wrong
        async with http.get(f"{site.base}/c/x{token[1:]}/quizzes/pictures/media/1/question") as response:
            assert response.status == 403, "an altered link opens no picture"


SOUNDS = """\
id: sounds
title: Sounds
description: A sound and a video beside the quiz
questions:
  - id: bird
    prompt: Which bird sings?
    media: sounds/secret.mp3
    options: ["Robin", "Crow"]
    answer: 0
    explanation: The robin.
    explanation_media: {src: clips/secret-clip.mp4, alt: ""}
"""


async def test_a_sound_or_video_beside_the_quiz_is_named_by_its_file_name_not_its_server_path(
    store, clock, adapter, tmp_path
):
    (tmp_path / "sounds.yaml").write_text(SOUNDS, encoding="utf-8")
    engine = build(Catalog.load([tmp_path]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
    engine.attach(adapter)
    async with serving(engine) as site:
        status, html, _ = await fetch(f"{site.link(group())}quizzes/sounds")
    assert status == 200
    assert '<bdi dir="auto">secret.mp3</bdi>' in html and '<bdi dir="auto">secret-clip.mp4</bdi>' in html
    assert str(tmp_path) not in html and "sounds/secret.mp3" not in html
