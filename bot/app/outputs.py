"""Where the commands write the files they are told to (`-o`, `--output`)."""

from __future__ import annotations

from pathlib import Path


def made_ready(path: Path) -> Path:
    """`path`, with the folders it names made: `-o reports/2026/all.csv` in a fresh folder
    writes the file rather than ending in a traceback."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
