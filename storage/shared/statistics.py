"""Question statistics read from their summaries, the same SQL on both stores.

The summaries are kept by each schema's triggers when a question closes (storage/sqlite/schema.py,
storage/postgres/schema.py): `stat_players`, a row per quiz, chat, question and player with the
answers per option; `stat_responses`, a row per player, question and distinct answer that is no
one option (picks, a text, a number, an order: the kind credits it); and `stat_times`, the answers
per tenth of a second. What a read costs: a row per player and question of the quiz (the
discrimination index ranks the players who answered each question), one per distinct answer a
player gave in words, picks or an order, and a row per question and answer time, however often
they answered; see docs/PERFORMANCE.md.
"""

from __future__ import annotations

import asyncio

from bot.domain.questionstats import QuestionTally, QuizTally
from storage.shared.statements import Statements
from storage.shared.tables import OPTION_COLUMNS

_OPTIONS = ", ".join(OPTION_COLUMNS)
_SUMMED_OPTIONS = ", ".join(f"SUM({c})" for c in OPTION_COLUMNS)


class StatisticsQueries(Statements):
    async def quiz_tally(self, quiz_id: str, chat_key: str | None = None) -> QuizTally:
        """The summed answers of a quiz's closed questions, in one chat or in all of them."""
        args = {"quiz": quiz_id, **({"chat": chat_key} if chat_key else {})}
        where = "quiz_id = :quiz" + (" AND chat_key = :chat" if chat_key else "")
        # a player's row in one chat is already their sum; over all chats it is summed here
        choices_sql = (
            f"SELECT question_id, player_key, {_OPTIONS} FROM stat_players WHERE {where}"
            if chat_key
            else f"SELECT question_id, player_key, {_SUMMED_OPTIONS} FROM stat_players WHERE {where} "
            "GROUP BY question_id, player_key"
        )
        responses_sql = (
            f"SELECT question_id, player_key, response, answers FROM stat_responses WHERE {where}"
            if chat_key
            else f"SELECT question_id, player_key, response, SUM(answers) FROM stat_responses WHERE {where} "
            "GROUP BY question_id, player_key, response"
        )
        # the four reads queue at once: one wait for the store's thread (or four pool connections)
        rows, given, times, totals = await asyncio.gather(
            self._fetch(choices_sql, args),
            self._fetch(responses_sql, args),
            self._fetch(
                f"SELECT question_id, tenths, SUM(answers) FROM stat_times WHERE {where} GROUP BY question_id, tenths",
                args,
            ),
            self._fetch(f"SELECT player_key, SUM(points) FROM board_totals WHERE {where} GROUP BY player_key", args),
        )
        choices: dict[str, dict[str, tuple[int, ...]]] = {}
        for row in rows:
            choices.setdefault(row[0], {})[row[1]] = tuple(row[2:])
        tenths: dict[str, dict[int, int]] = {}
        for qid, tenth, answers in times:
            tenths.setdefault(qid, {})[tenth] = answers
        responses: dict[str, dict[str, dict[str, int]]] = {}
        for qid, player, response, answers in given:
            responses.setdefault(qid, {}).setdefault(player, {})[response] = answers
        questions = {
            qid: QuestionTally(players, tenths.get(qid, {}), responses.get(qid, {})) for qid, players in choices.items()
        }
        return QuizTally(dict(totals), questions)

    async def quiz_responses(self, quiz_id: str, chat_key: str) -> dict[str, dict[str, int]]:
        rows = await self._fetch(
            "SELECT question_id, response, COUNT(*) FROM answers "
            "WHERE chat_key = :chat AND quiz_id = :quiz AND response <> '' GROUP BY question_id, response",
            {"chat": chat_key, "quiz": quiz_id},
        )
        found: dict[str, dict[str, int]] = {}
        for qid, response, count in rows:
            found.setdefault(qid, {})[response] = count
        return found

    async def stats_chats(self, quiz_id: str) -> list[str]:
        """The chats with statistics of a quiz."""
        rows = await self._fetch(
            "SELECT DISTINCT chat_key FROM stat_times WHERE quiz_id = :quiz ORDER BY 1", {"quiz": quiz_id}
        )
        return [key for (key,) in rows]


# A chat that changes its id (storage/sqlite/moves.py, storage/postgres/moves.py): its statistics add up
# under the new key. Parameters :old and :new.
_SUMMED = "{column} = {table}.{column} + excluded.{column}"
MOVE_STATEMENTS: tuple[str, ...] = (
    f"INSERT INTO stat_players(quiz_id, chat_key, question_id, player_key, {_OPTIONS}) "
    f"SELECT quiz_id, :new, question_id, player_key, {_OPTIONS} FROM stat_players WHERE chat_key = :old "
    "AND true ON CONFLICT (quiz_id, chat_key, question_id, player_key) DO UPDATE SET "
    + ", ".join(_SUMMED.format(table="stat_players", column=c) for c in OPTION_COLUMNS),
    "DELETE FROM stat_players WHERE chat_key = :old",
    "INSERT INTO stat_times(quiz_id, chat_key, question_id, tenths, answers) "
    "SELECT quiz_id, :new, question_id, tenths, answers FROM stat_times WHERE chat_key = :old "
    "AND true ON CONFLICT (quiz_id, chat_key, question_id, tenths) DO UPDATE SET "
    + _SUMMED.format(table="stat_times", column="answers"),
    "DELETE FROM stat_times WHERE chat_key = :old",
    "INSERT INTO stat_responses(quiz_id, chat_key, question_id, player_key, response, answers) "
    "SELECT quiz_id, :new, question_id, player_key, response, answers FROM stat_responses WHERE chat_key = :old "
    "AND true ON CONFLICT (quiz_id, chat_key, question_id, player_key, response) DO UPDATE SET "
    + _SUMMED.format(table="stat_responses", column="answers"),
    "DELETE FROM stat_responses WHERE chat_key = :old",
)
