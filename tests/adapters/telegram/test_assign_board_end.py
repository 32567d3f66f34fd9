"""An assignment in a group with /settings board end: its group message says who has finished
but names no top three before the deadline's podium, which ranks them as ever."""

from __future__ import annotations

from tests.adapters.telegram.test_assign_telegram import DEADLINE, at_deadline, edited, group_message, plays
from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th

MEDALS = ("🥇", "🥈", "🥉")


async def test_a_board_end_groups_assignment_shows_no_top_three_until_its_podium(fake, clock, tmp_path):
    quiz = tiny(tmp_path)
    group = fake.group(-2001, "Class 7B")
    tess_user = fake.user(70, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    ann_user = fake.user(71, "Ann")
    fake.join(group, ann_user)
    ann = th.Member(fake, fake.private(ann_user), ann_user)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await tess.says("/settings tz Europe/Berlin")
        assert "Standings: at the end only" in (await tess.says("/settings board end")).text
        await tess.says(f"/assign tiny until {DEADLINE}")
        await fake.wait_for(lambda: group_message(fake, group), what="the group message")
        await plays(fake, ann, quiz, (True, True, False))
        clock.advance(61)
        progress = await edited(fake, group, 1)
        assert "1 member has finished · 1 started" in progress.text
        assert "Ann" not in progress.text and not any(medal in progress.text for medal in MEDALS)
        podium = await at_deadline(fake, clock, group)
        assert "🥇 Ann:" in podium.text and "2/3 right" in podium.text
