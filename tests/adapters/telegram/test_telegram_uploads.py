"""/upload on Telegram end to end: `quizhost run` against the fake Bot API, the file fetched
with getFile and a download from the file address beside TELEGRAM_API_URL."""

from __future__ import annotations

from bot.adapters.telegram.runtime import file_url
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.sheet_files import not_a_workbook_xlsx
from tests.support.telegram_harness import Member, next_question, reveal_of, right_letter, running_bot, settings_for

CAPITALS = b"Capital of France?\nA. Berlin\nB. Paris\nANSWER: B\n\nCapital of Peru?\nA) Lima\nB) Quito\nANSWER: A\n"
CAPITALS_V2 = b"Capital of Chile?\nA. Santiago\nB. Lima\nANSWER: A\n"
MARKUP = b"Is <b>this</b> bold & <i>that</i> italic?{=neither: it is text ~both}\n"


async def sends_file(member: Member, name: str, data: bytes, caption: str = "/upload", size: int | None = None) -> Sent:
    """The member sends a file with `caption`; returns the bot's reply to it."""
    fake = member.fake
    seen = {m.message_id for m in fake.sent_to(member.chat)}
    sent = await fake.send_document(member.chat, member.user, fake.add_file(name, data, size), caption)
    return await reply_to(member, sent, seen)


async def reply_to(member: Member, message_id: int, seen: set[int]) -> Sent:
    """The bot's answer: quoting the message in a group, its next plain message in a private chat."""

    def reply() -> Sent | None:
        fresh = [m for m in member.fake.sent_to(member.chat) if m.message_id not in seen]
        if member.chat["type"] == "private":
            return next((m for m in fresh if m.reply_to is None and not m.buttons()), None)
        return next((m for m in fresh if m.reply_to == message_id), None)

    return await member.fake.wait_for(reply, what=f"the reply to message {message_id}")


def test_the_file_address_is_beside_the_bot_api_address():
    assert file_url("https://api.telegram.org/bot") == "https://api.telegram.org/file/bot"
    assert file_url("http://127.0.0.1:8081/bot/") == "http://127.0.0.1:8081/file/bot"


async def test_an_admin_uploads_in_a_group_and_plays_it_at_once(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2001, "Geography club")
    ann = Member(fake, group, fake.user(201, "Ann"))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(ann, "capitals.txt", CAPITALS + b"\nNo answer?\nA. x\nB. y\n")
        assert "Saved capitals: 2 questions." in reply.text
        assert "1 question was skipped:\n• line 11: no ANSWER line before the end of the file" in reply.text
        assert "The answer keys are not shown here, where players read them" in reply.text
        assert "Answer keys:" not in reply.text and "Paris" not in reply.text, "the group would read them"
        assert fake.downloads == ["documents/doc1"]
        listing = await ann.says("/quizzes")
        assert "📎 This chat's own quizzes:\n• capitals (capitals): 2 questions" in listing.text
        await ann.says("/quiz capitals")
        assert "Capital of France?" in (await next_question(fake, group, 1)).text


async def test_a_non_admin_is_refused_and_the_file_is_not_even_fetched(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2002)
    bob = Member(fake, group, fake.user(202, "Bob"))
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(bob, "capitals.txt", CAPITALS)
        assert reply.text == "Only chat admins can add or remove quizzes."
        assert fake.called("getFile") == [] and fake.downloads == []
        assert "No quiz matches" in (await bob.says("/quiz capitals")).text


async def test_upload_in_reply_to_a_document_in_a_private_chat(fake: FakeBotApi, clock, tmp_path):
    user = fake.user(203, "Cy")
    me = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        document = await fake.send_document(me.chat, user, fake.add_file("capitals.txt", CAPITALS))
        seen = {m.message_id for m in fake.sent_to(me.chat)}
        typed = await fake.reply_text(me.chat, user, "/upload", document)
        answer = await reply_to(me, typed, seen)
        assert "Saved capitals: 2 questions." in answer.text
        assert "Answer keys:\n1. Capital of France?: Paris\n" in answer.text
        assert len(fake.called("getFile")) == 1  # the file alone, without /upload, was left alone
        usage = await me.says("/upload")  # no file at all: how to send one
        assert usage.text.startswith("Send a quiz file with /upload: quizhost YAML, GIFT, Aiken")


async def test_too_big_a_file_is_refused_unfetched(fake: FakeBotApi, clock, tmp_path):
    user = fake.user(204, "Di")
    me = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(me, "big.gift", b"Q?{=a ~b}", size=2_000_000)
        assert "Nothing was saved: big.gift has these problems:" in reply.text and "at most 1,000,000" in reply.text
        assert fake.called("getFile") == []


BINARY = bytes(range(256)) * 8


async def test_a_hindi_chat_is_refused_in_hindi_naming_the_file_and_an_english_chat_as_before(
    fake: FakeBotApi, clock, tmp_path
):
    hindi, english = fake.user(207, "Gi"), fake.user(208, "Hal")
    in_hindi, in_english = Member(fake, fake.private(hindi), hindi), Member(fake, fake.private(english), english)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await in_hindi.says("/language hi")
        binary = await sends_file(in_hindi, "photo.gift", BINARY)
        assert binary.text.splitlines() == [
            "कुछ भी सहेजा नहीं गया: photo.gift में ये समस्याएँ हैं:",
            "• file: यह बाइनरी फ़ाइल है, पाठ वाली प्रश्नोत्तरी नहीं",
        ]
        big = await sends_file(in_hindi, "big.gift", b"Q?{=a ~b}", size=2_000_000)
        assert big.text.splitlines() == [
            "कुछ भी सहेजा नहीं गया: big.gift में ये समस्याएँ हैं:",
            "• file: 2,000,000 बाइट: अधिकतम 1,000,000 (1 MB) स्वीकार किए जाते हैं",
        ]
        sheet = await sends_file(in_hindi, "scores.xlsx", not_a_workbook_xlsx())
        assert sheet.text.startswith(
            "कुछ भी सहेजा नहीं गया: scores.xlsx में ये समस्याएँ हैं:\n• file: स्प्रेडशीट पढ़ी नहीं जा सकी: KeyError: "
        )  # openpyxl's words follow
        assert (await sends_file(in_english, "photo.gift", BINARY)).text == (
            "Nothing was saved: photo.gift has these problems:\n• file: this is a binary file, not a text quiz"
        )
        assert "No quiz matches" in (await in_english.says("/quiz photo")).text


async def test_two_groups_never_see_each_others_quizzes(fake: FakeBotApi, clock, tmp_path):
    first, second = fake.group(-2011, "First"), fake.group(-2012, "Second")
    ann = fake.user(211, "Ann")
    fake.make_admin(first, ann)
    fake.make_admin(second, ann)
    in_first, in_second = Member(fake, first, ann), Member(fake, second, ann)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Saved capitals" in (await sends_file(in_first, "capitals.txt", CAPITALS)).text
        assert "capitals" not in (await in_second.says("/quizzes")).text
        assert "No quiz matches “capitals”" in (await in_second.says("/quiz capitals")).text
        assert "This chat has no quiz capitals" in (await in_second.says("/remove capitals")).text
        assert "capitals" in (await in_first.says("/quizzes")).text


async def test_a_replacement_during_a_run_leaves_the_run_its_version(fake: FakeBotApi, clock, tmp_path):
    user = fake.user(205, "Ed")
    me = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await sends_file(me, "capitals.txt", CAPITALS)
        await me.says("/quiz capitals")
        q1 = await next_question(fake, me.chat, 1)
        replaced = await sends_file(me, "capitals.txt", CAPITALS_V2)
        assert "Replaced capitals: 1 question. A quiz already running keeps its old version." in replaced.text
        await me.presses(q1, right_letter(q1, _capitals()))
        await reveal_of(fake, me.chat, q1)
        clock.advance(10)
        assert "Capital of Peru?" in (await next_question(fake, me.chat, 2)).text


async def test_html_in_an_uploaded_gift_quiz_becomes_its_text_never_telegram_markup(fake: FakeBotApi, clock, tmp_path):
    """GIFT's default format is Moodle's HTML: its tags are dropped for their text, and nothing a
    quiz file says is ever read as Telegram's markup (the question's only bold is quizhost's own)."""
    user = fake.user(206, "Fi")
    me = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Saved markup" in (await sends_file(me, "markup.gift", MARKUP)).text
        await me.says("/quiz markup")
        q1 = await next_question(fake, me.chat, 1)
        assert "Is this bold & that italic?" in q1.text and "&amp;" in q1.html
        assert q1.bold == ["Question 1/1 · markup"]


def _capitals():
    from bot.content.importers import import_quiz

    return import_quiz(CAPITALS, "capitals.txt").quiz


async def test_the_caption_names_the_language_of_an_imported_files_texts(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2011, "Club de español")
    ana = Member(fake, group, fake.user(211, "Ana"))
    fake.make_admin(group, ana.user)
    spanish = "¿Cuál es la capital de Perú?{=Lima ~Quito}\n".encode()
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        refused = await sends_file(ana, "capitales.gift", spanish, caption="/upload Spanish!")
        assert "'Spanish!' is not a language tag: write it as en, es, vi, ar or pt-BR" in refused.text
        saved = await sends_file(ana, "capitales.gift", spanish, caption="/upload es")
        assert "Saved capitales: 1 question." in saved.text
        await ana.says("/quiz capitales")
        assert "¿Cuál es la capital de Perú?" in (await next_question(fake, group, 1)).text


async def test_the_reply_says_what_an_imported_question_lost(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2012, "Astronomy")
    eva = Member(fake, group, fake.user(212, "Eva"))
    fake.make_admin(group, eva.user)
    gift = b'[html]Which planet is this? <img src="@@PLUGINFILE@@/mars.jpg"> {=Mars ~Venus}\n'
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(eva, "planets.gift", gift)
        assert "Saved planets: 1 question." in reply.text
        assert (
            "Imported, but not all of it came through:\n• line 1: the question: @@PLUGINFILE@@/mars.jpg is stored "
            "inside the source tool, not in this file: it cannot be kept"
        ) in reply.text
