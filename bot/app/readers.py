"""A small pool of reader processes, so that reading an uploaded file never runs on the event
loop, and a runaway read can be stopped (bot.ports.offload is the port the content layer uses).

Each reader is a process of its own, started with 'spawn' (a fresh interpreter: forking a
process that runs asyncio and threads is not safe) the first time it is needed, and replaced
when it is killed or dies. A job gets `seconds` of wall-clock time and the reader at most
`megabytes` of address space (RLIMIT_AS): past either, the reader is killed or refuses, and
the job is refused naming the budget. At most `readers` jobs run at once; the others wait
`wait_seconds` for a turn, then are refused as busy.

Budgets: the slowest good file (a 500-question sheet or YAML file) reads in well under a
second, so 5 s leaves room on a loaded machine while a hostile one stops soon. A reader's
interpreter with its libraries maps about 50 MB; the worst files within the upload limits (a
20 MB-unpacked sheet, a 1 MB YAML file) peak under 140 MB. 512 MB is over three times that,
and two readers stay far below what a small server has.

'spawn' runs the parent's main module again in a reader (as `__mp_main__`): the entry points
(`quizhost`, `python -m bot.cli`) start nothing when imported, as any script that starts a
reader must.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import resource
import signal
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

from bot.ports.offload import Arg, Busy, Failed, OverMemory, OverTime, Refused, Result

log = logging.getLogger("quizhost.readers")

READ_SECONDS = 5.0
READ_MEGABYTES = 512
READERS = 2
WAIT_SECONDS = 10.0
START_SECONDS = 60.0  # a new reader loading its libraries on a busy machine: not the job's time
NICENESS = 10  # a reader yields the CPU to the bot's own process: its players come first
PRELOAD = ("bot.content.reading",)  # what the jobs import, loaded before the budget starts


class _Late(Exception):
    pass


class Reader:
    """One reader process; its blocking calls run in a thread, never on the event loop."""

    def __init__(self, megabytes: int, preload: Sequence[str]) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=serve, args=(child, megabytes, tuple(preload)), name="quizhost reader", daemon=True
        )
        self._child: Connection | None = child
        self._started = False

    def call(self, job: Callable[[Any], Any], arg: Any, seconds: float) -> tuple[str, Any]:
        """(kind, value) as the reader sends it; raises _Late past `seconds`, EOFError if it died."""
        if not self._started:
            self.process.start()
            assert self._child is not None
            self._child.close()
            self._started = True
            if not self.conn.poll(START_SECONDS):
                raise EOFError("the reader did not start")
            self.conn.recv()  # ready: libraries loaded, memory limited
        self.conn.send((job, arg))
        if not self.conn.poll(seconds):
            raise _Late
        kind, value = self.conn.recv()
        return kind, value

    def kill(self) -> None:
        """Stop the process at once (the thread waiting on it sees the pipe close)."""
        if self._started:
            self.process.kill()

    def exit_code(self) -> int | None:
        if not self._started:
            return None
        self.process.join(1.0)
        return self.process.exitcode


class ReaderPool:
    """bot.ports.offload.Offload in reader processes: see the module's docstring."""

    def __init__(
        self,
        readers: int = READERS,
        seconds: float = READ_SECONDS,
        megabytes: int = READ_MEGABYTES,
        wait_seconds: float = WAIT_SECONDS,
        preload: Sequence[str] = PRELOAD,
    ) -> None:
        self.seconds, self.megabytes, self.wait_seconds = seconds, megabytes, wait_seconds
        self._preload = tuple(preload)
        self._idle: asyncio.Queue[Reader | None] = asyncio.Queue()
        for _ in range(readers):
            self._idle.put_nowait(None)  # started when first needed
        self._all: set[Reader] = set()
        self._closed = False

    async def run(self, job: Callable[[Arg], Result], arg: Arg) -> Result:
        if self._closed:
            raise Busy
        try:
            reader = await asyncio.wait_for(self._idle.get(), self.wait_seconds)
        except TimeoutError:
            raise Busy from None
        if reader is None:
            reader = Reader(self.megabytes, self._preload)
            self._all.add(reader)
        kept: Reader | None = None
        try:
            kind, value = await asyncio.to_thread(reader.call, job, arg, self.seconds)
            kept = reader if kind != "memory" else None  # a reader that ran out may be left in pieces
            return _result(kind, value, self.megabytes)
        except Refused:  # the job's own answer: OverMemory, Failed
            raise
        except _Late:
            raise OverTime(self.seconds) from None
        except (EOFError, OSError):
            code = await asyncio.to_thread(reader.exit_code)
            raise Failed("", f"the reading process stopped (exit code {code})") from None
        except Exception as error:  # the pool's own trouble (a reader that cannot start): a refusal all the same
            log.exception("a reader failed")
            raise Failed(type(error).__name__, str(error)) from None
        finally:
            if kept is None:
                reader.kill()
                self._all.discard(reader)
            self._idle.put_nowait(kept)

    async def close(self) -> None:
        """Stop every reader, busy or not; jobs still waiting are refused."""
        self._closed = True
        for reader in list(self._all):
            reader.kill()
        await asyncio.gather(*(asyncio.to_thread(r.exit_code) for r in self._all))
        self._all.clear()


def _result(kind: str, value: Any, megabytes: int) -> Any:
    if kind == "done":
        return value
    if kind == "memory":
        raise OverMemory(megabytes)
    name, detail = value
    raise Failed(name, detail)


def serve(conn: Connection, megabytes: int, preload: tuple[str, ...]) -> None:
    """A reader process: load the libraries, limit the memory, then run jobs until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in `quizhost play` is the bot's to handle: it stops us
    os.nice(NICENESS)
    for module in preload:
        importlib.import_module(module)
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    conn.send(("ready", None))
    while True:
        try:
            job, arg = conn.recv()
        except EOFError:
            return
        try:  # the answer is pickled whole before a byte is sent: a failure here sends nothing
            conn.send(_run(job, arg))
        except MemoryError:
            conn.send(("memory", None))
        except Exception as error:  # an answer that cannot be pickled
            conn.send(_failed(error))


def _run(job: Callable[[Any], Any], arg: Any) -> tuple[str, Any]:
    try:
        return "done", job(arg)
    except MemoryError:
        return "memory", None
    except Exception as error:  # any failure of the job is its answer, never the reader's end
        return _failed(error)


def _failed(error: Exception) -> tuple[str, Any]:
    return "failed", (type(error).__name__, str(error))
