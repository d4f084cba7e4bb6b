"""Command descriptions reach French clients through discord.py's translator."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client import COGS, SortieBot
from bot.translator import SortieTranslator


def _walk(commands: list[app_commands.Command | app_commands.Group]) -> list:  # type: ignore[type-arg]
    found = []
    for command in commands:
        found.append(command)
        if isinstance(command, app_commands.Group):
            found.extend(_walk(list(command.commands)))
    return found


async def test_every_localized_description_has_french() -> None:
    bot = SortieBot(cogs=COGS)
    for name in COGS:
        await bot.load_extension(name)
    translator = SortieTranslator()
    missing = []
    checked = 0
    for command in _walk(list(bot.tree.get_commands())):
        described = command._locale_description or command.description
        if not isinstance(described, app_commands.locale_str) or "key" not in described.extras:
            continue
        checked += 1
        french = await translator.translate(described, discord.Locale.french, None)  # type: ignore[arg-type]
        english = await translator.translate(described, discord.Locale.american_english, None)  # type: ignore[arg-type]
        if not french:
            missing.append(described.extras["key"])
        assert english is None  # English is the source text itself
    assert checked >= 15
    assert missing == []
