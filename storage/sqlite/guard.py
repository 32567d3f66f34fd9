"""What keeps a SQLite file safe to use: one process at a time, opening errors said in one
line, and the file watched while the bot runs.

- A second `quizhost run` (or `play`) on the same file would interleave two engines' runs of
  the same chats. The first process holds an exclusive lock on `<file>.lock` (flock: the
  kernel releases it when the process dies, however it dies); the second is refused at once.
  A separate file, because closing any descriptor of the database itself would drop the
  POSIX locks SQLite holds on it.
- A garbage file, a folder the process cannot write, or a schema from a newer quizhost raise
  StoreUnavailable, whose one-line message names QUIZHOST_DB; the connection is closed first,
  so aiosqlite's thread (not a daemon) cannot keep the process alive.
- The file deleted or replaced under a running bot: SQLite would go on writing to the
  unlinked file and every answer would be lost at the next start. `watch` notices it.
"""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from storage.dburl import SETTING, StoreUnavailable

try:
    import fcntl
except ImportError:  # Windows: no flock; one process per file is then the operator's to keep
    fcntl = None  # type: ignore[assignment]

WATCH_SECONDS = 1.0


@dataclass(frozen=True)
class FileIdentity:
    """Which file a path named when it was opened (device and inode)."""

    device: int
    inode: int

    @classmethod
    def of(cls, path: str) -> FileIdentity | None:
        try:
            stat = os.stat(path)
        except OSError:
            return None
        return cls(stat.st_dev, stat.st_ino)


def is_file_database(path: str) -> bool:
    return path not in ("", ":memory:") and not path.startswith("file:")


class ProcessLock:
    """An exclusive lock on `<database>.lock` for as long as this process uses the database."""

    def __init__(self, database: str) -> None:
        self.path = f"{database}.lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        if fcntl is None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise _lock_file_problem(self.path[: -len(".lock")], exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f"process {holder}" if holder else "another process"
            raise unavailable(
                self.path[: -len(".lock")],
                f"is in use by another quizhost ({who} holds "
                f"{self.path}); stop it first, or give this one its own file",
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the lock goes with the descriptor; the file may stay
            self._fd = None


def _lock_file_problem(path: str, error: OSError) -> StoreUnavailable:
    folder = Path(path).parent
    if error.errno == errno.ENOENT:
        return unavailable(path, f"cannot be opened: the folder {folder} does not exist")
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return unavailable(
            path,
            f"cannot be written: the folder {folder} is read-only for quizhost "
            f"({error.strerror}); quizhost needs to write the file and its folder",
        )
    return unavailable(path, f"cannot be opened: {error.strerror}")


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdecimal() else ""


def unavailable(path: str, why: str) -> StoreUnavailable:
    return StoreUnavailable(f"{SETTING}={path}: {why}")


def opening_problem(path: str, error: BaseException) -> StoreUnavailable:
    """One line for an error met while opening the file, with what to do about it."""
    text = str(error)
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
        return unavailable(
            path,
            "is not a SQLite database (the file holds something else); "
            "point it at a quizhost database or at a new file",
        )
    if "readonly" in text or "read-only" in text or isinstance(error, PermissionError):
        return unavailable(path, f"cannot be written ({text}); quizhost needs to write the file and its folder")
    if "unable to open" in text:
        folder = Path(path).parent
        return unavailable(path, f"cannot be opened ({text}): does {folder} exist and may this user write it?")
    return unavailable(path, f"cannot be used: {text}")


def newer_schema(path: str, found: int, known: int) -> StoreUnavailable:
    return unavailable(
        path,
        f"was written by a newer quizhost (schema version {found}; this one knows up "
        f"to {known}): upgrade quizhost, or point {SETTING} at another file",
    )


async def watch(path: str, opened: FileIdentity | None, every: float | None = None) -> None:
    """Return never; raise StoreUnavailable once `path` no longer names the file that was opened."""
    while True:
        await asyncio.sleep(every or WATCH_SECONDS)
        now = FileIdentity.of(path)
        if now is None:
            raise unavailable(
                path,
                "was deleted while quizhost ran; stopped so no answer is written to a "
                "file nobody can read again. Restore it (or set a new path) and start again",
            )
        if opened is not None and now != opened:
            raise unavailable(
                path,
                "was replaced by another file while quizhost ran; stopped rather than mix "
                "two databases. Check which file is right and start again",
            )
