"""Which language a chat gets: /language, else the client's language, else QUIZHOST_LANGUAGE, else English."""

from __future__ import annotations

import unicodedata

import pytest

from bot.app.settings import SettingsError, load_settings
from bot.app.wiring import engine_settings
from bot.commands.core import Caller, Commands
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Ack, Reply
from bot.engine.core import Engine, EngineSettings
from bot.testing.fakes import group, make_quiz, player, private
from tests.support.house import build, house_of

PICK = {"en": "Choose the chat's language:", "hi": "चैट की भाषा चुनें:", "sn": "Sarudza mutauro unoshandiswa pano:"}
SET = {"hi": "भाषा अब हिन्दी है।", "sn": "Mutauro wava chiShona.", "en": "Language set to English."}
ADMINS_ONLY = {"en": "Only chat admins can change this.", "hi": "इसे केवल चैट के एडमिन बदल सकते हैं।"}


def engine_with(store, clock, adapter, default: str = "en") -> Engine:
    engine = build(
        Catalog.from_quizzes([make_quiz()]),
        store,
        clock,
        EngineSettings(question_seconds=30, pause_seconds=5, default_language=default),
    ).engine
    engine.attach(adapter)
    return engine


async def say(commands: Commands, text: str, caller: Caller) -> Reply:
    name, _, args = text.lstrip("/").partition(" ")
    return await commands.handle(name, args, caller)


async def quizzes_title(commands: Commands, caller: Caller) -> str:
    return (await say(commands, "/quizzes", caller)).title


# where the language comes from ---------------------------------------------------------


async def test_nothing_said_anywhere_means_english(engine):
    commands = house_of(engine).commands
    reply = await say(commands, "/quizzes", Caller(group(), player(1)))
    assert reply.language == "en" and reply.title == "📚 Quizzes"


@pytest.mark.parametrize(
    "client, expected, title",
    [
        ("hi-IN", "hi", "📚 प्रश्नोत्तरियाँ"),
        ("ur_PK", "ur", "\u200f📚 کوئز"),
        ("sn", "sn", "📚 Bvunzo"),
        ("EN-gb", "en", "📚 Quizzes"),
    ],
)
async def test_the_client_language_is_used_when_the_chat_chose_none(engine, client, expected, title):
    commands = house_of(engine).commands
    reply = await say(commands, "/quizzes", Caller(group(), player(1, lang=client)))
    assert reply.language == expected and reply.title == title


async def test_an_unsupported_client_language_falls_back_to_the_default(store, clock, adapter):
    commands = house_of(engine_with(store, clock, adapter, default="sn")).commands
    reply = await say(commands, "/quizzes", Caller(group(), player(1, lang="fr-FR")))
    assert reply.language == "sn" and reply.title == "📚 Bvunzo"
    no_client = await say(commands, "/quizzes", Caller(group(), player(2)))
    assert no_client.language == "sn"


async def test_each_player_in_a_group_gets_their_own_language_until_the_chat_chooses(engine):
    commands, chat = house_of(engine).commands, group()
    assert (await say(commands, "/quizzes", Caller(chat, player(1, lang="hi")))).language == "hi"
    assert (await say(commands, "/quizzes", Caller(chat, player(2, lang="en-US")))).language == "en"
    await say(commands, "/language sn", Caller(chat, player(3), is_admin=True))
    for n, lang in ((1, "hi"), (2, "en-US"), (4, None)):
        assert (await say(commands, "/quizzes", Caller(chat, player(n, lang=lang)))).language == "sn"


def test_quizhost_language_sets_the_default(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QUIZHOST_LANGUAGE", "ur")
    assert engine_settings(load_settings(env_file=None)).default_language == "ur"
    monkeypatch.delenv("QUIZHOST_LANGUAGE")
    assert engine_settings(load_settings(env_file=None)).default_language == "en"
    monkeypatch.setenv("QUIZHOST_LANGUAGE", "fr")
    with pytest.raises(SettingsError, match="QUIZHOST_LANGUAGE"):
        load_settings(env_file=None)


# /language -----------------------------------------------------------------------------


async def test_language_in_a_private_chat_sets_it_and_answers_in_the_new_language(engine):
    commands, chat = house_of(engine).commands, private()
    reply = await say(commands, "/language hi", Caller(chat, player(1, lang="en")))
    assert reply.language == "hi" and reply.text == SET["hi"]
    assert (
        await house_of(engine).chats.language_for(chat, player(1, lang="en")) == "hi"
    )  # the chat's choice beats the client's
    assert (await say(commands, "/help", Caller(chat, player(1)))).language == "hi"


async def test_language_accepts_a_regional_code_and_any_case(engine):
    commands, chat = house_of(engine).commands, private()
    assert (await say(commands, "/language SN", Caller(chat, player(1)))).language == "sn"
    assert (await say(commands, "/language hi-IN", Caller(chat, player(1)))).text == SET["hi"]
    assert await house_of(engine).chats.language_for(chat) == "hi"


async def test_an_unknown_code_is_refused_and_changes_nothing(engine):
    commands, chat = house_of(engine).commands, private()
    await say(commands, "/language sn", Caller(chat, player(1)))
    reply = await say(commands, "/language klingon", Caller(chat, player(1)))
    assert reply.kind == "error" and "klingon" in reply.text and "en, hi, sn, ur" in reply.text
    assert reply.language == "sn"  # said in the chat's current language
    assert await house_of(engine).chats.language_for(chat) == "sn"


async def test_language_without_a_code_offers_buttons_in_the_current_language(engine):
    commands = house_of(engine).commands
    reply = await say(commands, "/language", Caller(group(), player(1, lang="hi")))
    assert reply.text == PICK["hi"]
    assert [(b.label, b.data) for b in reply.buttons] == [
        ("English", "ql:en"),
        ("हिन्दी", "ql:hi"),
        ("chiShona", "ql:sn"),
        ("اردو", "ql:ur"),
    ]


async def test_only_admins_set_a_group_language_by_command(engine):
    commands, chat = house_of(engine).commands, group()
    refused = await say(commands, "/language sn", Caller(chat, player(1, lang="hi"), is_admin=False))
    assert refused.text == ADMINS_ONLY["hi"] and refused.private and refused.kind == "error"
    assert await house_of(engine).chats.language_for(chat) == "en"  # nothing changed
    accepted = await say(commands, "/language sn", Caller(chat, player(2), is_admin=True))
    assert accepted.text == SET["sn"] and accepted.language == "sn"
    assert await house_of(engine).chats.language_for(chat, player(1, lang="hi")) == "sn"


async def test_language_buttons_in_a_group_need_an_admin_too(engine):
    commands, chat = house_of(engine).commands, group()
    offer = await say(commands, "/language", Caller(chat, player(1)))
    data = next(b.data for b in offer.buttons if b.data == "ql:hi")
    refused = await commands.press(data, Caller(chat, player(1), is_admin=False))
    assert isinstance(refused, Reply) and refused.text == ADMINS_ONLY["en"]
    assert await house_of(engine).chats.language_for(chat) == "en"
    chosen = await commands.press(data, Caller(chat, player(2), is_admin=True))
    assert isinstance(chosen, Reply) and chosen.text == SET["hi"] and chosen.language == "hi"
    assert await house_of(engine).chats.language_for(chat) == "hi"


async def test_forged_language_buttons_change_nothing(engine):
    commands, chat = house_of(engine).commands, group()
    reply = await commands.press("ql:xx'; drop table chats", Caller(chat, player(1), is_admin=True))
    assert isinstance(reply, Ack) and not reply.accepted and "not valid" in reply.text
    assert await house_of(engine).chats.language_for(chat) == "en"


async def test_the_language_is_remembered_across_a_restart(store, clock, adapter):
    chat = group("g-restart")
    await house_of(engine_with(store, clock, adapter)).commands.handle("language", "ur", Caller(chat, player(1), True))
    fresh = engine_with(store, clock, adapter)  # same database, new process
    assert await house_of(fresh).chats.language_for(chat, player(2, lang="hi")) == "ur"


# a run speaks the language chosen when it started ----------------------------------------


async def test_a_quiz_runs_in_the_chat_language_and_acks_in_it(engine, adapter, clock):
    commands, chat = house_of(engine).commands, group()
    await say(commands, "/language hi", Caller(chat, player(1), is_admin=True))
    start = await say(commands, "/quiz demo", Caller(chat, player(2, lang="en")))
    assert start.language == "hi" and start.text == "4 प्रश्न, हर प्रश्न के लिए 30 सेकंड। तैयार हो जाइए!"
    clock.advance(5)
    await engine.run_due()
    card = adapter.questions[-1]
    assert card.language == "hi"
    ack = await commands.press(card.options[0].token, Caller(chat, player(3, lang="ur")))
    assert isinstance(ack, Ack) and ack.language == "hi" and ack.text == "उत्तर दर्ज: A"


async def test_a_stale_button_answers_in_the_pressers_language(engine):
    ack = await engine.answer("qa:999:1:0", player(1, lang="sn-ZW"))
    assert ack.language == "sn" and ack.text == "Bhatani iri harishandi."


# topics in every language, against the shipped quizzes -----------------------------------


@pytest.fixture
def shipped_engine(store, clock, adapter):
    engine = build(Catalog.load(default_quiz_folders()), store, clock, EngineSettings()).engine
    engine.attach(adapter)
    return engine


@pytest.mark.parametrize(
    "topic, quiz_id",
    [
        ("पाइपलाइन", "pipeline"),
        ("समांतरता", "pipeline"),
        ("pombi", "pipeline"),
        ("پائپ لائن", "pipeline"),
        ("متوازیت", "pipeline"),
        ("PIPELINE", "pipeline"),
        ("डीपस्पीड", "training-stacks"),
        ("मेगाट्रॉन", "training-stacks"),
        ("ڈیپ اسپیڈ", "training-stacks"),
        ("میگاٹرون", "training-stacks"),
        ("زیرو", "training-stacks"),
        ("zero", "training-stacks"),
        ("Megatron", "training-stacks"),
    ],
)
async def test_quiz_finds_the_quiz_from_a_topic_in_any_language(shipped_engine, topic, quiz_id):
    chat = group(f"topic-{quiz_id}-{len(topic)}")
    reply = await house_of(shipped_engine).commands.handle("quiz", f"{topic} 2", Caller(chat, player(1, lang="hi")))
    run = shipped_engine.run_in(chat)
    assert run is not None and run.quiz.id == quiz_id, reply.text
    assert run.total == 2 and reply.language == "hi"  # the chat's language, whatever the topic's


async def test_a_topic_typed_in_another_unicode_form_still_matches(shipped_engine):
    decomposed = unicodedata.normalize("NFD", "मेगाट्रॉन")
    assert [q.id for q in house_of(shipped_engine).catalog.match(decomposed)] == ["training-stacks"]


async def test_a_word_both_quizzes_share_offers_buttons_in_the_chat_language(shipped_engine):
    reply = await house_of(shipped_engine).commands.handle("quiz", "کوئز", Caller(group(), player(1, lang="ur")))
    assert reply.language == "ur" and {b.data for b in reply.buttons} == {"qp:pipeline", "qp:training-stacks"}
    assert {b.label for b in reply.buttons} == {
        "ماڈل اور پائپ لائن متوازیت کوئز",
        "ڈیپ اسپیڈ اور میگاٹرون ٹریننگ اسٹیکس کوئز",
    }


async def test_an_unknown_topic_in_hindi_names_what_exists_in_hindi(shipped_engine):
    reply = await house_of(shipped_engine).commands.handle("quiz", "ज्योतिष", Caller(group(), player(1, lang="hi")))
    assert reply.kind == "error" and reply.text.startswith("“ज्योतिष” से कोई प्रश्नोत्तरी मेल नहीं खाती")
    assert "pipeline" in reply.text and "training-stacks" in reply.text
