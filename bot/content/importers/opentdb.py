"""Open Trivia DB results (opentdb.com/api.php): `multiple` questions, and `boolean` ones as
true/false questions (the bot shows True and False in the chat's language).

The file is what the API returned (`{"response_code": 0, "results": [...]}`) or the bare
results list. Fields are HTML-entity encoded by default; `encode=url3986`, `urlLegacy` and
`base64` are recognised from the data itself (base64 encodes every field, `type` included).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

from bot.content.importers.common import Collector, Draft, Malformed, Parsed, decode_text
from bot.content.importers.markup import unescape_entities
from bot.texts.i18n import later

# https://opentdb.com/api_config.php: what a non-zero response_code means
RESPONSE_CODES = {
    1: "No Results: the API has fewer questions than asked for in that category or difficulty",
    2: "Invalid Parameter: the request's arguments were not valid",
    3: "Token Not Found: the session token does not exist (it expires after 6 hours unused)",
    4: "Token Empty: the session token has returned every question; reset it",
    5: "Rate Limit: too many requests (one every 5 seconds per address)",
}
KINDS = ("multiple", "boolean")
Decoder = Callable[[str], str]


def parse(data: bytes) -> Parsed:
    try:
        document = json.loads(decode_text(data))
    except json.JSONDecodeError as error:
        raise Malformed(
            f"line {error.lineno}", later("not JSON: {detail} (column {column})", detail=error.msg, column=error.colno)
        ) from None
    results, prefix = _results(document)
    decode = _decoder(results)
    found = Collector()
    for i, result in enumerate(results):
        _read(result, f"{prefix}[{i}]", decode, found)
    return found.parsed()


def _results(document: Any) -> tuple[list[Any], str]:
    if isinstance(document, list):
        return document, ""
    if not isinstance(document, dict) or "results" not in document:
        raise Malformed(
            "top level",
            later(
                "expected Open Trivia DB results: {example} or a list of questions",
                example='{"response_code": 0, "results": [...]}',
            ),
        )
    code = document.get("response_code", 0)
    if code != 0:
        meaning = RESPONSE_CODES.get(code, "an unknown code") if isinstance(code, int) else "not a number"
        raise Malformed(
            "response_code", later("{code}: {meaning}; nothing to import", code=repr(code), meaning=meaning)
        )
    if not isinstance(document["results"], list):
        raise Malformed("results", later("expected a list of questions"))
    return document["results"], "results"


def _decoder(results: list[Any]) -> Decoder:
    """The encoding the request asked for, recognised from the questions themselves."""
    kinds = [str(r["type"]) for r in results if isinstance(r, dict) and isinstance(r.get("type"), str)]
    if kinds and all(k not in KINDS and _base64(k) in KINDS for k in kinds):
        return _base64
    questions = [r["question"] for r in results if isinstance(r, dict) and isinstance(r.get("question"), str)]
    # URL encodings never leave a space: a question with a space is entity-encoded text
    if questions and not any(" " in q for q in questions) and any("%" in q or "+" in q for q in questions):
        return unquote_plus  # url3986 writes %20 and %2B, urlLegacy + and %2B: both decode alike
    return unescape_entities


def _base64(text: str) -> str:
    try:
        return base64.b64decode(text, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return text


def _read(result: Any, where: str, decode: Decoder, found: Collector) -> None:
    if not isinstance(result, dict):
        found.skip(where, later("not a question (expected an object with type, question, correct_answer)"))
        return
    missing = [k for k in ("type", "question", "correct_answer", "incorrect_answers") if k not in result]
    if missing:
        found.skip(where, later("missing {fields}", fields=", ".join(repr(k) for k in missing)))
        return
    fields = [result["type"], result["question"], result["correct_answer"]]
    wrong = result["incorrect_answers"]
    if (
        not all(isinstance(f, str) for f in fields)
        or not isinstance(wrong, list)
        or not all(isinstance(w, str) for w in wrong)
    ):
        found.skip(where, later("type, question, correct_answer and incorrect_answers must be text"))
        return
    kind, prompt, right = (decode(f).strip() for f in fields)
    if kind not in KINDS:
        found.skip(where, later("type '{kind}': only multiple and boolean questions are imported", kind=kind))
        return
    if isinstance(result.get("category"), str):
        found.tag(decode(result["category"]))
    if kind == "boolean":
        options = ("True", "False")
        if right not in options:
            found.skip(
                where, later("correct_answer '{answer}' of a boolean question is not True or False", answer=right)
            )
            return
        found.keep(Draft(where, prompt, (), right == "True", kind="truefalse"))
        return
    found.keep(Draft(where, prompt, (right, *(decode(w).strip() for w in wrong)), 0))
