"""Quiz files on disk -> frozen Quiz values, with every problem named by file, place and line.

A broken file never takes the others down: it is skipped and its problems are logged.
"""

from __future__ import annotations

import bisect
import logging
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import yaml

from bot.content.quiz_check import check_quiz_data, raw_questions
from bot.content.quizfile import UNQUOTED, Issue, Loc
from bot.content.yamlguard import check_budget
from bot.domain.model import LANGUAGES, LocalText, Quiz, QuizInfo

log = logging.getLogger("quizhost.catalog")
QUIZ_SUFFIXES = (".yaml", ".yml")

# The C parser makes loading a large catalog cheap; the pure-Python one is the fallback.
_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class QuizProblem:
    """One problem in a quiz file, printed as `path:line: place: message`."""

    path: str
    place: str
    message: str
    line: int | None = None  # 1-based, where known

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.path, self.line) if p not in ("", None))
        return ": ".join(p for p in (where, self.place, self.message) if p)


class _Loader(_BaseLoader):  # type: ignore[misc]
    """Safe YAML that also notes repeated keys, which PyYAML silently resolves to the last."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.repeated_keys: list[tuple[yaml.MappingNode, yaml.Node]] = []

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[str] = set()
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                if key.value in seen:
                    self.repeated_keys.append((node, key))
                seen.add(key.value)
        return super().construct_mapping(node, deep)


def load_quiz_file(path: Path) -> tuple[Quiz | None, list[QuizProblem]]:
    """The quiz in `path`, or None and every problem found in it."""
    quiz, problems, _ = load_with_id_line(path)
    return quiz, problems


def load_with_id_line(path: Path) -> tuple[Quiz | None, list[QuizProblem], int | None]:
    """The quiz, its problems, and the line of its id (for a clash with another file)."""
    shown = str(path)  # as the caller gave it: relative stays short, absolute stays clickable
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeError) as error:
        return None, [QuizProblem(shown, "file", f"cannot read it: {error}")], None
    quiz, problems, id_line, _ = _checked(text, shown)
    return quiz, problems, id_line


def load_quiz_text(text: str, shown: str) -> tuple[Quiz | None, list[QuizProblem], dict[str, Any] | None]:
    """A quiz file's text (an upload): the quiz or its problems, and the data it holds."""
    quiz, problems, _, data = _checked(text, shown)
    return quiz, problems, data


def _checked(text: str, shown: str) -> tuple[Quiz | None, list[QuizProblem], int | None, dict[str, Any] | None]:
    try:
        root, data, repeated_keys = _parse(text, shown)
    except _Unreadable as unreadable:
        return None, [unreadable.problem], None, None
    parsed, issues = check_quiz_data(data)
    problems = [_problem(shown, root, data, issue) for issue in issues]
    problems += [_repeated_key(shown, root, data, mapping, key) for mapping, key in repeated_keys]
    problems.sort(key=lambda p: p.line or 0)  # file order reads best; sort is stable
    quiz = parsed.to_quiz(source=shown) if parsed is not None and not problems else None
    return quiz, problems, _line_of(root, ("id",))[0], data


class _Unreadable(Exception):
    """A file with no quiz mapping to check: unreadable, not YAML, empty or not a mapping."""

    def __init__(self, problem: QuizProblem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _parse(text: str, shown: str) -> tuple[yaml.Node, dict[str, Any], list[tuple[yaml.MappingNode, yaml.Node]]]:
    over = check_budget(text)  # before any tree is built: an alias bomb is refused here
    if over is not None:
        raise _Unreadable(QuizProblem(shown, "file", f"refused: {over.message}", over.line))
    loader = _Loader(text)
    try:  # one parse gives both the nodes (for line numbers) and the data
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except yaml.MarkedYAMLError as error:
        raise _Unreadable(_syntax_problem(shown, error)) from None
    except yaml.YAMLError as error:
        raise _Unreadable(QuizProblem(shown, "YAML syntax", str(error))) from None
    finally:
        loader.dispose()
    if root is None:
        raise _Unreadable(
            QuizProblem(shown, "file", "the file is empty: expected a quiz (id, title, description, questions)", 1)
        )
    if not isinstance(data, dict):
        raise _Unreadable(
            QuizProblem(
                shown,
                "top level",
                f"expected a mapping (id: ..., title: ..., questions: ...), found {type(data).__name__}",
                root.start_mark.line + 1,
            )
        )
    return root, data, loader.repeated_keys


def _syntax_problem(shown: str, error: yaml.MarkedYAMLError) -> QuizProblem:
    mark = error.problem_mark or error.context_mark
    message = f"{error.problem or error.context}"
    if mark is not None:
        message += f" (column {mark.column + 1})"
    if error.context and error.problem and error.context_mark is not None:
        message += f", {error.context} that starts on line {error.context_mark.line + 1}"
    return QuizProblem(shown, "YAML syntax", message, mark.line + 1 if mark is not None else None)


def _problem(shown: str, root: yaml.Node, data: dict[str, Any], issue: Issue) -> QuizProblem:
    line, node = _line_of(root, issue.loc)
    message, loc = issue.message, issue.loc
    if UNQUOTED in message and isinstance(node, yaml.ScalarNode):
        message = message.replace(UNQUOTED, f"the unquoted `{node.value}`")
    if loc[-1:] == ("en",) and isinstance(_line_of(root, loc[:-1])[1], yaml.ScalarNode):
        loc = loc[:-1]  # the author wrote a plain string, not an `en:` key
    return QuizProblem(shown, _place(loc, data), message, line)


def _repeated_key(
    shown: str, root: yaml.Node, data: dict[str, Any], mapping: yaml.MappingNode, key: yaml.Node
) -> QuizProblem:
    first = next(k for k, _ in mapping.value if k.value == key.value)
    return QuizProblem(
        shown,
        _place((*(_path_to(root, mapping) or ()), key.value), data),
        f"key '{key.value}' appears twice (also on line {first.start_mark.line + 1}): YAML keeps only the last one",
        key.start_mark.line + 1,
    )


def _line_of(root: yaml.Node, loc: Loc) -> tuple[int, yaml.Node | None]:
    """The 1-based line of the deepest part of `loc` present in the file, and its node."""
    node: yaml.Node | None = root
    line = root.start_mark.line
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            hit = next(((k, v) for k, v in reversed(node.value) if k.value == part), None)  # YAML keeps the last
            if hit is None:  # a missing key: the mapping that lacks it is the place
                return line + 1, None
            line, node = hit[0].start_mark.line, hit[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line
        else:  # a plain string standing for {en: ...}, or a loc pydantic made up
            return line + 1, None
    return line + 1, node


def _path_to(root: yaml.Node, target: yaml.Node) -> Loc | None:
    """Where `target` first sits under `root` (only searched for the rare repeated key).

    Each node is visited once: an alias shares its anchor's node, and walking every path
    through shared nodes would be walking the alias-expanded tree."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, Loc]] = [(root, ())]
    while stack:
        node, loc = stack.pop()
        if node is target:
            return loc
        if id(node) in seen:
            continue
        seen.add(id(node))
        children: Iterable[tuple[str | int, yaml.Node]] = ()
        if isinstance(node, yaml.MappingNode):
            children = ((k.value, v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            children = enumerate(node.value)
        stack.extend(reversed([(child, (*loc, part)) for part, child in children]))
    return None


def _place(loc: Loc, data: dict[str, Any]) -> str:
    """`question 'memory-wall' options[2].hi`; `questions[3]` when the id is missing or taken;
    `round 2 question 'volcano' hint` in a quiz of rounds (rounds counted from 1, as announced)."""
    head, rest = "", loc
    if len(loc) > 1 and loc[0] == "rounds" and isinstance(loc[1], int):
        head, rest = f"round {loc[1] + 1}", loc[2:]
    if len(rest) > 1 and rest[0] == "questions" and isinstance(rest[1], int):
        head = " ".join(p for p in (head, _question_label(data, loc[: len(loc) - len(rest) + 2])) if p)
        rest = rest[2:]
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest).lstrip(".")
    return " ".join(p for p in (head, field) if p) or "top level"


def _question_label(data: dict[str, Any], at: Loc) -> str:
    found = raw_questions(data)
    ids = [q.get("id") if isinstance(q, dict) else None for _, q in found]
    index = next((i for i, (loc, _) in enumerate(found) if loc == at), len(ids))
    qid = ids[index] if index < len(ids) else None
    if isinstance(qid, str) and qid and qid not in ids[:index]:
        return f"question '{qid}'"
    return f"questions[{at[-1]}]"


def strict_problems(quiz: Quiz) -> list[QuizProblem]:
    """Every question without an explanation, and every text not yet translated into some
    language (English stands in meanwhile)."""
    unexplained = [
        QuizProblem(
            quiz.source,
            f"{quiz.id}: question '{q.id}'",
            "no explanation: the reveal shows only the right answer and the split",
        )
        for q in quiz.questions
        if not q.explanation
    ]
    return unexplained + [
        QuizProblem(quiz.source, f"{quiz.id}: {place}", f"missing '{lang}' translation")
        for place, text in _texts(quiz)
        for lang in LANGUAGES
        if not text.has(lang)
    ]


def _texts(quiz: Quiz) -> Iterator[tuple[str, LocalText]]:
    yield "title", quiz.title
    yield "description", quiz.description
    for q in quiz.questions:
        yield f"question '{q.id}' prompt", q.prompt
        for i, option in enumerate(q.options):
            yield f"question '{q.id}' options[{i}]", option
        if q.explanation:
            yield f"question '{q.id}' explanation", q.explanation
        if q.hint:
            yield f"question '{q.id}' hint", q.hint
    for number, round_ in enumerate(quiz.rounds, 1):
        yield f"round {number} name", round_.name


def default_quiz_folders() -> list[Path]:
    """The shipped quizzes: the top-level `quizzes` package, which the wheel installs beside `bot` (and a
    checkout has beside it). Found by place, not by import: `python -m` puts the current folder first on
    sys.path, and a user's own `quizzes/` folder there would stand in for the package."""
    return [Path(__file__).resolve().parents[2] / "quizzes"]


def find_quiz_files(paths: Sequence[Path]) -> tuple[list[Path], list[QuizProblem]]:
    """Files as given, folders as their *.yaml/*.yml files sorted by name (not recursive)."""
    files: list[Path] = []
    problems: list[QuizProblem] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix in QUIZ_SUFFIXES and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            problems.append(QuizProblem(str(path), "file", "no such file or folder"))
    unique: dict[Path, Path] = {}  # a file named twice (a folder and its file) is one quiz, not a clash
    for file in files:
        unique.setdefault(file.resolve(), file)
    return list(unique.values()), problems


def load_quiz_files(files: Sequence[Path]) -> tuple[dict[str, Quiz], list[QuizProblem]]:
    """Every good quiz by id, in file order; a second file with a taken id is skipped."""
    return first_of_each_id(load_with_id_line(path) for path in files)


Info = TypeVar("Info", bound=QuizInfo)


def first_of_each_id(
    loaded: Iterable[tuple[Info | None, list[QuizProblem], int | None]],
) -> tuple[dict[str, Info], list[QuizProblem]]:
    """Quizzes by id from (quiz, problems, line of its id) in file order: the first file keeps an id."""
    quizzes: dict[str, Info] = {}
    problems: list[QuizProblem] = []
    for quiz, found, id_line in loaded:
        problems += found
        if quiz is None:
            continue
        if quiz.id in quizzes:
            problems.append(
                QuizProblem(
                    quiz.source,
                    "id",
                    f"quiz id '{quiz.id}' is already used by {quizzes[quiz.id].source}: this file is skipped",
                    id_line,
                )
            )
        else:
            quizzes[quiz.id] = quiz
    return quizzes, problems


def _fold(text: str) -> str:
    # NFC on both sides of casefold: casefolding can leave decomposed sequences behind.
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def _is_separator(ch: str) -> bool:
    # Only punctuation (category P*), not symbols, so "c++" stays "c++".
    return ch.isspace() or unicodedata.category(ch).startswith("P")


def _trim(word: str) -> str:
    start, end = 0, len(word)
    while start < end and _is_separator(word[start]):
        start += 1
    while end > start and _is_separator(word[end - 1]):
        end -= 1
    return word[start:end]


def topic_words(text: str) -> list[str]:
    """A topic or name as folded words without edge punctuation."""
    return [w for w in (_trim(w) for w in _fold(text).split()) if w]


def _title_words(text: str) -> set[str]:
    """Whole words ("megatron-lm") and their parts ("megatron", "lm")."""
    words = set(topic_words(text))
    for word in list(words):
        if not word.isalnum():  # Devanagari vowel signs are not alnum either: split to be sure
            words.update("".join(" " if _is_separator(c) else c for c in word).split())
    return words


class MatchKeys(NamedTuple):
    """What /quiz topics match against, per quiz: computed once, kept in the catalog index."""

    names: tuple[str, ...]  # id and aliases: an exact hit wins outright
    words: tuple[str, ...]  # title words, whole and split
    tags: tuple[str, ...]

    def join(self) -> str:
        """One string for the catalog index (a topic word never holds a newline or a \\x1d)."""
        return "\x1d".join("\n".join(keys) for keys in self)

    @classmethod
    def parse(cls, joined: str) -> MatchKeys:
        names, words, tags = (tuple(part.split("\n")) if part else () for part in joined.split("\x1d"))
        return cls(names, words, tags)


def match_keys(quiz: QuizInfo) -> MatchKeys:
    names = {" ".join(topic_words(n)) for n in (quiz.id, *quiz.aliases)} - {""}
    words = set().union(*(_title_words(t) for t in quiz.title.all()))
    return MatchKeys(
        tuple(sorted(names)), tuple(sorted(words)), tuple(sorted({" ".join(topic_words(t)) for t in quiz.tags}))
    )


class Catalog:
    """The quizzes and the problems met loading them; answers /quiz topics.

    A quiz may be listed by its summary alone (from the catalog index): its questions are read
    from its file the first time it is asked for, and the topic index is built on first use.
    """

    def __init__(
        self,
        quizzes: dict[str, QuizInfo] | dict[str, Quiz],
        problems: Sequence[QuizProblem] = (),
        *,
        keys: dict[str, str] | None = None,
        files: dict[str, str] | None = None,
    ) -> None:
        self.quizzes: dict[str, QuizInfo] = dict(quizzes)
        self.problems: list[QuizProblem] = list(problems)
        self._keys = dict(keys or {})  # MatchKeys, joined (see MatchKeys.parse): parsed on first use
        self._files = dict(files or {})  # id -> the file of a quiz known by its summary alone
        self._names: dict[str, list[str]] = {}  # id and aliases: an exact hit wins outright
        self._words: dict[str, set[str]] = {}  # equal-word hits: names, title words, tags
        self._prefixes: list[tuple[str, str]] = []  # (key, quiz id), sorted for bisect
        self._indexed = False

    @classmethod
    def load(cls, folders: Sequence[Path], cache: Path | None = None) -> Catalog:
        """Every quiz file in `folders`; with a `cache` file, only changed files are read now."""
        if cache is not None:
            from bot.content.catalog_index import load_catalog

            return load_catalog(folders, cache)
        files, problems = find_quiz_files(folders)
        quizzes, found = load_quiz_files(files)
        for problem in problems + found:
            log.warning("%s", problem)
        return cls(quizzes, problems + found)

    @classmethod
    def from_quizzes(cls, quizzes: Iterable[Quiz]) -> Catalog:
        by_id: dict[str, Quiz] = {}
        problems = []
        for quiz in quizzes:
            if quiz.id in by_id:
                problems.append(QuizProblem(quiz.source, "id", f"quiz id '{quiz.id}' is already used"))
            else:
                by_id[quiz.id] = quiz
        return cls(by_id, problems)

    def _index(self) -> None:
        if self._indexed:
            return
        for quiz in self.quizzes.values():
            joined = self._keys.get(quiz.id)
            names, words, tags = MatchKeys.parse(joined) if joined else match_keys(quiz)
            for name in names:
                self._names.setdefault(name, []).append(quiz.id)
            for key in (*names, *words, *tags):
                self._words.setdefault(key, set()).add(quiz.id)
            self._prefixes += [(key, quiz.id) for key in {*names, *words}]
        self._prefixes.sort()
        self._indexed = True

    def named(self, name: str) -> QuizInfo | None:
        """The quiz whose id or alias is `name` (as /quiz reads it), if any."""
        self._index()
        ids = self._names.get(" ".join(topic_words(name)))
        return self.quizzes[ids[0]] if ids else None

    def get(self, quiz_id: str) -> Quiz | None:
        """The whole quiz, read from its file the first time when only its summary is known."""
        info = self.quizzes.get(quiz_id)
        if info is None or isinstance(info, Quiz):
            return info
        quiz, problems = load_quiz_file(Path(self._files[quiz_id]))
        for problem in problems:  # changed since the index was made, and broken now
            log.warning("%s", problem)
        if quiz is None or quiz.id != quiz_id:
            return None
        self.quizzes[quiz_id] = quiz
        return quiz

    def all(self) -> list[QuizInfo]:
        return list(self.quizzes.values())

    def __len__(self) -> int:
        return len(self.quizzes)

    def match(self, topic: str) -> list[QuizInfo]:
        """Quizzes for a /quiz topic: an exact id or alias alone, else every word must match."""
        self._index()
        words = topic_words(topic)
        if not words:
            return []
        exact = self._names.get(" ".join(words))
        if exact:
            return [self.quizzes[quiz_id] for quiz_id in exact]
        found = set.intersection(*(self._matching(word) for word in words))
        return [quiz for quiz_id, quiz in self.quizzes.items() if quiz_id in found]

    def _matching(self, word: str) -> set[str]:
        hits = set(self._words.get(word, ()))
        if len(word) >= 3:  # shorter prefixes ("a", "de") would match nearly everything
            start = bisect.bisect_left(self._prefixes, (word,))
            for key, quiz_id in self._prefixes[start:]:
                if not key.startswith(word):
                    break
                hits.add(quiz_id)
        return hits
