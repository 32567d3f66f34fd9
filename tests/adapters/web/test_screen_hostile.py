"""The big screen as an outsider tries it: headers and forms a browser would never send."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands.weblinks import signer_for
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine


@pytest.mark.parametrize("last_id", ["\u00b2", "\u0661\u0662", "-1", "1e3", " ", "9" * 40])
async def test_a_last_event_id_that_is_no_id_of_ours_starts_a_new_viewer(tmp_path: Path, last_id: str):
    """Digits int() refuses (a superscript) or reads (Arabic-Indic), signs, exponents, 10^40:
    the viewer gets the open question as a new viewer does, never a stream that died at once."""
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        assert (await engine.start(group(), "pipeline", player(1, "Ann"))).status is StartStatus.STARTED
        clock.advance(5)
        await engine.run_due()
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events", raw_last_id=last_id) as stream:
                (shown,) = await seen(stream, "question", 1)
                assert shown.data["prompt"] == adapter.questions[-1].prompt
    finally:
        await store.close()
