"""One verdict per answer: what the reveal, the podium, the report and the downloads all say an
answer was worth, for every kind of question."""

from __future__ import annotations

from bot.domain.model import NO_ANSWER, LocalText, Question, QuestionKind
from bot.domain.records import AnswerRow
from bot.domain.worth import Verdict, Worth
from bot.kinds import kind_of, records, worth_of_answer
from bot.texts.verdicts import verdict_text


def question(kind: QuestionKind, qid: str = "q", **fields: object) -> Question:
    options = tuple(LocalText({"en": t}) for t in ("2", "4", "5", "9")) if kind_of(kind).has_options else ()
    answer = fields.pop("answer", NO_ANSWER)
    return Question(qid, LocalText({"en": "?"}), options, answer, kind=kind, **fields)  # type: ignore[arg-type]


def answer(q: Question, player: str = "p", option: int = NO_ANSWER, response: str = "") -> AnswerRow:
    """An answer as the run stores it: judged by its kind."""
    judged = kind_of(q).judge(q, option, response, 1.0, 30.0, 0)
    row = AnswerRow(1, 0, q.id, player, "c", "quiz", option, judged.correct, 1.0, judged.points, 0, 0.0, response)
    row.scored = kind_of(q).is_scored
    return row


def worth(q: Question, row: AnswerRow | None) -> Worth:
    return worth_of_answer(q, row)


def test_each_kind_says_right_wrong_partly_right_vote_and_not_answered():
    choice = question(QuestionKind.CHOICE, answer=1)
    assert worth(choice, answer(choice, option=1)).verdict is Verdict.RIGHT
    assert worth(choice, answer(choice, option=0)).verdict is Verdict.WRONG
    assert worth(choice, None).verdict is Verdict.UNANSWERED

    partial = question(QuestionKind.MULTI, answers=(0, 2), partial=True)
    half = worth(partial, answer(partial, response="0"))
    assert half.verdict is Verdict.PARTIAL and half.share == 0.5
    assert worth(partial, answer(partial, response="0,2")).verdict is Verdict.RIGHT
    strict = question(QuestionKind.MULTI, answers=(0, 2))
    assert worth(strict, answer(strict, response="0")).verdict is Verdict.WRONG, "all or nothing"

    ordering = question(QuestionKind.ORDERING, partial=True)
    two_of_four = worth(ordering, answer(ordering, response="0,1,3,2"))
    assert two_of_four.verdict is Verdict.PARTIAL and two_of_four.share == 0.5

    typed = question(QuestionKind.TYPED, accepted=("Zurich",))
    assert worth(typed, answer(typed, response="zürich")).verdict is Verdict.RIGHT
    assert worth(typed, answer(typed, response="Bern")).verdict is Verdict.WRONG

    poll = question(QuestionKind.POLL)
    assert worth(poll, answer(poll, option=2)).verdict is Verdict.VOTE


def test_a_partly_right_answer_of_a_question_gone_is_still_partly_right():
    partial = question(QuestionKind.MULTI, answers=(0, 2), partial=True)
    gone = worth_of_answer(None, answer(partial, response="0"))
    assert gone.verdict is Verdict.PARTIAL and gone.share is None
    assert verdict_text("en", gone) == "partly right"
    assert verdict_text("en", worth(partial, answer(partial, response="0"))) == "partly right, 50%"


def test_a_record_counts_every_scored_question_asked_and_partial_credit_by_its_share():
    choice = question(QuestionKind.CHOICE, "c1", answer=1)
    other = question(QuestionKind.CHOICE, "c2", answer=1)
    partial = question(QuestionKind.MULTI, "m", answers=(0, 2), partial=True)
    poll = question(QuestionKind.POLL, "p")
    said = [answer(choice, option=1), answer(partial, response="0"), answer(poll, option=0)]  # c2 skipped

    record = records(said, [choice, partial, poll, other])["p"]
    assert (record.asked, record.right, record.partly, record.not_answered) == (3, 1, 1, 1), "the poll is not asked"
    assert record.accuracy == 0.5, "1 right + half of one, over 3 asked"


def test_a_question_whose_scoring_changed_since_the_run_keeps_the_verdict_the_run_gave():
    strict = question(QuestionKind.MULTI, answers=(0, 2))
    partial = question(QuestionKind.MULTI, answers=(0, 2), partial=True)
    no_points = answer(strict, response="0")  # all or nothing: half right earned nothing
    assert worth(partial, no_points).verdict is Verdict.WRONG, "made partial since: the run gave no credit"
    some_points = answer(partial, response="0")
    assert some_points.points > 0
    changed = worth(strict, some_points)
    assert changed.verdict is Verdict.PARTIAL and changed.share is None, "partial no more: its share is unknown"
