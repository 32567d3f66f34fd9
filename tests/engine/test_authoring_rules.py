"""Writing a quiz in the chat through the shared commands (issue #23): the draft's size limit,
bad input refused with nothing changed, where a draft may be written and saved, the share link
in a group, and a draft in the chat's language."""

from __future__ import annotations

import asyncio

from bot.commands.core import Caller, Commands
from bot.commands.sharing import SHARE_PREFIX
from bot.content import drafts
from bot.testing.fakes import group, player, private
from tests.support.house import build, house_of

ANN, BOB = player(1, "Ann"), player(2, "Bob")


def me(who=ANN) -> Caller:
    return Caller(private(who.user_id), who, is_admin=True)


async def listing(commands: Commands, caller: Caller) -> str:
    return (await commands.handle("newquiz", "", caller)).text


async def test_a_draft_holds_at_most_the_formats_questions(engine, monkeypatch):
    monkeypatch.setattr(drafts, "MAX_QUESTIONS", 3)  # the format's 500, made small
    commands = house_of(engine).commands
    await commands.handle("newquiz", "Small", me())
    for n in range(3):
        assert (await commands.draft_line(f"Q{n}? | *a | b", me())).text.startswith(f"Question {n + 1} added")
    full = await commands.draft_line("One more? | *a | b", me())
    assert full.kind == "error" and full.text == "A quiz holds at most 3 questions: /done saves this one."
    assert "4." not in await listing(commands, me())


async def test_bad_input_is_refused_and_changes_nothing(engine):
    commands = house_of(engine).commands
    assert (await commands.handle("edit", "1", me())).text == "You have no quiz draft. /newquiz starts one."
    assert (await commands.handle("done", "", me())).text == "You have no quiz draft. /newquiz starts one."
    await commands.handle("newquiz", "T" * 300, me())
    assert (await commands.handle("done", "", me())).text == "The draft has no question yet: send a quiz poll first."
    await commands.draft_line("First? | *a | b", me())
    before = await listing(commands, me())
    shown = await commands.handle("newquiz", "", me())
    assert shown.title == "📝 " + "T" * 100, "the title is cut to the format's 100 characters"
    refusals = {
        "edit": ("x", "Give a question number: the draft has 1 question."),
        "delete": ("0", "Give a question number: the draft has 1 question."),
        "move": ("1 7", "Usage: /move N M moves question N to place M (1 to 1)."),
    }
    for name, (args, said) in refusals.items():
        reply = await commands.handle(name, args, me())
        assert reply.kind == "error" and reply.text == said
    long_option = await commands.draft_line(f"Long? | *{'x' * 301} | b", me())
    assert long_option.text.startswith(
        "That question cannot be used, nothing changed:\n• options 1: too long: 301 characters, at most 300"
    )
    assert (await commands.handle("edit", "1 not a question", me())).text.startswith("Write a question as:")
    assert await listing(commands, me()) == before


async def test_a_quiz_is_written_in_private_and_a_shared_one_added_by_admins_only(engine):
    commands = house_of(engine).commands
    in_group = await commands.handle("newquiz", "Here?", Caller(group(), ANN, is_admin=True))
    assert in_group.text == "Write a quiz in a private chat with me: send /newquiz there."
    await commands.handle("newquiz", "Birds", me())
    await commands.draft_line("Fastest bird? | *Peregrine falcon | Ostrich", me())
    saved = await commands.handle("done", "", me())
    link = next(b for b in saved.buttons if b.in_group)
    assert link.data.startswith(SHARE_PREFIX)
    refused = await commands.handle("start", link.data, Caller(group(), BOB, is_admin=False))
    assert refused.text == "Only chat admins can add or remove quizzes."
    added = await commands.handle("start", link.data, Caller(group(), ANN, is_admin=True))
    assert added.text == "Added “Birds” to this chat's quizzes: /quiz birds starts it."
    assert [q.id for q in await house_of(engine).chat_quizzes.all(group().key)] == ["birds"]
    gone = await commands.handle("start", "add_nosuchcode", Caller(group("g2"), ANN, is_admin=True))
    assert gone.text == "This link's quiz is not there any more."


async def test_the_draft_speaks_the_chats_language(engine):
    commands = house_of(engine).commands
    await commands.handle("language", "hi", me())
    started = await commands.handle("newquiz", "पक्षी", me())
    assert started.text.startswith("नई प्रश्नोत्तरी “पक्षी”") and started.poll_button == "क्विज़ पोल बनाएँ"
    added = await commands.draft_line("सबसे तेज़ पक्षी? | *बाज़ | शुतुरमुर्ग", me())
    assert added.text == "प्रश्न 1 जोड़ा गया: सबसे तेज़ पक्षी?"


async def test_a_pending_suggestion_is_no_quiz_draft(engine):
    commands = house_of(engine).commands
    asked = await commands.handle("start", "sg_g1", me(BOB))
    assert asked.text.startswith("Send me the quiz poll you suggest to the group")
    assert (await commands.handle("done", "", me(BOB))).text == "You have no quiz draft. /newquiz starts one."
    started = await commands.handle("newquiz", "Mine", me(BOB))  # writing a quiz instead
    assert started.text.startswith("New quiz “Mine”.")
    assert (await commands.draft_line("Q? | *a | b", me(BOB))).text == "Question 1 added: Q?"
    assert await house_of(engine).store.open_suggestions(group().key) == []


async def test_questions_sent_at_once_to_two_workers_all_join_the_draft(engine):
    """Two workers (each its own commands, one store) take an author's messages at the same time:
    a draft stored over another worker's change would lose it, so each change is stored only over
    the draft it read, and made again when the other came first."""
    first = house_of(engine)
    workers = (first.commands, build(first.catalog, first.store, first.clock).commands)
    await workers[0].handle("newquiz", "Together", me())
    lines = [f"Q{n}? | *a | b" for n in range(1, 21)]
    replies = await asyncio.gather(*(workers[n % 2].draft_line(line, me()) for n, line in enumerate(lines)))
    assert sorted(r.text.partition(":")[0] for r in replies) == sorted(f"Question {n} added" for n in range(1, 21))
    listed = await listing(workers[1], me())
    assert all(f". Q{n}?" in listed for n in range(1, 21)) and "21." not in listed
