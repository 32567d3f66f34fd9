"""Drafts -> quizhost quiz data (what the YAML file holds), each question checked as the
quiz file format checks it, so what is written is what `quizhost validate` accepts."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.content.importers.common import Draft, Malformed, Parsed, Skipped, question_id
from bot.content.importers.order import in_meaningful_order
from bot.content.quizfile import TITLE_MAX, QuestionModel, check_quiz_data, friendly_message
from bot.domain.model import FALLBACK_LANGUAGE, Quiz
from bot.texts.i18n import later


def _text(lang: str, text: str) -> str | dict[str, str]:
    # English is every quiz's fallback, so a quiz in another language repeats its text under `en`
    return text if lang == FALLBACK_LANGUAGE else {FALLBACK_LANGUAGE: text, lang: text}


def question_data(draft: Draft, lang: str) -> dict[str, Any]:
    options, shuffle = in_meaningful_order(draft.options)
    data: dict[str, Any] = {
        "id": question_id(draft.prompt, options),
        "prompt": _text(lang, draft.prompt),
        "options": [_text(lang, option) for option in options],
        "answer": draft.answer,
    }
    if not shuffle:
        data["shuffle"] = False
    if draft.explanation:
        data["explanation"] = _text(lang, draft.explanation)
    if draft.seconds:
        data["seconds"] = draft.seconds
    return data


def _problems(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc'] if p != FALLBACK_LANGUAGE) or 'question'}: {friendly_message(e)}"
        for e in error.errors()
    )


def checked_questions(parsed: Parsed, lang: str) -> tuple[list[dict[str, Any]], list[Skipped]]:
    """The questions that pass the quiz file's checks; the others skipped with the reason."""
    kept: list[dict[str, Any]] = []
    skipped = list(parsed.skipped)
    first_at: dict[str, str] = {}
    for draft in parsed.drafts:
        data = question_data(draft, lang)
        if data["id"] in first_at:
            skipped.append(Skipped(draft.where, later("the same question as at {place}", place=first_at[data["id"]])))
            continue
        try:
            QuestionModel.model_validate(data)
        except ValidationError as error:
            skipped.append(Skipped(draft.where, _problems(error)))
            continue
        first_at[data["id"]] = draft.where
        kept.append(data)
    return kept, sorted(skipped, key=_file_order)


def _file_order(skipped: Skipped) -> tuple[str, int]:
    head, _, number = skipped.where.rpartition(" ")
    digits = "".join(c for c in number if c.isdigit())
    return head, int(digits) if digits else 0


def quiz_data(
    parsed: Parsed, questions: list[dict[str, Any]], *, quiz_id: str, title: str, lang: str, described: str
) -> dict[str, Any]:
    data: dict[str, Any] = {"id": quiz_id}
    if parsed.tags:
        data["tags"] = list(parsed.tags)
    data["title"] = _text(lang, title[:TITLE_MAX].strip() or quiz_id)
    data["description"] = _text(lang, described)
    data["questions"] = questions
    return data


def to_quiz(data: dict[str, Any], source: str) -> Quiz:
    """The checked quiz; a problem left at quiz level (an --id, a tag) is the file's problem."""
    parsed, issues = check_quiz_data(data)
    if parsed is None:
        raise Malformed(".".join(str(p) for p in issues[0].loc) or "quiz", issues[0].message)
    return parsed.to_quiz(source=source)
