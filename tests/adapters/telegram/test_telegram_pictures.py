"""Pictures on Telegram: a question with a picture is one message (a photo, the question as its
caption, the buttons under it), closed by editing its caption; a file is uploaded once and sent
again by the file_id Telegram gave it, after a restart too (the store keeps it); a URL goes as
the URL; a question too long for a caption has its photo first and its text with the buttons
after; an explanation's picture replaces the question's at the reveal."""

from __future__ import annotations

import hashlib
import shutil

from bot.content.catalog import default_quiz_folders
from storage.sqlite.store import SqliteStore
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

PICTURE = default_quiz_folders()[0] / "kinds-tour" / "pipeline-bubble.png"
LONG = "Read this carefully. " * 60  # 1260 characters: no caption holds the question

PICTURES = f"""\
id: pictures
title: "Pictures <&>"
description: "Questions with pictures"
questions:
  - id: local
    prompt: "How many slots are idle?"
    media: {{src: pics/bubble.png, alt: "A schedule"}}
    options: ["12", "16"]
    answer: 0
    shuffle: false
    explanation: "4 × 7 = 28 slots, 16 busy."
    explanation_media: pics/why.png
  - id: remote
    prompt: "And this one, from the web?"
    media: "https://example.org/chart.png"
    options: ["yes", "no"]
    answer: 0
    shuffle: false
  - id: plain
    prompt: "No picture here, one in the explanation"
    options: ["yes", "no"]
    answer: 0
    shuffle: false
    explanation: "See the chart."
    explanation_media: "https://example.org/why.png"
  - id: long
    prompt: "{LONG}"
    media: pics/bubble.png
    options: ["first", "second"]
    answer: 1
    shuffle: false
"""


def picture_folder(tmp_path):
    quizzes = tmp_path / "quizzes"
    (quizzes / "pics").mkdir(parents=True, exist_ok=True)
    shutil.copy(PICTURE, quizzes / "pics" / "bubble.png")
    (quizzes / "pics" / "why.png").write_bytes(PICTURE.read_bytes() + b"another picture")  # other bytes, other file
    (quizzes / "pictures.yaml").write_text(PICTURES, encoding="utf-8")


async def play_through(fake, clock, group, ann) -> list:
    """Ann starts the picture quiz and answers each question; the questions as posted."""
    await ann.says("/quiz pictures")
    posted = []
    for number in (1, 2, 3, 4):
        q = await next_question(fake, group, number)
        await ann.presses(q, "A")
        clock.advance(30)
        await reveal_of(fake, group, q)
        posted.append(q)
    return posted


async def test_a_picture_goes_with_its_question_once_uploaded_then_by_file_id(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path)
    picture_folder(tmp_path)
    group = fake.group(-1201, "Pictures")
    ann = Member(fake, group, fake.user(11, "Ann"))
    async with running_bot(fake, settings, clock):
        local, remote, plain, long = await play_through(fake, clock, group, ann)

        assert local.photo is not None and local.text.startswith("Question 1/4 · Pictures <&>")
        assert "How many slots are idle?" in local.text and "A) 12" in local.text
        assert "✅ A) 12" in local.text and "4 × 7 = 28 slots" in local.text, "the caption became the reveal"
        assert len(fake.called("editMessageMedia")) == 1  # the explanation's picture, with the reveal, in one edit
        assert local.photo == fake.photo_uploads[1][1] and fake.photo_uploads[1][0] == "why.png"
        assert len(fake.called("editMessageCaption")) == 1 and len(fake.called("editMessageText")) == 2
        preview = next(c for c in fake.called("editMessageText") if c.params["message_id"] == plain.message_id)
        assert preview.params["link_preview_options"] == {
            "url": "https://example.org/why.png",
            "prefer_large_media": True,
            "show_above_text": False,
        }, "under a text question, the explanation's picture at a URL is the link preview"
        assert remote.photo is not None and fake.photo_urls == ["https://example.org/chart.png"]

        # too long for a caption: the photo first (titled), the question as text with the buttons
        photo_first = fake.messages[(group["id"], long.message_id - 1)]
        assert photo_first.photo == fake.photo_uploads[0][1] and photo_first.text == "Question 4/4 · Pictures <&>"
        assert long.photo is None and LONG.strip() in long.text and "✅ B) second" in long.text
        assert len(fake.photo_uploads) == 2, "each file went up once; the last question reused its file_id"

        await ann.says("/quiz pictures")  # a second run in the same process
        again = await next_question(fake, group, 5)
        assert again.photo == fake.photo_uploads[0][1] and len(fake.photo_uploads) == 2
        await ann.says("/stop")
    async with running_bot(fake, settings, clock):  # a restart: the store kept the file_id
        await ann.says("/quiz pictures")
        after_restart = await next_question(fake, group, 6)
        assert after_restart.photo == fake.photo_uploads[0][1] and len(fake.photo_uploads) == 2
        await ann.says("/stop")
    bubble = fake.photo_uploads[0][1]
    assert [c.params["photo"] for c in fake.called("sendPhoto")][1:] == [
        "https://example.org/chart.png",
        bubble,
        bubble,
        bubble,
    ]
    assert fake.refused() == []


REFUSED = """\
id: refused
title: Refused pictures
description: Pictures Telegram will not show
questions:
  - id: stale
    prompt: "Kept under another bot's token?"
    media: pics/bubble.png
    options: ["yes", "no"]
    answer: 0
    shuffle: false
  - id: unreachable
    prompt: "From a site Telegram cannot reach?"
    media: "https://unreachable.example.org/chart.png"
    options: ["yes", "no"]
    answer: 0
    shuffle: false
"""


async def test_a_stale_file_id_is_uploaded_again_and_a_refused_url_leaves_the_question_as_text(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path)
    picture_folder(tmp_path)
    (tmp_path / "quizzes" / "refused.yaml").write_text(REFUSED, encoding="utf-8")
    store = await SqliteStore.open(settings.quizhost_db)
    await store.keep_media_file_id("telegram", hashlib.sha256(PICTURE.read_bytes()).hexdigest(), "gone-file-id")
    await store.close()
    fake.expected_refusals |= {
        "Bad Request: wrong file identifier/HTTP URL specified",
        "Bad Request: failed to get HTTP URL content",
        # the question it left as text: the close tries the caption first, Telegram says there is none
        "Bad Request: there is no caption in the message to edit",
    }
    group = fake.group(-1202, "Refusals")
    ann = Member(fake, group, fake.user(12, "Ann"))
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz refused")
        stale = await next_question(fake, group, 1)
        assert stale.photo is not None and [name for name, _ in fake.photo_uploads] == ["bubble.png"]
        await ann.presses(stale, "A")
        clock.advance(30)
        unreachable = await next_question(fake, group, 2)
        assert unreachable.photo is None and "From a site Telegram cannot reach?" in unreachable.text
        await ann.says("/stop")
    assert [c.params["photo"] for c in fake.calls if c.method == "sendPhoto"][:1] == ["gone-file-id"]
