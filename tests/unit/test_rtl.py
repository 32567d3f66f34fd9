"""Urdu messages read right to left with letters, numbers and Latin terms in their places.

The exact isolates are checked first (what we send); then the lines are laid out by a real
implementation of the Unicode Bidirectional Algorithm to check what a reader sees.
"""

from __future__ import annotations

import pytest

from bot.domain.model import ChatRef, OptionView, PlayerStats, Podium, QuestionCard, Reveal, Scorer, Standing
from bot.domain.records import RunStatus
from bot.domain.worth import Record
from bot.texts import bidi, render
from bot.texts.bidi import FSI, LRI, PDI, RLI, RLM

CHAT = ChatRef("test", "g1")
CONTROLS = set(bidi.CONTROLS)


def card(lang: str = "ur", **texts: str) -> QuestionCard:
    options = texts.get("options", "مرحلہ 1|GPU میموری|CPU/NVMe آف لوڈنگ|Stage 3").split("|")
    return QuestionCard(
        run_id=7,
        chat=CHAT,
        language=lang,
        quiz_title=texts.get("title", "ڈیپ اسپیڈ کوئز"),
        number=3,
        total=8,
        prompt=texts.get("prompt", "ZeRO کا کون سا مرحلہ سب سے پہلے شارڈ کرتا ہے؟"),
        options=tuple(OptionView(letter, text, f"qa:7:3:{i}") for i, (letter, text) in enumerate(zip("ABCD", options))),
        seconds=30,
        deadline=0.0,
    )


def reveal(c: QuestionCard, explanation: str = "ZeRO-3 کے ساتھ بیکار وقت تقریباً (p-1)/(m+p-1) ہے۔") -> Reveal:
    answers = (
        Scorer("Ali", "B", True, 950, 12.3, 2),
        Scorer("عائشہ", "B", True, 900, 14.0, 1),
        Scorer("Sam", "A", False, 0, 3.0, 0),
    )
    return Reveal(c, "B", c.options[1].text, explanation, (1, 2, 0, 0), answers)


def iso(text: str) -> str:
    return LRI + text + PDI


# what we send ----------------------------------------------------------------------------


def test_urdu_question_isolates_counter_letters_numbers_and_latin_terms():
    c = card()
    assert render.question_title(c) == RLM + "سوال " + iso("3/8") + " · " + RLI + "ڈیپ اسپیڈ کوئز" + PDI
    assert render.question_body(c).split("\n") == [
        RLM + iso("ZeRO") + " کا کون سا مرحلہ سب سے پہلے شارڈ کرتا ہے؟",
        "",
        RLM + iso("A") + ") " + RLI + "مرحلہ " + iso("1") + PDI,
        RLM + iso("B") + ") " + RLI + iso("GPU") + " میموری" + PDI,
        RLM + iso("C") + ") " + RLI + iso("CPU/NVMe") + " آف لوڈنگ" + PDI,
        RLM + iso("D") + ") " + iso("Stage 3"),  # English fallback text: one LTR unit
        "",
        RLM + "⏱ جواب کے لیے " + iso("30") + " سیکنڈ",
    ]


def test_urdu_in_plain_text_counts_in_words_and_says_the_right_answer_with_isolates():
    lines = render.revealed(reveal(card("ur-x-plain")), 4096).split("\n")
    assert RLM + iso("B") + ": " + iso("2") + " جوابات، " + iso("67%") in lines, "no bar: the count and share"
    assert RLM + "درست جواب: " + iso("B") + "، " + RLI + iso("GPU") + " میموری" + PDI + "۔" in lines
    assert not [line for line in lines if "▓" in line or "✅" in line or "🔥" in line]


def test_urdu_reveal_isolates_points_seconds_bars_and_formulas():
    r = reveal(card())
    assert render.reveal_title(r) == RLM + "درست جواب: " + iso("B") + ") " + RLI + iso("GPU") + " میموری" + PDI
    lines = render.revealed(r, 4096).split("\n")
    assert lines[-12:] == [
        RLM + iso("A") + " " + iso("1") + " ▓▓▓░░░░░░░",
        RLM + iso("B") + " " + iso("2") + " ▓▓▓▓▓▓▓░░░",
        RLM + iso("C") + " " + iso("0") + " ░░░░░░░░░░",
        RLM + iso("D") + " " + iso("0") + " ░░░░░░░░░░",
        "",
        "✅ " + render.reveal_title(r),
        "",
        RLM + iso("ZeRO-3") + " کے ساتھ بیکار وقت تقریباً " + iso("(p-1)/(m+p-1)") + " ہے۔",
        "",
        RLM + "پوائنٹس ملے:",
        RLM + FSI + "Ali" + PDI + " " + iso("+950") + " (" + iso("12.3") + " سیکنڈ) 🔥" + iso("2"),
        RLM + FSI + "عائشہ" + PDI + " " + iso("+900") + " (" + iso("14.0") + " سیکنڈ)",
    ]


def test_urdu_closed_question_and_ack():
    r = reveal(card())
    lines = render.revealed(r, 4096).split("\n")  # the question once closed: the right option marked
    assert lines[3] == RLM + "✅ " + iso("B") + ") " + RLI + iso("GPU") + " میموری" + PDI
    assert lines[2].startswith(RLM + "▫️ " + iso("A") + ") ")
    assert render.ack_locked("ur", "B") == RLM + "جواب محفوظ: " + iso("B")


def test_urdu_boards_isolate_names_points_and_fractions():
    standing = Standing(1, "test:u1", "Ali", 1850, 2, 3)
    line = render.podium(
        Podium(CHAT, "ur", "ڈیپ اسپیڈ کوئز", RunStatus.FINISHED, (standing,), 3, {"test:u1": Record(3, 2, 0, 3, 2.0)})
    ).text.split("\n")[0]
    assert line == (
        RLM
        + iso("🥇")
        + " "
        + FSI
        + "Ali"
        + PDI
        + ": "
        + iso("1850")
        + " پوائنٹس · "
        + iso("2/3")
        + " درست · "
        + iso("67%")
    )
    stats = render.stats("ur", PlayerStats("Ali", 1850, 3, 2, 2, 1, 4)).text.split("\n")
    assert stats[-1] == RLM + "درجہ: " + iso("#4")


def test_urdu_commands_in_text_stay_whole():
    text = render.t(
        "ur", "Change them with /settings time 20, /settings pause 3 or /settings tz Asia/Kolkata (admins)."
    )
    assert iso("/settings time 20") in text and iso("/settings pause 3") in text
    assert render.t("ur", "Unknown command {command}. /help lists the commands.", command="/nonsense") == (
        RLM + "نامعلوم کمانڈ " + iso("/nonsense") + "۔ " + iso("/help") + " تمام کمانڈز دکھاتا ہے۔"
    )


def test_isolates_only_add_marks_never_change_the_text():
    r = reveal(card())
    plain = bidi.strip(render.revealed(r, 4096))
    assert "Ali +950 (12.3 سیکنڈ) 🔥2" in plain
    assert r.explanation in plain and bidi.strip(render.question_body(r.card)).startswith(r.card.prompt)


@pytest.mark.parametrize("lang", ["en", "hi", "sn"])
def test_left_to_right_languages_carry_no_marks(lang):
    c = card(lang, title="मॉडल समांतरता", prompt="GPU मेमोरी?", options="एक|दो|तीन|चार")
    r = reveal(c, explanation="क्योंकि (p-1)/(m+p-1).")
    texts = [
        render.question_title(c),
        render.question_body(c),
        render.reveal_title(r),
        render.revealed(r, 4096),
        render.ack_locked(lang, "B"),
        render.time_limit(c),
        render.podium(
            Podium(
                CHAT,
                lang,
                "T",
                RunStatus.FINISHED,
                (Standing(1, "k", "Ali", 5, 1, 1),),
                1,
                {"k": Record(1, 1, 0, 1, 1.0)},
            )
        ).text,
    ]
    for text in texts:
        assert not CONTROLS & set(text), repr(text)


def test_runs_inside_urdu_text():
    runs = bidi.isolate_runs
    assert runs("انہیں N GPUs میں") == "انہیں " + iso("N GPUs") + " میں"
    # a number beside a Latin word stays with the Urdu word before it
    assert runs("مرحلہ 0 ZeRO شارڈنگ") == "مرحلہ " + iso("0") + " " + iso("ZeRO") + " شارڈنگ"
    # brackets belong to the run when they are balanced in it, else to the Urdu text
    assert runs("ZeRO (Zero Redundancy Optimizer) سادہ") == iso("ZeRO (Zero Redundancy Optimizer)") + " سادہ"
    assert runs("(all-reduce، reduce-scatter) کے") == "(" + iso("all-reduce") + "، " + iso("reduce-scatter") + ") کے"
    assert runs("'3D متوازی' کیوں") == "'" + iso("3D") + " متوازی' کیوں"
    assert runs("کوئی لاطینی نہیں") == "کوئی لاطینی نہیں"


# what a reader sees: the Unicode Bidirectional Algorithm (python-bidi, Rust unicode-bidi) ---


def layout(line: str) -> tuple[str, bool]:
    """The line in visual order, left to right (marks dropped), and whether its direction is RTL.

    Like a chat client, the paragraph direction comes from the first strong character (P2, P3).
    """
    uba = pytest.importorskip("bidi", reason="python-bidi (a test extra) lays out text by the UBA")
    return bidi.strip(uba.get_display(line)), uba.get_base_level(line) == 1


def test_every_urdu_line_is_laid_out_right_to_left_with_its_numbers_intact():
    r = reveal(card())
    lines = [
        ln
        for text in (
            render.question_title(r.card),
            render.question_body(r.card),
            render.reveal_title(r),
            render.revealed(r, 4096),
        )
        for ln in text.split("\n")
        if ln
    ]
    seen = []
    for line in lines:
        visual, rtl = layout(line)
        assert rtl, f"not right-to-left: {line!r}"  # even "ZeRO ..." and "A) ..." lines
        seen.append(visual)
    shown = "\n".join(seen)
    for intact in ("3/8", "+950", "12.3", "+900", "(p-1)/(m+p-1)", "CPU/NVMe", "ZeRO-3"):
        assert intact in shown, intact
    option_a = layout(render.option_lines(r.card)[0])[0]
    assert option_a.endswith(")A"), option_a  # the letter at the right edge, where an Urdu line begins


def test_without_isolates_the_same_lines_would_break():
    """The reason for all this: plain text with only an RLM shows '900+' and a reversed formula."""
    assert "900+" in layout(RLM + "عائشہ +900 (14.0 سیکنڈ)")[0]
    # the terms swap places (on screen the brackets are mirrored too: "(m+p-1)/(p-1)")
    assert ")m+p-1(/)p-1(" in layout(RLM + "تقریباً (p-1)/(m+p-1) ہے۔")[0]
    assert not layout("ZeRO کا کون سا مرحلہ؟")[1]  # a line starting with Latin would be laid out LTR
