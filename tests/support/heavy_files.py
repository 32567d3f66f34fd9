"""The worst files an admin can upload within the limits, made in the test (a hostile .xlsx is
a zip, so it is generated): each one took seconds to read on the event loop, or crashed it."""

from __future__ import annotations

import io
import zipfile

from tests.support.sheet_files import KAHOOT_HEADER, kahoot_xlsx

SHEET = "xl/worksheets/sheet1.xml"


def big_kahoot_xlsx(rows: int = 1_999, cells: int = 240) -> bytes:
    """A Kahoot sheet of `rows` rows of `cells` numbers each: about 60 KB that unpack to 18 MB,
    under every limit (2,000 rows, 20 MB), and seconds of openpyxl to refuse."""
    header = "".join(f'<c t="inlineStr"><is><t>{text}</t></is></c>' for text in KAHOOT_HEADER)
    row = "<row>" + '<c t="inlineStr"><is><t>x</t></is></c>' * cells + "</row>"  # no r=: the next cell, the next row
    body = [f"<row>{header}</row>", *[row] * (rows - 1)]
    xml = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        + "".join(body)
        + "</sheetData></worksheet>"
    )
    source = zipfile.ZipFile(io.BytesIO(kahoot_xlsx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for part in source.infolist():
            archive.writestr(part.filename, xml if part.filename == SHEET else source.read(part.filename))
    return out.getvalue()


def deep_json(depth: int = 100_000) -> bytes:
    """An Open Trivia DB answer nested `depth` lists deep: 200 KB that json.loads cannot read."""
    return b"[" * depth + b"]" * depth


def big_yaml(size: int = 990_000) -> bytes:
    """A quizhost YAML file just under 1 MB: 11,917 questions, under the 200,000-value budget,
    each built and checked before "at most 500 allowed" is known."""
    head = "id: big\ntitle: Big\ndescription: Big\nquestions:\n"
    question = "- {id: q%d, prompt: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, options: [a, b], answer: 0}\n"
    lines, total = [head], len(head)
    while total < size - 100:
        lines.append(question % (len(lines) - 1))
        total += len(lines[-1])
    return "".join(lines).encode()
