"""What the importers make of a folder of other people's quiz files: `python -m bot.bench.corpus DIR`.

For each file the importers read (GIFT, Aiken, Open Trivia DB, Kahoot, Quizizz): the questions
imported, the questions skipped grouped by reason, or why the file as a whole was refused. It is
how the importers are measured against real teachers' files (../shared/corpus/imports); `--csv`
prints the same rows for a spreadsheet.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bot.content.importers import Malformed, import_quiz

SUFFIXES = {".gift", ".txt", ".json", ".xlsx"}
SKIPPED_NAMES = {"SOURCES.txt", "README.md"}
_NUMBERS = re.compile(r"\d+")


@dataclass(frozen=True)
class FileResult:
    path: str
    format: str
    imported: int
    skipped: int
    reasons: Counter[str]
    refused: str = ""


def read_file(path: Path, root: Path) -> FileResult:
    name = str(path.relative_to(root))
    try:
        result = import_quiz(path.read_bytes(), path.name)
    except Malformed as error:
        return FileResult(name, "-", 0, 0, Counter(), str(error))
    # "the same question as at line 12" and "line 16 starts another question" group by their kind
    reasons = Counter(_NUMBERS.sub("N", skip.reason) for skip in result.skipped)
    return FileResult(name, result.format, result.count, len(result.skipped), reasons)


def quiz_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix.casefold() in SUFFIXES and p.name not in SKIPPED_NAMES)


def table(results: list[FileResult]) -> str:
    lines = ["| file | format | imported | skipped | reasons |", "| --- | --- | ---: | ---: | --- |"]
    for r in results:
        why = r.refused or "; ".join(f"{n}x {reason}" for reason, n in r.reasons.most_common())
        lines.append(f"| {r.path} | {r.format} | {r.imported} | {r.skipped} | {why.replace('|', '/')} |")
    total_imported = sum(r.imported for r in results)
    total_skipped = sum(r.skipped for r in results)
    lines.append(f"| **{len(results)} files** | | **{total_imported}** | **{total_skipped}** | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.corpus", description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--csv", action="store_true", help="CSV rows instead of a Markdown table")
    args = parser.parse_args(argv)
    results = [read_file(path, args.folder) for path in quiz_files(args.folder)]
    if args.csv:
        out = csv.writer(sys.stdout)
        out.writerow(["file", "format", "imported", "skipped", "refused", "reasons"])
        for r in results:
            reasons = "; ".join(f"{n}x {reason}" for reason, n in r.reasons.most_common())
            out.writerow([r.path, r.format, r.imported, r.skipped, r.refused, reasons])
    else:
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
