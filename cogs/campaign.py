"""``/campaign``: the GM's tools and the players' join, each a thin call into the service.

Every GM action that changes the game asks for a confirmation (an ephemeral Confirm /
Cancel pair) and carries a short reason into the audit trail. Who is a GM: the campaign's
creator, holders of the server's GM role (``/sortie config gm-role``) and administrators.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import controls
from bot import switches as switches_of
from bot.durations import DurationError, default_reminders, parse_duration, parse_reminders
from bot.export import after_action_markdown
from bot.i18n import SUPPORTED, t, word
from bot.limits import clip, is_blank, plain
from bot.logtext import settings_changes_text
from bot.rulesets import FACTORIES
from bot.service_gm import GmRequest
from bot.service_model import Pace, ServiceError
from bot.service_settings import SettingsChange
from bot.translator import _T
from cogs.common import (
    campaign_here,
    campaign_of_component,
    campaigns,
    guarded,
    locale,
    pump,
    role_ids,
    say,
    say_in,
)
from cogs.pick import (
    OTHER_CAMPAIGN,
    CampaignNumber,
    campaign_choices,
    chosen_campaign,
    note,
    scenario_name,
    visible_channels,
)

log = logging.getLogger(__name__)

MISSING_CHOICES = [
    app_commands.Choice(name="engine default (safe choice)", value="default"),
    app_commands.Choice(name="keep the player's drafts, default the rest", value="drafts"),
]
# The registered rulesets, by key (a ruleset line in ``bot.rulesets`` makes it selectable).
RULESET_CHOICES = [app_commands.Choice(name=key, value=key) for key in FACTORIES]
REASON_MAX = 200


def _switch_choices(found: list[str]) -> list[app_commands.Choice[str]]:
    """Switch completions as Discord takes them: a choice holds at most 100 characters (a
    longer text is typed, not picked), a list at most 25."""
    fits = [text for text in found if len(text) <= 100]
    return [app_commands.Choice(name=text, value=text) for text in fits][:25]


# What Discord takes in one message's attachments; the replay page goes with the export
# only when the three files fit together.
ATTACHMENTS_LIMIT = 8 * 1024 * 1024


async def _names(interaction: discord.Interaction[Any], data: dict[str, Any]) -> dict[int, str]:
    """The players' and the GM's names on this server, for the replay page (which is read
    outside Discord, where a mention would show a bare number). The bot keeps no member
    list, so each is asked for; one who left the server stays a number."""
    guild = interaction.guild
    ids = {int(p["user_id"]) for p in data["players"]} | {int(data["campaign"]["gm_id"])}
    names: dict[int, str] = {}
    if guild is None:
        return names
    for user_id in sorted(ids):
        member = guild.get_member(user_id)
        if member is None:
            with contextlib.suppress(discord.HTTPException):
                member = await guild.fetch_member(user_id)
        if member is not None:
            names[user_id] = member.display_name
    return names


async def _replay_page(
    interaction: discord.Interaction[Any], campaign_id: int, data: dict[str, Any], beside: int
) -> tuple[bytes | None, str]:
    """The replay page to attach (or None) and the line that says what became of it."""
    from bot.replay import ReplayRefused

    loc = interaction.locale
    try:
        made = await campaigns(interaction).replay_page(
            campaign_id, names=await _names(interaction, data)
        )
    except ReplayRefused as refused:
        return None, t("replay.export.refused", loc, why=refused.words(loc))
    except Exception:
        log.exception("the replay page of campaign %s failed", campaign_id)
        return None, t("replay.export.failed", loc)
    page = made.html.encode("utf-8")
    if len(page) + beside > ATTACHMENTS_LIMIT:
        size = f"{len(page) / (1024 * 1024):.1f}"
        limit = f"{ATTACHMENTS_LIMIT / (1024 * 1024):.3g}"
        return None, t("replay.export.too-big", loc, size=size, limit=limit)
    running = data["campaign"]["status"] != "finished"
    return page, t("replay.export.running" if running else "replay.export.attached", loc)


class GmAnswer(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sortie:gm:(?P<answer>yes|no):(?P<campaign>\d{1,20}):(?P<request>\d{1,20})",
):
    """Confirm / Cancel of one GM request. The request is a row in the audit trail, so the
    buttons answer after any wait (until the request expires) and across restarts; only
    the GM who asked may press them, and the clicker's roles are checked again."""

    def __init__(self, answer: str, campaign_id: int, request_id: int, label: str = "…") -> None:
        confirm = answer == "yes"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"sortie:gm:{answer}:{campaign_id}:{request_id}",
            )
        )
        self.answer, self.campaign_id, self.request_id = answer, campaign_id, request_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> GmAnswer:
        return cls(match["answer"], int(match["campaign"]), int(match["request"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, self._answer(interaction))

    async def _answer(self, interaction: discord.Interaction[Any]) -> None:
        svc = campaigns(interaction)
        confirm = self.answer == "yes"
        try:
            request = await svc.answer(
                self.campaign_id, self.request_id, interaction.user.id, confirm=confirm
            )
        except ServiceError as error:
            if error.code == "request-not-yours":
                raise  # a plain refusal: the asker's message stays as it is
            await interaction.response.edit_message(
                content=error.message(interaction.locale), view=None
            )
            return
        if not confirm:
            await interaction.response.edit_message(
                content=t("cogs.confirm.cancelled", interaction.locale), view=None
            )
            return
        await interaction.response.defer()
        try:
            text = await _perform(interaction, request, role_ids(interaction))
        except ServiceError as error:
            text = error.message(interaction.locale)
        await interaction.edit_original_response(content=text, view=None)
        await pump(interaction)


def _confirm_view(campaign_id: int, request_id: int, loc: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GmAnswer("yes", campaign_id, request_id, t("cogs.confirm.yes", loc)))
    view.add_item(GmAnswer("no", campaign_id, request_id, t("cogs.confirm.no", loc)))
    return view


async def _perform(
    interaction: discord.Interaction[Any], request: GmRequest, roles: tuple[int, ...]
) -> str:
    """Carry out a confirmed GM request; the service re-checks that the clicker is a GM."""
    svc = campaigns(interaction)
    loc = interaction.locale
    cid, by, why, p = request.campaign_id, request.by, request.reason, request.params
    match request.action:
        case "pause":
            await svc.pause(cid, by, why, roles=roles)
            return t("cogs.pause.done", loc)
        case "resume":
            await svc.resume(cid, by, why, roles=roles)
            return t("cogs.resume.done", loc)
        case "extend":
            info = await svc.extend(cid, by, int(p["seconds"]), why, roles=roles)
            when = int(info.deadline.timestamp()) if info.deadline else 0
            return t("cogs.extend.done", loc, when=when)
        case "resolve":
            await svc.resolve_now(cid, by, why, roles=roles)
            return t("cogs.resolve.done", loc)
        case "rollback":
            await svc.rollback(cid, by, int(p["turn"]), why, roles=roles)
            return t("cogs.rollback.done", loc, turn=int(p["turn"]))
        case "substitute":
            old, new = int(p["old"]), int(p["new"])
            await svc.substitute(cid, by, old, new, why, roles=roles)
            return t("cogs.substitute.done", loc, old=f"<@{old}>", new=f"<@{new}>")
        case "kick":
            await svc.kick(cid, by, int(p["user"]), why, roles=roles)
            return t("cogs.kick.done", loc, who=f"<@{int(p['user'])}>")
        case "end":
            await svc.end(cid, by, why, roles=roles)
            return t("cogs.end.done", loc)
        case "add":
            user, side = int(p["user"]), str(p["side"])
            await svc.add_player(cid, by, user, side, roles=roles, reason=why)
            return t("cogs.add.done", loc, who=f"<@{user}>", side=t(f"service.side.{side}", loc))
        case "settings":
            change = SettingsChange.from_params(dict(p))
            changed = await svc.change_settings(cid, by, change, why, roles=roles)
            return _settings_done(changed, loc)
    raise ServiceError("request-unknown")


def _settings_done(changed: list[tuple[str, Any, Any]], loc: Any) -> str:
    """What changed, then only the notes that bear on it: the round clock's note after a
    switches-only change would tell the GM about something he did not touch."""
    names = {name for name, _old, _new in changed}
    lines = [t("cogs.settings.done", loc, changes=_changes_text(changed, loc))]
    if names & {"deadline", "reminders"}:
        lines.append(t("cogs.settings.clock", loc))
    if "switches" in names:
        lines.append(t("cogs.settings.switches", loc))
    return "\n".join(lines)


def _changes_text(changed: list[tuple[str, Any, Any]], loc: Any) -> str:
    return settings_changes_text(changed, loc)


async def send_text(interaction: discord.Interaction[Any], text: str, *, public: bool) -> None:
    await interaction.response.send_message(
        text, ephemeral=not public, allowed_mentions=discord.AllowedMentions.none()
    )


def _reason_ok(reason: str) -> str | None:
    # Invisible characters (no-width spaces and the like) are no reason either.
    if is_blank(reason):
        return None
    return " ".join(plain(reason).split())[:REASON_MAX]


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sortie:join:(?P<campaign>\d+):(?P<side>[a-z0-9_-]{1,32})",
):
    """The join buttons on the campaign card; they survive restarts (the id says it all)."""

    def __init__(self, campaign_id: int, side: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or side.title(),
                style=discord.ButtonStyle.primary,
                custom_id=f"sortie:join:{campaign_id}:{side}",
            )
        )
        self.campaign_id = campaign_id
        self.side = side

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> JoinButton:
        return cls(int(match["campaign"]), match["side"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, _join(interaction, self.campaign_id, self.side))


async def _join(interaction: discord.Interaction[Any], campaign_id: int, side: str) -> None:
    # Joining is about one campaign: answered in its language, like its card and panels.
    service = campaigns(interaction)
    info = await campaign_of_component(interaction, campaign_id)
    if info is None:
        return
    loc = info.locale
    player = await service.join(campaign_id, interaction.user.id, side)
    key = "cogs.join.commander" if player.commander else "cogs.join.member"
    await say_in(interaction, loc, key, side=t(f"service.side.{side}", loc))
    await _probe_dm(interaction, campaign_id, loc)
    await pump(interaction)


async def _probe_dm(interaction: discord.Interaction[Any], campaign_id: int, loc: str) -> None:
    """Closed DMs are found at join by trying one; the /orders path is offered if they fail."""
    service = campaigns(interaction)
    try:
        await interaction.user.send(t("cogs.join.dm_hello", loc))
    except discord.Forbidden:
        await service.mark_dm(campaign_id, interaction.user.id, False)
        await interaction.followup.send(t("cogs.join.dm_closed", loc), ephemeral=True)
        return
    except discord.HTTPException:
        return
    await service.mark_dm(campaign_id, interaction.user.id, True)


async def side_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The sides of this channel's campaign, in the reader's language."""
    svc = campaigns(interaction)
    info = await svc.campaign_in_channel(interaction.channel_id or 0)
    if info is None or info.ruleset not in svc.rulesets:
        return []
    loc = locale(interaction)
    return [
        app_commands.Choice(name=spec.name(loc), value=spec.id)
        for spec in svc.rulesets.get(info.ruleset).rules.sides
        if current.lower() in spec.id or current.lower() in spec.name(loc).lower()
    ]


async def _new_thread(
    interaction: discord.Interaction[Any], ruleset: str, scenario: str
) -> discord.Thread | None:
    """A public thread of this channel for a new campaign, or a refusal and ``None``.

    The scenario is checked first, so a typo does not leave an empty thread behind.
    """
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        await say(interaction, "archive.thread.not_here")
        return None
    rulesets = campaigns(interaction).rulesets
    if ruleset in rulesets:
        found = rulesets.get(ruleset).rules.scenarios().get(scenario)
        if found is None:
            known = ", ".join(sorted(rulesets.get(ruleset).rules.scenarios()))
            raise ServiceError("unknown-scenario", scenario=scenario, known=known)
        name = str(found.name)
    else:
        name = scenario
    try:
        return await channel.create_thread(
            name=clip(name, 100),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,  # a week: rounds often last a day or more
        )
    except discord.HTTPException:
        await say(interaction, "archive.thread.forbidden")
        return None


async def _drop_thread(place: discord.Thread) -> None:
    # An empty thread left behind is harmless; the refusal is what matters.
    with contextlib.suppress(discord.HTTPException):
        await place.delete()


def _card_controls(client: Any) -> Any:
    async def join_buttons(campaign_id: int) -> discord.ui.View | None:
        """Join buttons on the campaign card while it can be joined; none once it is over."""
        services = getattr(client, "services", None)
        if services is None:
            return None
        info = await services.campaigns.info(campaign_id)
        view = discord.ui.View(timeout=None)
        if info.status == "finished":
            return view  # an empty view clears the buttons on the edited card
        for spec in services.campaigns.rulesets.get(info.ruleset).rules.sides:
            label = t(f"cogs.join.button_{spec.id}", info.locale)
            view.add_item(JoinButton(campaign_id, spec.id, label))
        return view

    return join_buttons


LANGUAGE_CHOICES = [app_commands.Choice(name=lang, value=lang) for lang in SUPPORTED]


class ListPager(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sortie:clist:(?P<page>\d{1,6})",
):
    """Older / newer pages of ``/campaign list``; the server is the one clicked in."""

    def __init__(self, page: int, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"sortie:clist:{page}"
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ListPager:
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def turn_page() -> None:
            content, view = await _list_page(interaction, self.page)
            await interaction.response.edit_message(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
            )

        await guarded(interaction, turn_page())


def _summary_line(interaction: discord.Interaction[Any], item: Any, loc: str) -> str:
    if item.turn is None or item.status == "setup":
        turn = t("archive.list.no_turn", loc)
    else:
        turn = t("archive.list.turn", loc, turn=item.turn)
    result = ""
    if item.status == "finished":
        if item.winner == "draw":
            result = t("archive.list.draw", loc)
        elif item.winner:
            result = t("archive.list.winner", loc, side=t(f"service.side.{item.winner}", loc))
        else:
            result = t("archive.list.ended", loc)
    missed = t("archive.list.missed", loc, count=item.missed) if item.missed else ""
    return t(
        "archive.list.line",
        loc,
        id=item.id,
        scenario=scenario_name(interaction, item),
        game=item.ruleset,
        turn=turn,
        status=t(f"service.status.{item.status}", loc),
        result=result,
        channel=item.channel_id,
        created=int(item.created_at.timestamp()),
        missed=missed,
    )


async def _list_page(
    interaction: discord.Interaction[Any], page: int
) -> tuple[str, discord.ui.View | None]:
    loc = locale(interaction)
    if interaction.guild_id is None:
        return t("cogs.error.guild_only", loc), None
    found = await campaigns(interaction).guild_campaigns(
        interaction.guild_id, page=page, visible=visible_channels(interaction)
    )
    if not found.total:
        return t("archive.error.no_archive", loc), None
    header = t("archive.list.header", loc, total=found.total, page=found.page, pages=found.pages)
    lines = [header]
    for item in found.campaigns:
        line = _summary_line(interaction, item, loc)
        if sum(len(x) + 1 for x in lines) + len(line) > 2000:
            # Eight lines stay far below 2,000 characters; were names ever that long, the
            # page is cut short rather than refused by Discord.
            break
        lines.append(line)
    view = discord.ui.View(timeout=None)
    if found.page > 1:
        view.add_item(ListPager(found.page - 1, t("archive.list.newer", loc)))
    if found.page < found.pages:
        view.add_item(ListPager(found.page + 1, t("archive.list.older", loc)))
    return "\n".join(lines), view


class CampaignCog(commands.Cog):
    campaign = app_commands.Group(
        name="campaign",
        description=_T("Run a campaign in this channel", key="cmd.campaign.desc"),
        guild_only=True,
    )

    def __init__(self, client: commands.Bot) -> None:
        self.client = client

    # ------------------------------------------------------------------ creation

    @campaign.command(
        name="new",
        description=_T("Create a campaign in this channel (GM)", key="cmd.campaign.new.desc"),
    )
    @app_commands.describe(
        scenario="the ruleset's scenario (the list completes as you type)",
        deadline="time per secret round, e.g. 12h, 1d, 2d (default 1d)",
        reminders="reminders before the deadline, e.g. 6h or 12h,1h (default 6h; a quarter of a shorter round)",  # noqa: E501
        missing="what a side that did not lock gets at the deadline",
        gm_sees_secrets="may the GM see locked orders before the reveal (default no)",
        allow_unlock="may a commander unlock and change before the deadline (default yes)",
        thread="run it in a new thread of this channel; the card and result stay here",
        switches="the ruleset's switches, e.g. front=eastern sun=off (none: the scenario's)",
    )
    @app_commands.choices(missing=MISSING_CHOICES, ruleset=RULESET_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        scenario: str,
        deadline: str = "1d",
        reminders: str | None = None,
        missing: str = "default",
        gm_sees_secrets: bool = False,
        allow_unlock: bool = True,
        ruleset: str | None = None,
        thread: bool = False,
        switches: str | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await say(interaction, "cogs.error.guild_only")
            return
        ruleset = ruleset or campaigns(interaction).rulesets.default
        member = interaction.user
        manager = isinstance(member, discord.Member) and (
            member.guild_permissions.manage_guild or member.guild_permissions.administrator
        )
        if not await campaigns(interaction).may_create(
            interaction.guild_id, role_ids(interaction), manager
        ):
            raise ServiceError("not-creator")
        try:
            round_seconds = parse_duration(deadline)
        except DurationError as error:
            await say(interaction, error.key, value=clip(deadline))
            return
        try:
            # At most ten, counted before parsing; none given: one that fits the round.
            offsets = (
                parse_reminders(reminders)
                if reminders is not None
                else default_reminders(round_seconds)
            )
        except DurationError as error:
            await say(interaction, error.key, value=clip(reminders or ""))
            return
        pace = Pace(
            round_seconds=round_seconds,
            reminder_offsets=offsets,
            missing_policy="drafts" if missing == "drafts" else "default",
            gm_sees_secrets=gm_sees_secrets,
            allow_unlock=allow_unlock,
        )
        key = scenario.strip().lower()
        given = switches_of.parse(switches or "")
        place: discord.Thread | None = None
        if thread:
            place = await _new_thread(interaction, ruleset, key)
            if place is None:
                return
        try:
            info = await campaigns(interaction).create_campaign(
                interaction.guild_id,
                place.id if place is not None else interaction.channel_id,
                interaction.user.id,
                key,
                pace,
                ruleset=ruleset,
                locale=locale(interaction),
                switches=given,
            )
        except ServiceError:
            if place is not None:
                await _drop_thread(place)  # refused: no empty thread left behind
            raise
        await say(interaction, "cogs.new.done", scenario=info.scenario, id=info.id)
        if given:  # shown back to the GM as the ruleset took them
            rules = campaigns(interaction).rulesets.get(ruleset).rules
            words = switches_of.described(rules, key, given, locale(interaction))
            await interaction.followup.send(
                t("switches.done", locale(interaction), switches=words), ephemeral=True
            )
        if place is not None:
            await interaction.followup.send(
                t("archive.thread.done", locale(interaction), thread=place.id), ephemeral=True
            )
        await pump(interaction)

    @new.autocomplete("scenario")
    async def _scenario_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        rulesets = campaigns(interaction).rulesets
        chosen = getattr(interaction.namespace, "ruleset", None) or rulesets.default
        if chosen not in rulesets:
            return []
        scenarios = rulesets.get(chosen).rules.scenarios()
        return [
            app_commands.Choice(name=f"{s.name} ({s.turns} turns)", value=key)
            for key, s in sorted(scenarios.items())
            if s.offered and (current.lower() in key or current.lower() in s.name.lower())
        ][:25]

    @new.autocomplete("switches")
    async def _switch_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        rulesets = campaigns(interaction).rulesets
        chosen = getattr(interaction.namespace, "ruleset", None) or rulesets.default
        scenario = (getattr(interaction.namespace, "scenario", None) or "").strip().lower()
        if chosen not in rulesets or scenario not in rulesets.get(chosen).rules.scenarios():
            return []
        return _switch_choices(
            switches_of.completions(rulesets.get(chosen).rules, scenario, current)
        )

    # ------------------------------------------------------------------ players

    @campaign.command(
        name="join", description=_T("Join a side of this campaign", key="cmd.campaign.join.desc")
    )
    async def join(self, interaction: discord.Interaction[Any], side: str) -> None:
        info = await campaign_here(interaction)
        if info is not None:
            await _join(interaction, info.id, side.strip().lower())

    @join.autocomplete("side")
    async def _side_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await side_choices(interaction, current)

    @campaign.command(
        name="add", description=_T("Seat a player on a side (GM)", key="cmd.campaign.add.desc")
    )
    @app_commands.describe(player="who to seat", side="which side", reason="why, for the log")
    async def add(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        side: str,
        reason: str = "",
    ) -> None:
        if player.bot:
            await say(interaction, "cogs.error.bot_player")
            return
        chosen = side.strip().lower()
        by = interaction.user.id

        async def possible(campaign_id: int, roles: tuple[int, ...]) -> dict[str, Any]:
            # The side is checked before it is echoed in the question (a 6,000-character
            # value would make the question too long to send).
            svc = campaigns(interaction)
            side_name = await svc.side_check(campaign_id, chosen, locale(interaction))
            await svc.seat_check(campaign_id, by, player.id, roles=roles)
            return {"side": side_name}

        await self._confirmed(
            interaction,
            "cogs.add.ask",
            "add",
            {"user": player.id, "side": chosen},
            reason=reason,
            required=False,
            check=possible,
            who=player.mention,
        )

    @add.autocomplete("side")
    async def _add_sides(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await side_choices(interaction, current)

    @campaign.command(
        name="info",
        description=_T(
            "This campaign's card: sides, pace, and whether the GM sees secrets",
            key="cmd.campaign.info.desc",
        ),
    )
    @app_commands.describe(campaign=OTHER_CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_choices)
    async def info(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignNumber | None = None,
    ) -> None:
        found = await chosen_campaign(interaction, campaign)
        if found is None:
            return
        service = campaigns(interaction)
        loc = locale(interaction)
        lines = [await service.card(found.id, loc)]
        heading = note(found, interaction)
        if heading is not None:
            lines.insert(0, heading)
        if await service.is_gm(found.id, interaction.user.id, role_ids(interaction)):
            missed = await service.missed(found.id)
            if missed:
                who = ", ".join(
                    t("archive.info.missed_one", loc, who=f"<@{user}>", count=count)
                    for user, count in sorted(missed.items(), key=lambda item: -item[1])
                )
                lines.append(t("archive.info.missed", loc, who=who))
            else:
                lines.append(t("archive.info.missed_none", loc))
        await interaction.response.send_message(
            clip("\n".join(lines), 2000),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @campaign.command(
        name="redeliver",
        description=_T(
            "Retry now every announcement Discord has not taken yet (GM)",
            key="cmd.campaign.redeliver.desc",
        ),
    )
    async def redeliver(self, interaction: discord.Interaction[Any]) -> None:
        info = await campaign_here(interaction)
        if info is None:
            return
        count = await campaigns(interaction).redeliver(
            info.id, interaction.user.id, roles=role_ids(interaction)
        )
        await say(interaction, "cogs.redeliver.done", count=count)
        await pump(interaction)

    @campaign.command(
        name="start", description=_T("Open turn 1 (GM)", key="cmd.campaign.start.desc")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        info = await campaign_here(interaction)
        if info is None:
            return
        await campaigns(interaction).start(
            info.id, interaction.user.id, roles=role_ids(interaction)
        )
        await say(interaction, "cogs.start.done")
        await pump(interaction)

    @campaign.command(
        name="waiting",
        description=_T("Who has not locked yet (GM)", key="cmd.campaign.waiting.desc"),
    )
    async def waiting(self, interaction: discord.Interaction[Any]) -> None:
        info = await campaign_here(interaction)
        if info is None:
            return
        service = campaigns(interaction)
        if not await service.is_gm(info.id, interaction.user.id, role_ids(interaction)):
            raise ServiceError("not-gm")
        rows = await service.waiting(info.id)
        loc = interaction.locale
        lines = []
        for row in rows:
            state = t("cogs.waiting.locked" if row.locked else "cogs.waiting.open", loc)
            dm = t("cogs.waiting.dm_ok" if row.dm_ok else "cogs.waiting.dm_closed", loc)
            who = f"<@{row.commander_id}>" if row.commander_id else t("cogs.waiting.nobody", loc)
            seen = (
                f"<t:{int(row.last_active.timestamp())}:R>"
                if row.last_active
                else t("cogs.waiting.never", loc)
            )
            lines.append(
                t(
                    "cogs.waiting.line",
                    loc,
                    side=t(f"service.side.{row.side}", loc),
                    state=state,
                    who=who,
                    dm=dm,
                    seen=seen,
                )
            )
        deadline = next((row.deadline for row in rows if row.deadline), None)
        if deadline is not None:
            lines.append(t("cogs.waiting.deadline", loc, when=int(deadline.timestamp())))
        await interaction.response.send_message(
            "\n".join(lines) or t("cogs.waiting.none", loc),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @campaign.command(
        name="peek",
        description=_T(
            "The sides' current drafts, if this campaign lets the GM see them (GM)",
            key="cmd.peek.desc",
        ),
    )
    async def peek(self, interaction: discord.Interaction[Any]) -> None:
        info = await campaign_here(interaction)
        if info is None:
            return
        drafts = await campaigns(interaction).peek(
            info.id, interaction.user.id, roles=role_ids(interaction)
        )
        loc = locale(interaction)
        presenter = campaigns(interaction).rulesets.get(info.ruleset).presenter
        lines = [t("cogs.peek.header", loc)]
        for side, fields in drafts.items():
            # In the panel's words ("Fleet Tactic: Long Range"), not the stored ids.
            chosen = ", ".join(
                f"{word(f'service.field.{name}', name, loc)}:"
                f" {presenter.option_text(info.scenario, name, value, loc)}"
                for name, value in sorted(fields.items())
            )
            lines.append(f"**{t(f'service.side.{side}', loc)}**: {chosen or '—'}")
        lines.append(t("cogs.peek.audited", loc))
        await interaction.response.send_message(
            clip("\n".join(lines), 2000),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @campaign.command(
        name="export", description=_T("Download the campaign record (GM)", key="cmd.export.desc")
    )
    @app_commands.describe(campaign=OTHER_CAMPAIGN)
    @app_commands.autocomplete(campaign=campaign_choices)
    async def export(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignNumber | None = None,
    ) -> None:
        info = await chosen_campaign(interaction, campaign)
        if info is None:
            return
        service = campaigns(interaction)
        if not await service.is_gm(info.id, interaction.user.id, role_ids(interaction)):
            raise ServiceError("not-gm")
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await service.export(info.id)
        payload = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
        # The readable account goes with the verifiable file, written in the campaign's
        # language (the table's), whatever the GM's client speaks.
        rulesets = campaigns(interaction).rulesets
        report = after_action_markdown(data, rulesets=rulesets, locale=info.locale)
        heading = note(info, interaction)
        done = t("cogs.export.done", interaction.locale)
        done += "\n" + t("archive.report.file-done", interaction.locale)
        files = [
            discord.File(io.BytesIO(payload), filename=f"sortie-campaign-{info.id}.json"),
            discord.File(
                io.BytesIO(report.encode("utf-8")),
                filename=f"sortie-campaign-{info.id}-report.md",
            ),
        ]
        page, said = await _replay_page(interaction, info.id, data, len(payload) + len(report))
        done += "\n" + said
        if page is not None:
            files.append(discord.File(io.BytesIO(page), filename=f"sortie-campaign-{info.id}.html"))
        await interaction.followup.send(
            done if heading is None else heading + "\n" + done,
            files=files,
            ephemeral=True,
        )

    @campaign.command(
        name="list",
        description=_T(
            "This server's campaigns, running and finished", key="cmd.campaign.list.desc"
        ),
    )
    @app_commands.describe(public="post it in the channel for everyone (default: only you)")
    async def list_(self, interaction: discord.Interaction[Any], public: bool = False) -> None:
        content, view = await _list_page(interaction, 1)
        if view is None:
            await send_text(interaction, content, public=False)
            return
        await interaction.response.send_message(
            content,
            view=view,
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @campaign.command(
        name="settings",
        description=_T(
            "Change the time per round, reminders, missing orders or language (GM)",
            key="cmd.campaign.settings.desc",
        ),
    )
    @app_commands.describe(
        reason="why, for the log",
        deadline="time per secret round from the next round on, e.g. 12h, 1d",
        reminders="reminders before the deadline, e.g. 6h or 12h,1h; none for no reminder",
        missing="what a side that did not lock gets at the deadline",
        language="the language of the campaign's announcements",
        allow_unlock="may a commander unlock and change before the deadline",
        switches="before the start: switches to change, e.g. front=eastern (none: the scenario's)",
    )
    @app_commands.choices(missing=MISSING_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        reason: str,
        deadline: str | None = None,
        reminders: str | None = None,
        missing: str | None = None,
        language: str | None = None,
        allow_unlock: bool | None = None,
        switches: str | None = None,
    ) -> None:
        try:
            seconds = parse_duration(deadline) if deadline is not None else None
        except DurationError as error:
            await say(interaction, error.key, value=clip(deadline or ""))
            return
        offsets: tuple[int, ...] | None = None
        if reminders is not None:
            try:
                none = reminders.strip().lower() in ("none", "0", "-", "aucun")
                offsets = () if none else parse_reminders(reminders)
            except DurationError as error:
                await say(interaction, error.key, value=clip(reminders))
                return
        change = SettingsChange(
            round_seconds=seconds,
            reminder_offsets=offsets,
            missing_policy=missing,
            locale=language,
            allow_unlock=allow_unlock,
            switches=switches,
        )
        by = interaction.user.id
        loc = locale(interaction)

        async def possible(campaign_id: int, roles: tuple[int, ...]) -> dict[str, Any]:
            changed = await campaigns(interaction).settings_check(
                campaign_id, by, change, roles=roles
            )
            return {"changes": _changes_text(changed, loc)}

        await self._confirmed(
            interaction,
            "archive.settings.ask",
            "settings",
            change.params(),
            reason=reason,
            check=possible,
        )

    @settings.autocomplete("switches")
    async def _settings_switch_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # Only while the channel's campaign waits for its start: later they cannot change.
        if interaction.channel_id is None:
            return []
        info = await campaigns(interaction).campaign_in_channel(interaction.channel_id)
        if info is None or info.status != "setup":
            return []
        rules = campaigns(interaction).rulesets.get(info.ruleset).rules
        return _switch_choices(switches_of.completions(rules, info.scenario, current))

    # ------------------------------------------------------------------ confirmed GM actions

    async def _confirmed(
        self,
        interaction: discord.Interaction[Any],
        question_key: str,
        action: str,
        params: dict[str, Any],
        *,
        reason: str,
        required: bool = True,
        check: Callable[[int, tuple[int, ...]], Awaitable[dict[str, Any] | None]] | None = None,
        **words: Any,
    ) -> None:
        """Check the GM and the reason, record the request, then ask Confirm / Cancel.

        ``check`` refuses up front what the action would refuse, so the GM is never asked
        to confirm something that cannot happen; it may return more words for the question.
        """
        why = _reason_ok(reason)
        if why is None and required:
            await say(interaction, "cogs.error.reason")
            return
        info = await campaign_here(interaction)
        if info is None:
            return
        service = campaigns(interaction)
        roles = role_ids(interaction)
        if not await service.is_gm(info.id, interaction.user.id, roles):
            raise ServiceError("not-gm")
        if check is not None:
            words = {**words, **(await check(info.id, roles) or {})}
        request_id = await service.ask(
            info.id, interaction.user.id, action, params, why or "", roles=roles
        )
        loc = locale(interaction)
        await interaction.response.send_message(
            t(question_key, loc, reason=why or "—", **words),
            view=_confirm_view(info.id, request_id, loc),
            ephemeral=True,
        )

    @campaign.command(name="pause", description=_T("Pause the clock (GM)", key="cmd.pause.desc"))
    async def pause(self, interaction: discord.Interaction[Any], reason: str = "") -> None:
        await self._confirmed(
            interaction, "cogs.pause.ask", "pause", {}, reason=reason, required=False
        )

    @campaign.command(
        name="resume", description=_T("Restart the clock (GM)", key="cmd.resume.desc")
    )
    async def resume(self, interaction: discord.Interaction[Any], reason: str = "") -> None:
        await self._confirmed(
            interaction, "cogs.resume.ask", "resume", {}, reason=reason, required=False
        )

    @campaign.command(
        name="extend", description=_T("Give the round more time (GM)", key="cmd.extend.desc")
    )
    @app_commands.describe(duration="e.g. 12h, 1d, 1d12h", reason="why, for the log")
    async def extend(
        self, interaction: discord.Interaction[Any], duration: str, reason: str
    ) -> None:
        try:
            seconds = parse_duration(duration, minimum=60)
        except DurationError as error:
            await say(interaction, error.key, value=duration)
            return
        await self._confirmed(
            interaction,
            "cogs.extend.ask",
            "extend",
            {"seconds": seconds},
            duration=duration,
            reason=reason,
        )

    @campaign.command(
        name="resolve",
        description=_T("Resolve the round now with defaults (GM)", key="cmd.resolve.desc"),
    )
    async def resolve(self, interaction: discord.Interaction[Any], reason: str) -> None:
        await self._confirmed(interaction, "cogs.resolve.ask", "resolve", {}, reason=reason)

    @campaign.command(
        name="rollback",
        description=_T("Go back to the start of a turn (GM)", key="cmd.rollback.desc"),
    )
    @app_commands.describe(turn="the turn to replay from", reason="why, for the log")
    async def rollback(
        self,
        interaction: discord.Interaction[Any],
        turn: app_commands.Range[int, 1, 99],
        reason: str,
    ) -> None:
        by = interaction.user.id

        async def possible(campaign_id: int, roles: tuple[int, ...]) -> None:
            await campaigns(interaction).rollback_check(campaign_id, by, turn, roles=roles)

        await self._confirmed(
            interaction,
            "cogs.rollback.ask",
            "rollback",
            {"turn": turn},
            turn=turn,
            reason=reason,
            check=possible,
        )

    @campaign.command(
        name="substitute",
        description=_T("Hand a player's seat to someone else (GM)", key="cmd.substitute.desc"),
    )
    async def substitute(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        replacement: discord.Member,
        reason: str,
    ) -> None:
        if replacement.bot:
            await say(interaction, "cogs.error.bot_player")
            return
        by = interaction.user.id

        async def possible(campaign_id: int, roles: tuple[int, ...]) -> None:
            await campaigns(interaction).seat_check(
                campaign_id, by, player.id, replacement.id, roles=roles
            )

        await self._confirmed(
            interaction,
            "cogs.substitute.ask",
            "substitute",
            {"old": player.id, "new": replacement.id},
            old=player.mention,
            new=replacement.mention,
            reason=reason,
            check=possible,
        )

    @campaign.command(name="kick", description=_T("Remove a player (GM)", key="cmd.kick.desc"))
    async def kick(
        self, interaction: discord.Interaction[Any], player: discord.Member, reason: str
    ) -> None:
        by = interaction.user.id

        async def possible(campaign_id: int, roles: tuple[int, ...]) -> None:
            await campaigns(interaction).seat_check(campaign_id, by, player.id, roles=roles)

        await self._confirmed(
            interaction,
            "cogs.kick.ask",
            "kick",
            {"user": player.id},
            who=player.mention,
            reason=reason,
            check=possible,
        )

    @campaign.command(name="end", description=_T("End the campaign now (GM)", key="cmd.end.desc"))
    async def end(self, interaction: discord.Interaction[Any], reason: str) -> None:
        await self._confirmed(interaction, "cogs.end.ask", "end", {}, reason=reason)


async def setup(client: commands.Bot) -> None:
    client.add_dynamic_items(JoinButton, GmAnswer, ListPager)
    controls.of(client).card = _card_controls(client)
    await client.add_cog(CampaignCog(client))
