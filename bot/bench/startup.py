"""Start-up to ready with many quiz files, in a fresh process: `python -m bot.bench.startup`.

Ready means what `quizhost run` does before it serves: load and validate the catalog, open
(and migrate) the database, resume the open runs. Imports are timed apart: they are paid
once per process whatever the catalog holds.
"""

from __future__ import annotations

import time

_BEGAN = time.perf_counter()

import argparse  # noqa: E402 - the clock above starts before the imports it times
import asyncio  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from bot.app.compose import compose  # noqa: E402
from bot.app.wiring import open_store  # noqa: E402
from bot.content.catalog import Catalog, default_quiz_folders  # noqa: E402
from bot.ports.clock import SystemClock  # noqa: E402

_IMPORTED = time.perf_counter()


def write_quiz_files(folder: Path, count: int) -> int:
    """`count` quiz files: the shipped ones, then copies of them under new ids."""
    shipped = sorted(p for d in default_quiz_folders() for p in d.glob("*.y*ml"))
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        source = shipped[i % len(shipped)]
        text = source.read_text(encoding="utf-8")
        if i >= len(shipped):
            text = re.sub(r"(?m)^id: (\S+)$", rf"id: \g<1>-copy-{i}", text, count=1)
        (folder / f"{i:05d}-{source.name}").write_text(text, encoding="utf-8")
    return count


def catalog_index(quizzes: Path) -> Path:
    """Beside the quiz folder: a PostgreSQL database has no folder to put it beside."""
    return quizzes.with_name(quizzes.name + ".catalog.json")


async def ready(folder: Path, db: str) -> dict[str, float]:
    began = time.perf_counter()
    catalog = Catalog.load([folder], cache=catalog_index(folder))
    loaded = time.perf_counter()
    store = await open_store(db)
    opened = time.perf_counter()
    try:
        resumed = await compose(catalog, store, SystemClock()).engine.resume()
    finally:
        done = time.perf_counter()
        await store.close()
    return {
        "start_ms": round((done - began) * 1000, 1),
        "catalog_ms": round((loaded - began) * 1000, 1),
        "store_ms": round((opened - loaded) * 1000, 1),
        "resume_ms": round((done - opened) * 1000, 1),
        "import_ms": round((_IMPORTED - _BEGAN) * 1000, 1),
        "total_ms": round((done - _BEGAN) * 1000, 1),  # what an operator waits: imports, then ready
        "quizzes": len(catalog),
        "problems": len(catalog.problems),
        "runs_resumed": resumed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.startup")
    parser.add_argument("folder", type=Path)
    parser.add_argument("db", help="a SQLite file or a postgresql:// URL")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(ready(args.folder, args.db))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
