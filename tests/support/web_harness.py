"""A chat's web pages served in-process on loopback, over a database filled by playing quizzes
through the engine (a fake clock: links expire when the test says so)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.adapters.listener import Bounds, Listener
from bot.adapters.web import web_app
from bot.app.web import page_source
from bot.commands.weblinks import LinkSigner, Scope, signer_for
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import ChatRef, Player, Quiz
from bot.engine.core import Engine, EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of


async def play(
    engine: Engine, adapter: RecordingAdapter, chat: ChatRef, quiz: Quiz, rights: dict[Player, Sequence[bool]]
) -> None:
    """One whole run of `quiz` in `chat`: each player answers question i right when rights[player][i]."""
    outcome = await engine.start(chat, quiz.id, next(iter(rights)), None)
    assert outcome.status is StartStatus.STARTED
    for index in range(len(quiz.questions)):
        house_of(engine).clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card = adapter.questions[-1]
        for who, right in rights.items():
            letter = adapter.right_letter(quiz, card) if right[index] else adapter.wrong_letter(quiz, card)
            assert (await engine.answer(adapter.token(letter, card), who, chat)).accepted
            house_of(engine).clock.advance(2)  # type: ignore[attr-defined]
        house_of(engine).clock.advance(30)  # type: ignore[attr-defined]
        await engine.run_due()
    house_of(engine).clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    assert engine.run_in(chat) is None


@dataclass
class Site:
    base: str
    signer: LinkSigner
    engine: Engine

    def link(self, chat: ChatRef, scope: Scope = Scope.ADMIN, player_key: str = "") -> str:
        return self.signer.at(self.base).url(chat.key, scope, house_of(self.engine).clock.now(), player_key)


@contextlib.asynccontextmanager
async def serving(engine: Engine, bounds: Bounds | None = None, uploads: Path | None = None) -> AsyncIterator[Site]:
    """`uploads`: the folder uploads are spooled and held in (default: a temporary one)."""
    signer = await signer_for(house_of(engine).store)
    listener = Listener(web_app(page_source(house_of(engine)), signer, uploads), bounds)
    try:
        (_, port), *_ = await listener.start([("127.0.0.1", 0)])
        yield Site(f"http://127.0.0.1:{port}", signer, engine)
    finally:
        await listener.stop()


async def shipped_engine(db: Path) -> tuple[SqliteStore, FakeClock, Engine, RecordingAdapter]:
    """An engine over a new SQLite file with the shipped quizzes (30 s questions, 5 s pauses), a
    recording adapter attached: what a test plays a quiz through before serving its pages."""
    store = await SqliteStore.open(db)
    clock = FakeClock()
    settings = EngineSettings(question_seconds=30, pause_seconds=5)
    engine = build(Catalog.load(default_quiz_folders()), store, clock, settings).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    return store, clock, engine, adapter
