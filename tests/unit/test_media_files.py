"""`quizhost validate` and the shipped demo quiz: pictures beside a quiz are there, small
enough for Telegram (10 MB) and pictures at all, each problem naming the file and the question."""

from __future__ import annotations

from pathlib import Path

from bot.content.catalog import Catalog, default_quiz_folders
from bot.content.media import IMAGE_MAX_BYTES, image_type
from bot.content.validate import validate_paths
from bot.domain.answering import media_view
from bot.domain.model import MediaKind, QuestionKind

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64

QUIZ = """\
id: pictures
title: Pictures
description: Every way a picture can be wrong
questions:
  - {id: fine, prompt: "Fine?", options: ["a", "b"], answer: 0, media: pics/fine.png}
  - {id: gone, prompt: "Gone?", options: ["a", "b"], answer: 0, media: pics/gone.png}
  - {id: huge, prompt: "Huge?", options: ["a", "b"], answer: 0, media: pics/huge.png}
  - {id: text, prompt: "Text?", options: ["a", "b"], answer: 0, explanation: "x.", explanation_media: pics/notes.png}
  - {id: link, prompt: "Link?", options: ["a", "b"], answer: 0, media: "https://example.org/a.png"}
  - {id: song, prompt: "Song?", options: ["a", "b"], answer: 0, media: pics/song.mp3}
"""


def test_validate_names_each_missing_oversized_or_unreadable_picture_and_its_question(tmp_path: Path) -> None:
    pics = tmp_path / "pics"
    pics.mkdir()
    (pics / "fine.png").write_bytes(PNG)
    (pics / "huge.png").write_bytes(PNG + b"\0" * IMAGE_MAX_BYTES)
    (pics / "notes.png").write_text("not a picture at all", encoding="utf-8")
    (tmp_path / "pictures.yaml").write_text(QUIZ, encoding="utf-8")

    problems = validate_paths([tmp_path])

    assert [(p.place, p.message) for p in problems] == [
        ("question gone: media", "media file gone.png is missing beside the quiz"),
        ("question huge: media", "media file huge.png is 10.0 MB: a picture may be at most 10 MB"),
        ("question text: explanation_media", "media file notes.png is not a PNG, JPEG, GIF or WebP picture"),
    ]
    assert all(p.path == str(tmp_path / "pictures.yaml") for p in problems)


def test_image_types_are_told_by_their_first_bytes() -> None:
    assert image_type(PNG) == "image/png"
    assert image_type(b"\xff\xd8\xff\xe0....") == "image/jpeg"
    assert image_type(b"RIFF\0\0\0\0WEBPVP8 ") == "image/webp"
    assert image_type(b"<svg xmlns=") is None


def test_the_shipped_tour_has_one_question_of_each_kind_and_a_small_picture_beside_it() -> None:
    quiz = Catalog.load(default_quiz_folders()).get("kinds-tour")
    assert quiz is not None
    assert {q.kind for q in quiz.questions} == set(QuestionKind)
    pictured = [q for q in quiz.questions if q.media is not None]
    assert len(pictured) == 1 and pictured[0].media is not None and pictured[0].media.kind is MediaKind.IMAGE
    view = media_view(pictured[0].media, quiz, "en")
    assert view is not None and Path(view.location).is_file()
    assert Path(view.location).stat().st_size < 50_000  # a picture for a chat, not a poster
    assert all(q.explanation is not None for q in quiz.questions)
    assert validate_paths(default_quiz_folders()) == []
