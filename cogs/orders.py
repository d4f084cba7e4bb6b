"""The secret order panel: its controls in a DM, and ``/orders`` (the same panel, ephemeral).

Controls are ``discord.ui.DynamicItem``\\ s: the ``custom_id`` carries everything a click
needs, so a panel sent last week keeps working after any number of restarts, and nothing
is kept in memory. Formats (each well under Discord's 100 characters):

- ``sortie:o:<campaign>:<round>:<side>:<field>``  one select per decision field
- ``sortie:lock:<campaign>:<round>:<side>``        Lock (the side's commander)
- ``sortie:unlock:<campaign>:<round>:<side>``      Unlock, when the campaign allows it
- ``sortie:help:<campaign>:<round>:<side>``        how the panel works (ephemeral)

Who acts is never read from the id: the service takes the interaction's user and checks
that they play the campaign (and command their side, to lock). The side in the id lets
the cog refuse a click made on another side's panel (a forged request) instead of
applying another side's option list to the clicker's own side. The round in the id makes
a panel from a past round answer "this round is over", change nothing and turn read-only.

Every click that touches the game is deferred at once (the Lock that completes a round
resolves it and renders images), then the panel is edited in place; refusals are one
ephemeral sentence in the clicker's language, the panel itself is in the campaign's. The
DM the outbox sends is drawn here too (``panel_message``), so it reads like its edits.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.announce import (
    PanelRef,
    board_summary,
    deadline_text,
    field_text,
    option_detail,
    option_text,
    place_names,
    render,
    round_text,
    side_text,
)
from bot.clock import epoch
from bot.i18n import t
from bot.service_model import CampaignInfo, PanelData, ServiceError, short_receipt
from bot.translator import _T
from cogs import common

if TYPE_CHECKING:
    from bot.runtime import Services
    from engine.catalog import Catalog
    from engine.state import Decision

log = logging.getLogger("sortie.orders")

TEXT_LIMIT = 2000
LABEL_LIMIT = 100  # select option label and description
MAX_OPTIONS = 25
MAX_SELECTS = 4  # one action row stays for the buttons
SIDE = r"(?P<side>japanese|allied)"
IDS = r"(?P<campaign>\d{1,20}):(?P<round>\d{1,20})"
# Refusals meaning "this panel's round is no longer open": the panel turns read-only.
OVER = ("stale-round", "deadline-passed", "finished", "no-open-round")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------------------ the panel


def panel_text(services: Services, info: CampaignInfo, panel: PanelData) -> str:
    """The panel's words, for the DM the outbox sends, its edits and ``/orders`` alike."""
    loc = info.locale
    catalog = services.catalog
    title = t(
        "service.panel.title",
        loc,
        turn=panel.turn,
        round=round_text(panel.kind, loc),
        side=side_text(panel.side, loc),
    )
    is_open = panel.status == "open"
    lines = [title]
    if is_open and not panel.locked and panel.deadline is not None:
        lines.append(
            t("service.round.deadline", loc, deadline=deadline_text(epoch(panel.deadline)))
        )
    if panel.paused and is_open:
        lines.append(t("orders.paused", loc))
    own = panel.view.sides.get(panel.side) if panel.view is not None else None
    if own is not None and own.last_tactic is not None:
        lines.append(
            t(
                "service.panel.last-turn",
                loc,
                tactic=option_text(
                    catalog, info.scenario, "fleet_tactic", own.last_tactic.value, loc
                ),
                size=t(f"render.size.{own.last_size.value if own.last_size else 'none'}", loc),
            )
        )
    lines += decision_lines(catalog, info.scenario, panel.decisions, panel.drafts, loc)
    resource = panel.drafts.get("resource") if panel.kind == "resource" else None
    if resource is not None:
        effect = _resource_effect(catalog, resource)
        if effect:
            name = option_text(catalog, info.scenario, "resource", resource, loc)
            lines.append(t("orders.resource-effect", loc, resource=name, effect=effect))
    if panel.locked:
        lines.append(t("orders.locked", loc, receipt=short_receipt(panel.receipt or "")))
        if panel.status == "open":
            lines.append(t("orders.waiting", loc))
            if panel.can_unlock:
                lines.append(t("orders.can-unlock", loc))
        elif panel.status == "resolving":
            lines.append(t("orders.resolving", loc))
        else:
            lines.append(t("orders.all-locked", loc))
    elif panel.status != "open":
        lines.append(t("orders.resolving", loc))
    else:
        missing = panel.missing
        if missing:
            fields = ", ".join(field_text(name, loc) for name in missing)
            lines.append(t("orders.missing", loc, fields=fields))
        else:
            lines.append(t("orders.ready", loc))
        if not panel.is_commander:
            commander = next(
                (p.user_id for p in info.players if p.side is panel.side and p.commander), None
            )
            who = f"<@{commander}>" if commander else "—"
            lines.append(t("orders.commander-locks", loc, commander=who))
        lines.append(t("service.panel.how", loc))
    if panel.view is not None:
        lines.append("-# " + image_summary(panel, loc))
    return clip("\n".join(lines), TEXT_LIMIT)


def image_summary(panel: PanelData, loc: str) -> str:
    """What the attached order-panel image shows, for readers without images."""
    view = panel.view
    own = view.sides.get(panel.side)
    fleet = next((tr for tr in view.tracks if tr.side is panel.side and tr.carrier_fleet), None)
    if own is None or fleet is None:
        return board_summary(view, loc)
    return t(
        "orders.image",
        loc,
        fleet=fleet.name,
        boxes=fleet.boxes,
        max=fleet.max_boxes,
        level=fleet.level,
        vp=own.vp,
        resources=len(own.resources_available),
    )


def decision_lines(
    catalog: Catalog,
    scenario: str,
    decisions: Sequence[Decision],
    drafts: Mapping[str, str],
    loc: str,
) -> list[str]:
    """Per field: what is picked, then (small) every option with what it gives now, then
    what is left out and why."""
    places = place_names(catalog, scenario, loc)
    lines: list[str] = []
    for decision in decisions:
        picked = drafts.get(decision.field)
        if picked is not None and decision.allows(picked):
            state = "✓ " + option_text(catalog, scenario, decision.field, picked, loc)
        else:
            state = t("orders.unchosen", loc)
        lines.append(f"**{field_text(decision.field, loc)}**: {state}")
        lines += ["-# " + line for line in _option_lines(catalog, scenario, decision, places, loc)]
        for option, reason in _excluded(catalog, scenario, decision, places, loc):
            lines.append(t("service.panel.excluded", loc, option=option, reason=reason).strip())
    return lines


def _strike_label(catalog: Catalog, scenario: str, size: str, targets: list[str], loc: str) -> str:
    """Large Strike → Allied carrier fleet / Port Moresby."""
    label = option_text(catalog, scenario, "flight_ops", size, loc)
    return f"{label} → {' / '.join(targets)}" if targets else label


def _option_lines(
    catalog: Catalog, scenario: str, decision: Decision, places: Mapping[str, str], loc: str
) -> list[str]:
    if decision.field == "flight_ops":
        # One line per strike size: the force is the same whatever the target.
        groups: dict[tuple[str, str], list[str]] = {}
        for option in decision.options:
            size, _, target = option.id.partition(":")
            targets = groups.setdefault((size, option.detail), [])
            if target:
                targets.append(places.get(target, target))
        return [
            _strike_label(catalog, scenario, size, targets, loc) + (f": {detail}" if detail else "")
            for (size, detail), targets in groups.items()
        ]
    labels = []
    for option in decision.options:
        label = option_text(catalog, scenario, decision.field, option.id, loc)
        if option.detail and decision.field != "resource":
            label += f" ({option_detail(decision.field, option.id, option.detail, loc)})"
        labels.append(label)
    return [" · ".join(labels)]


def _excluded(
    catalog: Catalog, scenario: str, decision: Decision, places: Mapping[str, str], loc: str
) -> list[tuple[str, str]]:
    if decision.field != "flight_ops":
        return [
            (
                option_text(catalog, scenario, decision.field, e.id, loc),
                t(f"service.reason.{e.reason}", loc),
            )
            for e in decision.excluded
        ]
    groups: dict[tuple[str, str], list[str]] = {}
    for excluded in decision.excluded:
        size, _, target = excluded.id.partition(":")
        targets = groups.setdefault((size, excluded.reason), [])
        if target:
            targets.append(places.get(target, target))
    return [
        (
            _strike_label(catalog, scenario, size, targets, loc),
            t(f"service.reason.{reason}", loc),
        )
        for (size, reason), targets in groups.items()
    ]


def _resource_effect(catalog: Catalog, value: str) -> str:
    try:
        return catalog.resource(int(value)).text
    except (ValueError, KeyError, AttributeError):
        return ""


def _options(
    catalog: Catalog, scenario: str, decision: Decision, picked: str | None, loc: str
) -> list[discord.SelectOption]:
    options: list[discord.SelectOption] = []
    legal = list(decision.options)
    if len(legal) > MAX_OPTIONS:
        log.warning(
            "%s has %d legal options; the select shows the first %d",
            decision.field,
            len(legal),
            MAX_OPTIONS,
        )
        legal = legal[:MAX_OPTIONS]
    for option in legal:
        label = option_text(catalog, scenario, decision.field, option.id, loc)
        if decision.field == "doctrine":
            description = t(f"orders.doctrine.{option.id}", loc)
            if description == f"orders.doctrine.{option.id}":
                description = option.detail
        else:
            description = option_detail(decision.field, option.id, option.detail, loc)
        options.append(
            discord.SelectOption(
                label=clip(label, LABEL_LIMIT),
                value=option.id,
                description=clip(description, LABEL_LIMIT) if description else None,
                default=option.id == picked,
            )
        )
    return options


def panel_view(services: Services, info: CampaignInfo, panel: PanelData) -> discord.ui.View:
    """One select per decision field (legal options only), then Lock / Unlock / Help."""
    loc = info.locale
    readonly = panel.locked or panel.status != "open"
    side = panel.side.value
    view = discord.ui.View(timeout=None)
    decisions = [d for d in panel.decisions if d.options][:MAX_SELECTS]
    for row, decision in enumerate(decisions):
        view.add_item(
            FieldSelect(
                panel.campaign_id,
                panel.round_id,
                side,
                decision.field,
                options=_options(
                    services.catalog,
                    info.scenario,
                    decision,
                    panel.drafts.get(decision.field),
                    loc,
                ),
                placeholder=t("orders.placeholder", loc, field=field_text(decision.field, loc)),
                disabled=readonly,
                row=row,
            )
        )
    row = len(decisions)
    view.add_item(
        LockButton(
            panel.campaign_id,
            panel.round_id,
            side,
            label=t("orders.button.locked" if panel.locked else "orders.button.lock", loc),
            style=discord.ButtonStyle.success if panel.locked else discord.ButtonStyle.primary,
            disabled=readonly or not panel.is_commander,
            row=row,
        )
    )
    if panel.locked and panel.can_unlock:
        view.add_item(
            UnlockButton(
                panel.campaign_id,
                panel.round_id,
                side,
                label=t("orders.button.unlock", loc),
                row=row,
            )
        )
    view.add_item(
        HelpButton(
            panel.campaign_id, panel.round_id, side, label=t("orders.button.help", loc), row=row
        )
    )
    return view


async def panel_message(services: Services, ref: PanelRef) -> tuple[str, discord.ui.View] | None:
    """The words and controls of a DM panel the outbox is about to send.

    The DM uses the same words as the panel redrawn after each click, so the first message
    and its edits read alike. None: the round moved on, the announcement goes as built.
    """
    svc = services.campaigns
    try:
        info = await svc.info(ref.campaign_id)
        panel = await svc.panel(ref.campaign_id, ref.user_id)
    except ServiceError as exc:
        log.info("DM panel for %s sent without controls: %s", ref, exc.code)
        return None
    if panel.round_id != ref.round_id or panel.side is not ref.side:
        return None
    return panel_text(services, info, panel), panel_view(services, info, panel)


def _closed_copy(message: discord.Message) -> discord.ui.View:
    """The message's own controls, disabled; Help stays usable, Unlock goes."""
    view = discord.ui.View(timeout=None)
    for row, component in enumerate(message.components):
        for child in getattr(component, "children", ()):
            item = _disabled(child, row)
            if item is not None:
                view.add_item(item)
    return view


def _disabled(child: Any, row: int) -> discord.ui.Item[Any] | None:
    custom_id = getattr(child, "custom_id", None) or ""
    found = FieldSelect.__discord_ui_compiled_template__.fullmatch(custom_id)
    if found is not None and isinstance(child, discord.SelectMenu):
        return FieldSelect(
            int(found["campaign"]),
            int(found["round"]),
            found["side"],
            found["field"],
            options=list(child.options),
            placeholder=child.placeholder,
            disabled=True,
            row=row,
        )
    if not isinstance(child, discord.Button):
        return None
    for kind in (LockButton, HelpButton):
        found = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        if found is not None:
            return kind(
                int(found["campaign"]),
                int(found["round"]),
                found["side"],
                label=child.label or "…",
                style=child.style,
                disabled=kind is not HelpButton,
                row=row,
            )
    return None


# ------------------------------------------------------------------------------ callbacks


_guarded = common.guarded


async def _context(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str
) -> tuple[CampaignInfo, PanelData] | None:
    """The campaign and the clicker's panel, or None once the click has been answered."""
    svc = common.campaigns(interaction)
    try:
        info = await svc.info(campaign_id)
    except ServiceError as exc:
        await common.refuse(interaction, exc)
        return None
    try:
        panel = await svc.panel(campaign_id, interaction.user.id)
    except ServiceError as exc:
        if exc.code in OVER:
            await _close(interaction, info, exc)
        else:
            await common.refuse(interaction, exc)
        return None
    if panel.side.value != side:
        await common.say(
            interaction,
            "orders.wrong-side",
            panel_side=side_text(side, common.locale(interaction)),
            side=side_text(panel.side, common.locale(interaction)),
        )
        return None
    if panel.round_id != round_id:
        await _close(interaction, info, ServiceError("stale-round"))
        return None
    return info, panel


async def _close(
    interaction: discord.Interaction[Any], info: CampaignInfo, error: ServiceError
) -> None:
    """A panel whose round is over: say so, and make that panel read-only."""
    message = interaction.message
    if message is not None:
        closed_line = t("orders.closed", info.locale)
        content = message.content or ""
        if closed_line not in content:
            content = clip(f"{content}\n{closed_line}", TEXT_LIMIT)
        try:
            await interaction.edit_original_response(content=content, view=_closed_copy(message))
        except discord.HTTPException:
            log.warning("Could not close a stale panel (interaction %s)", interaction.id)
    await common.refuse(interaction, error)


async def _refused(
    interaction: discord.Interaction[Any],
    info: CampaignInfo,
    round_id: int,
    error: ServiceError,
) -> None:
    if error.code in OVER:
        await _close(interaction, info, error)
        return
    if error.code == "already-locked":
        # The panel was out of date (locked elsewhere): show where things stand.
        try:
            panel = await common.campaigns(interaction).panel(info.id, interaction.user.id)
        except ServiceError:
            panel = None
        if panel is not None and panel.round_id == round_id:
            await _show(interaction, info, panel)
    await common.refuse(interaction, error)


async def _show(
    interaction: discord.Interaction[Any], info: CampaignInfo, panel: PanelData
) -> None:
    services = common.services(interaction)
    await interaction.edit_original_response(
        content=panel_text(services, info, panel), view=panel_view(services, info, panel)
    )


async def on_select(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    field: str,
    values: Sequence[str],
) -> None:
    await interaction.response.defer()
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, _ = found
    if len(values) != 1:
        await common.refuse(
            interaction,
            ServiceError(
                "illegal-option", reason="unknown-option", field=field, value=",".join(values)
            ),
        )
        return
    try:
        panel = await common.campaigns(interaction).draft(
            campaign_id, interaction.user.id, round_id, field, values[0]
        )
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
        return
    await _show(interaction, info, panel)


async def on_lock(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str
) -> None:
    await interaction.response.defer()
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, before = found
    svc = common.campaigns(interaction)
    try:
        result = await svc.lock(campaign_id, interaction.user.id, round_id)
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
        return
    after: PanelData | None = None
    if not result.resolved:
        try:
            after = await svc.panel(campaign_id, interaction.user.id)
        except ServiceError:
            after = None
    if after is None or after.round_id != round_id:
        # This lock completed the round: the panel shows it locked, the next one follows.
        after = dataclasses.replace(
            before,
            locked=True,
            receipt=result.receipt,
            status="resolved" if result.resolved else before.status,
            can_unlock=False,
        )
    await _show(interaction, info, after)
    if result.already_locked:
        await common.say(
            interaction, "orders.already-locked", receipt=short_receipt(result.receipt)
        )
        return
    # The round message (and, if this was the last lock, the reveal) goes out now.
    await common.pump(interaction)


async def on_unlock(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str
) -> None:
    await interaction.response.defer()
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, _ = found
    try:
        panel = await common.campaigns(interaction).unlock(
            campaign_id, interaction.user.id, round_id
        )
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
        return
    await _show(interaction, info, panel)
    await common.pump(interaction)


# ------------------------------------------------------------------------------ controls


class FieldSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"sortie:o:{IDS}:{SIDE}:(?P<field>[a-z_]{{1,32}})",
):
    def __init__(
        self,
        campaign_id: int,
        round_id: int,
        side: str,
        field: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"sortie:o:{campaign_id}:{round_id}:{side}:{field}",
                options=options or [],
                placeholder=clip(placeholder, 150) if placeholder else None,
                min_values=1,
                max_values=1,
                disabled=disabled,
            ),
            row=row,
        )
        self.campaign_id = campaign_id
        self.round_id = round_id
        self.side = side
        self.field = field

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> FieldSelect:
        return cls(int(match["campaign"]), int(match["round"]), match["side"], match["field"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        data: Any = interaction.data
        if not values and isinstance(data, dict):
            values = [str(v) for v in data.get("values", [])]
        await _guarded(
            interaction,
            on_select(interaction, self.campaign_id, self.round_id, self.side, self.field, values),
        )


# The shared body of the panel's buttons; its own template matches nothing on purpose.
class _PanelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sortie:_:(?!)"):
    action = "_"

    def __init__(
        self,
        campaign_id: int,
        round_id: int,
        side: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"sortie:{self.action}:{campaign_id}:{round_id}:{side}",
                label=clip(label, 80),
                style=style,
                disabled=disabled,
            ),
            row=row,
        )
        self.campaign_id = campaign_id
        self.round_id = round_id
        self.side = side

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> _PanelButton:
        return cls(int(match["campaign"]), int(match["round"]), match["side"])


class LockButton(_PanelButton, template=rf"sortie:lock:{IDS}:{SIDE}"):
    action = "lock"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(
            interaction, on_lock(interaction, self.campaign_id, self.round_id, self.side)
        )


class UnlockButton(_PanelButton, template=rf"sortie:unlock:{IDS}:{SIDE}"):
    action = "unlock"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(
            interaction, on_unlock(interaction, self.campaign_id, self.round_id, self.side)
        )


class HelpButton(_PanelButton, template=rf"sortie:help:{IDS}:{SIDE}"):
    action = "help"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(interaction, common.say(interaction, "orders.help"))


# ------------------------------------------------------------------------------ /orders


class Orders(commands.Cog):
    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @app_commands.command(
        name="orders",
        description=_T(
            "Your secret order panel for this channel's campaign (only you see it)",
            key="orders.cmd.description",
        ),
    )
    @app_commands.guild_only()
    async def orders(self, interaction: discord.Interaction[Any]) -> None:
        # Rendering the side's image takes a moment: answer Discord first.
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await common.campaign_here(interaction)
        if info is None:
            return
        services = common.services(interaction)
        try:
            panel = await services.campaigns.panel(info.id, interaction.user.id)
        except ServiceError as exc:
            await common.refuse(interaction, exc)
            return
        files: list[discord.File] = []
        if panel.view is not None:
            png = await render(
                "render_order_panel",
                panel.view,
                resource_names={r.number: r.name for r in services.catalog.resources},
                locale=info.locale,
            )
            if png is not None:
                import io

                name = f"panel-t{panel.turn}-{panel.kind}-{panel.side.value}.png"
                files.append(discord.File(io.BytesIO(png), filename=name))
        await interaction.followup.send(
            panel_text(services, info, panel),
            files=files,
            view=panel_view(services, info, panel),
            ephemeral=True,
        )


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(FieldSelect, LockButton, UnlockButton, HelpButton)
    await client.add_cog(Orders(client))


async def teardown(client: commands.Bot) -> None:
    client.remove_dynamic_items(FieldSelect, LockButton, UnlockButton, HelpButton)
