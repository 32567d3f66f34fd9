"""What the importers make of a folder of other people's quiz files: `python -m bot.bench.corpus DIR`.

For each file the importers read (GIFT, Aiken, Open Trivia DB, Kahoot, Quizizz): the questions
the source holds, those imported, those skipped grouped by reason, what is left out for not being
a question (descriptions), or why the file as a whole was refused; then the totals per folder and
the texts that still carry HTML tags or Cloze markup (both should be 0). It is how the importers
are measured against real teachers' files (../shared/corpus/imports). The output is Markdown
(`--markdown`, the default) or CSV (`--csv`).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.content.importers import Imported, Malformed, Passed, import_quiz
from bot.content.importers.markup import HTML_TAG

SUFFIXES = {".gift", ".txt", ".json", ".xlsx"}
SKIPPED_NAMES = {"SOURCES.txt", "README.md"}
_NUMBERS = re.compile(r"\d+")
_CLOZE = re.compile(r"\{\s*\d*\s*:\s*[A-Z_]+\s*:|\d:MC:")  # an embedded answer, or what is left of one


@dataclass(frozen=True)
class FileResult:
    path: str
    format: str
    imported: int
    skipped: int  # questions skipped
    reasons: Counter[str]
    refused: str = ""
    in_source: int = 0  # questions the source holds
    left_out: int = 0  # not questions (descriptions)
    markup: dict[str, int] = field(default_factory=dict)  # texts with HTML or Cloze left in them


def read_file(path: Path, root: Path) -> FileResult:
    name = str(path.relative_to(root))
    try:
        result = import_quiz(path.read_bytes(), path.name)
    except Malformed as error:
        return FileResult(name, "-", 0, 0, Counter(), str(error))
    # "the same question as at line 12" and "line 16 starts another question" group by their kind
    reasons = Counter(_NUMBERS.sub("N", skip.reason) for skip in result.skipped)
    left_out = sum(1 for skip in result.skipped if isinstance(skip, Passed))
    skipped = len(result.skipped) - left_out
    return FileResult(
        name, result.format, result.count, skipped, reasons, "", result.in_source, left_out, _markup(result)
    )


def _texts(imported: Imported) -> list[str]:
    questions: list[dict[str, Any]] = imported.data["questions"] if imported.data else []
    return [
        text
        for q in questions
        for text in (q["prompt"], *q.get("options", ()), *q.get("accept", ()), q.get("explanation", ""))
    ]


def _markup(imported: Imported) -> dict[str, int]:
    texts = _texts(imported)
    return {"html": sum(1 for t in texts if HTML_TAG.search(t)), "cloze": sum(1 for t in texts if _CLOZE.search(t))}


def quiz_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix.casefold() in SUFFIXES and p.name not in SKIPPED_NAMES)


def _why(r: FileResult) -> str:
    return (r.refused or "; ".join(f"{n}x {reason}" for reason, n in r.reasons.most_common())).replace("|", "/")


def table(results: list[FileResult]) -> str:
    lines = [
        "| file | format | questions | imported | skipped | not questions | reasons |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        row = f"| {r.path} | {r.format} | {r.in_source} | {r.imported} | {r.skipped} | {r.left_out} | {_why(r)} |"
        lines.append(row)
    sums = [sum(getattr(r, name) for r in results) for name in ("in_source", "imported", "skipped", "left_out")]
    lines.append(f"| **{len(results)} files** | | " + " | ".join(f"**{n}**" for n in sums) + " | |")
    return "\n".join(lines)


def folders(results: list[FileResult]) -> str:
    """Totals per folder, and the texts still carrying markup."""
    by_folder: dict[str, list[FileResult]] = {}
    for r in results:
        by_folder.setdefault(str(Path(r.path).parent), []).append(r)
    lines = ["| folder | files | questions | imported | share |", "| --- | ---: | ---: | ---: | ---: |"]
    for folder, group in sorted(by_folder.items()):
        held, kept = sum(r.in_source for r in group), sum(r.imported for r in group)
        share = f"{kept / held:.1%}" if held else "-"
        lines.append(f"| {folder} | {len(group)} | {held} | {kept} | {share} |")
    html, cloze = (sum(r.markup.get(kind, 0) for r in results) for kind in ("html", "cloze"))
    return "\n".join([*lines, "", f"Imported texts with HTML tags left: {html}; with Cloze markup left: {cloze}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.corpus", description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--markdown", action="store_true", help="a Markdown table per file, then per folder (default)")
    shape.add_argument("--csv", action="store_true", help="CSV rows instead of a Markdown table")
    args = parser.parse_args(argv)
    results = [read_file(path, args.folder) for path in quiz_files(args.folder)]
    if args.csv:
        out = csv.writer(sys.stdout)
        out.writerow(["file", "format", "questions", "imported", "skipped", "not_questions", "refused", "reasons"])
        for r in results:
            reasons = "; ".join(f"{n}x {reason}" for reason, n in r.reasons.most_common())
            out.writerow([r.path, r.format, r.in_source, r.imported, r.skipped, r.left_out, r.refused, reasons])
    else:
        print(table(results) + "\n\n" + folders(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
