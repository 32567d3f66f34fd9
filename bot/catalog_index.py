"""Start-up that does not grow with the catalog: an index of the quiz files, cached on disk.

Loading a quiz file means YAML, validation and building the topic index (about 2 ms a file);
with a thousand files that is seconds before the bot serves. The index keeps, per file, what
listing and `/quiz` matching need (id, titles, aliases, tags, counts, the match keys) and the
problems found, keyed by the file's size and modification time. A file whose key changed is
read again; the questions of an unchanged one are read when it is first played.
"""
from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.catalog import QUIZ_SUFFIXES, Catalog, MatchKeys, QuizProblem, first_of_each_id, load_with_id_line, match_keys
from bot.model import LocalText, QuizInfo, QuizSummary

log = logging.getLogger("quizhost.catalog")
_CODE = [Path(__file__).with_name(name) for name in ("catalog.py", "catalog_index.py", "quizfile.py", "model.py")]


@dataclass(frozen=True)
class QuizFileStat:
    path: Path
    size: int
    mtime_ns: int

    @property
    def key(self) -> list[int]:
        return [self.size, self.mtime_ns]


def scan(paths: Sequence[Path]) -> tuple[list[QuizFileStat], list[QuizProblem]]:
    """What find_quiz_files finds, with the stat the cache is keyed by (one call a file)."""
    files: list[tuple[Path, QuizFileStat]] = []
    problems: list[QuizProblem] = []
    for path in paths:
        if path.is_dir():
            with os.scandir(path) as entries:
                found = [(e.name, e.stat()) for e in entries if e.name.endswith(QUIZ_SUFFIXES) and e.is_file()]
            real = path.resolve()  # once a folder, not once a file
            files += [(real / name, QuizFileStat(path / name, st.st_size, st.st_mtime_ns))
                      for name, st in sorted(found)]
        elif path.is_file():
            st = path.stat()
            files.append((path.resolve(), QuizFileStat(path, st.st_size, st.st_mtime_ns)))
        else:
            problems.append(QuizProblem(str(path), "file", "no such file or folder"))
    unique: dict[Path, QuizFileStat] = {}  # a file named twice (a folder and its file) is one quiz
    for real_path, file in files:
        unique.setdefault(real_path, file)
    return list(unique.values()), problems


def _code_key() -> list[int]:
    # a change to the checks or the model makes every cached verdict stale
    return [int(s) for p in _CODE for s in (p.stat().st_size, p.stat().st_mtime_ns)]


def _read(cache: Path) -> dict[str, Any]:
    try:
        data = json.loads(cache.read_bytes())
    except (OSError, ValueError):
        return {}
    return data["files"] if isinstance(data, dict) and data.get("code") == _code_key() else {}


def _write(cache: Path, files: dict[str, Any]) -> None:
    temporary = cache.with_name(f".{cache.name}.{os.getpid()}")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps({"code": _code_key(), "files": files}, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, cache)  # readers see the old index or the new one, never half
    except OSError as error:  # a read-only place costs speed, not correctness
        log.info("catalog index not saved to %s: %s", cache, error)


def _entry(file: QuizFileStat) -> dict[str, Any]:
    quiz, problems, id_line = load_with_id_line(file.path)
    return {"key": file.key, "problems": [[p.place, p.message, p.line] for p in problems], "id_line": id_line,
            "quiz": None if quiz is None else {
                "id": quiz.id, "title": dict(quiz.title.by_lang), "aliases": list(quiz.aliases),
                "tags": list(quiz.tags), "difficulty": quiz.difficulty, "count": quiz.question_count,
                "languages": list(quiz.languages()),
                # one string per kind of key: a thousand quizzes' keys as lists would be most of the load
                "keys": ["\n".join(k) for k in match_keys(quiz)]}}


def _summary(shown: str, data: dict[str, Any]) -> QuizSummary:
    return QuizSummary(data["id"], LocalText(data["title"]), tuple(data["aliases"]), tuple(data["tags"]),
                       data["difficulty"], shown, data["count"], tuple(data["languages"]))


def load_catalog(folders: Sequence[Path], cache: Path) -> Catalog:
    """The catalog of `folders`, reading only the files the index at `cache` does not know."""
    files, problems = scan(folders)
    known = _read(cache)
    entries: dict[str, Any] = {}
    for file in files:
        shown = str(file.path)
        hit = known.get(shown)
        entries[shown] = hit if hit is not None and hit["key"] == file.key else _entry(file)
    if entries != known:
        _write(cache, entries)
    found: list[tuple[QuizInfo | None, list[QuizProblem], int | None]] = []
    keys: dict[str, MatchKeys] = {}
    paths: dict[str, Path] = {}
    for file in files:
        entry, shown = entries[str(file.path)], str(file.path)
        info = _summary(shown, entry["quiz"]) if entry["quiz"] else None
        found.append((info, [QuizProblem(shown, place, message, line) for place, message, line in entry["problems"]],
                      entry["id_line"]))
        if info is not None and info.id not in paths:
            keys[info.id] = MatchKeys.parse(entry["quiz"]["keys"])
            paths[info.id] = file.path
    quizzes, more = first_of_each_id(found)
    for problem in problems + more:
        log.warning("%s", problem)
    return Catalog(quizzes, problems + more, keys=keys, files=paths)
