"""A quiz as plain data in one language: options in authoring order, answer as the file gives it.

Every field a quiz file can say is written (defaults left out, but for the difficulty), so a file
read and exported again gives the same data, and a quiz written in the chat exports as a file would have said it.
"""

from __future__ import annotations

from typing import Any

from bot.content.importers import dump_yaml
from bot.domain.answering import media_view
from bot.domain.model import Media, Question, Quiz, Round
from bot.kinds import DEFAULT as DEFAULT_KIND
from bot.kinds import kind_of


def export_quiz(quiz: Quiz, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = {"id": quiz.id}
    if quiz.aliases:
        data["aliases"] = list(quiz.aliases)
    if quiz.tags:
        data["tags"] = list(quiz.tags)
    data["difficulty"] = quiz.difficulty  # the default too: a file says what the quiz is
    data["language"] = quiz.language if lang == "en" else lang
    data["title"] = quiz.title.get(lang)
    data["description"] = quiz.description.get(lang)
    if quiz.rounds:
        questions = {q.id: q for q in quiz.questions}
        data["rounds"] = [_round(r, [questions[i] for i in r.question_ids], lang) for r in quiz.rounds]
    else:
        data["questions"] = [_question(q, lang) for q in quiz.questions]
    return data


def _round(round_: Round, questions: list[Question], lang: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": round_.name.get(lang)}
    if round_.multiplier != 1:
        data["multiplier"] = _number(round_.multiplier)
    data["questions"] = [_question(q, lang) for q in questions]
    return data


def _number(value: float) -> int | float:
    """2.0 written as 2, as an author writes it."""
    return int(value) if value.is_integer() else value


def quiz_yaml(quiz: Quiz, lang: str) -> str:
    """The quiz file's text (`quizhost export --format yaml`, the web page's download)."""
    return dump_yaml(export_quiz(quiz, lang))


def local_media(quiz: Quiz) -> dict[str, str]:
    """The quiz's pictures and sounds that are files, not URLs: the path the quiz file writes
    (relative to it), and where the file is now."""
    found: dict[str, str] = {}
    for q in quiz.questions:
        for media in (q.media, q.explanation_media):
            view = media_view(media, quiz, quiz.language)
            if media is not None and view is not None and not media.is_url:
                found[media.src] = view.location
    return found


def _question(q: Question, lang: str) -> dict[str, Any]:
    kind = kind_of(q)
    data: dict[str, Any] = {"id": q.id}
    if kind is not DEFAULT_KIND:
        data["kind"] = q.kind.value
    data["prompt"] = q.prompt.get(lang)
    if kind.writes_options:
        data["options"] = [o.get(lang) for o in q.options]
    data.update(kind.file_answer(q))
    data["explanation"] = q.explanation.get(lang) if q.explanation else None
    if q.hint:
        data["hint"] = q.hint.get(lang)
    if q.seconds:
        data["seconds"] = q.seconds
    if not q.shuffle and not kind.fixed_options:
        data["shuffle"] = False
    for key, media in (("media", q.media), ("explanation_media", q.explanation_media)):
        if media:
            data[key] = _media(media, lang)
    return data


def _media(media: Media, lang: str) -> dict[str, Any]:
    return {
        "src": media.src,
        "kind": media.kind.value,
        **({"alt": media.alt.get(lang)} if media.alt else {}),
    }
