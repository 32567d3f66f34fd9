"""DISCORD_INTERACTIONS_LISTEN and DISCORD_PUBLIC_KEY: the endpoint's address and the key that checks it."""

from __future__ import annotations

import pytest

from bot.app.settings import SettingsError, load_settings

KEY = "ab" * 32


def test_the_endpoint_takes_host_port_and_an_optional_path():
    assert load_settings(env_file=None).discord_endpoint() is None  # the gateway, by default
    plain = load_settings(env_file=None, discord_interactions_listen="0.0.0.0:8444", discord_public_key=KEY)
    assert plain.discord_endpoint() == ("0.0.0.0", 8444, "/")
    pathed = load_settings(
        env_file=None, discord_interactions_listen="[::]:8444/discord/interactions", discord_public_key=KEY.upper()
    )
    assert pathed.discord_endpoint() == ("::", 8444, "/discord/interactions")
    assert pathed.discord_public_key == KEY


@pytest.mark.parametrize(
    ("listen", "key", "message"),
    [
        ("127.0.0.1:8444", "", "DISCORD_PUBLIC_KEY: Value error, must be set with DISCORD_INTERACTIONS_LISTEN"),
        ("127.0.0.1:8444", "abc", "DISCORD_PUBLIC_KEY: Value error, must be the application's public key"),
        ("8444", KEY, 'DISCORD_INTERACTIONS_LISTEN: Value error, must be "host:port" or "host:port/path"'),
        ("127.0.0.1:8444/a path", KEY, "DISCORD_INTERACTIONS_LISTEN: Value error, must be"),
    ],
)
def test_a_wrong_endpoint_setting_is_named_in_one_line(listen, key, message):
    with pytest.raises(SettingsError) as refused:
        load_settings(env_file=None, discord_interactions_listen=listen, discord_public_key=key)
    assert message in str(refused.value)
