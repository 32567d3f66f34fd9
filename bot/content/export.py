"""A quiz as plain data in one language: options in authoring order, answer as an index."""

from __future__ import annotations

from bot.domain.model import Quiz


def export_quiz(quiz: Quiz, lang: str) -> dict:
    return {
        "id": quiz.id,
        "language": lang,
        "title": quiz.title.get(lang),
        "questions": [
            {
                "id": q.id,
                "prompt": q.prompt.get(lang),
                "options": [o.get(lang) for o in q.options],
                "answer": q.answer,
                "explanation": q.explanation.get(lang) if q.explanation else None,
                **({"seconds": q.seconds} if q.seconds else {}),
                **({"shuffle": False} if not q.shuffle else {}),
            }
            for q in quiz.questions
        ],
    }
