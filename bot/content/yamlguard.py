"""Budgets for a YAML file, checked on its parse events before any node tree is built.

A quiz file is small and flat. A hostile one need not be: a kilobyte of anchors and aliases
("billion laughs") stands for billions of nodes once expanded, and anything that walks the
expanded tree (pydantic, a search for where a repeated key sits) never finishes. So the
events are counted first, in one pass, each alias counted as the size of what it names;
a file over any budget is refused with the budget it broke, before it is composed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import yaml

# The C parser when PyYAML has it: the events come from libyaml, the Python side only counts.
_Parser: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Budget:
    """The most a quiz file may be. The shipped quizzes are about 45 KB and 6,000 nodes."""

    max_bytes: int = 2_000_000
    max_nodes: int = 200_000  # scalars and collections, each alias counted as what it expands to
    max_aliases: int = 1_000
    max_depth: int = 64


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class OverBudget:
    """Which budget the file broke, in words for its author, and where (1-based line)."""

    message: str
    line: int | None = None


def check_budget(text: str, budget: Budget = DEFAULT_BUDGET) -> OverBudget | None:
    """None when `text` is within every budget; else the first budget it breaks.

    Syntax errors are left to the loader, which reports them with their place.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > budget.max_bytes:
        return OverBudget(f"the file is {size:,} bytes, more than the {budget.max_bytes:,} a quiz file may be", 1)
    try:
        return check_events(yaml.parse(text, Loader=_Parser), budget)
    except yaml.YAMLError:
        return None


def check_events(events: Iterable[yaml.Event], budget: Budget = DEFAULT_BUDGET) -> OverBudget | None:
    sizes: dict[str, int] = {}  # anchor -> nodes it stands for
    open_sizes: list[tuple[int, str | None]] = []  # per open collection: (nodes so far, its anchor)
    total = aliases = 0
    for event in events:
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            open_sizes.append((1, event.anchor))
            if len(open_sizes) > budget.max_depth:
                return OverBudget(f"nested more than {budget.max_depth} levels deep", _line(event))
            nodes = 1
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            size, anchor = open_sizes.pop()
            if anchor is not None:
                sizes[anchor] = size
            _grow(open_sizes, size)
            continue
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > budget.max_aliases:
                return OverBudget(f"more than {budget.max_aliases:,} aliases (*name)", _line(event))
            nodes = sizes.get(event.anchor or "", 1)  # an unknown anchor is the loader's error to report
            _grow(open_sizes, nodes)
        elif isinstance(event, yaml.ScalarEvent):
            nodes = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
            _grow(open_sizes, nodes)
        else:
            continue
        total += nodes
        if total > budget.max_nodes:
            return OverBudget(
                f"it stands for more than {budget.max_nodes:,} values once its aliases are "
                "expanded (anchors repeated inside anchors?)",
                _line(event),
            )
    return None


def _grow(open_sizes: list[tuple[int, str | None]], nodes: int) -> None:
    """The innermost open collection holds `nodes` more (a collection closing, its parent)."""
    if open_sizes:
        size, anchor = open_sizes[-1]
        open_sizes[-1] = (size + nodes, anchor)


def _line(event: yaml.Event) -> int | None:
    return event.start_mark.line + 1 if event.start_mark is not None else None
