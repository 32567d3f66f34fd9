"""QUIZHOST_DB picks the store: a file path or sqlite:/// URL is SQLite, postgresql:// is
PostgreSQL; a database that cannot be used fails in one line that names the setting and never
its password."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.app.settings import SettingsError
from bot.app.wiring import open_store
from bot.domain.model import ChatRef
from bot.testing.postgres import free_port

CHAT = ChatRef("test", "g1")


@pytest.mark.parametrize("spelling", ["quiz.db", "sqlite:///quiz.db"])
async def test_a_path_or_sqlite_url_opens_that_file_relative_to_the_working_folder(tmp_path, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    store = await open_store(spelling)
    try:
        await store.update_chat_settings(CHAT, language="hi")
    finally:
        await store.close()
    assert (tmp_path / "quiz.db").is_file()
    again = await open_store(str(tmp_path / "quiz.db"))
    try:
        assert (await again.chat_settings(CHAT.key)).language == "hi"
    finally:
        await again.close()


async def test_sqlite_url_with_four_slashes_is_an_absolute_path(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path}/abs.db")  # tmp_path starts with "/"
    await store.close()
    assert (tmp_path / "abs.db").is_file()


async def test_an_unknown_kind_of_database_is_refused_without_its_password(tmp_path):
    with pytest.raises(SettingsError) as caught:
        await open_store("mysql://quiz:hunter2@db.example/quiz")
    assert "QUIZHOST_DB" in str(caught.value) and "mysql://" in str(caught.value)
    assert "hunter2" not in str(caught.value)


def test_a_postgresql_server_that_is_not_there_fails_in_one_line_naming_the_setting_not_the_password(tmp_path):
    url = f"postgresql://quiz:hunter2@127.0.0.1:{free_port()}/quiz"  # nothing listens there
    env = {**{k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}, "QUIZHOST_DB": url}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "pipeline"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("quizhost: QUIZHOST_DB: ") and "PostgreSQL" in lines[0], done.stderr
    assert "hunter2" not in done.stderr + done.stdout
    assert not list(tmp_path.iterdir()), "nothing was created"
