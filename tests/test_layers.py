"""Every module has a place in the layers that `lint-imports` checks (pyproject.toml).

A module left out of the contract is checked by nobody: a new one fails here until it is
placed, in the layers and, above the ports, in the list of what the stores may not import.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def contracts() -> dict[str, dict]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        return {c["name"]: c for c in tomllib.load(fh)["tool"]["importlinter"]["contracts"]}


def layers() -> list[set[str]]:
    layered = next(c for c in contracts().values() if c["type"] == "layers")
    return [set(re.split(r"\s*[:|]\s*", layer.replace("\\\n", " ").strip())) for layer in layered["layers"]]


def modules() -> set[str]:
    """bot's modules and subpackages, and storage."""
    found = {f"bot.{p.stem}" for p in (ROOT / "bot").glob("*.py") if p.stem != "__init__"}
    found |= {f"bot.{p.name}" for p in (ROOT / "bot").iterdir() if (p / "__init__.py").exists()}
    return found | {"storage"}


def test_every_module_is_in_a_layer():
    placed = set().union(*layers())
    assert modules() - placed == set(), "add the module to a layer in pyproject.toml [tool.importlinter]"
    assert placed - modules() == set(), "a layer names a module that is gone"


def test_the_stores_may_not_import_anything_above_the_ports():
    above = set().union(*layers()[:3]) - {"storage"}
    stores = next(c for c in contracts().values() if c.get("source_modules") == ["storage"])
    assert above - set(stores["forbidden_modules"]) == set()
