"""Localized slash-command names and descriptions through discord.py's translator.

Cogs write ``_T("new campaign description", key="cmd.campaign.new.desc")``; the French
string comes from ``bot/locales/fr/commands.toml``. English is the source text itself.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import _catalog


def _T(text: str, *, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(text, key=key)


class SortieTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key: Any = string.extras.get("key")
        if not key or locale is not discord.Locale.french:
            return None
        return _catalog("fr").get(key)
