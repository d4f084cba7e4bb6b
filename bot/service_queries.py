"""Read-only questions: who is waiting, the public status, the log, receipts, export.

Nothing here writes; each answer comes from one consistent read of the database.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot import secrecy
from bot.clock import from_epoch
from bot.service_core import ServiceCore, round_info
from bot.service_model import (
    CampaignInfo,
    LogEntry,
    LogPage,
    ReceiptInfo,
    ServiceError,
    SideStatus,
    StatusData,
    choice_of,
    choices_of,
)
from bot.service_states import state_of, view_at, view_of
from db.repository import CampaignRow, Transaction

if TYPE_CHECKING:
    from bot.replay import Made

LIST_PER_PAGE = 8


@dataclass(frozen=True)
class CampaignSummary:
    """One line of ``/campaign list``: where a campaign stands, running or over."""

    id: int
    channel_id: int
    ruleset: str
    scenario: str
    status: str  # setup / active / paused / finished
    turn: int | None  # None before the first snapshot
    winner: str | None  # a side id or "draw" once over; None while running or if ended early
    end_reason: str | None
    created_at: datetime
    ended_at: datetime | None
    missed: int  # deadlines that passed without a side's lock, all sides together


@dataclass(frozen=True)
class CampaignListPage:
    campaigns: tuple[CampaignSummary, ...]
    page: int
    pages: int
    total: int


async def missed_by_player(tx: Transaction, campaign_id: int) -> dict[int, int]:
    """Per player, how many deadlines passed with their side's orders filled by default.

    A deadline counts for every player seated on the side when it passed (a substitute does
    not inherit the misses of the player they replaced). A round the GM resolved early is not
    a missed deadline, and one later rolled back still is: the deadline did pass unanswered.
    """
    players = await tx.players(campaign_id, include_left=True)
    counts: Counter[int] = Counter()
    for event in await tx.events(campaign_id):
        if event.kind != "defaults-applied" or event.data.get("why") != "deadline":
            continue
        at = event.created_at
        for side in event.data.get("sides", ()):
            for player in players:
                seated = player.joined_at <= at and (player.left_at is None or player.left_at >= at)
                if player.side == side and seated:
                    counts[player.user_id] += 1
    return dict(counts)


@dataclass(frozen=True)
class Peek:
    """One ``/campaign peek``: who looked, when, and at which round's drafts."""

    by: int
    at: datetime
    turn: int
    kind: str


async def peeks_of(tx: Transaction, campaign_id: int) -> list[Peek]:
    return [
        Peek(a.who, from_epoch(a.at), int(a.data.get("turn", 0)), str(a.data.get("kind", "")))
        for a in await tx.audit(campaign_id)
        if a.what == "peek"
    ]


async def missed_deadlines(tx: Transaction, campaign_id: int) -> int:
    """How many times a side's orders were filled because a deadline passed."""
    return sum(
        len(event.data.get("sides", ()))
        for event in await tx.events(campaign_id)
        if event.kind == "defaults-applied" and event.data.get("why") == "deadline"
    )


class QueryMixin(ServiceCore):
    """What anyone (the cogs check who) can ask about a campaign."""

    async def gm_role(self, guild_id: int) -> int | None:
        async with self.repo.read() as tx:
            return await tx.gm_role(guild_id)

    async def is_gm(self, campaign_id: int, user_id: int, roles: Collection[int] = ()) -> bool:
        """The campaign's GM, or a holder of the server's GM role."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            try:
                await self._require_gm(tx, campaign, user_id, roles)
            except ServiceError:
                return False
            return True

    async def campaign_in_channel(self, channel_id: int) -> CampaignInfo | None:
        async with self.repo.read() as tx:
            campaign = await tx.live_campaign_in_channel(channel_id)
            return None if campaign is None else await self._info(tx, campaign)

    async def campaign_for_channel(self, channel_id: int) -> CampaignInfo | None:
        """The channel's live campaign, else the last one that finished there."""
        async with self.repo.read() as tx:
            campaign = await tx.latest_campaign_in_channel(channel_id)
            return None if campaign is None else await self._info(tx, campaign)

    async def campaign_in_guild(self, campaign_id: int, guild_id: int) -> CampaignInfo:
        """A campaign named by its number, if it belongs to this server.

        Unknown and foreign numbers get the same refusal, so a server cannot learn that
        another server's campaign exists.
        """
        async with self.repo.read() as tx:
            campaign = None
            if 0 < campaign_id < 2**63:
                campaign = await tx.campaign(campaign_id)
            if campaign is None or campaign.guild_id != guild_id:
                raise ServiceError("foreign-campaign", campaign=campaign_id)
            return await self._info(tx, campaign)

    async def guild_campaigns(
        self,
        guild_id: int,
        *,
        page: int = 1,
        per_page: int = LIST_PER_PAGE,
        visible: Collection[int] | None = None,
    ) -> CampaignListPage:
        """The server's campaigns, newest first, one page of them.

        ``visible`` (channel ids the reader can see), when given, leaves out the campaigns
        of channels hidden from the reader.
        """
        per_page = max(1, min(per_page, 25))
        async with self.repo.read() as tx:
            total = await tx.count_guild_campaigns(guild_id)
            rows = await tx.guild_campaigns(guild_id, limit=total or 1)
            if visible is not None:
                rows = [row for row in rows if row.channel_id in visible]
            pages = max(1, -(-len(rows) // per_page))
            page = min(max(1, page), pages)
            chosen = rows[(page - 1) * per_page : page * per_page]
            summaries = tuple([await self._summary(tx, row) for row in chosen])
        return CampaignListPage(summaries, page, pages, len(rows))

    async def campaign_choices(
        self, guild_id: int, visible: Collection[int] | None = None, limit: int = 200
    ) -> list[CampaignSummary]:
        """Newest first, for the ``campaign`` option's completion (no progress read)."""
        async with self.repo.read() as tx:
            rows = await tx.guild_campaigns(guild_id, limit=limit)
        return [
            _summary_of(row, None, None, 0)
            for row in rows
            if visible is None or row.channel_id in visible
        ]

    async def _summary(self, tx: Transaction, row: CampaignRow) -> CampaignSummary:
        turn: int | None = None
        winner: str | None = None
        if row.snapshot_id is not None and row.ruleset in self.rulesets:
            rules = self._plugin(row).rules
            progress = rules.progress(await state_of(tx, rules, row.snapshot_id, history=False))
            turn = progress.turn
            winner = progress.winner if row.status == "finished" else None
        return _summary_of(row, turn, winner, await missed_deadlines(tx, row.id))

    async def missed(self, campaign_id: int) -> dict[int, int]:
        """Missed deadlines per player (user id), for the GM's ``/campaign info``."""
        async with self.repo.read() as tx:
            await self._campaign(tx, campaign_id)
            return await missed_by_player(tx, campaign_id)

    async def card(self, campaign_id: int, locale: str) -> str:
        """The campaign card's words in the reader's language (``/campaign info``), with
        every GM look at the drafts: the players see who looked, and when."""
        from bot.announce import card_text, peek_lines
        from bot.switches import created_switches

        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            players = await tx.players(campaign.id)
            switches = await created_switches(tx, campaign.id)
            looks = await peeks_of(tx, campaign.id)
            plugin = self._plugin(campaign)
            view = None
            if campaign.snapshot_id is not None:
                state = await state_of(tx, plugin.rules, campaign.snapshot_id)
                view = view_of(plugin.rules, state, secrecy.Viewer.public())
        card = card_text(plugin, campaign, players, locale, switches, view)
        return "\n".join([card, *peek_lines(looks, locale)])

    async def info(self, campaign_id: int) -> CampaignInfo:
        async with self.repo.read() as tx:
            return await self._info(tx, await self._campaign(tx, campaign_id))

    async def waiting(self, campaign_id: int) -> list[SideStatus]:
        """Per side: locked or not, who commands, DM reachable, last active, deadline."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            players = await tx.players(campaign.id)
            live = await tx.live_round(campaign.id)
            standing = await tx.standing_locks(live.id) if live else {}
            result: list[SideStatus] = []
            for side in self._plugin(campaign).rules.side_ids:
                mine = [p for p in players if p.side == side]
                commander = next((p for p in mine if p.commander), None)
                lock = standing.get(side)
                result.append(
                    SideStatus(
                        side=side,
                        locked=lock is not None,
                        receipt=lock.receipt if lock else None,
                        defaulted=bool(lock and lock.defaulted),
                        commander_id=commander.user_id if commander else None,
                        players=tuple(p.user_id for p in mine),
                        dm_ok=commander.dm_ok if commander else False,
                        last_active=(
                            from_epoch(max(p.last_active for p in mine)) if mine else None
                        ),
                        deadline=(
                            from_epoch(live.deadline_at) if live and live.deadline_at else None
                        ),
                    )
                )
            return result

    async def peek(
        self, campaign_id: int, by: int, *, roles: Collection[int] = ()
    ) -> dict[str, dict[str, str]]:
        """The GM's look at each side's current drafts, if the campaign allows it.

        Written to the audit trail (who, when, which round), which ``/campaign info`` shows
        the players: a look nobody can see would be a look nobody can question.
        """
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            if not secrecy.may_peek(campaign.gm_sees_secrets, secrecy.Viewer(gm=True)):
                raise ServiceError("secrets-hidden")
            if await tx.player(campaign.id, by) is not None:
                # A GM (or administrator) who plays a side, or ever did (kicked, then seated
                # again after the look), would be reading the opponent.
                raise ServiceError("gm-plays")
            live = await tx.live_round(campaign.id)
            if live is None:
                raise ServiceError("no-open-round")
            sides = self._plugin(campaign).rules.side_ids
            drafts = {side: choices_of(await tx.drafts(live.id, side)) for side in sides}
            await self._audit(
                tx, campaign, by, "peek", "", round=live.id, turn=live.turn, kind=live.kind
            )
            return drafts

    async def peeks(self, campaign_id: int) -> list[Peek]:
        """Every GM look at the drafts, oldest first (``/campaign info`` lists them)."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            return await peeks_of(tx, campaign.id)

    async def status(self, campaign_id: int) -> StatusData:
        """The public situation: a view for spectators, the round and who has locked."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            live = await tx.live_round(campaign.id)
            rules = self._plugin(campaign).rules
            # The public view kept since the round opened (``prepare_round``), else made:
            # no state parsed while it is kept.
            view = await view_at(tx, rules, campaign.snapshot_id, secrecy.Viewer.public())
            standing = await tx.standing_locks(live.id) if live else {}
            return StatusData(
                campaign=await self._info(tx, campaign),
                round=round_info(live) if live else None,
                view=view,
                locked={side: side in standing for side in rules.side_ids},
            )

    async def log(
        self, campaign_id: int, *, page: int = 1, per_page: int = 10, turn: int | None = None
    ) -> LogPage:
        """The campaign log, newest first; void events (rolled back) are kept and marked."""
        page = max(1, page)
        per_page = max(1, min(per_page, 50))
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            plugin = self._plugin(campaign)
            state = await state_of(tx, plugin.rules, campaign.snapshot_id)
            names = plugin.presenter.names(view_of(plugin.rules, state, secrecy.Viewer.public()))
            total = await tx.count_events(campaign_id, turn=turn)
            rows = await tx.events(
                campaign_id,
                turn=turn,
                newest_first=True,
                limit=per_page,
                offset=(page - 1) * per_page,
            )
        return LogPage(
            entries=tuple(
                LogEntry(
                    seq=r.seq,
                    turn=r.turn,
                    kind=r.kind,
                    source=r.source,
                    branch=r.branch,
                    void=r.void,
                    data=r.data,
                    at=from_epoch(r.created_at),
                )
                for r in rows
            ),
            page=page,
            per_page=per_page,
            total=total,
            names=names,
        )

    async def receipts(self, campaign_id: int, user_id: int) -> list[ReceiptInfo]:
        """The receipts of the player's side; opened ones carry the salt and the choice."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            player = await tx.player(campaign.id, user_id)
            if player is None:
                raise ServiceError("not-player")
            rounds = {r.id: r for r in await tx.rounds(campaign.id)}
            rules = self._plugin(campaign).rules
            finished = campaign.status == "finished"
            out: list[ReceiptInfo] = []
            for lock in await tx.campaign_locks(campaign.id):
                if not secrecy.may_read_drafts(secrecy.Viewer.player(player.side), lock.side):
                    continue
                row = rounds[lock.round_id]
                opened = (
                    secrecy.receipt_opened(
                        rules, finished, row, list(rounds.values()), choice_of(lock.canonical)
                    )
                    and lock.withdrawn_at is None
                )
                out.append(
                    ReceiptInfo(
                        round_id=row.id,
                        turn=row.turn,
                        kind=row.kind,
                        branch=row.branch,
                        side=lock.side,
                        receipt=lock.receipt,
                        locked_at=from_epoch(lock.locked_at),
                        defaulted=lock.defaulted,
                        withdrawn=lock.withdrawn_at is not None,
                        opened=opened,
                        salt=lock.salt if opened else None,
                        canonical=lock.canonical if opened else None,
                    )
                )
            return out

    async def export(self, campaign_id: int) -> dict[str, Any]:
        from bot.export import export_campaign

        return await export_campaign(self.repo, self.rulesets, campaign_id)

    async def replay_page(
        self, campaign_id: int, *, names: Mapping[int, str] | None = None
    ) -> Made:
        """The campaign's replay page (``bot.replay``). A finished campaign is replayed from
        its export; a running one has no seed to replay from, so its page is drawn from the
        states the store kept, through the same public gate: what the channel has seen."""
        from bot.export import export_in
        from bot.replay import make_page, stored_rounds

        async with self.repo.read() as tx:
            export = await export_in(tx, self.rulesets, campaign_id)
            played = None
            if export["campaign"]["status"] != "finished":
                rules = self.rulesets.get(export["campaign"]["ruleset"]).rules
                played = await stored_rounds(tx, rules, export)
        return await asyncio.to_thread(make_page, export, self.rulesets, played=played, names=names)


def _summary_of(
    row: CampaignRow, turn: int | None, winner: str | None, missed: int
) -> CampaignSummary:
    return CampaignSummary(
        id=row.id,
        channel_id=row.channel_id,
        ruleset=row.ruleset,
        scenario=row.scenario,
        status=row.status,
        turn=turn,
        winner=winner,
        end_reason=row.end_reason,
        created_at=from_epoch(row.created_at),
        ended_at=from_epoch(row.ended_at) if row.ended_at else None,
        missed=missed,
    )
