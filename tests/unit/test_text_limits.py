"""Names cut where a reader sees a character end; text from platforms safe to store."""

from __future__ import annotations

from bot.adapters.telegram.format import fit, units
from bot.adapters.telegram.presses import NAME_MAX, press_from_json
from bot.texts.textcut import clean, cut

FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # one grapheme, seven code points, eleven UTF-16 units


def test_a_name_is_cut_before_an_emoji_that_does_not_fit_never_inside_it():
    name = "A" * (NAME_MAX - 5) + FAMILY + "B"
    shown = fit(name, NAME_MAX)
    assert units(shown) <= NAME_MAX
    assert shown == "A" * (NAME_MAX - 5) + "…"  # the family did not fit whole: none of it shows
    assert fit("🇮🇳🇮🇳🇮🇳", 5) == "🇮🇳…"  # flags are pairs: never half a flag
    assert cut("e\u0301" * 5, 3) == "e\u0301…"  # a letter keeps its accent


def test_lone_surrogates_become_replacement_characters_and_pairs_stay_whole():
    assert clean("a\ud800b") == "a\ufffdb"
    assert clean("\ud83d\ude00") == "😀"
    assert clean(None) == "" and clean(5) == "5"
    assert clean("a\udfffb").encode("utf-8")  # storable


def test_every_directional_control_is_dropped_from_text_users_wrote_and_nothing_else():
    controls = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)]
    assert clean("Eve" + "".join(controls) + " +974") == "Eve +974"
    assert clean(f"{controls[4]}\ud800x") == "\ufffdx"  # an override and a lone surrogate at once
    kept = "Zoë 😀 اردو \u200d\u200c"  # letters, emoji, joiners: what a name is made of
    assert clean(kept) == kept


def test_a_press_with_odd_fields_is_read_safely():
    query = {
        "id": "q1",
        "data": "qa:1:1:0",
        "from": {"id": 5, "first_name": "\ud800" + "x" * 500, "language_code": 7},
        "message": {"chat": {"id": -1, "type": "supergroup", "title": ["no"]}},
    }
    press = press_from_json(query, 42)
    assert press is not None and press.update_id == 42
    assert press.player.name.startswith("\ufffd") and units(press.player.name) <= NAME_MAX
    assert press.player.language is None and press.chat is not None and press.chat.title == ""
    no_message = press_from_json({**query, "message": None})
    assert no_message is not None and no_message.chat is None
    assert press_from_json({**query, "from": {"id": True}}) is None
