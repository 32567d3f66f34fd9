"""A download written as it is read: a page of answers at a time from the store
(bot/commands/results.py), each page made into CSV or added to the .xlsx file on a thread, so
the event loop goes on serving while it is written and memory holds one page, not the history.

CSV goes out page by page. An .xlsx file is a zip whose parts are only complete at the end:
openpyxl's write-only workbook writes it to a temporary file, which then goes out in chunks
and is deleted. `write` is the one way out: an HTTP response, a file, standard output.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncGenerator, AsyncIterable, Awaitable, Callable
from pathlib import Path

from bot.commands import sheets
from bot.commands.results import Line

CHUNK_BYTES = 256 << 10  # read from a finished .xlsx file and written out at a time

Write = Callable[[bytes], Awaitable[None]]


async def write_results(pages: AsyncIterable[list[Line]], kind: str, write: Write, folder: Path | None = None) -> int:
    """Every page's lines written out as a file of that kind (one of sheets.FORMATS); how many
    lines there were. `folder`: where an .xlsx file is put together (default: the system's)."""
    if kind == "csv":
        return await _csv(pages, write)
    return await _xlsx(pages, write, folder)


async def _csv(pages: AsyncIterable[list[Line]], write: Write) -> int:
    count = 0
    async for page in pages:
        await write(await asyncio.to_thread(sheets.csv_part, page, count == 0))
        count += len(page)
    if count == 0:  # no answer at all: still the headings
        await write(sheets.csv_part((), True))
    return count


async def _xlsx(pages: AsyncIterable[list[Line]], write: Write, folder: Path | None) -> int:
    count, sheet = 0, sheets.XlsxSheet()
    async for page in pages:
        await asyncio.to_thread(sheet.add, page)
        count += len(page)
    with tempfile.TemporaryFile(dir=folder, suffix=".xlsx") as out:  # deleted when closed
        await asyncio.to_thread(sheet.save, out)
        await asyncio.to_thread(out.seek, 0)
        while chunk := await asyncio.to_thread(out.read, CHUNK_BYTES):
            await write(chunk)
    return count


async def one_page(lines: list[Line]) -> AsyncGenerator[list[Line], None]:
    """Lines already in memory (one run's report) as the pages `write_results` takes."""
    yield lines
