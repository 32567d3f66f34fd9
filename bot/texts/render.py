"""Neutral texts in the chat's language: question, reveal, podium, boards, acks.

Plain text with emoji only; each adapter adds its own markup (and escapes these texts).
Right-to-left languages (Urdu) also get Unicode directional isolates, placed as bot/texts/bidi.py
explains; left-to-right texts get none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.domain.model import (
    Button,
    MediaKind,
    MediaView,
    PlayerStats,
    Podium,
    QuestionCard,
    QuizInfo,
    Reply,
    Reveal,
    Scorer,
    Standing,
    is_plain,
)
from bot.domain.records import RunStatus
from bot.domain.worth import Record, Verdict
from bot.kinds import AnswerWay, kind_of
from bot.texts import bidi, i18n, render_teams, textcut
from bot.texts.message import EMBEDDED_VALUES, LTR_VALUES, shown, t, tn
from bot.texts.plain import decor
from bot.texts.render_acks import (
    ack_done,
    ack_ended,
    ack_handled_already,
    ack_invalid,
    ack_locked,
    ack_not_a_number,
    ack_not_saved,
    ack_picks,
    ack_refused,
    ack_repeated,
    ack_repeated_text,
    ack_step,
    ack_text_locked,
    answer_instruction,
)
from bot.texts.verdicts import verdict_text

# the message helpers and acks live beside this module; callers keep reading them here
__all__ = [
    "EMBEDDED_VALUES",
    "LTR_VALUES",
    "AnswerWay",
    "ack_done",
    "ack_ended",
    "ack_handled_already",
    "ack_invalid",
    "ack_locked",
    "ack_not_a_number",
    "ack_not_saved",
    "ack_picks",
    "ack_refused",
    "ack_repeated",
    "ack_repeated_text",
    "ack_step",
    "ack_text_locked",
    "answer_instruction",
    "shown",
    "t",
    "tn",
]

BAR_WIDTH = 10

# a question and its reveal ---------------------------------------------------------------


def question_title(card: QuestionCard) -> str:
    return t(
        card.language,
        "Question {number}/{total} · {title}",
        number=card.number,
        total=card.total,
        title=card.quiz_title,
    )


def content_direction(card: QuestionCard) -> bidi.Direction:
    """How the quiz's own texts are laid out: right to left in an RTL chat language, or when the
    quiz is written in a right-to-left script (an Arabic quiz in an English chat); the bot's
    texts around them stay in the chat's language."""
    return bidi.Direction(bidi.is_rtl(card.language) or card.direction_rtl)


def prompt(card: QuestionCard) -> str:
    """The question's prompt as whole lines (Latin runs isolated in an RTL language)."""
    return content_direction(card).block(card.prompt)


def option_line(lang: str, letter: str, text: str, mark: str = "", suffix: str = "", rtl: bool = False) -> str:
    """'B) text': in RTL the letter is isolated and ')' stays outside, so it mirrors with the line.
    `rtl`: the quiz's content is right to left whatever `lang` is."""
    d = bidi.Direction(bidi.is_rtl(lang) or rtl)
    return d.line(f"{mark}{d.ltr(letter)}) {d.embed(text)}{suffix}")


def option_lines(card: QuestionCard, marks: dict[str, str] | None = None) -> list[str]:
    marks = {letter: decor(card.language, mark) for letter, mark in (marks or {}).items()}
    return [
        option_line(card.language, o.letter, o.text, marks.get(o.letter, ""), rtl=card.direction_rtl)
        for o in card.options
    ]


def media_lines(lang: str, media: MediaView | None, image_too: bool = False) -> list[str]:
    """Audio and video stay links under the text, a file beside the quiz named by its file name
    only (a picture is shown by the platform; with `image_too`, where none can be shown, it is
    said in words: "[image: a lion]")."""
    if media is None:
        return []
    if media.kind is MediaKind.AUDIO:
        return [t(lang, "🔊 Listen: {link}", link=media.named)]
    if media.kind is MediaKind.VIDEO:
        return [t(lang, "🎬 Watch: {link}", link=media.named)]
    if image_too:
        return [t(lang, "[image: {alt}]", alt=media.alt or media.named)]
    return []


def picture_said(lang: str, media: MediaView | None) -> str:
    """A picture's description said first where the chat reads plain text and the platform has
    no place of its own for it (a Telegram caption): "Picture: a lion". Else nothing."""
    if not is_plain(lang) or media is None or media.kind is not MediaKind.IMAGE or not media.alt:
        return ""
    return t(lang, "Picture: {alt}", alt=media.alt)


def time_limit(card: QuestionCard) -> str:
    if card.seconds <= 0:  # a review card waits for its player; a hosted game's, for its host
        return t(card.language, "⏱ No time limit")
    return tn(card.language, "⏱ {n} second to answer", "⏱ {n} seconds to answer", card.seconds)


def question_body(card: QuestionCard, way: AnswerWay = AnswerWay.REPLY) -> str:
    """The prompt, its links, the options, how to answer (a kind's instruction; a typed or
    numeric answer as the chat takes it, `way`) and the time."""
    lang = card.language
    options = [*option_lines(card), ""] if card.options else []
    how = answer_instruction(lang, card.kind, way)
    return "\n".join(
        [prompt(card), *media_lines(lang, card.media), "", *options, *([how] if how else []), time_limit(card)]
    )


def answer_bars(reveal: Reveal) -> list[str]:
    """'B 3 ▓▓▓░░', the count before its bar; in RTL the letter stands at the right and the bar
    grows leftwards. In plain text the split said in words: 'B: 3 answers, 60%'."""
    d, lang = content_direction(reveal.card), reveal.card.language
    # a share of the answers where the kind's bars count them (an ordering's: its right places)
    total = (len(reveal.answers) if kind_of(reveal.kind).split_of_answers else sum(reveal.counts)) or 1
    split = list(zip((o.letter for o in reveal.card.options), reveal.counts))
    if is_plain(lang):
        return [_counted(lang, letter, count, total) for letter, count in split]
    return [d.line(f"{d.ltr(letter)} {d.ltr(str(count))} {_bar(count, total)}") for letter, count in split]


def _bar(count: int, total: int) -> str:
    filled = round(BAR_WIDTH * count / total)
    return "▓" * filled + "░" * (BAR_WIDTH - filled)


def _counted(lang: str, letter: str, count: int, total: int) -> str:
    percent = round(100 * count / total)
    return tn(
        lang,
        "{letter}: {n} answer, {percent}%",
        "{letter}: {n} answers, {percent}%",
        count,
        letter=letter,
        percent=percent,
    )


def reveal_title(reveal: Reveal) -> str:
    """The right answer, as each kind has it (in plain text said as a sentence: "Right answer:
    B, Paris."); a poll's results have none."""
    kind = kind_of(reveal.kind)
    title = kind.said_title if is_plain(reveal.card.language) else kind.reveal_title
    given = {"letter": reveal.right_letter, "text": reveal.right_text}
    return t(reveal.card.language, title, **{k: v for k, v in given.items() if f"{{{k}}}" in title})


def response_lines(reveal: Reveal) -> list[str]:
    """A typed or numeric question's most common answers: '• zurich × 3'."""
    if not reveal.responses:
        return []
    d = content_direction(reveal.card)
    lines = [d.line(f"• {d.auto(text)} × {d.ltr(str(count))}") for text, count in reveal.responses]
    return [t(reveal.card.language, "Answers given:"), *lines]


def outcome_lines(reveal: Reveal) -> list[str]:
    """Who scored, fastest first, partial credit too (or the review's note, a poll's votes, or
    that nobody did)."""
    lang = reveal.card.language
    if reveal.note:
        return [reveal.note]
    if not kind_of(reveal.kind).is_scored:  # a poll's votes
        votes = len(reveal.answers)
        return [tn(lang, "{n} vote", "{n} votes", votes) if votes else t(lang, "Nobody answered.")]
    scored = [s for s in reveal.answers if s.correct or s.points > 0]
    if scored:
        return [t(lang, "Scored:"), *(_scorer_line(lang, s, reveal.timed) for s in scored)]
    return [t(lang, "Nobody got it right.") if reveal.answers else t(lang, "Nobody answered.")]


def _scorer_line(lang: str, s: Scorer, timed: bool) -> str:
    if timed:
        line = t(lang, "{name} +{points} ({seconds} s)", name=s.name, points=s.points, seconds=f"{s.seconds:.1f}")
    else:  # accuracy scoring: the time earned nothing, so it is not shown
        line = t(lang, "{name} +{points}", name=s.name, points=s.points)
    if s.worth.verdict is Verdict.PARTIAL:
        line += " · " + verdict_text(lang, s.worth)
    return line + (decor(lang, f" 🔥{bidi.direction(lang).ltr(str(s.streak))}") if s.streak > 1 else "")


def revealed(reveal: Reveal, room: int, measure: Callable[[str], int] = len) -> str:
    """The question message once closed, as its own reveal: the prompt, the options with the
    right one marked, the split as bars, the right answer, why, who scored. Cut to `room` (as
    `measure` counts) where it costs least: who scored is cut to whole lines ("… and 12 more"),
    then the explanation; the question and the split always stay."""
    head = _revealed_head(reveal)
    lang = reveal.card.language
    outcome = outcome_lines(reveal)
    why = content_direction(reveal.card).block(reveal.explanation) if reveal.explanation else ""
    if links := media_lines(lang, reveal.explanation_media):
        why = "\n".join([why, *links] if why else links)
    teams = "\n".join(reveal.teams)  # a run with teams: its standings stay, who scored is cut first
    left = room - measure(head) - 2 * measure("\n\n") - (measure(teams) + measure("\n\n") if teams else 0)
    if measure("\n".join(outcome)) + measure(why) > left:
        outcome = _fewer_lines(lang, outcome, max(left - measure(why), left // 2), measure)
    why = textcut.cut(why, left - measure("\n".join(outcome)), measure) if why else ""
    parts = (head, why, "\n".join(outcome), teams)
    return textcut.cut("\n\n".join(p for p in parts if p), room, measure)


def _revealed_head(reveal: Reveal) -> str:
    """The question with the right options marked (none for a poll) and the split as bars, or
    a typed question's most common answers; then the right answer."""
    card, lang, kind = reveal.card, reveal.card.language, kind_of(reveal.kind)
    lines = [prompt(card), *media_lines(lang, card.media)]
    if card.options:
        marks = kind.reveal_marks(reveal.right_letter, (o.letter for o in card.options))
        counted = [t(lang, kind.split_title)] if kind.split_title else []
        lines += ["", *option_lines(card, marks), "", *counted, *answer_bars(reveal)]
    if reveal.responses:
        lines += ["", *response_lines(reveal)]
    mark = decor(lang, "✅ " if kind.is_scored else "📊 ")
    return "\n".join(lines) + "\n\n" + mark + reveal_title(reveal)


def closed_notice(reveal: Reveal) -> Reply:
    """The short reply that tells a chat a question closed, for chats that ask for it
    (/settings notify on): the closing edit itself notifies nobody."""
    lang, number = reveal.card.language, reveal.card.number
    if reveal.right_letter:
        text = t(lang, "Question {number} closed: {letter}", number=number, letter=reveal.right_letter)
    elif reveal.right_text:
        text = t(lang, "Question {number} closed: {text}", number=number, text=reveal.right_text)
    else:
        text = t(lang, "Question {number} closed.", number=number)
    return Reply(text, language=lang)


def _fewer_lines(lang: str, lines: list[str], room: int, measure: Callable[[str], int]) -> list[str]:
    """The first of `lines` that fit `room` with a last line saying how many were left out."""
    for keep in range(len(lines) - 1, 0, -1):
        kept = [*lines[:keep], tn(lang, "… and {n} more", "… and {n} more", len(lines) - keep)]
        if measure("\n".join(kept)) <= room:
            return kept
    return lines[:1]


# the end of a run, boards and stats ------------------------------------------------------


def standing_line(lang: str, s: Standing, record: Record | None = None) -> str:
    """A player's place on a board (right of the answers given), or at the end of a run with
    their `record` (right of the scored questions asked, partly right ones, and accuracy with
    partial credit by its share)."""
    medal = render_teams.place(lang, s.rank)
    right, counted, accuracy = (
        (record.right, record.asked, record.accuracy) if record else (s.correct, s.answered, s.accuracy)
    )
    line = t(
        lang,
        "{medal} {name}: {points} pts · {correct}/{answered} right · {accuracy}%",
        medal=medal,
        name=s.name,
        points=s.points,
        correct=right,
        answered=counted,
        accuracy=round(100 * accuracy),
    )
    if record and record.partly:
        line += " · " + tn(lang, "{n} partly right", "{n} partly right", record.partly)
    return line


def _podium_line(lang: str, s: Standing, record: Record) -> str:
    """A player's place at the end of a run: a late joiner's record says it counts the questions
    asked since they joined (bot/domain/ranking.py)."""
    if not record.late:
        return standing_line(lang, s, record)
    medal = render_teams.place(lang, s.rank)
    line = t(
        lang,
        "{medal} {name}: {points} pts · {correct} of the {asked} asked since joining · {accuracy}%",
        medal=medal,
        name=s.name,
        points=s.points,
        correct=record.right,
        asked=record.asked,
        accuracy=round(100 * record.accuracy),
    )
    if record.partly:
        line += " · " + tn(lang, "{n} partly right", "{n} partly right", record.partly)
    return line


REVIEW_START = "review"  # the /start payload of "Review my misses" (Telegram deep link ?start=review)


def review_button(lang: str) -> Button:
    return Button(i18n.t(lang, "Review my misses"), REVIEW_START, in_private=True)


def podium(p: Podium) -> Reply:
    lang = p.language
    titles = {
        RunStatus.FINISHED: t(lang, "🏁 Quiz over: {title}", title=p.quiz_title),
        RunStatus.STOPPED: t(lang, "⏹ Quiz stopped: {title}", title=p.quiz_title),
        RunStatus.SILENT: t(lang, "💤 Quiz ended after two questions without answers: {title}", title=p.quiz_title),
    }
    lines = [_podium_line(lang, s, p.records.get(s.player_key, Record(p.questions_asked))) for s in p.standings[:10]]
    lines = lines or [t(lang, "Nobody scored this time.")]
    if p.teams:  # the teams first, then the players
        lines = [*render_teams.podium_lines(lang, p.teams), *lines]
    lines += ["", t(lang, "See /leaderboard for this chat's ranking.")]
    # a group's misses are reviewed in the private chat with the bot (/start review there)
    buttons = () if p.chat.is_private else (review_button(lang),)
    return Reply("\n".join(lines), title=titles[p.reason], buttons=buttons, language=lang, kind="podium")


def question_refused(lang: str, number: int) -> str:
    """Why a run ended by itself: the platform refused its question as it is."""
    return t(
        lang,
        "⚠️ The quiz has ended: question {number} was refused by the chat platform and cannot be posted. "
        "Start it again with /quiz, or another quiz.",
        number=number,
    )


def not_posted(lang: str, number: int, minutes: int) -> str:
    """Why a run ended by itself: the platform would not take its question for too long."""
    return t(
        lang,
        "⚠️ The quiz has ended: question {number} could not be posted for {minutes} minutes. Start it again with /quiz.",
        number=number,
        minutes=minutes,
    )


def quiz_replaced(lang: str, title: str, quiz_id: str) -> str:
    """Why a resumed run of a chat's own quiz ended: the quiz was replaced while it ran."""
    return t(
        lang,
        "⚠️ The quiz has ended: {title} was uploaded again while it ran, and only the new version "
        "is kept. Answers so far count. Start the new version with /quiz {id}.",
        title=title,
        id=quiz_id,
    )


def period_name(lang: str, period: str) -> str:
    """A fragment of a title: plain text, the title around it places it."""
    names = {"week": i18n.t(lang, "this week"), "month": i18n.t(lang, "this month"), "all": i18n.t(lang, "all time")}
    return names[period]


def leaderboard(lang: str, period: str, quiz_title: str | None, top: list[Standing], mine: Standing | None) -> Reply:
    scope = period_name(lang, period) + (f" · {quiz_title}" if quiz_title else "")
    title = t(lang, "🏆 Leaderboard · {scope}", scope=scope)
    if not top:
        return Reply(
            t(lang, "No answers yet. Start a quiz with /quiz."), title=title, language=lang, kind="leaderboard"
        )
    lines = [standing_line(lang, s) for s in top]
    if mine is not None and mine.rank > len(top):
        lines += ["…", standing_line(lang, mine)]
    return Reply("\n".join(lines), title=title, language=lang, kind="leaderboard")


def stats(lang: str, s: PlayerStats) -> Reply:
    title = t(lang, "📊 {name} in this chat", name=s.name)
    if not s.answered:
        return Reply(t(lang, "No answers yet. Start a quiz with /quiz."), title=title, language=lang, kind="stats")
    lines = [
        tn(lang, "Points: {n}", "Points: {n}", s.points),
        t(
            lang,
            "Answered: {answered} · right: {correct} ({accuracy}%)",
            answered=s.answered,
            correct=s.correct,
            accuracy=round(100 * s.accuracy),
        ),
        t(lang, "Best streak: {streak}", streak=s.best_streak),
        tn(lang, "{n} quiz played", "{n} quizzes played", s.quizzes),
    ]
    if s.rank:
        lines.append(t(lang, "Rank: #{rank}", rank=s.rank))
    return Reply("\n".join(lines), title=title, language=lang, kind="stats")


def quiz_line(lang: str, quiz: QuizInfo) -> str:
    d = bidi.direction(lang)
    count = tn(lang, "{n} question", "{n} questions", quiz.question_count).removeprefix(bidi.RLM)
    langs = ", ".join(quiz.languages()) or "en"
    return d.line(
        f"• {d.embed(quiz.title.get(lang))} ({d.ltr(quiz.id)}): {count} · "
        f"{difficulty(lang, quiz.difficulty)} · {d.ltr(langs)}"
    )


def quiz_heading(lang: str, title: str) -> str:
    """The title of the reply that starts a quiz."""
    d = bidi.direction(lang)
    return d.line(f"{decor(lang, '🎯 ')}{d.embed(title)}")


def difficulty(lang: str, level: str) -> str:
    """A fragment of a line: plain text."""
    names = {"easy": i18n.t(lang, "easy"), "medium": i18n.t(lang, "medium"), "hard": i18n.t(lang, "hard")}
    return names.get(level, level)


def catalog(lang: str, quizzes: list[QuizInfo], own: Sequence[QuizInfo] = ()) -> Reply:
    """The shipped quizzes, then this chat's own (uploaded) ones, marked."""
    lines = [quiz_line(lang, q) for q in quizzes] or [t(lang, "No quizzes are installed.")]
    if own:
        lines += ["", t(lang, "📎 This chat's own quizzes:"), *(quiz_line(lang, q) for q in own)]
    lines += [
        "",
        t(
            lang,
            "Start one with /quiz <topic>, for example {command}.",
            command=f"/quiz {quizzes[0].id if quizzes else 'pipeline'}",
        ),
    ]
    return Reply("\n".join(lines), title=t(lang, "📚 Quizzes"), language=lang, kind="catalog")
