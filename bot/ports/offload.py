"""Heavy work off the event loop: the port the content layer reads uploaded files through.

A job is a module-level function of one picklable argument returning picklable plain data,
so an implementation may run it in another process (bot/app/readers.py: a small pool with a
time and a memory budget, which the wiring starts and stops). `InProcess` runs it here and
now: the command line, and tests where the point is not the pool.

Whatever goes wrong is one of the errors below, never the job's own exception: the caller
turns each into a refusal that names the file and the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

Arg = TypeVar("Arg")
Result = TypeVar("Result")


class Refused(Exception):
    """The job gave no result."""


class OverTime(Refused):
    def __init__(self, seconds: float) -> None:
        super().__init__(f"took longer than {seconds:g} s")
        self.seconds = seconds


class OverMemory(Refused):
    def __init__(self, megabytes: int) -> None:
        super().__init__(f"needed more than {megabytes} MB")
        self.megabytes = megabytes


class Busy(Refused):
    """Every worker stayed taken while the job waited its turn."""


class Failed(Refused):
    """The job raised (`kind` is the exception's class name) or its worker stopped (no kind)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}" if kind else detail)
        self.kind, self.detail = kind, detail


class Offload(Protocol):
    async def run(self, job: Callable[[Arg], Result], arg: Arg) -> Result: ...


class InProcess:
    """The job on the caller's own thread: no budget, the job's errors as `Failed`."""

    async def run(self, job: Callable[[Arg], Result], arg: Arg) -> Result:
        return call(job, arg)


def call(job: Callable[[Arg], Result], arg: Arg) -> Result:
    try:
        return job(arg)
    except MemoryError:
        raise Failed("MemoryError", "out of memory") from None
    except Exception as error:  # any importer's failure is a refusal, never a crash
        raise Failed(type(error).__name__, str(error)) from None
