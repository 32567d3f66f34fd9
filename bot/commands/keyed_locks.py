"""A lock per key (an author, a group): what one user sends together is handled in turn where
the store's read-then-write must see the writes before it (a draft's questions, a group's
suggestion limits). Kept only while someone holds or waits on it."""

from __future__ import annotations

import weakref
from asyncio import Lock


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: str) -> Lock:
        """The lock of `key`: the one held or waited on now, else a new one."""
        return self._locks.setdefault(key, Lock())
