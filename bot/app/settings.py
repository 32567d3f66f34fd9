"""Settings from the environment and `.env` (pydantic-settings); nothing is read at import."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.domain.model import (
    FALLBACK_LANGUAGE,
    LANGUAGES,
    PAUSE_SECONDS,
    QUESTION_SECONDS,
    SUGGESTIONS_PER_DAY,
    SUGGESTIONS_WAITING,
    TELEGRAM_WORKERS,
)

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class SettingsError(ValueError):
    """A setting has a wrong value; the message names the variable."""


# what each platform's tokens look like, and what to say (without the token) when one does not
TOKEN_FORMS = {
    "telegram": (
        re.compile(r"[0-9]+:[A-Za-z0-9_-]{35}"),
        "TELEGRAM_BOT_TOKEN is malformed: a Telegram bot token is the bot's number, a colon and 35 "
        "letters, digits, _ or - (123456789:AAH…), as @BotFather gives it, with no spaces or quotes",
    ),
    "discord": (
        re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"),
        "DISCORD_BOT_TOKEN is malformed: a Discord bot token is three parts of letters, digits, _ and - "
        "joined by dots, as the developer portal's Bot page gives it (not the public key or client secret)",
    ),
}


class Settings(BaseSettings):
    """Every variable listed in `.env.example`, with its default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False)

    quizhost_db: str = "quizhost.db"  # a file path, sqlite:///path or a database URL: bot/app/wiring.py open_store
    quizhost_quizzes: str = ""  # extra quiz folders, separated by os.pathsep (":" on Linux) or ","
    quizhost_question_seconds: int = Field(QUESTION_SECONDS.default, ge=QUESTION_SECONDS.low, le=QUESTION_SECONDS.high)
    quizhost_pause_seconds: float = Field(PAUSE_SECONDS.default, ge=PAUSE_SECONDS.low, le=PAUSE_SECONDS.high)
    quizhost_language: str = FALLBACK_LANGUAGE
    quizhost_suggestions_per_day: int = Field(
        SUGGESTIONS_PER_DAY.default, ge=SUGGESTIONS_PER_DAY.low, le=SUGGESTIONS_PER_DAY.high
    )
    quizhost_suggestions_waiting: int = Field(
        SUGGESTIONS_WAITING.default, ge=SUGGESTIONS_WAITING.low, le=SUGGESTIONS_WAITING.high
    )
    log_level: LogLevel = "INFO"
    # the switch interval and the garbage collector tuned while `quizhost run` serves (bot/app/interpreter.py)
    quizhost_interpreter_tuning: bool = True

    telegram_bot_token: SecretStr | None = None
    telegram_api_url: str = "https://api.telegram.org/bot"
    telegram_webhook_url: str = ""
    telegram_webhook_listen: str = "0.0.0.0:8443"
    quizhost_ops_listen: str = ""  # "host:port" for /healthz and /metrics; empty: not served
    quizhost_worker: str = ""  # this worker's name in PostgreSQL's run leases; empty: host:pid
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_answers: Literal["request", "reply"] = "request"  # see .env.example
    telegram_http: Literal["aiohttp", "httpx"] = "aiohttp"  # the HTTP client PTB uses (see .env.example)
    telegram_proxy: str = ""  # http(s) proxy URL for the Bot API; empty = direct
    telegram_workers: int = Field(TELEGRAM_WORKERS.default, ge=TELEGRAM_WORKERS.low, le=TELEGRAM_WORKERS.high)

    # the web pages (bot/adapters/web/): served by `quizhost run` when the public address is set
    quizhost_web_url: str = ""
    quizhost_web_listen: str = "127.0.0.1:8080"
    quizhost_web_secret: SecretStr | None = None  # empty: one made and kept in the database

    discord_bot_token: SecretStr | None = None
    discord_guild_ids: str = ""  # comma-separated server ids for instant command sync
    discord_shards: str = ""  # "", "auto" or a number
    # several processes: this one's shards of DISCORD_SHARD_COUNT (identifies serialized in the database)
    discord_shard_count: int | None = Field(None, ge=1)
    discord_shard_ids: str = ""  # comma-separated shard ids, each below DISCORD_SHARD_COUNT
    # "host:port" or "host:port/path": interactions posted to this endpoint instead of the gateway
    discord_interactions_listen: str = ""
    discord_public_key: str = Field("", validate_default=True)  # hex: checks the endpoint's signatures

    @field_validator("quizhost_db", mode="before")
    @classmethod
    def _db_path(cls, value: object) -> object:
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("quizhost_language")
    @classmethod
    def _spoken(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"must be one of {', '.join(LANGUAGES)}")
        return value

    @field_validator(
        "telegram_bot_token", "discord_bot_token", "telegram_webhook_secret", "quizhost_web_secret", mode="before"
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_shards", mode="before")
    @classmethod
    def _shards(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        value = value.strip().lower()
        if value and value != "auto" and not (value.isdigit() and int(value) >= 1):
            raise ValueError('must be empty, "auto" or a number of shards (1 or more)')
        return value

    @field_validator("discord_shard_count", mode="before")
    @classmethod
    def _blank_count(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, str):
            return value
        ids = [part.strip() for part in value.split(",") if part.strip()]
        if any(not part.isdigit() for part in ids):
            raise ValueError("must be shard ids, numbers separated by commas (for example 0,1)")
        if len(set(ids)) != len(ids):
            raise ValueError("names a shard twice")
        if not ids:
            return ""
        count = info.data.get("discord_shard_count")
        if count is None:  # a wrong count has its own message; a missing one is said here
            if "discord_shard_count" in info.data:
                raise ValueError("needs DISCORD_SHARD_COUNT, the number of shards of all processes together")
            return ",".join(ids)
        if info.data.get("discord_shards"):
            raise ValueError("and DISCORD_SHARDS exclude each other: set one of them")
        if any(int(part) >= count for part in ids):
            raise ValueError(f"must be below DISCORD_SHARD_COUNT ({count}): shards are numbered from 0")
        return ",".join(ids)

    @field_validator("discord_guild_ids", mode="before")
    @classmethod
    def _guild_ids(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        ids = [part.strip() for part in value.split(",") if part.strip()]
        if any(not part.isdigit() for part in ids):
            raise ValueError("must be server (guild) ids, numbers separated by commas")
        return ",".join(ids)

    @field_validator("telegram_http", "telegram_webhook_answers", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("telegram_proxy")
    @classmethod
    def _proxy(cls, value: str) -> str:
        # aiohttp speaks to http(s) proxies only; a proxy URL may hold a password, so it is never echoed
        if value.strip() and not value.strip().lower().startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// proxy URL, or empty")
        return value.strip()

    @field_validator("telegram_webhook_listen", "quizhost_ops_listen", "quizhost_web_listen")
    @classmethod
    def _listen(cls, value: str, info: ValidationInfo) -> str:
        if not value.strip() and info.field_name == "quizhost_ops_listen":
            return ""
        host, _, port = value.strip().rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError('must be "host:port", for example 0.0.0.0:8443 or [::]:8443')
        return value.strip()

    @field_validator("discord_interactions_listen")
    @classmethod
    def _interactions_listen(cls, value: str) -> str:
        value = value.strip()
        address, _, path = value.partition("/")
        host, _, port = address.rpartition(":")
        fine = host and port.isdigit() and 0 < int(port) < 65536 and re.fullmatch(r"[A-Za-z0-9._~/-]*", path)
        if value and not fine:
            raise ValueError('must be "host:port" or "host:port/path", for example 0.0.0.0:8444/discord/interactions')
        return value

    @field_validator("discord_public_key")
    @classmethod
    def _public_key(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip().lower()
        if value and not re.fullmatch(r"[0-9a-f]{64}", value):
            raise ValueError(
                "must be the application's public key: 64 hex digits (General Information, developer portal)"
            )
        if not value and info.data.get("discord_interactions_listen"):
            raise ValueError("must be set with DISCORD_INTERACTIONS_LISTEN: Discord's signatures are checked with it")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        # Telegram accepts 1 to 256 of A-Z, a-z, 0-9, "_" and "-" (setWebhook secret_token)
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value.get_secret_value()):
            raise ValueError("must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("quizhost_web_url")
    @classmethod
    def _web_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if value and not value.lower().startswith(("http://", "https://")):
            raise ValueError("must be the pages' public address, http:// or https://, or empty")
        return value

    def malformed_tokens(self) -> list[str]:
        """What is wrong with the form of each platform's token, never the token itself: checked
        before `quizhost run` connects, so a typo ends at once instead of after retries."""
        found = []
        for token, (form, says) in (
            (self.telegram_bot_token, TOKEN_FORMS["telegram"]),
            (self.discord_bot_token, TOKEN_FORMS["discord"]),
        ):
            if token is not None and not form.fullmatch(token.get_secret_value()):
                found.append(says)
        return found

    def web_secret(self) -> str:
        return self.quizhost_web_secret.get_secret_value() if self.quizhost_web_secret else ""

    def discord_guilds(self) -> list[int]:
        return [int(part) for part in self.discord_guild_ids.split(",") if part]

    def discord_endpoint(self) -> tuple[str, int, str] | None:
        """DISCORD_INTERACTIONS_LISTEN as (host, port, path); None: interactions come on the gateway."""
        if not self.discord_interactions_listen:
            return None
        address, _, path = self.discord_interactions_listen.partition("/")
        host, _, port = address.rpartition(":")
        return host.strip("[]"), int(port), "/" + path

    def discord_shard_list(self) -> list[int]:
        return [int(part) for part in self.discord_shard_ids.split(",") if part]

    def quiz_folders(self) -> list[Path]:
        raw = self.quizhost_quizzes.replace(",", os.pathsep)
        return [Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip()]


def load_settings(env_file: str | Path | None = ".env", **overrides: Any) -> Settings:
    """Read the settings, turning pydantic's errors into one message per wrong variable."""
    try:
        return Settings(_env_file=env_file, **overrides)  # type: ignore[call-arg]
    except ValidationError as exc:
        lines = []
        for error in exc.errors():
            name = str(error["loc"][0]).upper() if error["loc"] else "settings"
            # a proxy URL or a database URL may hold a password
            hidden = any(word in name for word in ("TOKEN", "SECRET", "PROXY", "QUIZHOST_DB"))
            shown = "" if hidden else f" (got {error.get('input')!r})"
            lines.append(f"{name}: {error['msg']}{shown}")
        raise SettingsError("bad settings:\n  " + "\n  ".join(lines)) from None
