"""``/status``, ``/log`` and ``/receipt``: reading the campaign, never changing it."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import deadline_words, status_board
from bot.i18n import t
from bot.logtext import describe
from bot.translator import _T
from cogs.common import campaigns, guarded, locale, say
from cogs.pick import (
    OTHER_CAMPAIGN,
    CampaignNumber,
    campaign_choices,
    chosen_campaign,
    component_campaign,
    note,
)

PER_PAGE = 10


def _log_text(page: Any, loc: str, turn: int | None, limit: int = 2000) -> str:
    lines = [t("cogs.log.header", loc, page=page.page, pages=page.pages)]
    if turn is not None:
        lines[0] += " · " + t("cogs.log.turn_filter", loc, turn=turn)
    rows: list[tuple[str, str, str]] = []
    for entry in page.entries:
        text = describe(entry.kind, entry.data, loc, turn=entry.turn, names=page.names)
        mark = "~~" if entry.void else ""
        stamp = int(entry.at.timestamp())
        rows.append((f"`T{entry.turn}` <t:{stamp}:d> ", text, mark))
    if not page.entries:
        lines.append(t("cogs.log.empty", loc))
    fixed = len(lines[0]) + sum(len(head) + 2 * len(mark) + 1 for head, _, mark in rows)
    cap = _cap([len(text) for _, text, _ in rows], limit - fixed)
    for head, text, mark in rows:
        if len(text) > cap:
            text = text[: max(0, cap - 1)] + "…"
        lines.append(f"{head}{mark}{text}{mark}")
    return "\n".join(lines)[:limit]


def _cap(lengths: list[int], room: int) -> int:
    """The longest an entry may be so that every entry fits in ``room`` characters: the
    long ones (a strike's detail) are shortened, each as little as it can, and never cut
    off the page as a whole line."""
    if sum(lengths) <= room:
        return max(lengths, default=0)
    cap = max(lengths, default=0)
    while cap > 1 and sum(min(n, cap) for n in lengths) > room:
        cap -= 1
    return cap


MAX_PAGE = 100_000


class LogPager(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sortie:log:(?P<campaign>\d{1,20}):(?P<page>\d{1,20}):(?P<turn>\d{1,20})",
):
    """Older / newer buttons; the page lives in the custom id, so they survive restarts."""

    def __init__(self, campaign_id: int, page: int, turn: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"sortie:log:{campaign_id}:{page}:{turn}",
            )
        )
        self.campaign_id, self.page, self.turn = campaign_id, page, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> LogPager:
        # A forged id may carry any number: pages and turns are clamped to what a log can
        # have, so the click answers with the last page instead of failing.
        page = min(int(match["page"]), MAX_PAGE)
        turn = min(int(match["turn"]), MAX_PAGE)
        return cls(int(match["campaign"]), page, turn, "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, self._turn_page(interaction))

    async def _turn_page(self, interaction: discord.Interaction[Any]) -> None:
        # The log may be of a finished campaign or one read from another channel: the
        # page is shown if the option could have reached it from here.
        info = await component_campaign(interaction, self.campaign_id)
        if info is None:
            return
        heading = note(info, interaction)
        content, view = await _log_page(
            interaction, self.campaign_id, self.page, self.turn or None, heading
        )
        await interaction.response.edit_message(content=content, view=view)


async def _log_page(
    interaction: discord.Interaction[Any],
    campaign_id: int,
    page: int,
    turn: int | None,
    heading: str | None = None,
) -> tuple[str, discord.ui.View]:
    """The page as one message (under Discord's 2,000 characters, ``heading`` included)."""
    loc = locale(interaction)
    result = await campaigns(interaction).log(
        campaign_id, page=max(1, page), per_page=PER_PAGE, turn=turn
    )
    view = discord.ui.View(timeout=None)
    if result.page > 1:
        view.add_item(LogPager(campaign_id, result.page - 1, turn or 0, t("cogs.log.newer", loc)))
    if result.page < result.pages:
        view.add_item(LogPager(campaign_id, result.page + 1, turn or 0, t("cogs.log.older", loc)))
    if heading is None:
        return _log_text(result, loc, turn), view
    return heading + "\n" + _log_text(result, loc, turn, 2000 - len(heading) - 1), view


class StatusCog(commands.Cog):
    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    @app_commands.command(
        name="status",
        description=_T("The campaign's status board", key="cmd.status.desc"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        public="post it in the channel for everyone (default: only you)",
        campaign=OTHER_CAMPAIGN,
    )
    @app_commands.autocomplete(campaign=campaign_choices)
    async def status(
        self,
        interaction: discord.Interaction[Any],
        public: bool = False,
        campaign: CampaignNumber | None = None,
    ) -> None:
        info = await chosen_campaign(interaction, campaign)
        if info is None:
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        data = await campaigns(interaction).status(info.id)
        loc = locale(interaction)
        deadline = data.round.deadline if data.round else None
        deadline_text = f"<t:{int(deadline.timestamp())}:R>" if deadline else None
        plugin = campaigns(interaction).rulesets.get(info.ruleset)
        presenter = plugin.presenter
        view = data.view
        # The round message's own board when the reader's language is the campaign's (the
        # same deadline written on it): drawn once per state and locks, for both.
        open_round = data.round is not None and data.round.status == "open"
        when = deadline_words(deadline) if open_round else None
        png = await status_board(plugin, view, data.locked, loc, when)
        lines = presenter.status_lines(view, loc)
        heading = note(info, interaction)
        if heading is not None:
            lines.insert(0, heading)
        if data.round is not None and not view.finished:
            locked = [t(f"service.side.{side}", loc) for side, done in data.locked.items() if done]
            lines.append(t("cogs.status.locked", loc, sides=", ".join(locked) or "—"))
        if deadline_text and not view.finished:
            lines.append(t("cogs.status.deadline", loc, when=deadline_text))
        if png is None:  # the drawing failed (logged): the text still answers
            await interaction.followup.send("\n".join(lines), ephemeral=not public)
            return
        await interaction.followup.send(
            "\n".join(lines),
            file=discord.File(
                io.BytesIO(png),
                filename="status.png",
                description=presenter.board_summary(view, loc)[:1024],
            ),
            ephemeral=not public,
        )

    @app_commands.command(
        name="log", description=_T("The campaign log, newest first", key="cmd.log.desc")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        turn="only this turn",
        campaign=OTHER_CAMPAIGN,
    )
    @app_commands.autocomplete(campaign=campaign_choices)
    async def log(
        self,
        interaction: discord.Interaction[Any],
        turn: app_commands.Range[int, 1, 99] | None = None,
        campaign: CampaignNumber | None = None,
    ) -> None:
        info = await chosen_campaign(interaction, campaign)
        if info is None:
            return
        content, view = await _log_page(interaction, info.id, 1, turn, note(info, interaction))
        await interaction.response.send_message(
            content, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name="receipt",
        description=_T("Your order receipts and how to check them", key="cmd.receipt.desc"),
    )
    @app_commands.guild_only()
    async def receipt(self, interaction: discord.Interaction[Any]) -> None:
        # After the end too: that is when every receipt can be checked.
        info = await chosen_campaign(interaction, None)
        if info is None:
            return
        loc = locale(interaction)
        receipts = await campaigns(interaction).receipts(info.id, interaction.user.id)
        if not receipts:
            await say(interaction, "cogs.receipt.none")
            return
        lines = [t("cogs.receipt.header", loc)]
        for item in receipts[-8:]:
            round_name = t(f"service.round.{item.kind}", loc)
            line = f"T{item.turn} {round_name}: `{item.receipt}`"
            if item.withdrawn:
                line += " " + t("cogs.receipt.withdrawn", loc)
            elif item.opened and item.salt is not None:
                line += "\n" + t("cogs.receipt.opened", loc, salt=item.salt)
            else:
                line += " " + t("cogs.receipt.sealed", loc)
            lines.append(line)
        lines.append(t("cogs.receipt.how", loc))
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(LogPager)
    await client.add_cog(StatusCog(client))
