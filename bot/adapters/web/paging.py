"""Long tables in pages of ROWS: which rows a page holds, and the links to the pages beside it."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from aiohttp import web

ROWS = 100


@dataclass(frozen=True)
class Paging:
    number: int  # from 1
    total: int  # rows in every page together
    query: tuple[tuple[str, str], ...] = ()  # the page's other query parameters, kept in its links
    size: int = ROWS

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size

    @property
    def first(self) -> int:
        """The page's first row, counted from 1 (0 when there is none)."""
        return min(self.offset + 1, self.total)

    @property
    def last(self) -> int:
        return min(self.offset + self.size, self.total)

    def href(self, number: int) -> str:
        return "?" + urlencode((*self.query, ("page", str(number))))

    @property
    def previous(self) -> str:
        return self.href(self.number - 1) if self.number > 1 else ""

    @property
    def next(self) -> str:
        return self.href(self.number + 1) if self.number < self.pages else ""


def paging(request: web.Request, total: int, size: int = ROWS) -> Paging:
    """The page the request asks for (?page=N), kept within the pages there are."""
    try:
        number = int(request.query.get("page", "1"))
    except ValueError:
        number = 1
    pages = max(1, -(-total // size))
    kept = tuple((k, v) for k, v in request.query.items() if k != "page")
    return Paging(min(max(number, 1), pages), total, kept, size)
