"""Read-only questions: who is waiting, the public status, the log, receipts, export.

Nothing here writes; each answer comes from one consistent read of the database.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

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
)
from bot.service_rounds import (
    state_of,
    view_of,
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

    async def card(self, campaign_id: int, locale: str) -> str:
        """The campaign card's words in the reader's language (``/campaign info``)."""
        from bot.announce import card_text

        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            players = await tx.players(campaign.id)
        return card_text(self._plugin(campaign), campaign, players, locale)

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
        """The GM's look at each side's current drafts, if the campaign allows it."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            await self._require_gm(tx, campaign, by, roles)
            if not secrecy.may_peek(campaign.gm_sees_secrets, secrecy.Viewer(gm=True)):
                raise ServiceError("secrets-hidden")
            seat = await tx.player(campaign.id, by)
            if seat is not None and seat.left_at is None:
                # A GM (or administrator) who plays a side would be reading the opponent.
                raise ServiceError("gm-plays")
            live = await tx.live_round(campaign.id)
            if live is None:
                raise ServiceError("no-open-round")
            sides = self._plugin(campaign).rules.side_ids
            return {side: await tx.drafts(live.id, side) for side in sides}

    async def status(self, campaign_id: int) -> StatusData:
        """The public situation: a view for spectators, the round and who has locked."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
            live = await tx.live_round(campaign.id)
            rules = self._plugin(campaign).rules
            state = await state_of(tx, rules, campaign.snapshot_id)
            standing = await tx.standing_locks(live.id) if live else {}
            return StatusData(
                campaign=await self._info(tx, campaign),
                round=round_info(live) if live else None,
                view=view_of(rules, state, secrecy.Viewer.public()),
                locked={side: side in standing for side in rules.side_ids},
            )

    async def log(
        self, campaign_id: int, *, page: int = 1, per_page: int = 10, turn: int | None = None
    ) -> LogPage:
        """The campaign log, newest first; void events (rolled back) are kept and marked."""
        page = max(1, page)
        per_page = max(1, min(per_page, 50))
        async with self.repo.read() as tx:
            await self._campaign(tx, campaign_id)
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
                    secrecy.receipt_opened(rules, finished, row, list(rounds.values()))
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
