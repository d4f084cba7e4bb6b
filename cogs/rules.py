"""``/rules``: a rule of the game by number or word, or the glossary, answered privately.

The answers come from the rules digests (``rendering/rulebook``), in the reader's language:
French for a French client or a French campaign's channel, English otherwise, unless the
``language`` option says which. In a campaign's channel the campaign's ruleset answers
first; another game's rule is still found when that one has no match.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import normalize, t
from bot.translator import _T
from rendering import rulebook
from rendering.rulebook import GLOSSARY, RuleEntry

EMBED_LIMIT = 4096  # an embed's description
CHOICE_LIMIT = 100  # an autocomplete choice's name and value
GLOSSARY_WORDS = ("glossary", "glossaire", "lexique", "abbreviations", "abréviations")


async def _context(interaction: discord.Interaction[Any]) -> tuple[str | None, str | None]:
    """The channel's campaign ruleset and language, if there is a live campaign here."""
    services = getattr(interaction.client, "services", None)
    if services is None or interaction.channel_id is None or interaction.guild_id is None:
        return None, None
    info = await services.campaigns.campaign_in_channel(interaction.channel_id)
    return (None, None) if info is None else (info.ruleset, info.locale)


def _language(
    interaction: discord.Interaction[Any], chosen: str | None, campaign: str | None
) -> str:
    if chosen in rulebook.LANGS:
        return chosen
    client = normalize(interaction.locale)
    if client != "en":
        return client
    return normalize(campaign) if campaign else "en"


def answer(query: str, lang: str, ruleset: str | None) -> discord.Embed:
    """The embed answering ``query``: the entries it matches, or why none does."""
    query = query.strip()
    if query.lower() in GLOSSARY_WORDS:
        return _glossary(lang, ruleset)
    found = rulebook.find(query, lang, ruleset)
    if not found and ruleset is not None:
        found = rulebook.find(query, lang, None)
    if not found:
        lines = [t("rules.none", lang, query=query[:80])]
        near = rulebook.suggestions(query, lang, ruleset) or rulebook.suggestions(query, lang)
        if near:
            lines.append(t("rules.try", lang, suggestions=", ".join(near)))
        lines.append(t("rules.hint", lang))
        return discord.Embed(description="\n".join(lines))
    return _entries(found, lang)


def _entries(found: list[RuleEntry], lang: str) -> discord.Embed:
    first = found[0]
    embed = discord.Embed(title=first.heading[:256])
    parts = [first.text]
    shown = 1
    for other in found[1:]:
        block = f"**{other.heading}**\n{other.text}"
        if len("\n\n".join([*parts, block])) > EMBED_LIMIT - 400 or shown >= 6:
            break
        parts.append(block)
        shown += 1
    rest = found[shown:]
    if rest:
        others = ", ".join(e.number if e.ruleset != GLOSSARY else e.title for e in rest[:15])
        parts.append(t("rules.also", lang, others=others))
        if len(rest) > 15:
            parts.append(t("rules.more", lang, count=len(rest) - 15))
    embed.description = "\n\n".join(parts)[:EMBED_LIMIT]
    titles = rulebook.rulesets(lang)
    source = titles.get(first.ruleset, t("rules.glossary-title", lang))
    embed.set_footer(text=f"{source} · {t('rules.source', lang)}"[:2048])
    return embed


def _glossary(lang: str, ruleset: str | None) -> discord.Embed:
    """The glossary of the channel's game (its card codes, not another game's words);
    outside a campaign, every game's words."""
    lines = [f"**{term.title}**: {term.text}" for term in rulebook.glossary(lang, ruleset)]
    text = ""
    for line in lines:
        if len(text) + len(line) + 1 > EMBED_LIMIT:
            break
        text += line + "\n"
    embed = discord.Embed(title=t("rules.glossary-title", lang), description=text.strip())
    embed.set_footer(text=t("rules.source", lang))
    return embed


def choices(current: str, lang: str, ruleset: str | None) -> list[app_commands.Choice[str]]:
    found = rulebook.complete(current, lang, ruleset)
    if not found and ruleset is not None:
        found = rulebook.complete(current, lang, None)
    out = [
        app_commands.Choice(name=entry.heading[:CHOICE_LIMIT], value=_value(entry))
        for entry in found
    ]
    word = t("rules.glossary-word", lang)
    if current.strip() and word.startswith(current.strip().lower()):
        out.insert(0, app_commands.Choice(name=t("rules.glossary-title", lang), value=word))
    return out[:25]


def _value(entry: RuleEntry) -> str:
    # A glossary term is found again by its title; a rule by its number.
    return (entry.title if entry.ruleset == GLOSSARY else entry.number)[:CHOICE_LIMIT]


class Rules(commands.Cog):
    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @app_commands.command(
        name="rules",
        description=_T(
            "A rule of the game by number or word, or the glossary", key="cmd.rules.desc"
        ),
    )
    @app_commands.describe(
        query="a rule number (25.71), a word (recovery) or glossary",
        language="answer in this language (default: yours, or the campaign's)",
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Français", value="fr"),
        ]
    )
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        query: app_commands.Range[str, 1, 100],
        language: str | None = None,
    ) -> None:
        ruleset, campaign_locale = await _context(interaction)
        lang = _language(interaction, language, campaign_locale)
        await interaction.response.send_message(
            embed=answer(query, lang, ruleset),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @rules.autocomplete("query")
    async def _complete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        ruleset, campaign_locale = await _context(interaction)
        chosen = getattr(interaction.namespace, "language", None)
        lang = _language(interaction, chosen, campaign_locale)
        return choices(current, lang, ruleset)


async def setup(client: commands.Bot) -> None:
    await client.add_cog(Rules(client))
