"""Uploaded files are read in reader processes with a time and a memory budget: a file over
either is refused naming the budget, any importer's failure is named (never "Something went
wrong"), a killed reader is replaced, and uploads past the pool's size wait, then are refused
as busy. Small budgets here: the bot's own are 5 s and 512 MB (bot/app/readers.py)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.app.interpreter import serving_interpreter
from bot.app.readers import ReaderPool
from bot.app.settings import Settings
from bot.commands.core import Caller, Commands
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.ports.offload import Failed
from bot.testing.fakes import group, player
from tests.support.heavy_files import big_kahoot_xlsx, big_yaml, deep_json
from tests.support.house import build, house_of
from tests.support.stalls import stall_meter

LONGEST_STALL = 0.050  # seconds, as tests/adapters/telegram/test_upload_stalls.py

CAPITALS = b"Capital of France?\nA. Berlin\nB. Paris\nANSWER: B\n"


@contextlib.asynccontextmanager
async def bot_reading_with(store, clock, adapter, **budgets: float) -> AsyncIterator[Commands]:
    readers = ReaderPool(**budgets)  # type: ignore[arg-type]
    engine = build(Catalog.load(default_quiz_folders()), store, clock, EngineSettings(), offload=readers).engine
    engine.attach(adapter)
    try:
        yield house_of(engine).commands
    finally:
        await readers.close()


def exits(code: int) -> int:
    """A job whose reader dies under it (as one killed by the system would)."""
    os._exit(code)


def admin(chat_id: str = "g1") -> Caller:
    return Caller(group(chat_id), player(1, "Ann"), is_admin=True)


async def test_a_read_over_the_time_budget_is_refused_naming_it_and_the_next_file_is_read(store, clock, adapter):
    async with bot_reading_with(store, clock, adapter, seconds=0.3) as commands:
        slow = await commands.upload(admin(), "big.xlsx", big_kahoot_xlsx())
        assert slow.text == "Nothing was saved: big.xlsx has these problems:\n• file: took longer than 0.3 s to read"
        again = await commands.upload(admin(), "capitals.txt", CAPITALS)  # in a new reader: the slow one was killed
        assert again.text.startswith("Saved capitals: 1 question.")


async def test_a_read_over_the_memory_budget_is_refused_naming_it(store, clock, adapter):
    # a reader starts at about 50 MB; the time budget is out of the way: this big.yaml takes 2.5 s
    # to reach 90 MB here, and more than the default 5 s on a machine whose CPUs are taken
    async with bot_reading_with(store, clock, adapter, megabytes=90, seconds=60) as commands:
        big = await commands.upload(admin(), "big.yaml", big_yaml())
        assert big.text == (
            "Nothing was saved: big.yaml has these problems:\n• file: needed more than 90 MB of memory to read"
        )
        assert (await commands.upload(admin(), "capitals.txt", CAPITALS)).text.startswith("Saved capitals")


async def test_a_file_nested_too_deep_is_named_in_the_chats_language(store, clock, adapter):
    async with bot_reading_with(store, clock, adapter) as commands:
        deep = await commands.upload(admin(), "deep.json", deep_json())
        assert deep.text == "Nothing was saved: deep.json has these problems:\n• file: nested too deeply to read"
        await commands.handle("language", "hi", admin())
        in_hindi = await commands.upload(admin(), "deep.json", deep_json())
        assert in_hindi.text.endswith("• file: पढ़ने के लिए बहुत गहराई तक नेस्टेड है")
        assert "📎" not in (await commands.handle("quizzes", "", admin())).text  # the chat has no quiz of its own


async def test_uploads_past_the_readers_wait_their_turn_then_are_refused_as_busy(store, clock, adapter):
    # big.xlsx takes 5 s to read here, over 30 s on a machine whose CPUs are taken: 120 s lets it finish
    async with bot_reading_with(store, clock, adapter, readers=1, seconds=120, wait_seconds=0.2) as commands:
        slow = asyncio.create_task(commands.upload(admin("g1"), "big.xlsx", big_kahoot_xlsx()))
        await asyncio.sleep(0.5)  # the one reader is taken
        busy = await commands.upload(admin("g2"), "capitals.txt", CAPITALS)
        assert busy.text == (
            "Nothing was saved: capitals.txt has these problems:\n"
            "• file: other files are being read just now: send it again in a minute"
        )
        assert (await slow).text.startswith("Nothing was saved: no question in big.xlsx could be used")
        assert (await commands.upload(admin("g2"), "capitals.txt", CAPITALS)).text.startswith("Saved capitals")


async def test_a_reader_that_dies_is_named_and_replaced_and_nothing_escapes_the_pool():
    readers = ReaderPool(readers=1)
    try:
        with pytest.raises(Failed, match=r"the reading process stopped \(exit code 3\)"):
            await readers.run(exits, 3)
        assert await readers.run(len, "abc") == 3  # a new reader took its place
        with pytest.raises(Failed):  # what cannot even reach a reader (no pickle for it) is refused too
            await readers.run(len, lambda: None)
        assert await readers.run(len, "abcd") == 4
    finally:
        await readers.close()


@contextlib.contextmanager
def own_heap_frozen() -> Iterator[None]:
    """The harness, not the bot: what the test process holds by now (pytest's, every earlier
    test's, the restarted bot's) left out of every collection, so that the stall measured is the
    listing's, with the interpreter tuning (QUIZHOST_INTERPRETER_TUNING) on or off."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def big_quiz(number: int) -> bytes:
    """An Aiken file of 500 questions (the most a quiz may have), about 100 KB."""
    question = "Question {n}.{i}: which option is the second one in this rather long line?\n" + "".join(
        f"{letter}. option {letter} of question {{i}}\n" for letter in "ABCD"
    )
    return "\n".join(question.format(n=number, i=i) + "ANSWER: B\n" for i in range(500)).encode()


async def test_many_large_chat_quizzes_are_listed_after_a_restart_without_stalling_the_loop(store, clock, adapter):
    async with bot_reading_with(store, clock, adapter) as commands:
        for number in range(12):
            saved = await commands.upload(admin(), f"big-{number}.txt", big_quiz(number))
            assert saved.text.startswith(f"Saved big-{number}: 500 questions.")
    async with bot_reading_with(store, clock, adapter) as commands:  # a restart: nothing read yet
        await commands.upload(admin(), "capitals.txt", CAPITALS)  # the readers are started
        tuning = Settings(_env_file=None).quizhost_interpreter_tuning  # type: ignore[call-arg]
        with own_heap_frozen(), serving_interpreter(tuning):  # as `quizhost run` keeps it either way
            async with stall_meter() as meter:
                listing = (await commands.handle("quizzes", "", admin())).text
        print(meter)
        assert all(f"big-{number} (big-{number}): 500 questions" in listing for number in range(12))
        assert meter.longest_own < LONGEST_STALL, str(meter)
