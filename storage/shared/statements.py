"""The three ways to run a statement that the shared query mixins (storage/shared/learning.py,
storage/shared/review.py) need; each store supplies them, with SQLite's `:name` parameters."""

from __future__ import annotations

from typing import Any


class Statements:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def _insert_id(self, sql: str, args: dict[str, Any]) -> int:
        """Run an INSERT of one row; its new `id`."""
        raise NotImplementedError
