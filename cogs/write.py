"""Fields answered otherwise than from a menu: a text written in a modal, a yes or a no.

The panel composer (``bot.panel``) says which fields are texts and which are yes/no; this
cog draws them the same way for every game. Formats (custom ids, each under 100 chars):

- ``sortie:write:<campaign>:<round>:<side>:<page>``  the Write button of a panel page
- ``sortie:m:<campaign>:<round>:<side>:<page>``      its modal; each text input's id is
  the field's name (``program:P3``), so a submission says what every text was for
- ``sortie:y:<campaign>:<round>:<side>:<index>:<field>`` a yes/no field's answer (0: yes)

A modal lives in Discord, not here: its submission is read from the interaction itself
(``on_interaction``), so one opened before a restart is taken after it like any other.
What was typed goes to the service, which drafts each text the ruleset reads and refuses
the others with the ruleset's reason, changing nothing for them. ``/program`` opens the
same modal from the campaign's channel (ephemeral), for a player whose DMs are closed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import panel as panels
from bot.client import answer_in, send_ephemeral
from bot.limits import TEXT_INPUT_LIMIT
from bot.panel import ModalSpec, clip
from bot.service_model import CampaignInfo, PanelData, ServiceError
from bot.translator import _T
from cogs import common

# Names, not the module: discord.py loads each extension as a fresh module, so the package
# attribute ``cogs.orders`` may name an older copy than the one this bot loaded (and drew
# its panels with); ``from cogs.orders import`` takes the one loaded last, just before.
from cogs.orders import (
    BUTTONS,
    FIELD,
    IDS,
    SIDE,
    _context,
    _PanelButton,
    _refused,
    _show,
    compose,
    panel_view,
)

log = logging.getLogger("sortie.write")

MODAL = re.compile(rf"sortie:m:{IDS}:{SIDE}:(?P<page>\d{{1,2}})")


def modal_view(spec: ModalSpec) -> discord.ui.Modal:
    """The modal as Discord draws it: one short text input per field, filled with what the
    side has written, none required (a field left empty keeps its draft)."""
    modal = discord.ui.Modal(
        title=spec.title,
        custom_id=f"sortie:m:{spec.campaign_id}:{spec.round_id}:{spec.side}:{spec.page}",
        timeout=600,  # only frees memory: the submission is read in on_interaction
    )
    for item in spec.inputs:
        modal.add_item(
            discord.ui.TextInput(
                label=item.label,
                custom_id=item.field,
                placeholder=item.placeholder or None,
                default=item.value or None,
                required=False,
                max_length=TEXT_INPUT_LIMIT,
            )
        )
    return modal


def submitted(data: Any) -> dict[str, str]:
    """A modal submission's texts by input id, whichever layout carried them (action rows,
    or labels around the inputs)."""
    found: dict[str, str] = {}

    def walk(component: Mapping[str, Any]) -> None:
        inner = component.get("component")
        if isinstance(inner, Mapping):
            walk(inner)
        for child in component.get("components") or ():
            if isinstance(child, Mapping):
                walk(child)
        if isinstance(component.get("custom_id"), str) and isinstance(component.get("value"), str):
            found[component["custom_id"]] = component["value"]

    if isinstance(data, Mapping):
        for component in data.get("components") or ():
            if isinstance(component, Mapping):
                walk(component)
    return found


# ------------------------------------------------------------------------------ callbacks


async def on_write(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str, page: int
) -> None:
    """Open the modal of the page's text fields. It must be the click's first answer, so
    nothing is deferred: the panel is one glance at the database."""
    found = await _context(interaction, campaign_id, round_id, side, defer=False)
    if found is None:
        return
    info, panel = found
    await _open_modal(
        interaction, info, panel, panels.modal(_plugin(interaction, info), panel, info.locale, page)
    )


async def _open_modal(
    interaction: discord.Interaction[Any], info: CampaignInfo, panel: PanelData, spec: ModalSpec
) -> None:
    if panel.locked:
        await common.refuse(interaction, ServiceError("already-locked"), info.locale)
    elif panel.status != "open":
        await common.refuse(interaction, ServiceError("stale-round"), info.locale)
    elif not spec.inputs:
        await common.say_in(interaction, info.locale, "inputs.nothing-to-write")
    else:
        await interaction.response.send_modal(modal_view(spec))


async def on_submit(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    page: int,
    texts: Mapping[str, str],
) -> None:
    """Draft what the modal holds: the panel it came from is redrawn with it, and each text
    refused is said with its reason (that field unchanged)."""
    from_panel = interaction.message is not None
    if from_panel:
        await interaction.response.defer()
    else:  # /program: the answer is an ephemeral panel of its own
        await interaction.response.defer(ephemeral=True, thinking=True)
    info = await common.campaign_of_component(interaction, campaign_id)
    if info is None:
        return
    written = {field: text for field, text in texts.items() if text.strip()}
    svc = common.campaigns(interaction)
    try:
        panel, refused = await svc.write(
            campaign_id, interaction.user.id, round_id, written, panel_side=side
        )
    except ServiceError as exc:
        if exc.code == "wrong-side" or not from_panel:
            await common.refuse(interaction, exc, info.locale)
        else:
            await _refused(interaction, info, round_id, exc)
        return
    refusals = [refused[field].message(info.locale) for field in written if field in refused]
    if from_panel:
        # A program taken redraws the picture (its ghost path), as a pick from a menu does.
        drafted = any(field not in refused for field in written)
        await _show(interaction, info, panel, page, redraw=drafted)
        if refusals:  # each in words already, what was typed clipped (ServiceError)
            await send_ephemeral(interaction, clip("\n".join(refusals), panels.TEXT_LIMIT))
        return
    spec = compose(common.services(interaction), info, panel, page)
    text = clip("\n".join([*refusals, spec.text]), panels.TEXT_LIMIT)
    await interaction.followup.send(text, view=panel_view(spec), ephemeral=True)


async def on_confirm(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    field: str,
    index: int,
) -> None:
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, panel = found
    decision = next((d for d in panel.decisions if d.field == field), None)
    if decision is None or decision.input != "confirm" or index >= len(decision.options):
        await common.refuse(interaction, ServiceError("unknown-field", field=field), info.locale)
        return
    try:
        panel = await common.campaigns(interaction).draft(
            campaign_id, interaction.user.id, round_id, field, decision.options[index].id
        )
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
        return
    await _show(interaction, info, panel, panels.page_of(panel, field))


def _plugin(interaction: discord.Interaction[Any], info: CampaignInfo) -> Any:
    return common.campaigns(interaction).rulesets.get(info.ruleset)


# ------------------------------------------------------------------------------ controls


class WriteButton(_PanelButton, template=rf"sortie:write:{IDS}:{SIDE}:(?P<page>\d{{1,2}})"):
    action = "write"

    def __init__(self, campaign_id: int, round_id: int, side: str, **kwargs: Any) -> None:
        self.page = int(kwargs.get("page", 0))
        super().__init__(campaign_id, round_id, side, **kwargs)

    def custom_id_of(
        self, campaign_id: int, round_id: int, side: str, *, version: str = "", **more: Any
    ) -> str:
        return f"sortie:write:{campaign_id}:{round_id}:{side}:{int(more.get('page', 0))}"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await common.guarded(
            interaction,
            on_write(interaction, self.campaign_id, self.round_id, self.side, self.page),
        )


class ConfirmButton(_PanelButton, template=rf"sortie:y:{IDS}:{SIDE}:(?P<index>[01]):{FIELD}"):
    action = "confirm"

    def __init__(self, campaign_id: int, round_id: int, side: str, **kwargs: Any) -> None:
        self.field = str(kwargs.get("field", ""))
        self.index = int(kwargs.get("index", 0))
        super().__init__(campaign_id, round_id, side, **kwargs)

    def custom_id_of(
        self, campaign_id: int, round_id: int, side: str, *, version: str = "", **more: Any
    ) -> str:
        index, field = int(more.get("index", 0)), str(more.get("field", ""))
        return f"sortie:y:{campaign_id}:{round_id}:{side}:{index}:{field}"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await common.guarded(
            interaction,
            on_confirm(
                interaction, self.campaign_id, self.round_id, self.side, self.field, self.index
            ),
        )


# ------------------------------------------------------------------------------ the cog


class Write(commands.Cog):
    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        found = MODAL.fullmatch(str(data.get("custom_id", "")))
        if found is None:
            return
        await common.guarded(
            interaction,
            on_submit(
                interaction,
                int(found["campaign"]),
                int(found["round"]),
                found["side"],
                int(found["page"]),
                submitted(data),
            ),
        )

    @app_commands.command(
        name="program",
        description=_T(
            "Write your orders as text, for this channel's campaign (only you see it)",
            key="inputs.program.description",
        ),
    )
    @app_commands.describe(
        part=_T("Which five fields, when you have more", key="inputs.program.part")
    )
    @app_commands.guild_only()
    async def program(
        self, interaction: discord.Interaction[Any], part: app_commands.Range[int, 1, 9] = 1
    ) -> None:
        # The modal must be the command's first answer: nothing is deferred.
        info = await common.campaign_here(interaction)
        if info is None:
            return
        # A refusal (not a player here) is answered by the one handler, in the campaign's
        # language as its panels are.
        answer_in(interaction, info.locale)
        panel = await common.campaigns(interaction).panel(info.id, interaction.user.id)
        spec = panels.text_modal(_plugin(interaction, info), panel, info.locale, part - 1)
        await _open_modal(interaction, info, panel, spec)


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(WriteButton, ConfirmButton)
    BUTTONS.update(write=WriteButton, confirm=ConfirmButton)
    await client.add_cog(Write(client))


async def teardown(client: commands.Bot) -> None:
    # The buttons stay registered: a bot restarted in the same process (tests) sets the
    # new one up before the old one is torn down.
    client.remove_dynamic_items(WriteButton, ConfirmButton)
