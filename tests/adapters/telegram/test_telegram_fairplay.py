"""A minimum account age is Discord's alone: a Telegram user id does not tell how old an account
is, so /settings min_age says so there and changes nothing."""

from __future__ import annotations

from tests.support.telegram_harness import Member, fake, running_bot, settings_for  # noqa: F401


async def test_telegram_says_a_minimum_account_age_is_not_available_there(fake, clock, tmp_path):
    group = fake.group(-1050)
    cy = Member(fake, group, fake.user(33, "Cy"))
    fake.make_admin(group, cy.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        refused = (await cy.says("/settings min_age 7d")).text
        assert "works only on Discord" in refused and "Telegram" not in refused  # the terminal says it too
        shown = (await cy.says("/settings")).text
        assert "Question time" in shown and "account age" not in shown
