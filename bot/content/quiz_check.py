"""A quiz file's data checked: every problem found, each at its place and in words its author can act on.

The models (bot/content/quizfile.py) say what a file may hold; pydantic says what is wrong in
its own terms, and this module says it again for a teacher: a typo'd key with the key it was
probably meant to be, a YAML misreading with the quotes that fix it, a size with its limit.
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from bot.content.question_kinds import MAX_OPTIONS
from bot.content.quizfile import (
    MULTIPLIER_HIGH,
    MULTIPLIER_LOW,
    UNQUOTED,
    Issue,
    Loc,
    QuestionModel,
    QuizFile,
    RoundModel,
    yaml_misreading,
)
from bot.domain.model import LANGUAGES, QUESTION_SECONDS


def check_quiz_data(data: Any) -> tuple[QuizFile | None, list[Issue]]:
    """Validate parsed YAML; every problem found, in file order where pydantic gives it."""
    issues = duplicate_question_ids(data)
    try:
        parsed = QuizFile.model_validate(data)
    except ValidationError as error:
        found = [Issue(_issue_loc(e), friendly_message(e), e["type"]) for e in error.errors()]
        return None, found + issues
    return (None if issues else parsed), issues


def _issue_loc(error: ErrorDetails) -> Loc:
    # pydantic ends the location of a non-string key with its position: the mapping is the place.
    if error["type"] == "invalid_key":
        return tuple(error["loc"][:-1])
    field = error.get("ctx", {}).get("field")  # a check of the quiz as a whole names the key it is about
    return (*error["loc"], field) if isinstance(field, str) else tuple(error["loc"])


def duplicate_question_ids(data: Any) -> list[Issue]:
    """Checked on the raw data so it is reported even when other parts are malformed; ids are
    unique across a quiz's rounds too (a question is found by its id alone)."""
    first: dict[str, Loc] = {}
    issues = []
    for loc, q in raw_questions(data):
        qid = q.get("id") if isinstance(q, dict) else None
        if isinstance(qid, str) and qid in first:
            issues.append(
                Issue(
                    (*loc, "id"),
                    f"duplicate question id '{qid}': {_named(first[qid])} already uses it",
                    "duplicate_id",
                )
            )
        elif isinstance(qid, str):
            first[qid] = loc
    return issues


def raw_questions(data: Any) -> list[tuple[Loc, Any]]:
    """The questions of parsed YAML, each at its place: ("questions", 3) or ("rounds", 1, "questions", 0)."""
    if not isinstance(data, dict):
        return []
    found: list[tuple[Loc, Any]] = []
    lists: list[tuple[Loc, Any]] = [(("questions",), data.get("questions"))]
    rounds = data.get("rounds")
    for r, round_ in enumerate(rounds if isinstance(rounds, list) else []):
        lists.append((("rounds", r, "questions"), round_.get("questions") if isinstance(round_, dict) else None))
    for where, questions in lists:
        found += [((*where, i), q) for i, q in enumerate(questions if isinstance(questions, list) else [])]
    return found


def _named(loc: Loc) -> str:
    """("rounds", 1, "questions", 0) -> rounds[1].questions[0]"""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _kind_of(value: Any) -> str:
    names = {
        bool: "a boolean",
        int: "a number",
        float: "a fraction",
        str: "a string",
        dict: "a mapping",
        list: "a list",
        type(None): "nothing",
    }
    return names.get(type(value), type(value).__name__)


def _known_keys(loc: Loc) -> list[str]:
    if len(loc) == 1:
        return list(QuizFile.model_fields)
    in_round = loc[0] == "rounds" and len(loc) == 3
    return list(RoundModel.model_fields if in_round else QuestionModel.model_fields)


def _is_text(parent: Loc) -> bool:
    return bool(parent) and (
        parent[-1] in ("title", "description", "prompt", "explanation", "hint")
        or (len(parent) > 1 and parent[-2] == "options")
        or (len(parent) == 3 and parent[0] == "rounds" and parent[-1] == "name")
    )


def friendly_message(error: ErrorDetails) -> str:
    """An author-facing message for one pydantic error; the location is named elsewhere."""
    kind, loc, value = error["type"], error["loc"], error.get("input")
    if "field" in error.get("ctx", {}):
        return error["msg"]  # our own words already
    if kind == "extra_forbidden":
        return _unknown_key(loc)
    if kind == "missing":
        return f"'{loc[-1]}' is missing" if loc[-1] != "en" else "the English text ('en') is missing"
    if kind in _WANTED:
        return _wrong_type(kind, loc, value)
    if kind in ("too_short", "string_too_short", "too_long", "string_too_long"):
        return _wrong_size(kind, value, error.get("ctx", {}))
    if kind == "string_pattern_mismatch" and loc[-1] == "language":
        return f"'{value}' is not a language tag: write it as en, es, vi, ar or pt-BR"
    if kind == "string_pattern_mismatch":
        return f"'{value}' is not a valid id: use 1 to 40 of a-z, 0-9 and '-'"
    if kind in ("greater_than_equal", "less_than_equal") and loc[-1] == "multiplier":
        return f"{value} is out of range: a round's multiplier is {MULTIPLIER_LOW:g} to {MULTIPLIER_HIGH:g}"
    if kind == "float_type" and loc[-1] == "multiplier":
        return f"expected a number (such as 2 or 1.5), found {_kind_of(value)}"
    if kind in ("greater_than_equal", "less_than_equal") and loc[-1] == "seconds":
        return f"{value} is out of range: a time limit is {QUESTION_SECONDS.low} to {QUESTION_SECONDS.high} seconds"
    if kind in ("greater_than_equal", "less_than"):
        return f"{value} is out of range: an option index is 0 to {MAX_OPTIONS - 1} (0-based)"
    if kind == "literal_error":
        return f"{error['msg'].replace('Input should be', 'must be')}, not {value!r}"
    if kind == "invalid_key":
        return f"a key YAML reads as {_kind_of(value)} ({value!r}): put the key in quotes"
    return error["msg"]


_WANTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "list_type": "a list",
    "model_type": "a mapping",
    "dict_type": "a mapping",
}


def _unknown_key(loc: Loc) -> str:
    key = loc[-1]
    if _is_text(loc[:-1]):
        return f"unknown language '{key}' (allowed: {', '.join(LANGUAGES)})"
    close = difflib.get_close_matches(str(key), _known_keys(loc), n=1)
    return f"unknown key '{key}'" + (f": did you mean '{close[0]}'?" if close else "")


def _wrong_type(kind: str, loc: Loc, value: Any) -> str:
    if value is None:
        return "empty value: give one or remove the key"
    misread = yaml_misreading(value)
    if kind == "string_type" and misread:
        return misread
    if kind == "int_type" and isinstance(value, bool):
        return f"expected a whole number, but YAML reads {UNQUOTED} as a boolean"
    if kind == "int_type" and isinstance(value, str):
        return f"expected a whole number, found the string {value!r}: remove the quotes"
    if kind == "model_type" and _is_text(loc):
        return f"expected a text (a string, or a mapping of language to string), found {_kind_of(value)}"
    return f"expected {_WANTED[kind]}, found {_kind_of(value)}"


def _wrong_size(kind: str, value: Any, ctx: dict[str, Any]) -> str:
    if isinstance(value, str):
        return "empty text" if "short" in kind else (f"too long: {len(value)} characters, at most {ctx['max_length']}")
    if "short" in kind:
        return f"{ctx.get('actual_length')} given: at least {ctx.get('min_length')} needed"
    return f"{ctx.get('actual_length')} given: at most {ctx.get('max_length')} allowed"
