"""Neutral texts in the chat's language: question, reveal, podium, boards, acks.

Plain text with emoji only; each adapter adds its own markup (and escapes these texts).
"""
from __future__ import annotations

from bot.i18n import t, tn
from bot.model import LETTERS, PlayerStats, Podium, QuestionCard, Quiz, Reply, Reveal, RunEnd, Standing

MEDALS = ("🥇", "🥈", "🥉")
BAR_WIDTH = 10


# acks: the private answer to a press ---------------------------------------------------

def ack_locked(lang: str, letter: str) -> str:
    return t(lang, "Locked in: {letter}", letter=letter)


def ack_repeated(lang: str, letter: str) -> str:
    return t(lang, "You already answered {letter}", letter=letter)


def ack_refused(lang: str, reason: object) -> str:
    value = getattr(reason, "value", reason)
    if value == "out_of_range":
        return t(lang, "That is not one of the options.")
    if value == "repeated":
        return t(lang, "You already answered this question.")
    return t(lang, "This question is closed.")


def ack_ended(lang: str) -> str:
    return t(lang, "This quiz has ended.")


def ack_invalid(lang: str) -> str:
    return t(lang, "This button is not valid.")


# a question and its reveal ---------------------------------------------------------------

def question_title(card: QuestionCard) -> str:
    return t(card.language, "Question {number}/{total} · {title}",
             number=card.number, total=card.total, title=card.quiz_title)


def option_lines(card: QuestionCard, marks: dict[str, str] | None = None) -> list[str]:
    marks = marks or {}
    return [f"{marks.get(o.letter, '')}{o.letter}) {o.text}" for o in card.options]


def time_limit(card: QuestionCard) -> str:
    return tn(card.language, "⏱ {n} second to answer", "⏱ {n} seconds to answer", card.seconds)


def question_body(card: QuestionCard) -> str:
    return "\n".join([card.prompt, "", *option_lines(card), "", time_limit(card)])


def closed_body(reveal: Reveal) -> str:
    """The question after it closed: right option marked, the count beside every option."""
    card = reveal.card
    lines = [card.prompt, ""]
    for option, count in zip(card.options, reveal.counts):
        mark = "✅ " if option.letter == reveal.right_letter else "▫️ "
        lines.append(f"{mark}{option.letter}) {option.text} · {count}")
    lines += ["", t(card.language, "Closed.")]
    return "\n".join(lines)


def answer_bars(reveal: Reveal) -> list[str]:
    total = sum(reveal.counts) or 1
    lines = []
    for option, count in zip(reveal.card.options, reveal.counts):
        filled = round(BAR_WIDTH * count / total)
        lines.append(f"{option.letter} {'▓' * filled}{'░' * (BAR_WIDTH - filled)} {count}")
    return lines


def reveal_title(reveal: Reveal) -> str:
    return t(reveal.card.language, "Right answer: {letter}) {text}",
             letter=reveal.right_letter, text=reveal.right_text)


def reveal_body(reveal: Reveal) -> str:
    lang = reveal.card.language
    lines = [reveal.explanation, "", *answer_bars(reveal), ""]
    if reveal.scorers:
        lines.append(t(lang, "Scored:"))
        for s in reveal.scorers:
            lines.append(t(lang, "{name} +{points} ({seconds} s)", name=s.name, points=s.points,
                           seconds=f"{s.seconds:.1f}") + (f" 🔥{s.streak}" if s.streak > 1 else ""))
    elif reveal.answers:
        lines.append(t(lang, "Nobody got it right."))
    else:
        lines.append(t(lang, "Nobody answered."))
    return "\n".join(lines)


# the end of a run, boards and stats ------------------------------------------------------

def _standing_line(lang: str, s: Standing) -> str:
    medal = MEDALS[s.rank - 1] if s.rank <= len(MEDALS) else f"{s.rank}."
    return t(lang, "{medal} {name}: {points} pts · {correct}/{answered} right · {accuracy}%",
             medal=medal, name=s.name, points=s.points, correct=s.correct,
             answered=s.answered, accuracy=round(100 * s.accuracy))


def podium(p: Podium) -> Reply:
    lang = p.language
    titles = {
        RunEnd.FINISHED: t(lang, "🏁 Quiz over: {title}", title=p.quiz_title),
        RunEnd.STOPPED: t(lang, "⏹ Quiz stopped: {title}", title=p.quiz_title),
        RunEnd.SILENT: t(lang, "💤 Quiz ended after two questions without answers: {title}", title=p.quiz_title),
    }
    lines = [_standing_line(lang, s) for s in p.standings[:10]] or [t(lang, "Nobody scored this time.")]
    lines += ["", t(lang, "See /leaderboard for this chat's ranking.")]
    return Reply("\n".join(lines), title=titles[p.reason], language=lang, kind="podium")


def period_name(lang: str, period: str) -> str:
    names = {"week": t(lang, "this week"), "month": t(lang, "this month"), "all": t(lang, "all time")}
    return names[period]


def leaderboard(lang: str, period: str, quiz_title: str | None, top: list[Standing],
                mine: Standing | None) -> Reply:
    scope = period_name(lang, period) + (f" · {quiz_title}" if quiz_title else "")
    title = t(lang, "🏆 Leaderboard · {scope}", scope=scope)
    if not top:
        return Reply(t(lang, "No answers yet. Start a quiz with /quiz."), title=title, language=lang,
                     kind="leaderboard")
    lines = [_standing_line(lang, s) for s in top]
    if mine is not None and mine.rank > len(top):
        lines += ["…", _standing_line(lang, mine)]
    return Reply("\n".join(lines), title=title, language=lang, kind="leaderboard")


def stats(lang: str, s: PlayerStats) -> Reply:
    title = t(lang, "📊 {name} in this chat", name=s.name)
    if not s.answered:
        return Reply(t(lang, "No answers yet. Start a quiz with /quiz."), title=title, language=lang, kind="stats")
    lines = [
        tn(lang, "Points: {n}", "Points: {n}", s.points),
        t(lang, "Answered: {answered} · right: {correct} ({accuracy}%)", answered=s.answered,
          correct=s.correct, accuracy=round(100 * s.accuracy)),
        t(lang, "Best streak: {streak}", streak=s.best_streak),
        tn(lang, "{n} quiz played", "{n} quizzes played", s.quizzes),
    ]
    if s.rank:
        lines.append(t(lang, "Rank: #{rank}", rank=s.rank))
    return Reply("\n".join(lines), title=title, language=lang, kind="stats")


def quiz_line(lang: str, quiz: Quiz) -> str:
    count = tn(lang, "{n} question", "{n} questions", len(quiz.questions))
    langs = ", ".join(quiz.languages()) or "en"
    return f"• {quiz.title.get(lang)} ({quiz.id}): {count} · {difficulty(lang, quiz.difficulty)} · {langs}"


def difficulty(lang: str, level: str) -> str:
    names = {"easy": t(lang, "easy"), "medium": t(lang, "medium"), "hard": t(lang, "hard")}
    return names.get(level, level)


def catalog(lang: str, quizzes: list[Quiz]) -> Reply:
    lines = [quiz_line(lang, q) for q in quizzes] or [t(lang, "No quizzes are installed.")]
    lines += ["", t(lang, "Start one with /quiz <topic>, for example /quiz {example}.",
                    example=quizzes[0].id if quizzes else "pipeline")]
    return Reply("\n".join(lines), title=t(lang, "📚 Quizzes"), language=lang, kind="catalog")


