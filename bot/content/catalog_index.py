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

from bot.content.catalog import (
    QUIZ_SUFFIXES,
    Catalog,
    MatchKeys,
    QuizProblem,
    first_of_each_id,
    load_with_id_line,
    match_keys,
)
from bot.domain.model import LocalText, QuizInfo, QuizSummary

log = logging.getLogger("quizhost.catalog")
# the code that reads a quiz file: a change to any of it makes the cached index stale
_BOT = Path(__file__).resolve().parent.parent
_CODE = [
    _BOT / "content" / "catalog.py",
    _BOT / "content" / "catalog_index.py",
    _BOT / "content" / "quizfile.py",
    _BOT / "content" / "quiz_check.py",
    _BOT / "domain" / "model.py",
]


@dataclass(frozen=True)
class QuizFileStat:
    path: str  # as found (a folder joined with the name): strings, as a thousand Paths cost milliseconds
    size: int
    mtime_ns: int

    @property
    def key(self) -> list[int]:
        return [self.size, self.mtime_ns]


def scan(paths: Sequence[Path]) -> tuple[list[QuizFileStat], list[QuizProblem]]:
    """What find_quiz_files finds, with the stat the cache is keyed by (one call a file)."""
    files: dict[str, QuizFileStat] = {}  # by real path: a file named twice (a folder and its file) is one quiz
    problems: list[QuizProblem] = []
    for path in paths:
        if path.is_dir():
            with os.scandir(path) as entries:
                found = sorted((e.name, e.stat()) for e in entries if e.name.endswith(QUIZ_SUFFIXES) and e.is_file())
            shown, real = str(path), str(path.resolve())  # once a folder, not once a file
            for name, st in found:
                files.setdefault(
                    os.path.join(real, name), QuizFileStat(os.path.join(shown, name), st.st_size, st.st_mtime_ns)
                )
        elif path.is_file():
            st = path.stat()
            files.setdefault(str(path.resolve()), QuizFileStat(str(path), st.st_size, st.st_mtime_ns))
        else:
            problems.append(QuizProblem(str(path), "file", "no such file or folder"))
    return list(files.values()), problems


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
    quiz, problems, id_line = load_with_id_line(Path(file.path))
    listed = (
        None
        if quiz is None
        else json.dumps(
            [
                dict(quiz.title.by_lang),
                list(quiz.aliases),
                list(quiz.tags),
                quiz.difficulty,
                quiz.question_count,
                list(quiz.languages()),
            ],
            ensure_ascii=False,
        )
    )
    # the listing and the match keys stay strings in the index: a thousand quizzes' titles and
    # words as JSON objects would be most of the start-up; they are parsed when first used
    return {
        "key": file.key,
        "problems": [[p.place, p.message, p.line] for p in problems],
        "id_line": id_line,
        "quiz": None if quiz is None else [quiz.id, listed, MatchKeys.join(match_keys(quiz))],
    }


class IndexedQuiz:
    """A quiz as the catalog index lists it: its id at once, the rest parsed on first use."""

    __slots__ = ("_listed", "_summary", "id", "source")

    def __init__(self, quiz_id: str, source: str, listed: str) -> None:
        self.id, self.source, self._listed = quiz_id, source, listed
        self._summary: QuizSummary | None = None

    @property
    def summary(self) -> QuizSummary:
        if self._summary is None:
            title, aliases, tags, difficulty, count, languages = json.loads(self._listed)
            self._summary = QuizSummary(
                self.id, LocalText(title), tuple(aliases), tuple(tags), difficulty, self.source, count, tuple(languages)
            )
        return self._summary

    @property
    def title(self) -> LocalText:
        return self.summary.title

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.summary.aliases

    @property
    def tags(self) -> tuple[str, ...]:
        return self.summary.tags

    @property
    def difficulty(self) -> str:
        return self.summary.difficulty

    @property
    def question_count(self) -> int:
        return self.summary.question_count

    def languages(self) -> tuple[str, ...]:
        return self.summary.languages()


def load_catalog(folders: Sequence[Path], cache: Path) -> Catalog:
    """The catalog of `folders`, reading only the files the index at `cache` does not know."""
    files, problems = scan(folders)
    known = _read(cache)
    entries: dict[str, Any] = {}
    changed = len(files) != len(known)
    for file in files:
        shown = file.path
        hit = known.get(shown)
        if hit is None or hit["key"] != file.key:
            hit, changed = _entry(file), True
        entries[shown] = hit
    if changed:  # (comparing the whole index instead would cost more than reading it)
        _write(cache, entries)
    found: list[tuple[QuizInfo | None, list[QuizProblem], int | None]] = []
    keys: dict[str, str] = {}
    paths: dict[str, str] = {}
    for file in files:
        entry, shown = entries[file.path], file.path
        info = IndexedQuiz(entry["quiz"][0], shown, entry["quiz"][1]) if entry["quiz"] else None
        found.append(
            (
                info,
                [QuizProblem(shown, place, message, line) for place, message, line in entry["problems"]],
                entry["id_line"],
            )
        )
        if info is not None and info.id not in paths:
            keys[info.id] = entry["quiz"][2]
            paths[info.id] = file.path
    quizzes, more = first_of_each_id(found)
    for problem in problems + more:
        log.warning("%s", problem)
    return Catalog(quizzes, problems + more, keys=keys, files=paths)
