"""Logging set-up that keeps tokens out of every log line, whoever logs them."""

from __future__ import annotations

import logging

_REDACTED = "***"


class RedactSecrets(logging.Filter):
    """Libraries log request URLs, and Telegram's carry the token: replace it everywhere."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s and len(s) >= 6]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        for secret in self.secrets:
            message = message.replace(secret, _REDACTED)
        record.msg, record.args = message, None
        return True


def setup_logging(level: str, secrets: list[str]) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx logs every request URL at INFO; keep it to warnings even when redacted
    logging.getLogger("httpx").setLevel(max(logging.WARNING, root.level))
