"""Share right, flags and discrimination for every scored kind (issue #48): ten players answer a
select-all-that-apply question with partial credit, a typed, a numeric and an ordering question,
and a poll; /quizstats and `quizhost stats --json` on the SQLite file they played into credit a
partly right answer its share, flag each scored question from ten players on, and leave the poll
without a share right or a flag."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef
from bot.engine.core import Engine, EngineSettings, StartStatus
from bot.testing.fakes import group, player
from tests.support.house import build, house_of

QUIZ = """id: every-kind
title: Every kind
description: One question of each scored kind, and a poll
questions:
  - id: primes
    kind: multi
    prompt: Which are prime?
    options: ["2", "4", "5", "9"]
    answer: [0, 2]
    scoring: partial
  - id: eth
    kind: typed
    prompt: Which Swiss city has the ETH?
    accept: [Zürich]
  - id: pi
    kind: numeric
    prompt: Pi to two places?
    answer: 3.14
    tolerance: 0.005
  - id: planets
    kind: ordering
    prompt: From the Sun outwards?
    options: [Mercury, Venus, Earth, Mars]
    scoring: partial
  - id: tabs
    kind: poll
    prompt: Tabs or spaces?
    options: [Tabs, Spaces]
"""
PLAYERS = range(1, 11)
PARTLY = (9, 10)  # these two pick one prime of two, and put two planets of four in place
PLANETS = ["Mercury", "Venus", "Earth", "Mars"]


def token(card, text: str) -> str:
    return next(o.token for o in card.options if o.text == text)


def picks(n: int) -> list[str]:
    return ["2"] if n in PARTLY else ["2", "5"]


def order(n: int) -> list[str]:
    return ["Mercury", "Venus", "Mars", "Earth"] if n in PARTLY else PLANETS


def typed(n: int, card) -> str:
    return ("Zürich" if n == 1 else "Geneva") if card.prompt.startswith("Which Swiss") else "3.14"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    quizzes = tmp_path / "quizzes"
    quizzes.mkdir()
    (quizzes / "every-kind.yaml").write_text(QUIZ, encoding="utf-8")
    return quizzes


async def play(engine: Engine, adapter, clock, chat: ChatRef) -> None:
    """One run: each player answers each question as above (the poll: Tabs)."""
    assert (await engine.start(chat, "every-kind", player(1))).status is StartStatus.STARTED
    clock.advance(3)
    await engine.run_due()
    for pressed in (picks, None, None, order, lambda n: ["Tabs"]):
        card = adapter.questions[-1]
        for n in PLAYERS:
            clock.advance(0.5)
            if pressed is None:
                assert (await engine.answer_text(chat, player(n), typed(n, card))) is not None
                continue
            for text in pressed(n):
                assert (await engine.answer(token(card, text), player(n), chat)).accepted
        clock.advance(30)
        await engine.run_due()  # the deadline
        clock.advance(5)
        await engine.run_due()  # the next question, or the podium


def blocks(report: str) -> dict[str, str]:
    """/quizstats' block of each question, by its number (Q1...)."""
    return {block.split(" ", 1)[0]: block for block in report.split("\n\n")}


async def test_every_scored_kind_gets_its_share_right_flags_and_discrimination(
    store, clock, adapter, folder, tmp_path, monkeypatch, capsys
):
    engine = build(Catalog.load([folder]), store, clock, EngineSettings(question_seconds=30)).engine
    engine.attach(adapter)
    chat = group()
    await play(engine, adapter, clock, chat)

    report = (await house_of(engine).commands.handle("quizstats", "every-kind", Caller(chat, player(1), True))).text
    primes, eth, pi, planets, tabs = (blocks(report)[f"Q{n}"] for n in range(1, 6))
    # eight players right, two half right: (8 + 2 × 0.5) / 10, where counting full credit only gave 80%
    assert "10 answers · 90% right" in primes and "discrimination +0.33" in primes, primes
    assert "A 10✓ · B 0 · C 8✓ · D 0" in primes and "⚠️ too easy: 90% answered right" in primes
    assert "10 answers · 10% right" in eth and "⚠️ too hard: only 10% answered right" in eth, eth
    assert "10 answers · 100% right" in pi and "⚠️ too easy: 100% answered right" in pi, pi
    # eight orders right, two with two planets of four in place
    assert "10 answers · 90% right" in planets and "discrimination +0.33" in planets, planets
    assert "⚠️ too easy: 90% answered right" in planets
    assert "10 answers · - right" in tabs and "discrimination -" in tabs and "⚠️" not in tabs, tabs
    assert "no flags yet" not in report

    await store.close()  # the bot is done: the command opens the file itself
    monkeypatch.setenv("QUIZHOST_QUIZZES", str(folder))
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    capsys.readouterr()
    args = ["stats", "every-kind", "--chat", chat.key, "--json", "--db", str(tmp_path / "quizhost.db")]
    assert await asyncio.to_thread(main, args) == 0  # the command runs its own event loop
    (figures,) = json.loads(capsys.readouterr().out)["quizzes"]
    by_id = {f["id"]: f for f in figures["questions"]}
    shares = {qid: f["share_right"] for qid, f in by_id.items()}
    assert shares == {"primes": 0.9, "eth": 0.1, "pi": 1.0, "planets": 0.9, "tabs": None}
    flagged = {qid: [flag["flag"] for flag in f["flags"]] for qid, f in by_id.items()}
    easy, hard = ["too_easy"], ["too_hard"]
    assert flagged == {"primes": easy, "eth": hard, "pi": easy, "planets": easy, "tabs": []}
    assert (by_id["primes"]["right"], by_id["primes"]["split"]) == (8, [10, 0, 8, 0])  # 8 fully right
    assert by_id["primes"]["discrimination"] == pytest.approx(1 / 3, abs=1e-4)
    assert (by_id["tabs"]["discrimination"], by_id["tabs"]["split"]) == (None, [10, 0])
