"""Drafts -> quizhost quiz data (what the YAML file holds), each question checked as the
quiz file format checks it, so what is written is what `quizhost validate` accepts."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.content.importers.common import Draft, Malformed, Note, Parsed, Problem, Skipped, question_id
from bot.content.importers.order import in_meaningful_order
from bot.content.quiz_check import check_quiz_data, friendly_message
from bot.content.quizfile import TITLE_MAX, QuestionModel
from bot.domain.model import FALLBACK_LANGUAGE, QuestionKind, Quiz
from bot.kinds import DEFAULT, kind_of
from bot.texts.i18n import later


def question_data(draft: Draft) -> dict[str, Any]:
    """The question as the quiz file writes it: only the keys its kind uses."""
    options, shuffle = in_meaningful_order(draft.options)
    kind = kind_of(QuestionKind(draft.kind))
    shuffle = shuffle or kind.always_shuffled
    identity = kind.identity(options, draft.accept, draft.answer, draft.tolerance)
    data: dict[str, Any] = {"id": question_id(draft.prompt, identity)}
    if kind is not DEFAULT:
        data["kind"] = kind.code.value
    data["prompt"] = draft.prompt
    if options:
        data["options"] = list(options)
    if draft.answer is not None:
        data["answer"] = draft.answer
    extras = {
        "accept": list(draft.accept),
        "tolerance": draft.tolerance,
        "scoring": "partial" if draft.partial else None,
        "shuffle": None if shuffle or not options else False,
        "explanation": draft.explanation,
        "seconds": draft.seconds,
        "media": draft.media.data() if draft.media else None,
        "explanation_media": draft.explanation_media.data() if draft.explanation_media else None,
    }
    return data | {key: value for key, value in extras.items() if value or value is False}


def _problems(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc'] if p != FALLBACK_LANGUAGE) or 'question'}: {friendly_message(e)}"
        for e in error.errors()
    )


def checked_questions(parsed: Parsed) -> tuple[list[dict[str, Any]], list[Skipped], list[Note]]:
    """The questions that pass the quiz file's checks; the others skipped with the reason.

    A question the file already holds (spacing, and the order of options shuffled anyway,
    aside) is kept, as Moodle keeps it, with a note naming the first: a bank may restate a
    question on purpose (Moodle's examples show two ways to write one), and the author decides.
    """
    kept: list[dict[str, Any]] = []
    skipped = list(parsed.skipped)
    notes: list[Note] = []
    first_at: dict[str, str] = {}
    ids: set[str] = set()
    for draft in parsed.drafts:
        data = question_data(draft)
        try:
            QuestionModel.model_validate(data)
        except ValidationError as error:
            skipped.append(Skipped(draft.where, _problems(error)))
            continue
        same = _content(data)
        if same in first_at:
            notes.append(Note(draft.where, later("asks the same as the question at {place}", place=first_at[same])))
        first_at.setdefault(same, draft.where)
        data["id"] = _unique(data["id"], ids)
        kept.append(data)
    return kept, sorted(skipped, key=file_order), notes


def _content(data: dict[str, Any]) -> str:
    """What the question says, its id, the spacing of its texts and the order of options that
    are shuffled anyway aside."""
    said = {key: _folded(value) for key, value in data.items() if key != "id"}
    options, answer = said.get("options"), said.get("answer")
    if options and said.get("shuffle", True):
        right = [options[i] for i in (answer if isinstance(answer, list) else [answer]) if isinstance(i, int)]
        said |= {"options": sorted(options), "answer": sorted(right)}
    return repr(said)


def _folded(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list):
        return [_folded(item) for item in value]
    return {key: _folded(item) for key, item in value.items()} if isinstance(value, dict) else value


def _unique(question_id: str, taken: set[str]) -> str:
    unique, n = question_id, 1
    while unique in taken:
        n += 1
        unique = f"{question_id}-{n}"
    taken.add(unique)
    return unique


def file_order(problem: Problem) -> tuple[str, int]:
    """Problems sorted as the file runs: "line 9" before "line 12"."""
    head, _, number = problem.where.rpartition(" ")
    digits = "".join(c for c in number if c.isdigit())
    return head, int(digits) if digits else 0


def quiz_data(
    parsed: Parsed, questions: list[dict[str, Any]], *, quiz_id: str, title: str, lang: str, described: str
) -> dict[str, Any]:
    data: dict[str, Any] = {"id": quiz_id}
    if parsed.tags:
        data["tags"] = list(parsed.tags)
    if lang != FALLBACK_LANGUAGE:
        data["language"] = lang  # the texts stay plain strings: the quiz's `language` says what they are in
    data["title"] = title[:TITLE_MAX].strip() or quiz_id
    data["description"] = described
    data["questions"] = questions
    return data


def to_quiz(data: dict[str, Any], source: str) -> Quiz:
    """The checked quiz; a problem left at quiz level (an --id, a tag) is the file's problem."""
    parsed, issues = check_quiz_data(data)
    if parsed is None:
        raise Malformed(".".join(str(p) for p in issues[0].loc) or "quiz", issues[0].message)
    return parsed.to_quiz(source=source)
