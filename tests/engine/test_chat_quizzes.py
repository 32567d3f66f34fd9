"""Chat quizzes through the shared commands: an admin uploads, the chat plays it at once,
other chats never see it, a new upload replaces it without touching a run in progress, and a
bad file gets a clear reply and stores nothing."""

from __future__ import annotations

import pytest

from bot.commands.core import Caller, Commands
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.testing.fakes import group, player
from tests.support.house import build, house_of
from tests.support.sheet_files import KAHOOT_ROWS, kahoot_xlsx, zip_bomb_xlsx

CAPITALS = b"Capital of France?\nA. Berlin\nB. Paris\nANSWER: B\n\nCapital of Peru?\nA) Lima\nB) Quito\nANSWER: A\n"
CAPITALS_V2 = b"Capital of Chile?\nA. Santiago\nB. Lima\nANSWER: A\n"


@pytest.fixture
def commands(store, clock, adapter) -> Commands:
    engine = build(
        Catalog.load(default_quiz_folders()), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    engine.attach(adapter)
    return house_of(engine).commands


def admin(chat_id: str = "g1") -> Caller:
    return Caller(group(chat_id), player(1, "Ann"), is_admin=True)


async def begin(commands: Commands, caller: Caller, topic: str, clock) -> str:
    reply = await commands.handle("quiz", topic, caller)
    clock.advance(3)
    await commands.engine.run_due()
    return reply.text


async def test_an_admin_upload_is_listed_marked_and_playable_at_once(commands, adapter, clock):
    reply = await commands.upload(admin(), "capitals.txt", CAPITALS)
    assert reply.text.splitlines()[:2] == ["Saved capitals: 2 questions.", "Start it with /quiz capitals."]
    listing = (await commands.handle("quizzes", "", admin())).text
    assert "📎 This chat's own quizzes:\n• capitals (capitals): 2 questions" in listing
    assert "pipeline" in listing
    assert "2 questions, 30 s each" in await begin(commands, admin(), "capitals", clock)
    assert adapter.questions[-1].prompt == "Capital of France?"


async def test_skipped_questions_are_named_with_their_line_in_the_reply(commands):
    reply = await commands.upload(admin(), "capitals.txt", CAPITALS + b"\nNo answer here?\nA. x\nB. y\n")
    assert "1 question was skipped:\n• line 11: no ANSWER line before the end of the file" in reply.text


MIXED_GIFT = b"Essay?{}\n\nTwo right?{=a =b ~c}\n\nGood?{=yes ~no}\n\nAlso good?{=si ~no}\n"


async def test_a_hindi_chat_reads_why_questions_were_skipped_in_hindi_at_their_line(commands):
    await commands.handle("language", "hi", admin())
    reply = await commands.upload(admin(), "mixed.gift", MIXED_GIFT)
    assert reply.text.splitlines()[:2] == ["mixed सहेजी गई: 2 प्रश्न।", "इसे /quiz mixed से शुरू करें।"]
    assert "• line 1: एक निबंध प्रश्न (कोष्ठकों के बीच कोई उत्तर नहीं): उन्हें शिक्षक जाँचते हैं" in reply.text
    assert (
        "• line 3: कई सही उत्तर (2 विकल्पों को पूरे अंक मिलते हैं): Moodle इनमें से कोई भी एक स्वीकार करता है, "
        "ऐसा कोई quizhost प्रकार नहीं पूछता"
    ) in reply.text
    nothing = await commands.upload(admin(), "broken.txt", b"Alone?\nA. one\nANSWER: A\n")
    assert nothing.text.splitlines() == [
        "कुछ भी सहेजा नहीं गया: broken.txt का कोई भी प्रश्न उपयोग नहीं हो सका:",
        "• line 1: 1 विकल्प: Aiken प्रश्नों में 2 से 10 विकल्प होने चाहिए",
    ]
    english = await commands.upload(admin("g2"), "mixed.gift", MIXED_GIFT)  # another chat, still English
    assert (
        "• line 3: several right answers (2 options have full credit): Moodle takes any one of them, "
        "which no quizhost kind asks" in english.text
    )


async def test_a_non_admin_is_refused_and_nothing_is_stored(commands, store):
    reply = await commands.upload(Caller(group(), player(2, "Bob")), "capitals.txt", CAPITALS)
    assert reply.kind == "error" and reply.text == "Only chat admins can add or remove quizzes."
    assert await store.chat_quizzes(group().key) == []
    await commands.upload(admin(), "capitals.txt", CAPITALS)
    refused = await commands.handle("remove", "capitals", Caller(group(), player(2, "Bob")))
    assert refused.text == "Only chat admins can add or remove quizzes."
    assert [q.quiz_id for q in await store.chat_quizzes(group().key)] == ["capitals"]


async def test_other_chats_can_neither_list_play_nor_remove_it(commands, store):
    await commands.upload(admin("g1"), "capitals.txt", CAPITALS)
    other = admin("g2")
    assert "capitals" not in (await commands.handle("quizzes", "", other)).text
    assert (await commands.handle("quiz", "capitals", other)).text.startswith("No quiz matches “capitals”")
    assert (await commands.handle("remove", "capitals", other)).text.startswith("This chat has no quiz capitals")
    assert [q.quiz_id for q in await store.chat_quizzes(group("g1").key)] == ["capitals"]


async def test_a_new_upload_replaces_the_quiz_but_not_the_run_in_progress(commands, adapter, clock):
    await commands.upload(admin(), "capitals.txt", CAPITALS)
    await begin(commands, admin(), "capitals", clock)
    reply = await commands.upload(admin(), "capitals.txt", CAPITALS_V2)
    assert reply.text.startswith("Replaced capitals: 1 question. A quiz already running keeps its old version.")
    clock.advance(30 + 5)
    await commands.engine.run_due()
    clock.advance(5)
    await commands.engine.run_due()
    assert [c.prompt for c in adapter.questions] == ["Capital of France?", "Capital of Peru?"]  # the old version
    clock.advance(30 + 5)
    for _ in range(3):
        await commands.engine.run_due()
        clock.advance(5)
    assert commands.engine.run_in(group()) is None
    await begin(commands, admin(), "capitals", clock)
    assert adapter.questions[-1].prompt == "Capital of Chile?"  # a new run plays the new version


async def test_remove_deletes_it_for_the_chat(commands, store):
    await commands.upload(admin(), "capitals.txt", CAPITALS)
    assert (await commands.handle("remove", "capitals", admin())).text == "Removed capitals."
    assert await store.chat_quizzes(group().key) == []
    assert (await commands.handle("quiz", "capitals", admin())).kind == "error"


async def test_a_restart_resumes_a_run_of_a_chat_quiz(commands, store, clock, adapter):
    await commands.upload(admin(), "capitals.txt", CAPITALS)
    await begin(commands, admin(), "capitals", clock)
    restarted = build(Catalog.load(default_quiz_folders()), store, clock, EngineSettings()).engine
    restarted.attach(adapter)
    assert await restarted.resume() == 1
    assert restarted.run_in(group()).quiz.id == "capitals"


CAPITALS_NEW_KEY = CAPITALS.replace(b"ANSWER: B", b"ANSWER: A")  # the same questions (ids): another key


async def test_a_run_resumed_after_its_quiz_was_uploaded_again_ends_and_says_why(commands, store, clock, adapter):
    await commands.upload(admin(), "capitals.txt", CAPITALS)
    await begin(commands, admin(), "capitals", clock)
    quiz = commands.engine.run_in(group()).quiz
    await commands.engine.answer(adapter.token(adapter.right_letter(quiz)), player(1, "Ann"), group())  # old key
    clock.advance(1)
    assert "Replaced capitals" in (await commands.upload(admin(), "capitals.txt", CAPITALS_NEW_KEY)).text
    restarted = build(Catalog.load(default_quiz_folders()), store, clock, EngineSettings()).engine
    restarted.attach(adapter)
    assert await restarted.resume() == 0  # not resumed with a key the run did not start with
    await restarted.run_due()
    texts = [reply.text for _, reply in adapter.sent]
    assert any(
        text.startswith("⚠️ The quiz has ended: capitals was uploaded again while it ran")
        and "Start the new version with /quiz capitals." in text
        for text in texts
    )
    assert "Ann" in texts[-1]  # the podium: answers so far count
    assert [c.prompt for c in adapter.questions] == ["Capital of France?"]
    assert restarted.run_in(group()) is None and await store.open_runs() == []
    await begin(house_of(restarted).commands, admin(), "capitals", clock)
    assert restarted.run_in(group()) is not None  # the chat plays the new version


async def test_leaderboard_by_chat_quiz(commands, adapter, clock):
    await commands.upload(admin(), "capitals.txt", CAPITALS)
    await begin(commands, admin(), "capitals", clock)
    board = await commands.handle("leaderboard", "all capitals", admin())
    assert board.kind != "error"


def alias_bomb() -> bytes:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [
        f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
        f"*a{i - 1}, *a{i - 1}, *a{i - 1}]"
        for i in range(1, 10)
    ]
    return ("\n".join(lines) + "\nid: bomb\n").encode()


def many_questions(n: int) -> bytes:
    return "".join(f"Question {i}?\nA. yes\nB. no\nANSWER: A\n\n" for i in range(n)).encode()


SHIPPED_ID_YAML = (
    b"id: pipeline\ntitle: Mine\ndescription: Mine.\nquestions:\n  - id: q\n    prompt: Q?\n"
    b"    options: [a, b]\n    answer: 0\n"
)


@pytest.mark.parametrize(
    "name, data, words",
    [
        ("big.gift", b"Q?{=a ~b}\n\n" + b"// padding\n" * 100_000, "at most 1,000,000 (1 MB) are accepted"),
        ("many.txt", many_questions(501), "more than 500 questions"),
        ("bomb.yaml", alias_bomb(), "refused"),
        ("deep.yaml", b"id: deep\nx: " + b"[" * 200 + b"]" * 200 + b"\n", "refused"),
        ("bomb.xlsx", zip_bomb_xlsx(), "refused unopened"),
        ("binary.gift", bytes(range(256)) * 8, "binary file"),
        ("binary.xlsx", bytes(range(256)) * 8, "not an .xlsx spreadsheet"),
        ("shipped.yaml", SHIPPED_ID_YAML, "the id pipeline belongs to a quiz this bot ships"),
        ("model-parallelism.txt", CAPITALS, "the id model-parallelism belongs to a quiz this bot ships"),
    ],
)
async def test_bad_files_get_a_clear_reply_and_store_nothing(commands, store, name, data, words):
    reply = await commands.upload(admin(), name, data)
    assert reply.kind == "error" and words in reply.text, reply.text
    assert await store.chat_quizzes(group().key) == []


@pytest.mark.parametrize(
    "name, data, words",
    [
        ("many.txt", many_questions(501), "• line 2501: 500 से अधिक प्रश्न: फ़ाइल को बाँट दें"),
        (
            "latin1.txt",
            "Café?\nA. x\nB. y\nANSWER: A\n".encode("latin-1"),
            "• line 1: यह UTF-8 पाठ नहीं है: फ़ाइल को UTF-8 में सहेजें",
        ),
        ("bomb.xlsx", zip_bomb_xlsx(), "बिना खोले अस्वीकार की गई"),
        ("binary.xlsx", bytes(range(256)) * 8, "• file: .xlsx स्प्रेडशीट नहीं है (.xlsx फ़ाइल एक zip संग्रह होती है)"),
        ("trivia.json", b'{"response_code": 0, "results": 3}', "• results: प्रश्नों की सूची अपेक्षित थी"),
    ],
)
async def test_a_hindi_chat_reads_why_a_file_was_refused_in_hindi(commands, store, name, data, words):
    await commands.handle("language", "hi", admin())
    reply = await commands.upload(admin(), name, data)
    assert reply.text.startswith(f"कुछ भी सहेजा नहीं गया: {name} में ये समस्याएँ हैं:\n") and words in reply.text
    assert await store.chat_quizzes(group().key) == []


async def test_markup_in_an_uploaded_quiz_stays_text(commands, adapter, clock):
    reply = await commands.upload(admin(), "party.xlsx", kahoot_xlsx([KAHOOT_ROWS[-1]]))
    assert reply.text.startswith("Saved party: 1 question.")
    await begin(commands, admin(), "party", clock)
    prompts = [c.prompt for c in adapter.questions]
    assert "What is <b>bold</b> & what is not?" in prompts
    options = [o.text for c in adapter.questions for o in c.options]
    assert "<script>alert(1)</script>" in options


async def test_a_sheet_that_times_its_questions_says_so_when_it_starts(commands, clock):
    await commands.upload(admin(), "party.xlsx", kahoot_xlsx(KAHOOT_ROWS[:3]))  # 20, 30 and 10 s
    assert "3 questions, 10 to 30 s each. Get ready!" in await begin(commands, admin(), "party", clock)


async def test_quiz_without_a_topic_offers_the_chats_own_quizzes_as_buttons_too(commands, adapter):
    await commands.upload(admin("g1"), "capitals.txt", CAPITALS)
    here = await commands.handle("quiz", "", admin("g1"))
    assert [b.data for b in here.buttons][-1] == "qp:capitals"
    assert "qp:capitals" not in [b.data for b in (await commands.handle("quiz", "", admin("g2"))).buttons]
    assert (await commands.press("qp:capitals", admin("g1"))).text.startswith("2 questions, 30 s each")
