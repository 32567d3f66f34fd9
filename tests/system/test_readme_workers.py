"""docs/SEVERAL_MACHINES.md states what the code does: the takeover times
come from the lease and its renewal, the example settings are valid and agree with the nginx
example, and the metrics it names are the ones a worker serves."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bot.adapters.ops.metrics import Operations
from bot.app.settings import load_settings
from bot.engine.workers import RENEW_SECONDS, LeaseKeeper
from storage.postgres.leases import LEASE_SECONDS
from tests.support.house import house_of, worker_of
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR


PAGE = ROOT / "docs" / "SEVERAL_MACHINES.md"


def section() -> str:
    """The page's text, its lines joined (sentences wrap anywhere)."""
    return re.sub(r"\s+", " ", PAGE.read_text(encoding="utf-8"))


def fenced(language: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)
    return next(block for block in blocks if "TELEGRAM_WEBHOOK" in block or "upstream" in block)


def test_the_takeover_times_are_the_lease_and_its_renewal():
    text = section()
    assert f"{LEASE_SECONDS:g} s by the database's clock, renewed every {RENEW_SECONDS:g} s" in text
    # the last renewal was up to one period before the death; live workers look once a period
    assert f"run out {LEASE_SECONDS - RENEW_SECONDS:g} to {LEASE_SECONDS:g} s after it died" in text
    assert f"within {LEASE_SECONDS + RENEW_SECONDS:g} s** of the death" in text
    assert f"lets its quizzes go at once: taken within {RENEW_SECONDS:g} s" in text


def test_the_example_worker_settings_are_valid_and_match_the_nginx_example():
    values = dict(line.split("#")[0].strip().split("=", 1) for line in fenced("sh").splitlines() if "=" in line)
    settings = load_settings(None, **{name.lower(): value for name, value in values.items()})
    nginx = fenced("nginx")
    location = re.search(r"location (\S+) \{", nginx).group(1)
    assert urlsplit(settings.telegram_webhook_url).path == location  # the path the workers serve
    listen_port = settings.telegram_webhook_listen.rpartition(":")[2]
    upstreams = re.findall(r"server [\d.]+:(\d+)", nginx)
    assert upstreams and set(upstreams) == {listen_port}
    assert settings.telegram_webhook_secret is not None and settings.quizhost_ops_listen


def test_the_page_names_every_metric_a_worker_serves(engine):
    house = house_of(engine)
    text = Operations(worker_of(house), LeaseKeeper(engine, house.store, house.sender)).metrics().decode()
    served = set(re.findall(r"^# TYPE (\S+) ", text, flags=re.M))
    named = set(re.findall(r"`(quizhost_[a-z_]+)", section().split("**Metrics.**")[1]))
    assert named == served
