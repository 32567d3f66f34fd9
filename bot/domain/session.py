"""One quiz run as a pure state machine: ask, record, close, score. No I/O, no awaits."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum

from bot.domain import reveal, rounds
from bot.domain.answering import PICKS_DONE, content_rtl, media_view
from bot.domain.extra_time import stretched
from bot.domain.kind_rules import KindOf, KindRules
from bot.domain.model import (
    LETTERS,
    NO_ANSWER,
    QUESTION_SECONDS,
    ChatRef,
    OptionView,
    Question,
    QuestionCard,
    Quiz,
    Reveal,
    RunEnd,
)
from bot.domain.records import UNTIL_HOST, AnswerRow, Phase, RunRow, RunStatus
from bot.domain.scoring import Scoring, ruled_points, scored_elapsed
from bot.domain.tokens import AnswerToken, Kind, QuestionToken

SILENT_QUESTIONS_TO_END = 2
# presses stored at the same moment through other workers, unseen by each other, that still
# wake the quiz's owner when together they complete a question's answers (may_complete)
UNSEEN_PRESSES = 4
# A hosted question without a time limit stays open until its host closes it (or everyone
# playing has answered): it is due this long after it was shown, a time no game reaches, so a
# pause keeps what it had left as for any question.
NO_LIMIT_SPAN = 1e9
# Its answers earn speed points over this nominal window from when it was shown (the bot's
# default question time): 1000 at once down to 500 at its end, 500 after it, as in a timed one.
SPEED_WINDOW_SECONDS = QUESTION_SECONDS.default


class Refusal(str, Enum):
    """Why a press changed nothing."""

    CLOSED = "closed"  # not the open question (any more)
    OUT_OF_RANGE = "out_of_range"
    REPEATED = "repeated"
    NOT_A_NUMBER = "not_a_number"  # a numeric question's answer that is no number: try again
    NO_PICKS = "no_picks"  # "Done" before any option was picked
    WRONG_KIND = "wrong_kind"  # a typed answer to a question answered with buttons, or the reverse
    PAUSED = "paused"  # its host paused the game: the question takes answers again once resumed


@dataclass(slots=True)  # slots: thousands of runs can be open at once
class Run:
    """A run in memory: the stored row plus what the open question has collected."""

    row: RunRow
    quiz: Quiz
    kind_of: KindOf  # the rules of each kind of question (bot/kinds/)
    answers: dict[str, AnswerRow] = field(default_factory=dict)  # this question, by player key
    names: dict[str, str] = field(default_factory=dict)  # this question's answerers
    players: set[str] = field(default_factory=set)  # everyone who answered in this run, and its teams' members
    streaks: dict[str, int] = field(default_factory=dict)  # right answers in a row, as of the last close
    # the 0-based question each player first answered, as of the last close: they joined the run there
    joined: dict[str, int] = field(default_factory=dict)
    # (index, question, option order) of the open question: every press needs them
    _current: tuple[int, Question, tuple[int, ...]] | None = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def chat(self) -> ChatRef:
        r = self.row
        return ChatRef(r.platform, r.chat_id, r.is_private)

    @property
    def total(self) -> int:
        return len(self.row.question_ids)

    @property
    def question(self) -> Question:
        return self._now_asked()[1]

    @property
    def kind(self) -> KindRules:
        """The rules of the current question's kind."""
        return self.kind_of(self.question.kind)

    @property
    def order(self) -> tuple[int, ...]:
        """The current question's options: displayed position -> authoring index."""
        return self._now_asked()[2]

    def _now_asked(self) -> tuple[int, Question, tuple[int, ...]]:
        current, index = self._current, self.row.index
        if current is None or current[0] != index:
            q = self.quiz_question(index)
            shown = self.kind_of(q.kind).arranged(option_order(self.row.seed, q))
            current = self._current = (index, q, tuple(shown))
        return current

    def quiz_question(self, index: int) -> Question:
        qid = self.row.question_ids[index]
        return next(q for q in self.quiz.questions if q.id == qid)

    @property
    def is_asking(self) -> bool:
        return self.row.status == RunStatus.OPEN and self.row.phase == Phase.ASKING

    @property
    def is_last(self) -> bool:
        return self.row.index + 1 >= self.total


def pick_questions(quiz: Quiz, count: int | None, rng: random.Random) -> tuple[str, ...]:
    """All questions in authoring order, or a random subset of `count` kept in that order."""
    ids = [q.id for q in quiz.questions]
    if count is None or count >= len(ids):
        return tuple(ids)
    chosen = set(rng.sample(ids, max(1, count)))
    return tuple(i for i in ids if i in chosen)


def option_order(seed: int, question: Question) -> list[int]:
    """Displayed position -> authoring index; fixed by the run's seed, so it survives a restart.
    A question whose order means something (`shuffle: false`) keeps it."""
    order = list(range(len(question.options)))
    if question.shuffle:
        random.Random(f"{seed}:{question.id}").shuffle(order)
    return order


def card(run: Run) -> QuestionCard:
    row, q = run.row, run.question
    lang, number = row.language, row.index + 1
    order = run.order
    options = tuple(
        OptionView(LETTERS[pos], q.options[src].get(lang), AnswerToken(row.id, number, pos).encode())
        for pos, src in enumerate(order)
    )
    kind = run.kind
    multi_done = kind.collects_picks and row.is_private
    return QuestionCard(
        run_id=row.id,
        chat=run.chat,
        language=lang,
        quiz_title=run.quiz.title.get(lang),
        number=row.index + 1,
        total=run.total,
        prompt=q.prompt.get(lang),
        options=options,
        seconds=time_limit(run),
        deadline=row.asked_at + time_limit(run),
        kind=q.kind,
        media=media_view(q.media, run.quiz, lang),
        done_token=QuestionToken(Kind.DONE, row.id, number).encode() if multi_done else None,
        answer_token=None if kind.has_options else QuestionToken(Kind.TEXT, row.id, number).encode(),
        direction_rtl=content_rtl(run.quiz, q, lang),
    )


def time_limit(run: Run) -> int:
    """The open question's time limit (question_limit)."""
    return question_limit(run.question, run.row.seconds, run.row.time_factor)


def question_limit(question: Question, run_seconds: int, time_factor: float) -> int:
    """A question's time limit in a run: its own when the quiz file gives one, else the run's
    (`run_seconds`), stretched by the player's extra time; 0 for none (a hosted game's, unless
    its host gave one)."""
    return stretched(question.seconds or run_seconds, time_factor)


def open_span(run: Run) -> float:
    """How long after it is shown the open question is due: its time limit, if it has one."""
    return time_limit(run) or NO_LIMIT_SPAN


def speed_window(run: Run) -> int:
    """The seconds over which the open question's speed points fall from 1000 to 500."""
    return time_limit(run) or stretched(SPEED_WINDOW_SECONDS, run.row.time_factor)


def ask_next(run: Run, now: float, give_up_after: float) -> None:
    """Move to the next question, waiting to be posted: its clock starts when it is shown."""
    row = run.row
    row.index += 1
    row.phase, row.asked_at, row.due, row.message_id = Phase.POSTING, now, now + give_up_after, None
    row.hint_at, row.paused_left = 0.0, None
    run.answers.clear()
    run.names.clear()


def being_posted(row: RunRow, number: int | None) -> bool:
    """Whether question `number` (1-based) is on its way to the chat: a press on it proves its
    message is there, ahead of the bot hearing so (`shown`), so it waits a moment for that."""
    return number == row.index + 1 and row.status == RunStatus.OPEN and row.phase == Phase.POSTING


def shown(run: Run, message_id: str | None, now: float) -> None:
    """The platform shows the question from `now`: players get its whole time from there."""
    row = run.row
    row.phase, row.asked_at, row.due, row.message_id = Phase.ASKING, now, now + open_span(run), message_id


def check_open(run: Run, number: int, now: float) -> Refusal | None:
    """Whether question `number` (1-based) is the one open, and in time."""
    row = run.row
    if not run.is_asking or number != row.index + 1 or now > row.due:
        return Refusal.CLOSED
    if row.paused_left is not None:
        return Refusal.PAUSED
    return None


def check_press(run: Run, token: AnswerToken, player_key: str, now: float) -> Refusal | None:
    """A press on an option: a choice, a toggle of a multi question's picks, a poll's vote."""
    if (closed := check_open(run, token.number, now)) is not None:
        return closed
    if token.choice >= len(run.question.options):
        return Refusal.OUT_OF_RANGE
    return repeated(run, player_key)


def repeated(run: Run, player_key: str, previous: AnswerRow | None = None) -> Refusal | None:
    """REPEATED when the player's answer is in (`previous`: as stored, for another worker's run):
    the first answer counts; a multi question's picks change until its "Done"."""
    answer = previous if previous is not None else run.answers.get(player_key)
    if answer is None:
        return None
    if run.kind.collects_picks and answer.option != PICKS_DONE:
        return None
    return Refusal.REPEATED


def make_answer(
    run: Run, token: AnswerToken, player_key: str, now: float, previous: AnswerRow | None = None
) -> AnswerRow:
    """The answer a valid press records, scored now: earlier questions are already closed. A
    multi question's press toggles that option in the player's picks (`previous`: the answer
    as stored, for another worker's run; else the one held here)."""
    chosen, kind = run.order[token.choice], run.kind
    if not kind.collects_picks:
        return answer_row(run, player_key, now, chosen, "")
    before = previous if previous is not None else run.answers.get(player_key)
    picks = kind.toggled(before.response if before else "", chosen)
    # a group has no "Done": picks are final once complete (an order with every option placed)
    final = not run.row.is_private and kind.complete(run.question, picks)
    return answer_row(run, player_key, now, PICKS_DONE if final else NO_ANSWER, picks)


def answer_row(run: Run, player_key: str, now: float, option: int, response: str) -> AnswerRow:
    """The open question's answer (an option, or a response), judged as of `now`."""
    row, q = run.row, run.question
    elapsed = max(0.0, now - row.asked_at)
    kind = run.kind
    scored_as = scored_elapsed(elapsed, row.scoring)
    judged = kind.judge(q, option, response, scored_as, speed_window(run), run.streaks.get(player_key, 0))
    points = judged.points
    if row.hint_at or not row.streaks:
        points = ruled_points(points, judged.correct, judged.streak, bool(row.hint_at), row.streaks)
    return AnswerRow(
        run_id=row.id,
        index=row.index,
        question_id=q.id,
        player_key=player_key,
        chat_key=row.board_key,
        quiz_id=row.quiz_id,
        option=option,
        correct=judged.correct,
        elapsed=elapsed,
        points=rounds.scaled(points, run.quiz, q.id),
        streak=judged.streak,
        answered_at=now,
        response=response,
        scored=kind.is_scored,
    )


def after_close(row: RunRow, now: float) -> float:
    """When the next question of a run is due after a close: a hosted run waits for its host."""
    return UNTIL_HOST if row.host_key else now + row.pause


def may_stop(row: RunRow, player_key: str, is_admin: bool) -> bool:
    """A run is stopped by whoever started it, a chat admin, or anyone in a private chat."""
    return player_key == row.started_by or is_admin or row.is_private


def should_close_early(run: Run) -> bool:
    """Private chats close at the first answer; groups once every known player has answered.

    A group's known players are those who answered an earlier question, and the members of the
    teams its run adopted (`Run.players`): without teams, its first question waits for its
    deadline, as nobody is known yet.
    """
    if not run.answers:
        return False
    if run.kind.collects_picks:
        # picks change until "Done" (private chats); a group's players have no "Done": their
        # first pick is not their answer, so the question runs to its deadline, unless every
        # known player's picks are complete (an order with every option placed)
        final = {key for key, a in run.answers.items() if a.option == PICKS_DONE}
        if run.row.is_private:
            return bool(final)
        return bool(run.players) and run.players.issubset(final)
    if run.row.is_private:
        return True
    if not run.players or len(run.answers) < len(run.players):
        return False  # the cheap test first: this runs on every press
    return run.players.issubset(run.answers)


def may_complete(run: Run, player_key: str) -> bool:
    """Whether this player's answer, taken by a worker that does not run the quiz, may be the
    one that lets the question close early (`should_close_early`), so that the owner must be
    woken. That worker does not see the answers other workers are storing at the same moment,
    so each of the last few presses wakes it."""
    return wakes_owner(run.row, bool(run.players), len(run.players - run.answers.keys() - {player_key}))


def wakes_owner(row: RunRow, anyone_known: bool, unseen: int) -> bool:
    """`may_complete` from counts: whether anyone is known (answered an earlier question, or is
    in a team of the run), and how many of those, other than the presser, have not answered this
    one (counting up to UNSEEN_PRESSES is enough)."""
    if row.is_private:
        return True
    if not anyone_known:
        return False
    return unseen < UNSEEN_PRESSES


def close_question(run: Run, now: float) -> Reveal:
    """Tally the open question, move streaks on (a poll leaves them), and decide what comes next."""
    row, q = run.row, run.question
    shown, kind = card(run), run.kind
    if kind.is_scored:
        for key in run.players | set(run.answers):
            answer = run.answers.get(key)
            run.streaks[key] = answer.streak if answer else 0
    for key in run.answers.keys() - run.joined.keys():
        run.joined[key] = row.index
    run.players |= set(run.answers)
    row.silent = 0 if run.answers else row.silent + 1
    row.phase, row.due, row.paused_left = Phase.PAUSING, after_close(row, now), None
    timed = row.scoring is Scoring.SPEED
    return reveal.build(run.quiz, q, kind, shown, run.order, run.answers, run.names, timed)


def missed_by(run: Run) -> list[str]:
    """After a close: the run's players who did not answer the question right (or at all); a
    poll has no right answer, so nobody misses it."""
    if not run.kind.is_scored:
        return []
    return sorted(k for k in run.players if not (k in run.answers and run.answers[k].correct))


def end_reason(run: Run) -> RunEnd | None:
    """FINISHED after the last question (whoever answered it), else SILENT after two
    unanswered ones in a row."""
    if run.is_last:
        return RunStatus.FINISHED
    if run.row.silent >= SILENT_QUESTIONS_TO_END and not run.row.host_key:  # a host decides when a game ends
        return RunStatus.SILENT
    return None


def restore(run: Run, answers: list[AnswerRow], names: dict[str, str]) -> None:
    """Rebuild streaks, players and the open question's answers from stored rows."""
    row = run.row
    open_question = row.phase != Phase.PAUSING  # asked, or waiting to be posted: not closed yet
    for a in answers:
        if a.index == row.index and open_question:
            run.answers[a.player_key] = a
            run.names[a.player_key] = names.get(a.player_key, a.player_key)
            continue
        run.players.add(a.player_key)
        run.joined[a.player_key] = min(a.index, run.joined.get(a.player_key, a.index))
    for index in range(row.index + (0 if open_question else 1)):
        if index in row.skipped or not run.kind_of(run.quiz_question(index).kind).is_scored:
            continue  # a question the host skipped, or a poll, left the streaks as they were
        answered = {a.player_key: a for a in answers if a.index == index}
        for key in run.players:
            run.streaks[key] = answered[key].streak if key in answered else 0
