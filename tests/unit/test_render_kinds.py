"""What players read for each kind of question: the card's instruction, a reveal without option
letters for typed answers, a poll's results without a right answer, media as links, and a
right-to-left quiz laid out right to left in a chat whose own texts stay left to right."""

from __future__ import annotations

from dataclasses import replace

from bot.adapters.discord import views
from bot.domain.answering import content_rtl, media_view
from bot.domain.model import (
    ChatRef,
    LocalText,
    Media,
    MediaKind,
    MediaView,
    OptionView,
    Question,
    QuestionCard,
    QuestionKind,
    Quiz,
    Reveal,
    Scorer,
)
from bot.texts import bidi, render

CHAT = ChatRef("test", "g1")


def card(kind: QuestionKind, lang: str = "en", prompt: str = "Which Swiss city has the ETH?", **fields) -> QuestionCard:
    options = () if kind in (QuestionKind.TYPED, QuestionKind.NUMERIC) else (OptionView("A", "Tabs", "qa:1:3:0"),)
    return QuestionCard(1, CHAT, lang, "Kinds", 3, 6, prompt, options, 30, 0.0, kind=kind, **fields)


def test_each_card_says_how_it_is_answered_in_the_chats_language():
    assert "Reply with your answer" in render.question_body(card(QuestionKind.TYPED))
    assert "Select all that apply" in render.question_body(card(QuestionKind.MULTI))
    assert "Answer with a number" in render.question_body(card(QuestionKind.NUMERIC))
    assert "True or false?" in render.question_body(card(QuestionKind.TRUE_FALSE))
    assert "apply" not in render.question_body(card(QuestionKind.CHOICE))
    assert bidi.strip(render.answer_instruction("ur", QuestionKind.MULTI)) == "جو بھی درست ہوں، سب چنیں"
    assert bidi.strip(render.answer_instruction("hi", QuestionKind.NUMERIC)) == "एक संख्या लिखकर उत्तर दें"


def test_a_typed_card_says_how_its_chat_takes_the_answer():
    way = render.AnswerWay
    typed = {w: render.question_body(card(QuestionKind.TYPED), w) for w in way}
    assert "Press Answer and send your answer to the bot" in typed[way.DEEP_LINK]
    assert "Press Answer to type yours" in typed[way.MODAL]
    assert "Type your answer" in typed[way.PROMPT]
    assert len(set(typed.values())) == len(way), "each way says something of its own"
    assert "Select all that apply" in render.question_body(card(QuestionKind.MULTI), way.MODAL), "options alike"
    assert render.answer_instruction("sn", QuestionKind.NUMERIC, way.MODAL) == "Dzvanya Pindura kuti unyore nhamba"


def test_sound_and_video_are_links_and_a_picture_is_words_where_none_can_be_shown():
    audio = MediaView(MediaKind.AUDIO, "https://example.org/a.mp3")
    assert "🔊 Listen: https://example.org/a.mp3" in render.question_body(card(QuestionKind.TYPED, media=audio))
    lion = MediaView(MediaKind.IMAGE, "/quizzes/pictures/lion.jpg", "a lion")
    assert render.media_lines("en", lion) == [], "a platform shows the picture itself"
    assert render.media_lines("en", lion, image_too=True) == ["[image: a lion]"]
    assert render.media_lines("en", replace(lion, alt=""), image_too=True) == ["[image: lion.jpg]"]


def test_a_sound_or_video_beside_the_quiz_is_named_by_its_file_name_never_its_server_path():
    sound = MediaView(MediaKind.AUDIO, "/srv/bot/telegram:-100/sounds/secret.mp3")
    clip = MediaView(MediaKind.VIDEO, "/srv/bot/telegram:-100/clips/secret-clip.mp4")
    shown = card(QuestionKind.TYPED, media=sound)
    assert "🔊 Listen: secret.mp3" in render.question_body(shown)
    assert render.media_lines("en", clip) == ["🎬 Watch: secret-clip.mp4"]
    reveal = Reveal(shown, "", "Berlin", "Why.", (), (), kind=QuestionKind.TYPED, explanation_media=clip)
    for text in (render.question_body(shown), render.revealed(reveal, 4096)):  # Telegram, the terminal
        assert "/srv" not in text and "telegram:" not in text
    embed = views.question_embed(shown)  # Discord
    assert "secret.mp3" in (embed.description or "") and "/srv" not in (embed.description or "")


def test_a_typed_questions_reveal_lists_the_answers_given_and_the_right_one():
    reveal = Reveal(
        card(QuestionKind.TYPED),
        "",
        "Zürich",
        "",
        (),
        (Scorer("Ann", "zurch", True, 900, 3.0, 1), Scorer("Bob", "Geneva", False, 0, 5.0, 0)),
        kind=QuestionKind.TYPED,
        responses=(("geneva", 1), ("zurch", 1)),
    )
    text = render.revealed(reveal, 4096)
    assert "✅ Right answer: Zürich" in text and "A)" not in text and "▓" not in text
    assert "Answers given:\n• geneva × 1\n• zurch × 1" in text
    assert "Ann +900" in text and "Bob" not in text.split("Scored:")[1]
    assert render.closed_notice(reveal).text == "Question 3 closed: Zürich"


def test_partial_credit_shows_among_who_scored():
    reveal = Reveal(
        card(QuestionKind.MULTI),
        "A",
        "Tabs",
        "",
        (1,),
        (Scorer("Ann", "A", False, 500, 3.0, 0),),
        kind=QuestionKind.MULTI,
    )
    text = render.revealed(reveal, 4096)
    assert "Right answers: A" in text and "Ann +500" in text


def test_a_polls_results_mark_no_option_right():
    reveal = Reveal(
        card(QuestionKind.POLL),
        "",
        "",
        "",
        (2,),
        (Scorer("Ann", "A", False, 0, 1.0, 0), Scorer("Bob", "A", False, 0, 2.0, 0)),
        kind=QuestionKind.POLL,
    )
    text = render.revealed(reveal, 4096)
    assert "📊 Poll results" in text and "2 votes" in text and "✅" not in text
    assert render.closed_notice(reveal).text == "Question 3 closed."


def test_a_right_to_left_quiz_reads_right_to_left_while_the_bots_words_stay_in_english():
    arabic = card(QuestionKind.CHOICE, prompt="ما عاصمة فرنسا؟", direction_rtl=True)
    assert render.prompt(arabic).startswith(bidi.RLM)
    assert render.option_lines(arabic)[0].startswith(bidi.RLM)
    assert bidi.RLM not in render.question_title(arabic) and "Question 3/6" in render.question_title(arabic)
    assert not render.prompt(card(QuestionKind.CHOICE)).startswith(bidi.RLM)


def test_the_content_direction_follows_the_quizs_language_and_its_translations():
    question = Question("q", LocalText({"en": "ما عاصمة فرنسا؟", "hi": "फ्रांस की राजधानी?"}), (), -1)
    quiz = Quiz("ar", LocalText({"en": "عربي"}), LocalText({"en": "-"}), (question,), language="ar")
    assert content_rtl(quiz, question, "en") and content_rtl(quiz, question, "sn"), "the default texts: Arabic"
    assert not content_rtl(quiz, question, "hi"), "its Hindi translation reads left to right"
    assert not content_rtl(replace(quiz, language="es-MX"), question, "en")
    assert content_rtl(replace(quiz, language="fa-IR"), question, "en")


def test_a_file_beside_the_quiz_is_found_by_its_absolute_path_and_a_url_stays_as_it_is():
    quiz = Quiz("q", LocalText({"en": "Q"}), LocalText({"en": "-"}), (), source="/srv/quizzes/animals.yaml")
    lion = Media(MediaKind.IMAGE, "pictures/lion.jpg", LocalText({"en": "a lion", "hi": "एक शेर"}))
    assert media_view(lion, quiz, "hi") == MediaView(MediaKind.IMAGE, "/srv/quizzes/pictures/lion.jpg", "एक शेर")
    url = Media(MediaKind.AUDIO, "https://example.org/a.mp3")
    assert media_view(url, quiz, "en") == MediaView(MediaKind.AUDIO, "https://example.org/a.mp3", "")


def test_a_stored_card_and_reveal_of_any_kind_read_back_whole():
    from bot.domain.outbox_codec import dump_card, dump_close, load_card, load_close

    lion = MediaView(MediaKind.IMAGE, "/srv/quizzes/pictures/lion.jpg", "a lion")
    shown = card(QuestionKind.MULTI, media=lion, done_token="qd:1:3", direction_rtl=True)
    assert load_card(dump_card(shown)) == shown
    reveal = Reveal(
        card(QuestionKind.TYPED, answer_token="qt:1:3"),
        "",
        "Zürich",
        "",
        (),
        (Scorer("Ann", "zurch", True, 900, 3.0, 1),),
        kind=QuestionKind.TYPED,
        responses=(("zurch", 1),),
        explanation_media=MediaView(MediaKind.AUDIO, "https://example.org/a.mp3"),
    )
    assert load_close(dump_close(None, reveal)) == (None, reveal)
