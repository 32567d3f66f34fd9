"""Names, titles and typed answers stored before directional controls (and NUL) were dropped where
they enter: a database at the schema before the cleaning migration, opened by the current store,
shows them clean on the board and in every stored row (storage/shared/usertext.py)."""

from __future__ import annotations

from bot.domain.records import DraftRow
from bot.texts.bidi import CONTROLS
from tests.contract.stores.conftest import IMPLEMENTATIONS
from tests.contract.stores.test_review_decks import database_at

RLO, RLI, PDI, LRM, ALM = "\u202e", "\u2067", "\u2069", "\u200e", "\u061c"
CHAT_KEY = "test:g1"


def _before_cleaning(migrations: tuple[str, ...]) -> int:
    return next(i for i, script in enumerate(migrations) if "UPDATE players SET name = replace(" in script)


def _old_rows(nul: str, question_ids: str) -> list[str]:
    """The rows an earlier version stored raw: `nul` is SQL for a NUL (SQLite kept them; PostgreSQL
    never could), `question_ids` a run's list as that database writes it."""
    return [
        f"INSERT INTO chats(key, platform, chat_id, title, created_at) VALUES ('{CHAT_KEY}', 'test', 'g1', "
        f"'Quiz {RLO}night{PDI}' || {nul}, 0)",
        f"INSERT INTO players(key, platform, user_id, name, updated_at) VALUES ('test:ann', 'test', 'ann', "
        f"'{RLO}Ann' || {nul} || '{LRM}', 0)",
        "INSERT INTO players(key, platform, user_id, name, updated_at) VALUES ('test:bob', 'test', 'bob', 'Bob', 0)",
        "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
        f"started_at, status, phase, idx, asked_at, due, ended_at) VALUES (1, '{CHAT_KEY}', 'demo', 'en', 7, "
        f"{question_ids}, 30, 5, 'test:ann', 0, 'finished', 'pausing', 0, 0, 0, 10)",
        "INSERT INTO answers(run_id, idx, question_id, player_key, chat_key, quiz_id, option, correct, elapsed, "
        f"points, streak, answered_at, response) VALUES (1, 0, 'q1', 'test:ann', '{CHAT_KEY}', 'demo', -1, 1, 3, "
        f"900, 1, 5, 'Paris{RLO}' || {nul} || '{ALM}')",
        "INSERT INTO answers(run_id, idx, question_id, player_key, chat_key, quiz_id, option, correct, elapsed, "
        f"points, streak, answered_at, response) VALUES (1, 0, 'q1', 'test:bob', '{CHAT_KEY}', 'demo', -1, 1, 3, "
        f"800, 1, 6, 'Paris')",
        "INSERT INTO suggestions(chat_key, number, player_key, player_name, content, created_at) VALUES "
        f"('{CHAT_KEY}', 1, 'test:ann', '{RLI}Ann{PDI}', '{{}}', 0)",
        "INSERT INTO quiz_drafts(owner_key, title, content, updated_at) VALUES "
        f"('test:ann', 'My {RLO}quiz' || {nul}, '[]', 0)",
    ]


async def test_text_users_wrote_before_the_cleaning_is_clean_after_it(store_factory):
    sqlite = store_factory.implementation is IMPLEMENTATIONS["sqlite"]
    rows = _old_rows("char(0)", """'["q1"]'""") if sqlite else _old_rows("''", "ARRAY['q1']")
    await database_at(store_factory, _before_cleaning, rows)
    store = await store_factory.open()

    assert [(s.name, s.points) for s in await store.leaderboard(CHAT_KEY)] == [("Ann", 900), ("Bob", 800)]
    assert [s.name for s in await store.run_standings(1)] == ["Ann", "Bob"]
    assert await store.player_names({"test:ann", "test:bob"}) == {"test:ann": "Ann", "test:bob": "Bob"}
    assert await store.chat_title(CHAT_KEY) == "Quiz night"
    assert await store.quiz_responses("demo", CHAT_KEY) == {"q1": {"Paris": 2}}  # one answer, as typed now
    assert [a.response for a in await store.chat_answers(CHAT_KEY)] == ["Paris", "Paris"]
    suggestion = await store.suggestion(CHAT_KEY, 1)
    assert suggestion is not None and suggestion.player_name == "Ann"
    draft = await store.draft("test:ann")
    assert draft == DraftRow("test:ann", "My quiz", "[]", False, 0.0, "")


async def test_the_cleaning_leaves_text_without_controls_alone(store_factory):
    """Right-to-left letters, emoji and other format characters (a zero-width joiner) are text."""
    name = "علی 👨\u200d👩\u200d👧"
    assert not CONTROLS & set(name)
    player = (
        f"INSERT INTO players(key, platform, user_id, name, updated_at) VALUES ('test:ali', 'test', 'ali', '{name}', 0)"
    )
    await database_at(store_factory, _before_cleaning, [player])
    store = await store_factory.open()
    assert await store.player_names({"test:ali"}) == {"test:ali": name}
