"""Choices built in steps (card 1, 2, 3): one select per step, and a Start again button.

The panel composer (``bot.panel``) draws a ``steps`` decision as one select per step, each
offering what the picks before it allow; this cog turns them into Discord controls, the
same for every game. Formats (custom ids, each under 100 chars):

- ``sortie:st:<campaign>:<round>:<side>:<step>:<token>:<field>`` a step's select; the
  token fingerprints the picks before that step as the panel showed them, so a select of
  an older copy of the panel (drawn over other picks) changes nothing and the panel is
  drawn again as it stands
- ``sortie:sx:<campaign>:<round>:<side>:<field>``               Start again: every step
  of that choice cleared

Like every panel control, everything a click needs is in its id: a panel sent before a
restart works after it, and the half-built choice is a draft row (``bot.service_steps``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot import panel as panels
from bot.panel import PanelSpec, SelectSpec
from bot.service_model import ServiceError
from cogs import common

# Names, not the module (see ``cogs.write``): the copy of ``cogs.orders`` loaded last.
from cogs.orders import (
    BUTTONS,
    FIELD,
    IDS,
    SELECTS,
    SIDE,
    _context,
    _PanelButton,
    _refused,
    _show,
    one_pick,
    picked,
    select_options,
)

TOKEN = r"(?P<token>[0-9a-f]{6})"


async def on_step(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    field: str,
    step: int,
    token: str,
    values: Sequence[str],
) -> None:
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, _ = found
    svc = common.campaigns(interaction)
    try:
        if len(values) != 1 or values[0] == panels.NOTHING_YET:
            raise ServiceError("panel-outdated")  # a greyed step cannot be picked from
        panel = await svc.pick_step(
            campaign_id, interaction.user.id, round_id, field, step, values[0],
            token=token, panel_side=side,
        )  # fmt: skip
    except ServiceError as exc:
        if exc.code != "panel-outdated":
            await _refused(interaction, info, round_id, exc)
        # Drawn over other picks: the choice's page again, as it stands, then the refusal.
        fresh = await svc.panel(campaign_id, interaction.user.id)
        await _show(interaction, info, fresh, panels.page_of(fresh, field, steps=True))
        raise
    # Stay on the choice's page; the picture shows the choice once it is whole.
    await _show(interaction, info, panel, panels.page_of(panel, field, steps=True), redraw=True)


async def on_restart(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str, field: str
) -> None:
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, _ = found
    try:
        panel = await common.campaigns(interaction).restart_steps(
            campaign_id, interaction.user.id, round_id, field, panel_side=side
        )
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
    await _show(interaction, info, panel, panels.page_of(panel, field, steps=True), redraw=True)


class StepSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"sortie:st:{IDS}:{SIDE}:(?P<step>\d):{TOKEN}:{FIELD}",
):
    def __init__(
        self,
        campaign_id: int,
        round_id: int,
        side: str,
        step: int,
        token: str,
        field: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = f"sortie:st:{campaign_id}:{round_id}:{side}:{step}:{token}:{field}"
        nothing = [discord.SelectOption(label="—", value=panels.NOTHING_YET)]
        select = one_pick(custom_id, options or nothing, placeholder, disabled)
        super().__init__(select, row=row)
        self.campaign_id, self.round_id, self.side = campaign_id, round_id, side
        self.step, self.token, self.field = step, token, field

    @classmethod
    def drawn(cls, spec: PanelSpec, select: SelectSpec, row: int) -> StepSelect:
        """The select of one step as the panel composer drew it."""
        assert select.step is not None
        ids = (spec.campaign_id, spec.round_id, spec.side, select.step, select.token)
        return cls(
            *ids,
            select.field,
            options=select_options(select),
            placeholder=select.placeholder,
            disabled=select.disabled,
            row=row,
        )

    @classmethod
    def of(cls, match: Any, **shown: Any) -> StepSelect:
        """The select its custom id names (``shown``: how it looks)."""
        ids = (int(match["campaign"]), int(match["round"]), match["side"], int(match["step"]))
        return cls(*ids, match["token"], match["field"], **shown)

    @classmethod
    def closed(cls, match: Any, shown: discord.SelectMenu, row: int) -> StepSelect:
        """The select of a panel whose round is over, as it was shown, greyed."""
        options = list(shown.options)
        return cls.of(match, options=options, placeholder=shown.placeholder, disabled=True, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> StepSelect:
        return cls.of(match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await common.guarded(
            interaction,
            on_step(
                interaction, self.campaign_id, self.round_id, self.side, self.field,
                self.step, self.token, picked(self.item, interaction),
            ),
        )  # fmt: skip


class RestartButton(_PanelButton, template=rf"sortie:sx:{IDS}:{SIDE}:{FIELD}"):
    action = "restart"

    def __init__(self, campaign_id: int, round_id: int, side: str, **kwargs: Any) -> None:
        self.field = str(kwargs.get("field", ""))
        super().__init__(campaign_id, round_id, side, **kwargs)

    def custom_id_of(
        self, campaign_id: int, round_id: int, side: str, *, version: str = "", **more: Any
    ) -> str:
        return f"sortie:sx:{campaign_id}:{round_id}:{side}:{more.get('field', '')}"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await common.guarded(
            interaction,
            on_restart(interaction, self.campaign_id, self.round_id, self.side, self.field),
        )


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(StepSelect, RestartButton)
    BUTTONS.update(restart=RestartButton)
    SELECTS.update(step=StepSelect)


async def teardown(client: commands.Bot) -> None:
    client.remove_dynamic_items(StepSelect, RestartButton)
