"""The upload form read as it arrives: its small fields in memory, its file in chunks to a
spooled temporary file (memory up to MEMORY_BYTES, then a file in the uploads folder), and no
further than one byte past the largest file accepted. A request's whole body is never held in
memory, so a burst of large uploads leaves no burst of memory behind.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from aiohttp import BodyPartReader, web

MEMORY_BYTES = 64 << 10  # a file larger than this goes to disk
CHUNK_BYTES = 64 << 10
FIELD_BYTES = 4096  # a form field beside the file (the CSRF token)
MAX_FIELDS = 8


class NotAForm(ValueError):
    """The body is no multipart form, or a broken one."""


@dataclass
class Form:
    fields: dict[str, str] = field(default_factory=dict)
    filename: str = ""  # the file's name as sent; empty when no file came
    file: IO[bytes] | None = None  # what was read of it, from its start
    size: int = 0  # bytes of the file read
    too_big: bool = False  # reading stopped one byte past the most accepted

    def data(self) -> bytes:
        if self.file is None:
            return b""
        self.file.seek(0)
        return self.file.read()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()

    def __enter__(self) -> Form:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


async def read_form(request: web.Request, folder: Path, most: int, file_field: str = "file") -> Form:
    """The form's fields and its file `file_field` (at most `most` bytes of it are kept)."""
    if not request.content_type.startswith("multipart/"):
        raise NotAForm("not a multipart form")
    form = Form()
    try:
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue  # skipped: the next part releases it unread
            if part.filename is None and len(form.fields) < MAX_FIELDS:
                form.fields[part.name] = await _small(part)
            elif part.filename is not None and part.name == file_field and form.file is None:
                form.filename = part.filename
                form.file = tempfile.SpooledTemporaryFile(max_size=MEMORY_BYTES, dir=str(folder))  # noqa: SIM115 (Form.close)
                await _spool(part, form, most)
                if form.too_big:
                    break
    except ValueError as exc:  # aiohttp's multipart parser: a broken boundary or headers
        form.close()
        raise NotAForm(str(exc)) from None
    except BaseException:
        form.close()
        raise
    return form


async def _small(part: BodyPartReader) -> str:
    data = b""
    while chunk := await part.read_chunk(FIELD_BYTES):
        data += chunk
        if len(data) > FIELD_BYTES:
            raise NotAForm(f"the field {part.name!r} is longer than {FIELD_BYTES} bytes")
    return data.decode("utf-8", "replace")


async def _spool(part: BodyPartReader, form: Form, most: int) -> None:
    assert form.file is not None
    while chunk := await part.read_chunk(CHUNK_BYTES):
        form.size += len(chunk)
        if form.size > most:
            form.too_big = True
            return
        form.file.write(chunk)
