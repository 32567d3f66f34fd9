"""The ids platforms gave the files the bot uploaded (Telegram's file_id of a question's picture),
keyed by the file's content digest: every worker on the database, and the next start, sends the
id instead of uploading the file again. The same SQL on both stores."""

from __future__ import annotations

from storage.shared.statements import Statements

# the table (both databases' words are the same); IF NOT EXISTS: the migration may run again
TABLE = """
    CREATE TABLE IF NOT EXISTS media_ids (
        platform TEXT NOT NULL,
        media_key TEXT NOT NULL,
        file_id TEXT NOT NULL,
        PRIMARY KEY (platform, media_key)
    );
"""


class MediaIds(Statements):
    async def media_file_id(self, platform: str, media_key: str) -> str | None:
        rows = await self._fetch(
            "SELECT file_id FROM media_ids WHERE platform = :platform AND media_key = :key",
            {"platform": platform, "key": media_key},
        )
        return str(rows[0][0]) if rows else None

    async def keep_media_file_id(self, platform: str, media_key: str, file_id: str) -> None:
        await self._change(
            "INSERT INTO media_ids(platform, media_key, file_id) VALUES (:platform, :key, :file) "
            "ON CONFLICT (platform, media_key) DO UPDATE SET file_id = excluded.file_id",
            {"platform": platform, "key": media_key, "file": file_id},
        )
