"""The chat platforms' adapters, built from the settings: one for every platform whose token is set."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.app.settings import Settings

if TYPE_CHECKING:
    from bot.adapters.discord.adapter import DiscordAdapter
    from bot.adapters.telegram.adapter import TelegramAdapter
    from bot.adapters.telegram.runtime import Webhook


def telegram_webhook(settings: Settings) -> Webhook | None:
    """Webhook mode when TELEGRAM_WEBHOOK_URL is set; None is long polling."""
    from bot.adapters.telegram.runtime import Webhook

    if not settings.telegram_webhook_url:
        return None
    host, _, port = settings.telegram_webhook_listen.rpartition(":")
    secret = settings.telegram_webhook_secret
    # Telegram sends the secret in a header with every update; without it anyone who
    # finds the URL could post fake presses, so one is made up when none is set.
    return Webhook(
        url=settings.telegram_webhook_url,
        host=host.strip("[]"),
        port=int(port),
        path=urlsplit(settings.telegram_webhook_url).path.lstrip("/"),
        secret=secret.get_secret_value() if secret else secrets.token_urlsafe(32),
        answers=settings.telegram_webhook_answers,
    )


def telegram_adapter(settings: Settings) -> TelegramAdapter:
    from bot.adapters.platform_watch import CallWatch
    from bot.adapters.telegram.adapter import TelegramAdapter
    from bot.adapters.telegram.runtime import build_application, updates_request

    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    watch = CallWatch()
    updates = updates_request(settings.telegram_http, settings.telegram_proxy, watch)
    app = build_application(
        settings.telegram_bot_token.get_secret_value(),
        settings.telegram_api_url,
        settings.telegram_http,
        settings.telegram_proxy,
        updates,
        watch,
        settings.telegram_workers,
    )
    return TelegramAdapter(app, telegram_webhook(settings), updates, watch)


def discord_adapter(settings: Settings) -> DiscordAdapter:
    from bot.adapters.discord.adapter import DiscordAdapter
    from bot.adapters.discord.endpoint import Endpoint

    if settings.discord_bot_token is None:
        raise ValueError("DISCORD_BOT_TOKEN is not set")
    listen = settings.discord_endpoint()
    return DiscordAdapter(
        settings.discord_bot_token.get_secret_value(),
        settings.discord_guilds(),
        settings.discord_shards,
        settings.discord_shard_list(),
        settings.discord_shard_count,
        endpoint=Endpoint(*listen, settings.discord_public_key) if listen else None,
    )
