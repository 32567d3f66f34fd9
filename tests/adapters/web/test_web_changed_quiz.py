"""A chat's quiz uploaded again after a run, its questions changed (fewer options, another kind):
the run's report, its downloads and the quiz's statistics page still open."""

from __future__ import annotations

from bot.engine.core import StartStatus
from bot.testing.fakes import group
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.adapters.web.test_web_reports import ANN, BOB, csv_rows, download, run_ids, xlsx_rows
from tests.support.house import house_of
from tests.support.web_harness import play, serving


def choice(qid: str, right: str, *wrong: str) -> str:
    options = "".join(f"      - en: {o}\n" for o in (right, *wrong))
    return f"  - id: {qid}\n    prompt: {{en: {qid}?}}\n    options:\n{options}    answer: 0\n"


HEAD = "id: caps\ntitle: {en: Caps}\ndescription: {en: Caps}\nquestions:\n"
BEFORE = (
    HEAD
    + "".join(choice(f"q{i}", "right", "w1", "w2", "w3", "w4") for i in range(1, 7))
    + "  - id: q7\n    kind: poll\n    prompt: {en: q7?}\n    options: [{en: a}, {en: b}, {en: c}]\n"
)
AFTER = HEAD + (
    choice("q1", "right", "w1")  # fewer options
    + "  - id: q2\n    kind: typed\n    prompt: {en: q2?}\n    accept: [right]\n"
    + "  - id: q3\n    kind: numeric\n    prompt: {en: q3?}\n    answer: 4\n"
    + "  - id: q4\n    kind: poll\n    prompt: {en: q4?}\n    options: [{en: a}, {en: b}]\n"
    + "  - id: q5\n    kind: multi\n    scoring: partial\n    prompt: {en: q5?}\n"
    + "    options: [{en: a}, {en: b}, {en: c}]\n    answer: [0, 2]\n"
    + "  - id: q6\n    kind: ordering\n    scoring: partial\n    prompt: {en: q6?}\n"
    + "    options: [{en: a}, {en: b}, {en: c}]\n"
    + choice("q7", "a", "b", "c")  # a poll no more
)


async def test_a_quiz_changed_after_its_run_still_reports(engine, adapter):
    chat_quizzes = house_of(engine).chat_quizzes
    outcome = await chat_quizzes.upload(group(), ANN, "caps.yaml", BEFORE.encode())
    assert outcome.quiz is not None, outcome
    quiz = await chat_quizzes.get(group().key, outcome.quiz.id)
    await play(engine, adapter, group(), quiz, {ANN: [False] * 7, BOB: [True] * 7})
    again = await chat_quizzes.upload(group(), ANN, "caps.yaml", AFTER.encode())
    assert again.quiz is not None and again.quiz.id == quiz.id, again
    async with serving(engine) as site:
        (run_id,) = await run_ids(engine)
        status, html, _ = await fetch(site.link(group()) + f"runs/{run_id}")
        assert status == 200, text_of(html)[-500:]
        summary = text_of(html[html.index("Questions, hardest first") : html.index("Podium")])
        assert "4. q4? 50% 2/2" in summary and "7. q7? poll: nothing is right" in summary, summary
        for kind in ("csv", "xlsx"):
            status, data, _ = await download(site.link(group()) + f"runs/{run_id}/results.{kind}")
            assert status == 200, data[-300:]
            rows = csv_rows(data) if kind == "csv" else xlsx_rows(data)[0]
            assert len(rows) == 14
            said = {(int(r["question_number"]), r["player_id"]): (r["verdict"], r["share"]) for r in rows}
            bob = str(BOB.key)
            # what the run stored decides: the answer to q4 scored (its points are on the boards),
            # q7's was a vote, whatever the kinds are now
            assert said[(4, bob)][0] == "right" and float(said[(4, bob)][1]) == 1.0, said[(4, bob)]
            assert said[(7, bob)][0] == "vote" and said[(7, bob)][1] in ("", None), said[(7, bob)]
        status, html, _ = await fetch(site.link(group()) + f"quizzes/{quiz.id}")
        assert status == 200, text_of(html)[-500:]


async def pressed(engine, adapter, chat, quiz, who, texts: list[str]) -> None:
    """One whole run of `quiz` by one player, who presses the option of each text."""
    assert (await engine.start(chat, quiz.id, who, None)).status is StartStatus.STARTED
    for text in texts:
        house_of(engine).clock.advance(5)
        await engine.run_due()
        card = adapter.questions[-1]
        letter = next(o.letter for o in card.options if o.text == text)
        assert (await engine.answer(adapter.token(letter, card), who, chat)).accepted
        house_of(engine).clock.advance(40)
        await engine.run_due()
    house_of(engine).clock.advance(5)
    await engine.run_due()


async def test_an_option_the_quiz_no_longer_has_gets_no_letter_it_was_never_shown_under(engine, adapter):
    chat_quizzes = house_of(engine).chat_quizzes
    before = HEAD + choice("q1", "right", "w1", "w2", "w3", "w4")
    quiz = (await chat_quizzes.upload(group(), ANN, "caps.yaml", before.encode())).quiz
    assert quiz is not None
    await pressed(engine, adapter, group(), quiz, ANN, ["w4"])  # the fifth option, under some letter
    assert (await chat_quizzes.upload(group(), ANN, "caps.yaml", (HEAD + choice("q1", "right", "w1")).encode())).quiz
    async with serving(engine) as site:
        (run_id,) = await run_ids(engine)
        _, data, _ = await download(site.link(group()) + f"runs/{run_id}/results.csv")
        (row,) = csv_rows(data)
        assert (row["chosen"], row["chosen_text"], row["verdict"]) == ("", "", "wrong"), row
