"""Assignments in the engine (a RecordingAdapter, a real SQLite file, a FakeClock): answers given
in private count on the group's boards and statistics, finishes within a minute make one edit,
the deadline posts one podium, a cancel posts none, and a start typed in the group is refused."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.commands.core import Caller, Commands
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, Player
from bot.engine.core import Engine, EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from tests.support.house import build, house_of

ADMIN = player(1, "Admin")
START = datetime(2026, 6, 1, 6, tzinfo=UTC).timestamp()  # a Monday, 06:00 UTC
QUIZ = make_quiz("demo", 3)


def make_engine(store, clock) -> Engine:
    engine = build(
        Catalog.from_quizzes([QUIZ]), store, clock, EngineSettings(question_seconds=20, pause_seconds=0)
    ).engine
    engine.attach(RecordingAdapter())
    return engine


async def say(commands: Commands, chat: ChatRef, who: Player, text: str, admin: bool = False):
    name, _, args = text.partition(" ")
    return await commands.handle(name, args, Caller(chat, who, is_admin=admin))


async def play(engine: Engine, commands: Commands, who: Player, right: int) -> None:
    """`who` starts assignment 1 in private and answers every question (the first `right` rightly)."""
    chat = ChatRef("test", f"p{who.user_id}", is_private=True)
    started = await say(commands, chat, who, "start assign_1")
    assert "Assignment #1" in started.text, started.text
    adapter = house_of(engine).adapters["test"]
    for number in range(3):
        await engine.run_due()
        card = adapter.questions[-1]
        assert card.chat == chat and card.number == number + 1
        letter = adapter.right_letter(QUIZ, card)
        if number >= right:
            letter = next(o.letter for o in card.options if o.letter != letter)
        assert (await engine.answer(adapter.token(letter, card), who, chat)).accepted
        await engine.run_due()


async def test_private_answers_count_for_the_group_and_the_deadline_posts_one_podium(store):
    clock = FakeClock(START)
    engine, ann, bob = make_engine(store, clock), player(2, "Ann"), player(3, "Bob")
    commands = house_of(engine).commands
    adapter = house_of(engine).adapters["test"]
    created = await say(commands, group(), ADMIN, "assign demo until mon 18:00", admin=True)
    assert "Assignment #1 is open until 2026-06-01 18:00 UTC" in created.text
    (posted,) = [r for _, r in adapter.sent if r.title.startswith("📝")]
    assert "0 members have finished · 0 started" in posted.text
    typed_in_group = await say(commands, group(), ann, "start assign_1")
    assert "played in a private chat" in typed_in_group.text and engine.run_in(group()) is None

    await play(engine, commands, ann, right=3)
    await play(engine, commands, bob, right=1)
    clock.advance(59)
    await house_of(commands.engine).assignments.tick()
    assert adapter.edits == []  # the message changed less than a minute ago: not yet
    clock.advance(1)
    await house_of(commands.engine).assignments.tick()
    await house_of(commands.engine).assignments.tick()
    (edit,) = adapter.edits  # both finishes in one edit
    assert "2 members have finished · 2 started" in edit[1].text and "🥇 Ann" in edit[1].text

    top = (await say(commands, group(), ann, "leaderboard")).text
    assert "Ann" in top and "Bob" in top  # answered in private, counted on the group's board
    stats = await house_of(engine).store.quiz_tally("demo", group().key)
    assert set(stats.totals) == {ann.key, bob.key}  # and in the group's question statistics

    clock.advance(12 * 3600)
    await house_of(commands.engine).assignments.tick()
    await house_of(commands.engine).assignments.tick()
    podiums = [r for _, r in adapter.sent if r.title.startswith("🏁 Assignment closed")]
    assert len(podiums) == 1 and podiums[0].text.index("Ann") < podiums[0].text.index("Bob")
    late = await say(commands, ChatRef("test", "p9", is_private=True), player(9, "Cy"), "start assign_1")
    assert "Sorry, this assignment closed 2026-06-01 18:00 UTC" in late.text


async def test_a_cancelled_assignment_posts_no_podium_and_takes_no_start(store):
    clock = FakeClock(START)
    engine = make_engine(store, clock)
    commands = house_of(engine).commands
    adapter = house_of(engine).adapters["test"]
    await say(commands, group(), ADMIN, "assign demo until tomorrow", admin=True)
    listed = await say(commands, group(), player(2, "Ann"), "assign")
    assert "#1 Demo quiz: closes 2026-06-02 23:59 UTC (1 d 17 h left), 0 finished" in listed.text
    assert "No such open assignment" in (await say(commands, group(), ADMIN, "assign cancel 7", admin=True)).text
    assert "Only chat admins" in (await say(commands, group(), player(2, "Ann"), "assign cancel 1")).text
    assert "is cancelled" in (await say(commands, group(), ADMIN, "assign cancel #1", admin=True)).text
    assert "Cancelled by an admin." in adapter.edits[-1][1].text and adapter.edits[-1][1].buttons == ()
    refused = await say(commands, ChatRef("test", "p2", is_private=True), player(2, "Ann"), "start assign_1")
    assert "was cancelled" in refused.text
    clock.advance(3 * 86400)
    await house_of(commands.engine).assignments.tick()
    assert not [r for _, r in adapter.sent if "Assignment closed" in r.title]
    assert "Assignments are for groups" in (await say(commands, ChatRef("test", "p2", True), ADMIN, "assign")).text


async def test_only_members_of_the_group_start_it_and_an_unknown_membership_is_asked_again(store):
    """The Start link may reach anyone: one outside the group is refused by the group's name, and
    nothing of theirs is stored; while the platform cannot say, the member is asked to try again."""
    clock = FakeClock(START)
    engine, ann, eve = make_engine(store, clock), player(2, "Ann"), player(6, "Eve")
    commands = house_of(engine).commands
    adapter = house_of(engine).adapters["test"]
    adapter.outsiders.add(eve.key)
    await say(commands, group(), ADMIN, "assign demo until mon 18:00", admin=True)

    refused = await say(commands, ChatRef("test", "p6", is_private=True), eve, "start assign_1")
    assert refused.text == "This assignment is for the members of Group." and refused.kind == "error"
    adapter.members_unknown = True
    unsure = await say(commands, ChatRef("test", "p2", is_private=True), ann, "start assign_1")
    assert "Please try again in a minute" in unsure.text
    assert adapter.questions == [] and await house_of(engine).store.assignment_places(1) == []

    adapter.members_unknown = False
    await play(engine, commands, ann, right=2)
    places = await house_of(engine).store.assignment_places(1)
    assert [p.player_key for p in places] == [ann.key]
    assert "Eve" not in (await say(commands, group(), ann, "leaderboard")).text


async def test_an_assignment_is_scored_as_its_group_scores(store):
    """The group plays for accuracy: a member's assignment run, in their private chat whose
    own setting is speed, earns the flat points of a right answer, however slow."""
    clock = FakeClock(START)
    engine, ann = make_engine(store, clock), player(2, "Ann")
    commands = house_of(engine).commands
    assert "accuracy" in (await say(commands, group(), ADMIN, "settings scoring accuracy", admin=True)).text
    await say(commands, group(), ADMIN, "assign demo until mon 18:00", admin=True)
    chat = ChatRef("test", f"p{ann.user_id}", is_private=True)
    await say(commands, chat, ann, "start assign_1")
    await engine.run_due()
    adapter = house_of(engine).adapters["test"]
    card = adapter.questions[-1]
    clock.advance(15)  # three quarters of the 20 s: speed scoring would give far less
    assert (await engine.answer(adapter.token(adapter.right_letter(QUIZ, card), card), ann, chat)).accepted
    clock.advance(20)
    await engine.run_due()
    (scorer,) = adapter.reveals[-1][1].answers
    assert scorer.correct and scorer.points == 1000


async def test_the_assign_usage_tells_how_to_give_a_member_more_time(store):
    engine = make_engine(store, FakeClock(START))
    told = await say(house_of(engine).commands, group(), ADMIN, "assign demo", admin=True)
    assert told.text.startswith("Usage: /assign") and "extra @member 2x (or 1.5x)" in told.text
