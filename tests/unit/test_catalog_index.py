"""The catalog index: a restart reads only the quiz files that changed, lists and matches the
same quizzes as a full load, and a quiz's questions are read when it is first played."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Quiz

# the two translated quizzes the bot shipped first (the kinds tour, a demo, leaves the counts below alone)
SHIPPED = sorted(default_quiz_folders()[0] / name for name in ("pipeline.yaml", "training-stacks.yaml"))


def folder(tmp_path: Path) -> Path:
    quizzes = tmp_path / "quizzes"
    quizzes.mkdir()
    for path in SHIPPED:
        shutil.copy(path, quizzes / path.name)
    return quizzes


def listing(catalog: Catalog) -> list[tuple]:
    return [
        (q.id, q.title.by_lang, q.aliases, q.tags, q.question_count, q.languages(), q.source) for q in catalog.all()
    ]


def test_an_indexed_catalog_lists_matches_and_plays_like_a_full_load(tmp_path):
    quizzes, cache = folder(tmp_path), tmp_path / "index.json"
    full = Catalog.load([quizzes])
    Catalog.load([quizzes], cache=cache)  # first start: reads every file, writes the index
    indexed = Catalog.load([quizzes], cache=cache)
    assert not any(isinstance(q, Quiz) for q in indexed.all())  # listed from the index: no question read
    assert listing(indexed) == listing(full)
    for topic in ("pipeline", "zero", "megatron", "पाइपलाइन", "par", "nothing-like-it"):
        assert [q.id for q in indexed.match(topic)] == [q.id for q in full.match(topic)], topic
    assert indexed.get("pipeline") == full.get("pipeline")
    assert isinstance(indexed.get("pipeline"), Quiz)


def test_unchanged_files_are_not_read_at_start(tmp_path):
    quizzes, cache = folder(tmp_path), tmp_path / "index.json"
    Catalog.load([quizzes], cache=cache)
    path = quizzes / "pipeline.yaml"
    stat = path.stat()
    path.write_bytes(b"x" * stat.st_size)  # same size and time: the index cannot tell
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    catalog = Catalog.load([quizzes], cache=cache)
    assert "pipeline" in [q.id for q in catalog.all()]  # listed from the index, the file unread
    assert catalog.get("pipeline") is None  # read when played: broken now, so not played


def test_changed_added_and_removed_files_are_seen(tmp_path):
    quizzes, cache = folder(tmp_path), tmp_path / "index.json"
    Catalog.load([quizzes], cache=cache)
    text = (quizzes / "pipeline.yaml").read_text(encoding="utf-8")
    (quizzes / "pipeline.yaml").write_text(text.replace("id: pipeline", "id: pipes", 1), encoding="utf-8")
    (quizzes / "copy.yaml").write_text(text.replace("id: pipeline", "id: copy", 1), encoding="utf-8")
    (quizzes / "training-stacks.yaml").unlink()
    catalog = Catalog.load([quizzes], cache=cache)
    assert sorted(q.id for q in catalog.all()) == ["copy", "pipes"]
    assert catalog.get("pipes") is not None and catalog.get("pipes").question_count == 8


def test_problems_of_a_broken_file_are_reported_on_every_start(tmp_path):
    quizzes, cache = folder(tmp_path), tmp_path / "index.json"
    (quizzes / "broken.yaml").write_text("id: broken\ntitle: [\n", encoding="utf-8")
    first = Catalog.load([quizzes], cache=cache)
    again = Catalog.load([quizzes], cache=cache)
    assert [str(p) for p in again.problems] == [str(p) for p in first.problems] != []
    assert len(again) == 2


def test_a_taken_id_is_skipped_from_the_index_as_from_the_files(tmp_path):
    quizzes, cache = folder(tmp_path), tmp_path / "index.json"
    shutil.copy(quizzes / "pipeline.yaml", quizzes / "z-again.yaml")
    Catalog.load([quizzes], cache=cache)
    catalog = Catalog.load([quizzes], cache=cache)
    used = f"quiz id 'pipeline' is already used by {quizzes / 'pipeline.yaml'}: this file is skipped"
    assert [p.message for p in catalog.problems] == [used]
    assert catalog.get("pipeline").source == str(quizzes / "pipeline.yaml")


def test_an_unwritable_index_place_only_costs_speed(tmp_path):
    quizzes = folder(tmp_path)
    (tmp_path / "not-a-folder").write_text("", encoding="utf-8")
    catalog = Catalog.load([quizzes], cache=tmp_path / "not-a-folder" / "index.json")
    assert sorted(q.id for q in catalog.all()) == ["pipeline", "training-stacks"]
