"""Every slash command's text options fed hostile values, as a member and as a GM (issue 30,
item 6): mentions, 6,000 characters (Discord's longest option), bidi controls, a NUL.

Nothing may end in an ERROR log line (the member's "Something went wrong on our side"),
and nothing the bot posts may ping anyone it did not mean to (``allowed_mentions``). The
commands are read from the bot's own command tree, so a new command is fuzzed too.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot.client import COGS, SortieBot
from bot.service_model import Pace
from tests.e2e.conftest import World
from tests.e2e.test_orders import Table, custom_ids, open_table


def hostile_values(table: Table, role: simcord.RoleHandle) -> dict[str, str]:
    ping = f"<@{table.spectator.id}> "
    return {
        "mentions": f"@everyone @here <@&{role.id}> {ping}{table.spectator.mention}",
        "longest": ping + "x" * (6000 - len(ping)),
        "bidi": "\u202eallied\u202c \u2066japanese\u2069 \u200f",
        "nul": "allied\x00@everyone",
        "markdown": "**" + "`" * 40 + "||spoiler||\n" * 50 + "# heading",
    }


def _commands(bot: SortieBot) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


def _benign(table: Table, parameter: app_commands.Parameter) -> Any:
    """A value a careful user would give, for the options not under test."""
    kind = parameter.type
    if kind is discord.AppCommandOptionType.user:
        return table.bob
    if kind is discord.AppCommandOptionType.integer:
        return table.campaign_id if parameter.name == "campaign" else 1
    if kind is discord.AppCommandOptionType.boolean:
        return False
    if kind is discord.AppCommandOptionType.string:
        if parameter.choices:
            return parameter.choices[0].value
        return {"scenario": "midway", "side": "allied", "duration": "1h", "query": "25.71"}.get(
            parameter.name, "because"
        )
    return None


def _options(
    table: Table, command: app_commands.Command[Any, ..., Any], name: str, value: str
) -> dict[str, Any]:
    options: dict[str, Any] = {name: value}
    for parameter in command.parameters:
        if parameter.name != name and parameter.required:
            options[parameter.name] = _benign(table, parameter)
    return options


async def _answer_any_question(actor: simcord.MemberActor, result: Any) -> None:
    """A GM's question is confirmed, so what the action then says is fuzzed too."""
    response = getattr(result, "response", None)
    if response is None:
        return
    confirm = [c for c in custom_ids(response) if c.startswith("sortie:gm:yes:")]
    if confirm:
        await actor.click(response, custom_id=confirm[0])


def _pings(env: simcord.Env, table: Table, role: simcord.RoleHandle) -> list[str]:
    found: list[str] = []
    for channel_messages in env.backend.messages.values():
        for message in channel_messages.values():  # only the bot posts in this test
            if (
                message.mention_everyone
                or role.id in message.ping_role_ids
                or table.spectator.id in message.ping_user_ids
            ):
                found.append(message.content[:200])
    return found


async def test_hostile_text_options_log_no_error_and_ping_nobody(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    bot = SortieBot(services=world.services, cogs=COGS)
    world.bots.append(bot)
    async with simcord.run(bot) as env:
        tried = 0
        for command in _commands(bot):
            texts = [p for p in command.parameters if p.type is discord.AppCommandOptionType.string]
            if not texts:
                continue
            # A table of its own per command: a confirmed end or rollback changes nothing
            # for the next command's values.
            table = await open_table(world, env, pace=Pace(gm_sees_secrets=True))
            role = table.guild.create_role("Everyone-ish", mentionable=True)
            for parameter in texts:
                for label, value in hostile_values(table, role).items():
                    for actor in (table.spectator, table.gm):
                        options = _options(table, command, parameter.name, value)
                        where = f"/{command.qualified_name} {parameter.name}={label}"
                        if parameter.autocomplete:
                            await actor.autocomplete(
                                table.channel, command.qualified_name, parameter.name, value
                            )
                        try:
                            result = await actor.slash(
                                table.channel, command.qualified_name, **options
                            )
                        except (simcord.SetupError, simcord.OptionError, ValueError) as refused:
                            # Discord's client would not send it (a choice not offered).
                            assert parameter.choices or "at most" in str(refused), (
                                where,
                                refused,
                            )
                            continue
                        tried += 1
                        assert result.acknowledged, where
                        if actor is table.gm:
                            await _answer_any_question(actor, result)
                        await world.pump()
            errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert not errors, [f"{command.qualified_name}: {r.getMessage()}" for r in errors]
            assert not _pings(env, table, role), command.qualified_name
        assert tried > 200
