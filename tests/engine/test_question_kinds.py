"""Every kind of question through the engine, as players meet it: picks toggled and scored with
partial credit, true or false, a typed answer with a typo and without its accent, numbers in and
out of range and words that are not one, a poll's split, and picks that survive a restart."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.commands.core import Caller
from bot.commands.learning import quiz_report
from bot.content.catalog import Catalog
from bot.content.quiz_check import check_quiz_data
from bot.domain.model import ChatRef, QuestionCard, QuestionKind, Quiz
from bot.domain.tokens import decode_question
from bot.engine.core import Engine, EngineSettings, StartStatus
from bot.testing.fakes import RecordingAdapter, group, player, private
from bot.texts import render_stats
from tests.support.house import build, house_of

QUESTIONS: list[dict[str, Any]] = [
    {
        "id": "primes",
        "kind": "multi",
        "prompt": "Which are prime?",
        "options": ["2", "4", "5", "9"],
        "answer": [0, 2],
        "scoring": "partial",
        "explanation": "2 and 5 have no other divisors.",
    },
    {"id": "boil", "kind": "truefalse", "prompt": "Water boils at 100 °C at sea level.", "answer": True},
    {"id": "eth", "kind": "typed", "prompt": "Which Swiss city has the ETH?", "accept": ["Zürich", "Zurich city"]},
    {"id": "pi", "kind": "numeric", "prompt": "Pi to two places?", "answer": 3.14, "tolerance": 0.005},
    {"id": "tabs", "kind": "poll", "prompt": "Tabs or spaces?", "options": ["Tabs", "Spaces"]},
    {"id": "capital", "prompt": "Capital of France?", "options": ["Paris", "Lyon", "Nice"], "answer": 0},
]


def kinds_quiz(*questions: dict[str, Any]) -> Quiz:
    data = {"id": "kinds", "title": "Kinds", "description": "Every kind", "questions": list(questions or QUESTIONS)}
    model, issues = check_quiz_data(data)
    assert model is not None, issues
    return model.to_quiz(source="quizzes/kinds.yaml")


@pytest.fixture
def kinds_engine(store, clock, adapter) -> Engine:
    engine = build(Catalog.from_quizzes([kinds_quiz()]), store, clock, EngineSettings(question_seconds=30)).engine
    engine.attach(adapter)
    return engine


def letter_of(card: QuestionCard, text: str) -> str:
    return next(o.letter for o in card.options if o.text == text)


def token_of(card: QuestionCard, text: str) -> str:
    return next(o.token for o in card.options if o.text == text)


async def started(engine: Engine, chat: ChatRef, clock) -> None:
    outcome = await engine.start(chat, "kinds", player(1, "Ann"))
    assert outcome.status is StartStatus.STARTED
    clock.advance(3)
    await engine.run_due()


async def closed(engine: Engine, clock, seconds: float = 30) -> None:
    clock.advance(seconds)
    await engine.run_due()
    clock.advance(5)  # the pause: the next question is asked
    await engine.run_due()


async def test_a_group_plays_one_question_of_each_kind(kinds_engine, adapter, clock):
    engine, chat = kinds_engine, group()
    ann, bob = player(1, "Ann"), player(2, "Bob")
    await started(engine, chat, clock)

    primes = adapter.questions[-1]
    assert primes.kind is QuestionKind.MULTI and primes.done_token is None, "a group has no Done"
    for text in ("2", "9", "5", "9"):  # 9 on, then off again
        ack = await engine.answer(token_of(primes, text), ann, chat)
        assert ack.accepted
    assert ack.text == f"Your picks: {', '.join(sorted(letter_of(primes, t) for t in ('2', '5')))}"
    clock.advance(15)
    assert (await engine.answer(token_of(primes, "2"), bob, chat)).accepted
    await engine.run_due()
    assert len(adapter.reveals) == 0, "picks go on changing until the deadline"
    await closed(engine, clock, 15)
    _, reveal = adapter.reveals[-1]
    assert reveal.kind is QuestionKind.MULTI
    assert reveal.right_letter == ", ".join(sorted(letter_of(primes, t) for t in ("2", "5")))
    assert {o.text for o in primes.options if o.letter in reveal.right_letter.split(", ")} == {"2", "5"}
    assert [(s.name, s.correct, s.points) for s in reveal.answers] == [("Ann", True, 1000), ("Bob", False, 375)]
    assert reveal.counts[primes.options.index(next(o for o in primes.options if o.text == "2"))] == 2

    boil = adapter.questions[-1]
    assert boil.kind is QuestionKind.TRUE_FALSE and [o.text for o in boil.options] == ["True", "False"]
    assert (await engine.answer(boil.options[0].token, ann, chat)).accepted
    assert (await engine.answer(boil.options[1].token, bob, chat)).accepted
    await closed(engine, clock, 0)  # both known players answered: it closes at once
    assert adapter.reveals[-1][1].right_letter == "A"

    eth = adapter.questions[-1]
    assert eth.kind is QuestionKind.TYPED and eth.options == () and eth.answer_token == f"qt:{eth.run_id}:3"
    assert await engine.answer_text(chat, ann, "nice weather", reply_to="m1") is None, "a reply to another message"
    ack = await engine.answer_text(chat, ann, "  zurch ", reply_to=f"m{len(adapter.questions)}")
    assert ack is not None and ack.accepted and ack.text == "Locked in: zurch"
    assert (await engine.answer_text(chat, bob, "Geneva")).accepted
    again = await engine.answer_text(chat, bob, "Zürich")
    assert not again.accepted and again.text == "You already answered: Geneva"
    await closed(engine, clock, 0)
    _, reveal = adapter.reveals[-1]
    assert (reveal.right_letter, reveal.right_text) == ("", "Zürich")
    assert [(s.name, s.letter, s.correct) for s in reveal.answers] == [("Ann", "zurch", True), ("Bob", "Geneva", False)]
    assert reveal.responses == (("geneva", 1), ("zurch", 1))

    pi = adapter.questions[-1]
    nan = await engine.answer_text(chat, bob, "pi")
    assert not nan.accepted and nan.text.startswith("Not a number: pi")
    assert (await engine.answer_text(chat, ann, "3,14", run_id=pi.run_id, number=4)).accepted
    assert (await engine.answer_text(chat, bob, "3.2")).accepted, "a number is taken, right or not"
    await closed(engine, clock, 0)
    _, reveal = adapter.reveals[-1]
    assert reveal.right_text == "3.14 ± 0.005"
    assert [(s.name, s.correct) for s in reveal.answers] == [("Ann", True), ("Bob", False)]

    tabs = adapter.questions[-1]
    assert (await engine.answer(token_of(tabs, "Tabs"), ann, chat)).accepted
    assert (await engine.answer(token_of(tabs, "Spaces"), bob, chat)).accepted
    await closed(engine, clock, 0)
    _, reveal = adapter.reveals[-1]
    assert (reveal.right_letter, reveal.right_text, sum(reveal.counts)) == ("", "", 2)
    assert [s.points for s in reveal.answers] == [0, 0]

    capital = adapter.questions[-1]
    assert (await engine.answer(token_of(capital, "Paris"), ann, chat)).accepted
    assert (await engine.answer(token_of(capital, "Lyon"), bob, chat)).accepted
    clock.advance(0)
    await engine.run_due()
    _, reveal = adapter.reveals[-1]
    assert reveal.scorers[0].streak == 5, "Ann's streak went on over the poll"

    board, _ = await house_of(engine).standings.leaderboard(chat, "all", None)
    assert [(s.name, s.correct, s.answered) for s in board] == [("Ann", 5, 5), ("Bob", 0, 5)], "the poll is no answer"
    assert engine.run_in(chat) is None


async def test_picks_survive_a_restart_and_the_last_toggle_counts(store, clock):
    catalog = Catalog.from_quizzes([kinds_quiz(QUESTIONS[0], QUESTIONS[5])])
    first_adapter, chat, ann = RecordingAdapter(), group(), player(1, "Ann")
    first = build(catalog, store, clock, EngineSettings(question_seconds=30)).engine
    first.attach(first_adapter)
    await started(first, chat, clock)
    card = first_adapter.questions[-1]
    for text in ("2", "4"):
        assert (await first.answer(token_of(card, text), ann, chat)).accepted

    adapter = RecordingAdapter()  # a new engine on the same database: the first is gone
    second = build(catalog, store, clock, EngineSettings(question_seconds=30)).engine
    second.attach(adapter)
    assert await second.resume() == 1
    clock.advance(10)
    ack = await second.answer(token_of(card, "4"), ann, chat)  # 4 off: only 2 is left
    assert ack.accepted and ack.text == f"Your picks: {letter_of(card, '2')}"
    assert (await second.answer(token_of(card, "5"), ann, chat)).accepted
    await closed(second, clock, 20)
    _, reveal = adapter.reveals[-1]
    assert [(s.letter, s.correct) for s in reveal.answers] == [
        (", ".join(sorted(letter_of(card, t) for t in ("2", "5"))), True)
    ]
    assert reveal.answers[0].seconds == pytest.approx(10.0), "the time counted is the last toggle's"


async def test_done_closes_a_private_multi_question_at_once(kinds_engine, adapter, clock):
    engine, chat, ann = kinds_engine, private(), player(1, "Ann")
    await started(engine, chat, clock)
    card = adapter.questions[-1]
    assert card.done_token == f"qd:{card.run_id}:1"
    early = await engine.answer(card.done_token, ann, chat)
    assert not early.accepted and early.text == "Pick at least one option first."
    assert (await engine.answer(token_of(card, "2"), ann, chat)).accepted
    await engine.run_due()
    assert len(adapter.reveals) == 0, "a pick is not the answer yet"
    done = await engine.answer(card.done_token, ann, chat)
    assert done.accepted and done.text == f"Your answer: {letter_of(card, '2')}"
    await engine.run_due()
    _, reveal = adapter.reveals[-1]
    assert [(s.correct, s.points) for s in reveal.answers] == [(False, 500)], "half the right picks, at once"
    late = await engine.answer(token_of(card, "5"), ann, chat)
    assert not late.accepted and "closed" in late.text


async def test_text_that_is_not_an_answer_is_left_alone(kinds_engine, adapter, clock):
    engine, chat, ann = kinds_engine, group(), player(1, "Ann")
    assert await engine.answer_text(chat, ann, "hello") is None, "no quiz: ordinary chat"
    await started(engine, chat, clock)
    assert await engine.answer_text(chat, ann, "hello") is None, "a question answered with buttons"
    typed = adapter.questions[-1]
    wrong_way = await engine.answer_text(chat, ann, "2", run_id=typed.run_id, number=1)
    assert not wrong_way.accepted and "not answered that way" in wrong_way.text
    stale = await engine.answer_text(chat, ann, "2", run_id=typed.run_id, number=3)
    assert not stale.accepted and "closed" in stale.text


async def test_misses_of_every_kind_come_back_in_review_and_a_poll_never_does(kinds_engine, adapter, clock):
    engine, chat, ann = kinds_engine, group(), player(1, "Ann")
    await started(engine, chat, clock)
    first = adapter.questions[-1]
    assert (await engine.answer(token_of(first, "4"), ann, chat)).accepted  # known from here on; wrong
    await closed(engine, clock)
    for wrong in ("False", "Geneva", "3", "Tabs", "Lyon"):  # she misses every question but the poll
        card = adapter.questions[-1]
        if card.options:
            assert (await engine.answer(token_of(card, wrong), ann, chat)).accepted
        else:
            assert (await engine.answer_text(chat, ann, wrong)).accepted
        await closed(engine, clock, 0)
    deck = {c.question_id for c in await house_of(engine).store.review_deck(ann.key)}
    assert deck == {"primes", "boil", "eth", "pi", "capital"}, "the poll is never a miss"

    commands, me = house_of(engine).commands, Caller(private(), ann)
    await commands.handle("review", "", me)
    await asyncio.sleep(0)
    clock.advance(1)
    await commands.review.settle()
    asked = {}
    for _ in range(5):
        card = adapter.questions[-1]
        asked[card.prompt] = card.kind
        if card.kind is QuestionKind.MULTI:
            assert card.done_token is not None
            for text in ("2", "5"):
                assert (await commands.press(token_of(card, text), me)).accepted
            done = await commands.press(card.done_token, me)
            assert done.accepted and done.text == f"Locked in: {', '.join(sorted(letter_of(card, t) for t in '25'))}"
        elif card.kind is QuestionKind.TYPED:
            assert await commands.answer_text(me, "zürich") is not None
        elif card.kind is QuestionKind.NUMERIC:
            refused = await commands.answer_text(me, "three")
            assert refused is not None and not refused.accepted and refused.text.startswith("Not a number")
            assert (await commands.answer_text(me, "3.14")).accepted
        else:
            assert await commands.answer_text(me, "hello") is None, "a card with buttons: ordinary chat"
            right = "Paris" if card.kind is QuestionKind.CHOICE else "True"
            assert (await commands.press(token_of(card, right), me)).accepted
        await commands.review.settle()
    assert len(asked) == 5 and QuestionKind.POLL not in asked.values()
    notes = [r.note for _, r in adapter.reveals[-5:]]
    assert all(note.startswith("✅") for note in notes), notes
    typed_reveal = next(r for _, r in adapter.reveals[-5:] if r.kind is QuestionKind.TYPED)
    assert typed_reveal.right_text == "Zürich"


async def test_question_statistics_count_every_kind_and_credit_every_scored_one(kinds_engine, adapter, clock):
    engine, chat = kinds_engine, group()
    ann, bob = player(1, "Ann"), player(2, "Bob")
    await started(engine, chat, clock)
    primes = adapter.questions[-1]
    for who in (ann, bob):
        assert (await engine.answer(token_of(primes, "2"), who, chat)).accepted
    await closed(engine, clock)
    for _ in range(3):  # true/false, typed, numeric: each answered by both
        card = adapter.questions[-1]
        for who, text in ((ann, "True"), (bob, "False")):
            if card.options:
                await engine.answer(token_of(card, text), who, chat)
            else:
                await engine.answer_text(chat, who, "3.14" if card.kind is QuestionKind.NUMERIC else text)
        await closed(engine, clock, 0)
    tabs = adapter.questions[-1]
    await engine.answer(token_of(tabs, "Tabs"), ann, chat)
    await engine.answer(token_of(tabs, "Tabs"), bob, chat)
    await closed(engine, clock, 0)
    stats = {s.question_id: s for s in await quiz_report(house_of(engine).store, kinds_quiz(), chat.key)}
    assert (stats["boil"].attempts, stats["boil"].share_right, stats["boil"].split) == (2, 0.5, (1, 1))
    # both picked 2 of the primes 2 and 5: half right each (partial credit), each pick counted for its option
    assert (stats["primes"].attempts, stats["primes"].share_right, stats["primes"].split) == (2, 0.5, (2, 0, 0, 0))
    assert (stats["eth"].attempts, stats["eth"].share_right, stats["eth"].split) == (2, 0.0, ())
    assert (stats["pi"].attempts, stats["pi"].share_right, stats["pi"].discrimination) == (2, 1.0, 0.0)
    assert (stats["tabs"].attempts, stats["tabs"].split, stats["tabs"].flags) == (2, (2, 0), ())
    tabs = stats["tabs"]
    assert (tabs.share_right, tabs.discrimination, tabs.too_few_to_flag) == (None, None, False), "a poll"
    report = render_stats.chat_report("en", kinds_quiz(), list(stats.values())).text
    assert "2 answers · 50% right" in report and "A 2✓ · B 0 · C 0✓ · D 0" in report
    assert "2 answers · - right" in report, "a poll: nothing is right"


async def test_the_answer_button_sends_a_player_to_answer_in_private(store, adapter, clock):
    """Telegram's "Answer" is a deep link: /start answer_<run>_<n> in the private chat, and the
    next message there is the answer (the group reads nothing)."""
    chat, ann = group(), player(1, "Ann")
    engine = build(
        Catalog.from_quizzes([kinds_quiz(QUESTIONS[2], QUESTIONS[5])]), store, clock, EngineSettings()
    ).engine
    engine.attach(adapter)
    commands, me = house_of(engine).commands, Caller(private(), ann)
    outcome = await engine.start(chat, "kinds", ann)
    assert outcome.status is StartStatus.STARTED
    clock.advance(3)
    await engine.run_due()
    card = adapter.questions[-1]
    payload = await commands.links.answer_start(decode_question(card.answer_token))
    assert payload.startswith(f"answer_{card.run_id}_1_") and is_valid_start(payload)
    sent = await commands.handle("start", payload, me)
    assert sent.text.startswith("Which Swiss city has the ETH?") and "Send your answer as a message" in sent.text
    ack = await commands.answer_text(me, "Zurich")
    assert ack is not None and ack.accepted and ack.text == "Locked in: Zurich\n(question 1 in Group)"
    assert await commands.answer_text(me, "thanks!") is None, "answered: the next message is ordinary chat"
    await closed(engine, clock)
    assert [(s.name, s.correct) for s in adapter.reveals[-1][1].answers] == [("Ann", True)]


async def test_an_answer_link_whose_membership_cannot_be_asked_stores_nothing_until_it_can(store, adapter, clock):
    """The platform cannot say whether the player is in the group (a network failure): the link
    is refused for now, in the player's language, with nothing stored; the same link works once
    the platform answers again. An outsider's stays refused."""
    chat, ann, eve = group(), player(1, "Ann"), player(2, "Eve")
    engine = build(Catalog.from_quizzes([kinds_quiz(QUESTIONS[2])]), store, clock, EngineSettings()).engine
    engine.attach(adapter)
    commands, me, outsider = house_of(engine).commands, Caller(private("p1"), ann), Caller(private("p2"), eve)
    await engine.start(chat, "kinds", ann)
    clock.advance(3)
    await engine.run_due()
    payload = await commands.links.answer_start(decode_question(adapter.questions[-1].answer_token))
    adapter.members_unknown = True
    unsure = await commands.handle("start", payload, me)
    assert unsure.text == "I could not check that you are in the group just now. Please try again in a minute."
    assert await store.awaited_answer(ann.key, clock.now()) is None
    assert await commands.answer_text(me, "Zurich") is None, "nothing awaited: ordinary chat"
    adapter.members_unknown = False
    assert "Which Swiss city has the ETH?" in (await commands.handle("start", payload, me)).text
    adapter.outsiders.add(eve.key)
    refused = await commands.handle("start", payload, outsider)
    assert refused.text == "This question is for the members of its group only."
    assert await store.awaited_answer(eve.key, clock.now()) is None
    assert (await commands.answer_text(me, "Zurich")).accepted
    await closed(engine, clock)
    assert [s.name for s in adapter.reveals[-1][1].answers] == ["Ann"]


def is_valid_start(payload: str) -> bool:
    """What Telegram takes as a deep link's start parameter."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload) is not None


async def test_a_done_pressed_just_before_a_restart_closes_the_question_at_once_after_it(store, clock):
    catalog = Catalog.from_quizzes([kinds_quiz(QUESTIONS[0], QUESTIONS[5])])
    first_adapter, chat, ann = RecordingAdapter(), private(), player(1, "Ann")
    first = build(catalog, store, clock, EngineSettings(question_seconds=30)).engine
    first.attach(first_adapter)
    await started(first, chat, clock)
    card = first_adapter.questions[-1]
    for text in ("2", "5"):
        assert (await first.answer(token_of(card, text), ann, chat)).accepted
    assert (await first.answer(card.done_token, ann, chat)).accepted  # the process stops before the close

    adapter = RecordingAdapter()
    second = build(catalog, store, clock, EngineSettings(question_seconds=30)).engine
    second.attach(adapter)
    assert await second.resume() == 1
    await second.run_due()
    _, reveal = adapter.reveals[-1]
    assert [(s.correct, s.points) for s in reveal.answers] == [(True, 1000)], "closed without waiting 30 s"


async def test_a_word_sent_for_a_number_through_the_deep_link_may_be_corrected(store, adapter, clock):
    """Not a number: refused, and the next private message still answers the question."""
    chat, ann = group(), player(1, "Ann")
    engine = build(Catalog.from_quizzes([kinds_quiz(QUESTIONS[3])]), store, clock, EngineSettings()).engine
    engine.attach(adapter)
    commands, me = house_of(engine).commands, Caller(private(), ann)
    await engine.start(chat, "kinds", ann)
    clock.advance(3)
    await engine.run_due()
    card = adapter.questions[-1]
    sent = await commands.handle("start", await commands.links.answer_start(decode_question(card.answer_token)), me)
    assert "Send a number as a message" in sent.text
    refused = await commands.answer_text(me, "pi")
    assert refused is not None and not refused.accepted and refused.text.startswith("Not a number: pi")
    assert refused.text.endswith("(question 1 in Group)"), "the player is told which question it went to"
    ack = await commands.answer_text(me, "3,14")
    assert ack is not None and ack.accepted and ack.text == "Locked in: 3,14\n(question 1 in Group)"
    assert await commands.answer_text(me, "thanks!") is None, "answered: the next message is ordinary chat"
