"""Attacks on a question put in order on Discord, through discord.py and the fake Discord: ten
options of 120 characters (within Discord's 80-character labels and 100-character custom ids),
a forged "Done" in a channel and a forged press for another run."""

from __future__ import annotations

import yaml

from tests.support.discord_harness import (  # noqa: F401
    fake,
    is_question,
    make_settings,
    running_bot,
    server,
)

LONG = [f"{n} " + "x" * 118 for n in range(10)]  # each 120 characters, ten options: the most a question has
QUIZ = yaml.safe_dump(
    {
        "id": "long",
        "title": "Long order",
        "description": "Long options put in order",
        "questions": [{"id": "q", "kind": "ordering", "prompt": "In order?", "options": LONG}],
    }
)


async def test_long_options_fit_and_forged_presses_change_nothing(fake, clock, server, tmp_path):
    _, channel = server
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "long.yaml").write_text(QUIZ, encoding="utf-8")
    ann = fake.add_user("Ann")
    async with running_bot(fake, settings, clock):
        await fake.slash(ann, channel, "quiz", topic="long")
        q1 = await fake.wait_message(channel, is_question(1))
        presses = [b["custom_id"] for b in q1.buttons() if ":qa:" in b["custom_id"]]
        assert len(presses) == 10 and all(len(str(b.get("label", ""))) <= 80 for b in q1.buttons())
        _, _, run_id, number, _ = presses[0].split(":")
        forged = {
            "done": f"quizhost:qd:{run_id}:{number}",
            "other run": f"quizhost:qa:{int(run_id) + 1}:{number}:0",
        }
        first = await fake.press(ann, q1.id, presses[0])
        assert str(first["content"]).startswith("Your order: ") and str(first["content"]).endswith("→ …")
        done = await fake.press(ann, q1.id, forged["done"], forge=True)
        assert done["content"] == "This question is not answered that way."
        other = await fake.press(ann, q1.id, forged["other run"], forge=True)
        assert not str(other["content"]).startswith("Your")
        for custom_id in presses[1:]:
            said = await fake.press(ann, q1.id, custom_id)
        assert str(said["content"]).startswith("Your answer: "), "all ten placed: final"
        clock.advance(30)
        revealed = await fake.wait_message(channel, lambda m: m.id == q1.id and "Right order" in m.text)
        assert "Ann +" in revealed.text or "Nobody got it right." in revealed.text
    assert fake.violations == []
