"""A quiz as plain data in one language: options in authoring order, answer as the file gives it.

Every field a quiz file can say is written (defaults left out, but for the difficulty), so a file
read and exported again gives the same data, and a quiz written in the chat exports as a file would have said it.
"""

from __future__ import annotations

from typing import Any

from bot.content.importers import dump_yaml
from bot.domain.answering import media_view
from bot.domain.model import Media, Question, QuestionKind, Quiz


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
    data["questions"] = [_question(q, lang) for q in quiz.questions]
    return data


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
    data: dict[str, Any] = {"id": q.id}
    if q.kind is not QuestionKind.CHOICE:
        data["kind"] = q.kind.value
    data["prompt"] = q.prompt.get(lang)
    if q.kind.has_options and q.kind is not QuestionKind.TRUE_FALSE:
        data["options"] = [o.get(lang) for o in q.options]
    data.update(_answer(q))
    data["explanation"] = q.explanation.get(lang) if q.explanation else None
    if q.seconds:
        data["seconds"] = q.seconds
    if not q.shuffle and q.kind is not QuestionKind.TRUE_FALSE:
        data["shuffle"] = False
    for key, media in (("media", q.media), ("explanation_media", q.explanation_media)):
        if media:
            data[key] = _media(media, lang)
    return data


def _answer(q: Question) -> dict[str, Any]:
    if q.kind is QuestionKind.CHOICE:
        return {"answer": q.answer}
    if q.kind is QuestionKind.TRUE_FALSE:
        return {"answer": q.answer == 0}
    if q.kind is QuestionKind.MULTI:
        return {"answer": list(q.answers), **({"scoring": "partial"} if q.partial else {})}
    if q.kind is QuestionKind.TYPED:
        return {"accept": list(q.accepted)}
    if q.kind is QuestionKind.NUMERIC and q.numeric:
        n = q.numeric
        if n.value is None:
            return {"answer": {"min": n.low, "max": n.high}}
        tolerance = round(n.high - n.value, 12)
        return {"answer": n.value, **({"tolerance": tolerance} if tolerance else {})}
    return {}


def _media(media: Media, lang: str) -> dict[str, Any]:
    return {
        "src": media.src,
        "kind": media.kind.value,
        **({"alt": media.alt.get(lang)} if media.alt else {}),
    }
