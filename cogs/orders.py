"""The secret order panel: its controls in a DM, and ``/orders`` (the same panel, ephemeral).

Controls are ``discord.ui.DynamicItem``\\ s: the ``custom_id`` carries everything a click
needs, so a panel sent last week keeps working after any number of restarts, and nothing
is kept in memory. Formats (each well under Discord's 100 characters):

- ``sortie:o:<campaign>:<round>:<side>:<field>``  one select per decision field
- ``sortie:lock:<campaign>:<round>:<side>:<drafts>`` Lock: commits only the drafts shown
- ``sortie:unlock:<campaign>:<round>:<side>``      Unlock, when the campaign allows it
- ``sortie:help:<campaign>:<round>:<side>``        how the panel works (ephemeral)
- ``sortie:write:…`` and ``sortie:y:…``: a text field's Write button (its modal
  ``sortie:m:…``) and a yes/no field's buttons, in ``cogs.write``

Who acts is never read from the id: the service takes the interaction's user and checks
that they play the campaign (and command their side, to lock). The side in the id lets
the cog refuse a click made on another side's panel (a forged request) instead of
applying another side's option list to the clicker's own side. The round in the id makes
a panel from a past round answer "this round is over", change nothing and turn read-only.

Every click that touches the game is deferred at once, Lock included (the Lock that
completes a round resolves it), then the panel is edited in place; the round message and
the reveal follow from the outbox after the answer. Refusals are one
ephemeral sentence in the campaign's language, like the panel it answers: a player whose
client is in English reads a French campaign's refusals in French, as its panel is. The
DM the outbox sends is drawn here too (``panel_message``), so it reads like its edits.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot import boards, controls, secrecy
from bot import panel as panels
from bot.client import answer_in, send_ephemeral
from bot.i18n import t, word
from bot.panel import TEXT_LIMIT, PanelSpec, SelectSpec, clip
from bot.service_model import CampaignInfo, PanelData, ServiceError, short_receipt
from bot.translator import _T
from cogs import common

if TYPE_CHECKING:
    from bot.runtime import Services

log = logging.getLogger("sortie.orders")

SIDE = r"(?P<side>[a-z0-9_-]{1,32})"
# A field, last in an id: a per-unit one holds its family, ":" and the unit ("program:P3"),
# so it parses back whole whatever the unit's id (engine.ruleset.unit_field).
FIELD = r"(?P<field>[A-Za-z0-9_.:-]{1,48})"
IDS = r"(?P<campaign>\d{1,20}):(?P<round>\d{1,20})"
# Refusals meaning "this panel's round is no longer open": the panel turns read-only.
OVER = ("stale-round", "deadline-passed", "finished", "no-open-round")


# ------------------------------------------------------------------------------ the panel


STYLES = {
    "primary": discord.ButtonStyle.primary,
    "success": discord.ButtonStyle.success,
    "secondary": discord.ButtonStyle.secondary,
}
BUTTONS: dict[str, type[_PanelButton]] = {}
# Selects other cogs draw (a step of a choice built in steps), by what they are for.
SELECTS: dict[str, Any] = {}


def compose(services: Services, info: CampaignInfo, panel: PanelData, page: int = 0) -> PanelSpec:
    """The panel as ``bot.panel`` composes it, for this campaign's ruleset (its menus'
    ``page`` when it has more fields than select rows)."""
    commander = next(
        (p.user_id for p in info.players if p.side == panel.side and p.commander), None
    )
    return panels.compose(
        services.campaigns.rulesets.get(info.ruleset),
        panel,
        scenario=info.scenario,
        locale=info.locale,
        commander_id=commander,
        channel_id=info.channel_id,
        page=page,
    )


def panel_view(spec: PanelSpec) -> discord.ui.View:
    """One select per decision field (legal options only), then Lock / Unlock / Help."""
    view = discord.ui.View(timeout=None)
    for row, select in enumerate(spec.selects):
        step = SELECTS.get("step")
        if select.step is not None:
            if step is not None:  # a step of a choice built in steps (``cogs.steps``)
                view.add_item(step.drawn(spec, select, row))
            continue
        view.add_item(
            FieldSelect(
                spec.campaign_id,
                spec.round_id,
                spec.side,
                select.field,
                options=select_options(select),
                placeholder=select.placeholder,
                disabled=select.disabled,
                row=row,
            )
        )
    row = len(spec.selects)
    confirm = BUTTONS.get("confirm")
    for yes_no in spec.confirms if confirm is not None else ():
        for index, choice in enumerate(yes_no.choices):
            assert confirm is not None
            view.add_item(
                confirm(
                    spec.campaign_id,
                    spec.round_id,
                    spec.side,
                    label=choice.label,
                    style=STYLES["success" if choice.default else "secondary"],
                    disabled=yes_no.disabled,
                    row=row,
                    field=yes_no.field,
                    index=index,
                )
            )
        row += 1
    for button in spec.buttons:
        if button.action == "page":
            view.add_item(
                PageButton(
                    spec.campaign_id,
                    spec.round_id,
                    spec.side,
                    spec.next_page,
                    label=button.label,
                    row=row,
                )
            )
            continue
        if button.action not in BUTTONS:
            continue  # a control whose cog is not loaded (the odds preview's, cogs.odds)
        item = BUTTONS[button.action](
            spec.campaign_id,
            spec.round_id,
            spec.side,
            label=button.label,
            style=STYLES[button.style],
            disabled=button.disabled,
            row=row,
            version=spec.version,
            page=spec.page,
            field=button.field,
        )
        view.add_item(item)
    return view


def select_options(select: SelectSpec) -> list[discord.SelectOption]:
    """A composed select's options as Discord's."""
    return [
        discord.SelectOption(
            label=choice.label,
            value=choice.value,
            description=choice.description,
            default=choice.default,
        )
        for choice in select.options
    ]


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
    step = SELECTS.get("step")
    found = step.__discord_ui_compiled_template__.fullmatch(custom_id) if step else None
    if step is not None and found is not None and isinstance(child, discord.SelectMenu):
        greyed: discord.ui.Item[Any] = step.closed(found, child, row)  # a choice's step
        return greyed
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
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    *,
    defer: bool = True,
) -> tuple[CampaignInfo, PanelData] | None:
    """The campaign and the clicker's panel, or None once the click has been answered (a
    refusal rises to ``guarded``). The click is deferred first unless ``defer`` is False:
    a click that opens a modal must answer with the modal itself."""
    if defer:
        await interaction.response.defer()
    svc = common.campaigns(interaction)
    info = await common.campaign_of_component(interaction, campaign_id)
    if info is None:
        return None
    try:
        panel = await svc.panel(campaign_id, interaction.user.id)
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
    if not secrecy.may_read_drafts(secrecy.Viewer.player(panel.side), side):
        # A click on another side's panel (a forwarded message, a forged id): never apply
        # that side's option list to the clicker's side, nor show it. The service's own
        # refusal, so it reads the same whether the cog or the lock's transaction caught it.
        raise ServiceError("wrong-side", panel_side=side, side=panel.side)
    if panel.round_id != round_id:
        await _refused(interaction, info, round_id, ServiceError("stale-round"))
    return info, panel


async def _close(interaction: discord.Interaction[Any], info: CampaignInfo) -> None:
    """A panel whose round is over: make it read-only, saying so."""
    message = interaction.message
    if message is not None:
        closed_line = t("orders.closed", info.locale)
        content = message.content or ""
        if closed_line not in content:
            content = clip(f"{content}\n{closed_line}", TEXT_LIMIT)
        try:
            await common.edit_message(interaction, content=content, view=_closed_copy(message))
        except discord.HTTPException:
            log.warning("Could not close a stale panel (interaction %s)", interaction.id)


async def _refused(
    interaction: discord.Interaction[Any],
    info: CampaignInfo,
    round_id: int,
    error: ServiceError,
) -> NoReturn:
    """A click on a panel refused: the panel first follows (closed once its round is over,
    redrawn when it was out of date), then the refusal rises to be said (``guarded``)."""
    if error.code in OVER:
        await _close(interaction, info)
    elif error.code in ("already-locked", "panel-outdated"):
        # The panel was out of date (locked elsewhere): show where things stand.
        try:
            panel = await common.campaigns(interaction).panel(info.id, interaction.user.id)
        except ServiceError:
            panel = None
        if panel is not None and panel.round_id == round_id:
            await _show(interaction, info, panel)
    raise error


async def _show(
    interaction: discord.Interaction[Any],
    info: CampaignInfo,
    panel: PanelData,
    page: int = 0,
    *,
    redraw: bool = False,
) -> None:
    """The panel again; ``redraw`` after a draft changed: its picture too, where the game
    draws the side's drafts on it (a plane's ghost path), so the player sees his pick."""
    spec = compose(common.services(interaction), info, panel, page)
    fields: dict[str, Any] = {"content": spec.text, "view": panel_view(spec)}
    if redraw:
        picture = await _drafted_picture(interaction, info, panel, spec)
        if picture is not None:
            fields["attachments"] = [picture]
    await common.edit_message(interaction, **fields)


async def _drafted_picture(
    interaction: discord.Interaction[Any], info: CampaignInfo, panel: PanelData, spec: Any
) -> discord.File | None:
    """The side's picture with its own drafts drawn, or None when the game's picture does
    not show drafts (it is then the one already on the panel: no upload)."""
    plugin = common.campaigns(interaction).rulesets.get(info.ruleset)
    blank = await boards.panel_image(plugin, panel.view, info.locale)
    png = await boards.panel_image(plugin, panel.view, info.locale, panel.drafts)
    if png is None or png == blank:
        return None
    return discord.File(
        io.BytesIO(png), filename=spec.image_name, description=spec.image_alt or None
    )


async def on_select(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    field: str,
    values: Sequence[str],
) -> None:
    found = await _context(interaction, campaign_id, round_id, side)
    if found is None:
        return
    info, _ = found
    if len(values) != 1:
        raise ServiceError(
            "illegal-option", reason="unknown-option", field=field, value=",".join(values)
        )
    try:
        panel = await common.campaigns(interaction).draft(
            campaign_id, interaction.user.id, round_id, field, values[0]
        )
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
    # Stay on its menus; the picture shows the new draft where the game draws one.
    await _show(interaction, info, panel, panels.page_of(panel, field), redraw=True)


async def on_page(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str, page: int
) -> None:
    """The next page of a panel's menus (more fields than select rows)."""
    found = await _context(interaction, campaign_id, round_id, side)
    if found is not None:
        await _show(interaction, *found, page)


async def on_lock(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    round_id: int,
    side: str,
    version: str = "",
) -> None:
    # Acknowledged at once, before anything is read or written, like every other click:
    # the player's click is answered in about the time of a no-op, whatever the lock
    # costs (a durable write, the panel, a resolution when it is the round's last). The
    # panel then turns "locked" in place, only once the lock is on disk: a crash between
    # the two leaves the panel as it was, never a "locked" that storage does not hold.
    await interaction.response.defer()
    info = await common.campaign_of_component(interaction, campaign_id)
    if info is None:
        return
    svc = common.campaigns(interaction)
    # A panel drawn before version checks existed carries none: it is redrawn first.
    # The lock checks the clicked panel's side and round itself and returns the panel it
    # leaves, so the click costs one read (the campaign) and one write, nothing re-read.
    try:
        result = await svc.lock(
            campaign_id, interaction.user.id, round_id, version=version, panel_side=side
        )
    except ServiceError as exc:
        await _refused(interaction, info, round_id, exc)
    if result.panel is not None:
        await _show(interaction, info, result.panel)
    if result.already_locked:
        await common.say_in(
            interaction,
            info.locale,
            "orders.already-locked",
            receipt=short_receipt(result.receipt),
        )
        return
    # The round message (and, if this was the last lock, the reveal) goes out now.
    await common.pump(interaction)


async def on_unlock(
    interaction: discord.Interaction[Any], campaign_id: int, round_id: int, side: str
) -> None:
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
    await _show(interaction, info, panel)
    await common.pump(interaction)


async def on_help(interaction: discord.Interaction[Any], campaign_id: int) -> None:
    """How the panel works, in the panel's own language, ending with where its own game's
    words and rules are explained (one game's card codes, not another's words)."""
    info = await common.campaign_of_component(interaction, campaign_id)
    if info is not None:
        default = t("orders.help-words.default", info.locale)
        game = word(f"orders.help-words.{info.ruleset}", default, info.locale)
        text = f"{t('orders.help', info.locale)}\n{game}"
        await send_ephemeral(interaction, text)


# ------------------------------------------------------------------------------ controls


def one_pick(
    custom_id: str,
    options: list[discord.SelectOption],
    placeholder: str | None,
    disabled: bool,
) -> discord.ui.Select[Any]:
    """A panel's select: one option picked at a time."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=options,
        placeholder=clip(placeholder, 150) if placeholder else None,
        min_values=1,
        max_values=1,
        disabled=disabled,
    )


class _OnPanel:
    """What every control of an order panel shares: the campaign, round and side in its id.
    After a restart they are read back from the id; the template's other groups (a field, a
    page, a lock's version) are handed to the control by name."""

    campaign_id: int
    round_id: int
    side: str

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        ids = ("campaign", "round", "side")
        more = {k: v for k, v in match.groupdict().items() if k not in ids and v is not None}
        control: Callable[..., Self] = cls  # each control's own __init__: the ids, then its own
        return control(int(match["campaign"]), int(match["round"]), match["side"], **more)


def picked(select: discord.ui.Select[Any], interaction: discord.Interaction[Any]) -> list[str]:
    """What the player picked in a select; a select rebuilt from its custom id may not
    hold the picks, which the interaction's own data always carries."""
    values = list(select.values)
    data: Any = interaction.data
    if not values and isinstance(data, dict):
        values = [str(v) for v in data.get("values", [])]
    return values


class FieldSelect(
    _OnPanel,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"sortie:o:{IDS}:{SIDE}:{FIELD}",  # a per-unit field too: program:P3
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
        custom_id = f"sortie:o:{campaign_id}:{round_id}:{side}:{field}"
        super().__init__(one_pick(custom_id, options or [], placeholder, disabled), row=row)
        self.campaign_id, self.round_id, self.side = campaign_id, round_id, side
        self.field = field

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = picked(self.item, interaction)
        await _guarded(
            interaction,
            on_select(interaction, self.campaign_id, self.round_id, self.side, self.field, values),
        )


# The shared body of the panel's buttons; its own template matches nothing on purpose.
class _PanelButton(
    _OnPanel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sortie:_:(?!)"
):
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
        version: str = "",
        **more: Any,  # what a button of another cog's carries (a page, a field)
    ) -> None:
        custom_id = self.custom_id_of(campaign_id, round_id, side, version=version, **more)
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id,
                label=clip(label, 80),
                style=style,
                disabled=disabled,
            ),
            row=row,
        )
        self.campaign_id, self.round_id, self.side = campaign_id, round_id, side
        self.version = version

    def custom_id_of(
        self, campaign_id: int, round_id: int, side: str, *, version: str = "", **more: Any
    ) -> str:
        custom_id = f"sortie:{self.action}:{campaign_id}:{round_id}:{side}"
        return f"{custom_id}:{version}" if self.action == "lock" and version else custom_id


class LockButton(
    _PanelButton, template=rf"sortie:lock:{IDS}:{SIDE}(?::(?P<version>[0-9a-f]{{1,16}}))?"
):
    action = "lock"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(
            interaction,
            on_lock(interaction, self.campaign_id, self.round_id, self.side, self.version),
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
        await _guarded(interaction, on_help(interaction, self.campaign_id))


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"sortie:page:{IDS}:{SIDE}:(?P<page>\d{{1,2}})",
):
    """Shows another page of the panel's menus; the page is in its id, so it survives a
    restart like every panel control."""

    def __init__(
        self, campaign_id: int, round_id: int, side: str, page: int, *, label: str = "…",
        row: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(
            discord.ui.Button(
                custom_id=f"sortie:page:{campaign_id}:{round_id}:{side}:{page}",
                label=clip(label, 80),
                style=discord.ButtonStyle.secondary,
            ),
            row=row,
        )
        self.campaign_id, self.round_id, self.side, self.page = campaign_id, round_id, side, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PageButton:
        return cls(int(match["campaign"]), int(match["round"]), match["side"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(
            interaction,
            on_page(interaction, self.campaign_id, self.round_id, self.side, self.page),
        )


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
        answer_in(interaction, info.locale)  # the panel's language
        panel = await services.campaigns.panel(info.id, interaction.user.id)
        spec = compose(services, info, panel)
        plugin = services.campaigns.rulesets.get(info.ruleset)
        files: list[discord.File] = []
        # Once per state and drafts; the side's own drafts only.
        png = await boards.panel_image(plugin, panel.view, info.locale, panel.drafts)
        if png is not None:
            files.append(
                discord.File(
                    io.BytesIO(png), filename=spec.image_name, description=spec.image_alt or None
                )
            )
        await interaction.followup.send(
            spec.text, files=files, view=panel_view(spec), ephemeral=True
        )


BUTTONS.update(lock=LockButton, unlock=UnlockButton, help=HelpButton)


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(FieldSelect, LockButton, UnlockButton, HelpButton, PageButton)
    controls.of(client).panel = panel_view
    await client.add_cog(Orders(client))


async def teardown(client: commands.Bot) -> None:
    client.remove_dynamic_items(FieldSelect, LockButton, UnlockButton, HelpButton, PageButton)
