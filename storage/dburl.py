"""QUIZHOST_DB: which database, and how to name it in a message without its password.

A path or `sqlite:///path` is a SQLite file; `postgresql://user:pass@host:port/db` (or
`postgres://`) is a PostgreSQL database reached with asyncpg.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

SETTING = "QUIZHOST_DB"
POSTGRES_SCHEMES = ("postgresql", "postgres")
HIDDEN = "***"


class Kind(enum.Enum):
    SQLITE = "sqlite"
    POSTGRES = "postgres"


class StoreUnavailable(RuntimeError):
    """The database named by QUIZHOST_DB cannot be used; the message is one line for the operator."""


@dataclass(frozen=True)
class Database:
    kind: Kind
    location: str  # a file path for SQLite, the full URL for PostgreSQL

    @property
    def shown(self) -> str:
        return masked(self.location)


def parse(value: str) -> Database:
    """Raises ValueError (its message has no password) for a URL that cannot be right."""
    text = str(value).strip()
    scheme = text.partition("://")[0].lower() if "://" in text else ""
    if scheme == "sqlite":
        path = text[len("sqlite:///") :] if text.lower().startswith("sqlite:///") else ""
        if not path:
            raise ValueError("a SQLite URL is sqlite:///path/to/file.db (three slashes, then the path)")
        return Database(Kind.SQLITE, path)
    if scheme in POSTGRES_SCHEMES:
        _check_postgres(text)
        return Database(Kind.POSTGRES, text)
    if scheme:
        raise ValueError(
            f"unknown kind of database {scheme}://; give a file path, sqlite:///path or "
            "postgresql://user:password@host:5432/database"
        )
    if not text:
        raise ValueError("is empty; give a file path or a postgresql:// URL")
    return Database(Kind.SQLITE, text)


def _check_postgres(url: str) -> None:
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError:
        raise ValueError(f"the port in {masked(url)} is not a number from 1 to 65535") from None
    host_in_query = "host=" in parts.query  # asyncpg: postgresql:///db?host=/run/postgresql
    if not parts.hostname and not host_in_query:
        raise ValueError(f"{masked(url)} names no host; write postgresql://user:password@host:5432/database")
    if parts.path.strip("/") and "/" in parts.path.strip("/"):
        raise ValueError(f"{masked(url)}: the database name cannot contain '/'")


def masked(url: str) -> str:
    """The URL with its password replaced by ***; other text comes back unchanged."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("@")[-1] if "@" in url else url
    if not password:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:{HIDDEN}@{host}"))


def scrub(text: str, url: str) -> str:
    """`text` (say, a driver's error) with the URL's password taken out, wherever it appears."""
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    return text.replace(password, HIDDEN) if password else text
