"""A run that ends with threads left running exits anyway, with the run's own status.

A test that fails while an aiosqlite connection is open can leave that connection's worker
thread running (not a daemon: the interpreter waits for it at exit), held by the failure's
traceback: the summary is printed and then the run hangs until CI's time limit, hiding the
failure it just reported. After pytest has said everything, stray threads are named, given a
few seconds to end, and then the process exits with pytest's status.
"""

from __future__ import annotations

import os
import sys
import threading

import pytest

GRACE_SECONDS = 5.0
_status: list[int] = []


def note_status(exitstatus: int | pytest.ExitCode) -> None:
    _status[:] = [int(exitstatus)]


def exit_past_stray_threads() -> None:
    stray = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    for thread in stray:
        thread.join(GRACE_SECONDS / max(len(stray), 1))
    left = [t for t in stray if t.is_alive()]
    if not left or not _status:
        return
    names = ", ".join(sorted(t.name for t in left))
    print(f"\nstray threads still running after the tests ({names}): exiting with pytest's status", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_status[0])
