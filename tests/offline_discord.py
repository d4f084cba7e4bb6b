"""Discord's login answered without the network, for the tests that run ``python -m bot
run`` in a subprocess (tests/test_cli_exit.py, test_odds_exit.py,
test_graceful_stop_signals.py): their programs import this and call ``answer_login``."""

from __future__ import annotations

from typing import Any

import discord


async def static_login(self: Any, token: str) -> dict[str, Any]:
    return {"id": "1", "username": "sortie", "discriminator": "0", "avatar": None}


class Application:
    id = 1
    flags = discord.ApplicationFlags()
    interactions_endpoint_url = None


async def application_info(self: Any) -> Application:
    return Application()


def answer_login() -> None:
    """Log in and read the application without Discord."""
    discord.http.HTTPClient.static_login = static_login  # type: ignore[method-assign]
    discord.Client.application_info = application_info  # type: ignore[method-assign,assignment]
