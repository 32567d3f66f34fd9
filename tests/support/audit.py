"""The accessibility audit of a page in the browser: axe-core (bundled in axe-playwright-python,
nothing fetched) run in the page as it is now, against WCAG 2.2 A and AA and axe's best
practices. A serious or critical violation fails the test; the lesser ones are printed, for a
person to weigh."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page

RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = frozenset({"serious", "critical"})
AXE = Axe()


async def audited(page: Page, name: str) -> list[dict[str, Any]]:
    """Fails on a serious or critical violation on `page` (`name` says which in the message);
    returns every violation found, the lesser ones printed."""
    options = {"runOnly": {"type": "tag", "values": RULES}, "resultTypes": ["violations"]}
    violations: list[dict[str, Any]] = (await AXE.run(page, options=options)).response["violations"]
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    for v in violations:
        if v["impact"] not in BLOCKING:
            print(f"{name}: {described(v)}")
    assert not blocking, f"{name}: " + "\n".join(described(v) for v in blocking)
    return violations


def described(violation: dict[str, Any]) -> str:
    """One violation on a line or a few: its rule, impact and help, and the elements it was found on."""
    places = "; ".join(" ".join(node["target"]) + " " + node["html"][:160] for node in violation["nodes"][:5])
    return f"{violation['id']} ({violation['impact']}): {violation['help']} [{len(violation['nodes'])}] {places}"
