"""/rules in simcord: a rule by number or word, in English and French, the glossary, an
unknown rule, autocomplete; and the order panel's menus saying what each option does."""

from __future__ import annotations

from typing import Any

import simcord

from bot.client import SortieBot
from bot.service_model import Pace
from tests.e2e.conftest import World, bot_cogs


def _bot(world: World) -> SortieBot:
    bot = SortieBot(services=world.services, cogs=(*bot_cogs(), "cogs.rules"))
    world.bots.append(bot)
    return bot


def _reader(world: World, env: simcord.Env, name: str) -> tuple[Any, Any, Any]:
    """A server with a Coral Sea channel and one member who asks /rules there."""
    world.env = env
    guild = env.create_guild()
    channel = guild.create_text_channel("coral-sea")
    return guild, channel, guild.add_member(env.create_user(name))


def _text(result: simcord.InteractionResult) -> str:
    assert result.ephemeral
    embed = result.response.embeds[0]
    return f"{embed.title or ''}\n{embed.description or ''}\n{embed.footer.text or ''}"


async def test_rule_by_number_in_english_and_french(world: World) -> None:
    async with simcord.run(_bot(world)) as env:
        guild, channel, alice = _reader(world, env, "alice")

        english = _text(await alice.slash(channel, "rules", query="25.71"))
        assert "25.71 Recovering damaged aircraft" in english
        assert "IN MY SIGHTS" in english and "Close 0, Medium 1, Long 2" in english

        french = _text(await alice.slash(channel, "rules", query="25.71", language="fr"))
        assert "25.71 Appontage des avions endommagés" in french
        assert "Réduite 0, Moyenne 1, Longue 2" in french
        assert "Recovering" not in french

        # A French campaign's channel answers in French without being asked.
        gm = guild.add_member(env.create_user("mj"))
        french_channel = guild.create_text_channel("mer-de-corail")
        await world.services.campaigns.create_campaign(
            guild.id, french_channel.id, gm.id, "coral-sea", Pace(), seed="fr", locale="fr"
        )
        there = _text(await alice.slash(french_channel, "rules", query="recuperation"))
        assert "25.71 Appontage des avions endommagés" in there


async def test_words_sections_glossary_and_unknown(world: World) -> None:
    async with simcord.run(_bot(world)) as env:
        _, channel, bob = _reader(world, env, "bob")

        by_word = _text(await bob.slash(channel, "rules", query="recovery"))
        assert by_word.startswith("25.71 Recovering damaged aircraft")

        radar = _text(await bob.slash(channel, "rules", query="radar"))
        assert radar.startswith("#3 Radar (Allied)") and "2 more Target-Bound turns" in radar

        section = _text(await bob.slash(channel, "rules", query="25.7"))
        assert "25.71" in section and "25.72 CAP lands safely" in section

        glossary = _text(await bob.slash(channel, "rules", query="glossary"))
        for term in ("L/W", "CAP", "MAN", "TT", "OTS", "2B/3D"):
            assert f"**{term}" in glossary or f" {term}" in glossary, term
        assert len(glossary) <= 4096 + 300

        unknown = _text(await bob.slash(channel, "rules", query="recovry"))
        assert "No rule matches “recovry”" in unknown
        assert "Try:" in unknown and "25.71" in unknown

        nothing = _text(await bob.slash(channel, "rules", query="99.99"))
        assert "No rule matches" in nothing and "/rules 25.71" in nothing


async def test_autocomplete_offers_rules_by_number_and_word(world: World) -> None:
    async with simcord.run(_bot(world)) as env:
        _, channel, carol = _reader(world, env, "carol")

        numbers = await carol.autocomplete(channel, "rules", "query", "25.7")
        assert [c["value"] for c in numbers] == ["25.71", "25.72"]
        assert numbers[0]["name"] == "25.71 Recovering damaged aircraft"

        words = await carol.autocomplete(channel, "rules", "query", "out of s")
        assert words[0]["value"] == "#9"

        french = await carol.autocomplete(channel, "rules", "query", "appon", language="fr")
        assert french[0] == {"name": "25.71 Appontage des avions endommagés", "value": "25.71"}

        glossary = await carol.autocomplete(channel, "rules", "query", "glo")
        assert glossary[0]["value"] == "glossary"

        empty = await carol.autocomplete(channel, "rules", "query", "")
        assert 0 < len(empty) <= 25
        assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in empty)


async def test_order_panel_options_say_what_they_do(world: World) -> None:
    from tests.e2e.test_orders import dm_panel, open_table

    async with simcord.run(_bot(world)) as env:
        table = await open_table(world, env, seed=None)
        panel = dm_panel(table.alice_user)
        options = {
            option.value: option.description
            for row in panel.components
            for select in row.children
            if select.type.value == 3
            for option in select.options
        }
        assert options["long"].startswith("Long Range: +2 landing cards per damaged aircraft")
        assert "CAP stays: 1 L A6M2" in options["large:allied-fleet"]
        assert options["none"].startswith("Every fighter stays on CAP")
        assert all(description and len(description) <= 100 for description in options.values())
        # The panel names the abbreviations it uses.
        assert "L/W = Leader + Wingman" in panel.content
        # The small print says what a tactic's recovery value is for.
        assert "each damaged aircraft draws as many cards as both sides' recovery values" in (
            panel.content
        )


async def test_rules_in_a_wings_campaign_answer_from_the_wings_digest(world: World) -> None:
    async with simcord.run(_bot(world)) as env:
        world.env = env
        guild = env.create_guild()
        gm = guild.add_member(env.create_user("gm"))
        pilot = guild.add_member(env.create_user("pilot"))
        channel = guild.create_text_channel("western-front")
        await world.services.campaigns.create_campaign(
            guild.id, channel.id, gm.id, "wings-1917", Pace(), seed="w", ruleset="wings"
        )
        # A word the carrier digest also knows ("altitude") answers with the Wings rule here.
        altitude = _text(await pilot.slash(channel, "rules", query="altitude"))
        assert altitude.startswith("A.III Altitude") and "climb counters" in altitude
        assert "Wings of War campaign" in altitude  # the footer names the digest
        section = _text(await pilot.slash(channel, "rules", query="A.II"))
        assert "A.II.a Fire" in section and "A.II.c Aimed fire" in section
        assert "A.III" not in section
        french = _text(await pilot.slash(channel, "rules", query="talonnage", language="fr"))
        assert french.startswith("A.IV.d Talonnage") and "Campagne Wings of War" in french
        dam = _text(await pilot.slash(channel, "rules", query="DB5", language="fr"))
        assert "DB5 Dambuster\u00a0: toucher le barrage" in dam
        # Outside a campaign, the Wings numbers are still found.
        other = guild.create_text_channel("mess")
        assert "A.IV.d Tailing" in _text(await pilot.slash(other, "rules", query="A.IV.d"))
