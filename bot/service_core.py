"""The turn service's common ground: construction, checks and helpers its parts share.

``CampaignService`` (``bot.service``) is assembled from this base, the GM's moderation
(``bot.service_gm``) and the read-only questions (``bot.service_queries``); each method is
still one transaction that re-reads and re-checks before it writes.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Collection, Mapping
from typing import Any

from bot import boards, drawing
from bot.clock import Clock, epoch, from_epoch
from bot.limits import plain
from bot.rulesets import Plugin, Registry
from bot.service_model import (
    ADMIN_ROLE,
    CampaignInfo,
    Pace,
    PanelData,
    PlayerInfo,
    RoundInfo,
    SeedSource,
    ServiceError,
    idle_lock,
)
from bot.service_notify import gm_notice, send_panel
from bot.service_panels import panel_data, prepare_round
from bot.service_plan import Resolution, Started, plan_resolution
from bot.service_resolve import apply_resolution, resolve_round
from bot.service_rounds import Ctx
from bot.service_states import load_state, state_of
from db.repository import (
    CampaignRow,
    NewEvent,
    PanelRows,
    PlayerRow,
    Repository,
    RoundRow,
    Transaction,
)

log = logging.getLogger(__name__)

# Plans of a resolution made stale by a concurrent change before the engine runs under the
# write lock instead (a round is resolving only briefly: changes under it are rare).
RESOLVE_TRIES = 3


def parse_side(plugin: Plugin[Any, Any], value: str) -> str:
    side = str(value)
    if side not in plugin.rules.side_ids:
        raise ServiceError("unknown-side", side=side, known=", ".join(plugin.rules.side_ids))
    return side


def round_info(row: RoundRow) -> RoundInfo:
    return RoundInfo(
        id=row.id,
        turn=row.turn,
        kind=row.kind,
        status=row.status,
        branch=row.branch,
        opened_at=from_epoch(row.opened_at),
        deadline=from_epoch(row.deadline_at) if row.deadline_at is not None else None,
    )


class ServiceCore:
    """State and helpers shared by the parts of ``CampaignService``."""

    def __init__(
        self,
        repo: Repository,
        clock: Clock,
        *,
        rng_seed_source: SeedSource = secrets,
        default_locale: str = "en",
        rulesets: Registry | None = None,
    ) -> None:
        self.repo = repo
        self.rulesets = rulesets if rulesets is not None else Registry()
        self.clock = clock
        self._seeds = rng_seed_source
        self.default_locale = default_locale
        # Work started after a resolution and not waited for (``_prepare``): held here so
        # it is not collected half-way.
        self._background: set[asyncio.Task[None]] = set()
        # Whether a round's pictures are drawn as soon as it opens: the bot turns it on
        # where pictures are drawn in worker processes (``SortieBot.setup_hook``); a demo,
        # a script or a test draws only what it shows.
        self.draws_ahead = False

    def _now(self) -> int:
        return epoch(self.clock.now())

    def _ctx(self) -> Ctx:
        return Ctx(self.rulesets, self._seeds, self._now())

    def _plugin(self, campaign: CampaignRow) -> Plugin[Any, Any]:
        return self.rulesets.get(campaign.ruleset)

    async def _campaign(self, tx: Transaction, campaign_id: int) -> CampaignRow:
        self._real_id(campaign_id)
        campaign = await tx.campaign(campaign_id)
        if campaign is None:
            raise ServiceError("unknown-campaign", campaign=campaign_id)
        return campaign

    async def _gm_campaign(
        self, tx: Transaction, campaign_id: int, by: int, roles: Collection[int]
    ) -> CampaignRow:
        """The campaign, for its GM only (or the server's GM role, or an admin)."""
        campaign = await self._campaign(tx, campaign_id)
        await self._require_gm(tx, campaign, by, roles)
        return campaign

    async def _require_gm(
        self, tx: Transaction, campaign: CampaignRow, by: int, roles: Collection[int]
    ) -> None:
        if by == campaign.gm_id or ADMIN_ROLE in roles:
            return
        role = await tx.gm_role(campaign.guild_id)
        if role is not None and role in roles:
            return
        raise ServiceError("not-gm")

    @staticmethod
    def _require_other_gm(campaign: CampaignRow, by: int, *users: int) -> None:
        """No GM removes or seats himself while the campaign runs: between the two he holds
        no seat, and a peek would show him the opponent's orders for the round. Another GM
        or an administrator may (each is audited); before the start nothing is secret yet."""
        if by in users and campaign.status in ("active", "paused"):
            raise ServiceError("self-seat")

    @staticmethod
    def _require_live(campaign: CampaignRow) -> None:
        if campaign.status == "finished":
            raise ServiceError("finished")

    @staticmethod
    def _require_playing(campaign: CampaignRow) -> None:
        if campaign.status == "setup":
            raise ServiceError("not-started")
        if campaign.status == "paused":
            raise ServiceError("paused")
        if campaign.status == "finished":
            raise ServiceError("finished")

    async def _info(self, tx: Transaction, campaign: CampaignRow) -> CampaignInfo:
        players = await tx.players(campaign.id)
        return CampaignInfo(
            id=campaign.id,
            guild_id=campaign.guild_id,
            channel_id=campaign.channel_id,
            gm_id=campaign.gm_id,
            ruleset=campaign.ruleset,
            scenario=campaign.scenario,
            locale=campaign.locale,
            status=campaign.status,
            branch=campaign.branch,
            seed_commitment=campaign.seed_commitment,
            seed=campaign.seed if campaign.seed_revealed else None,
            pace=Pace(
                round_seconds=campaign.round_seconds,
                reminder_offsets=campaign.reminder_offsets,
                missing_policy="drafts" if campaign.missing_policy == "drafts" else "default",
                gm_sees_secrets=campaign.gm_sees_secrets,
                allow_unlock=campaign.allow_unlock,
            ),
            players=tuple(self._player_info(p) for p in players),
            created_at=from_epoch(campaign.created_at),
            ended_at=from_epoch(campaign.ended_at) if campaign.ended_at else None,
        )

    @staticmethod
    def _player_info(row: PlayerRow) -> PlayerInfo:
        return PlayerInfo(
            user_id=row.user_id,
            side=row.side,
            commander=row.commander,
            dm_ok=row.dm_ok,
            last_active=from_epoch(row.last_active),
        )

    async def _event(
        self,
        tx: Transaction,
        campaign: CampaignRow,
        kind: str,
        data: Mapping[str, Any],
        *,
        round_id: int | None = None,
        turn: int | None = None,
    ) -> None:
        if turn is None:
            rules = self._plugin(campaign).rules
            turn = (
                rules.progress(await state_of(tx, rules, campaign.snapshot_id, history=False)).turn
                if campaign.snapshot_id
                else 1
            )
        await tx.append_events(
            campaign.id, round_id, campaign.branch, [NewEvent(kind, turn, data)], self._now()
        )

    async def _audit(
        self, tx: Transaction, campaign: CampaignRow, by: int, what: str, why: str, **data: Any
    ) -> None:
        await tx.add_audit(campaign.id, campaign.guild_id, by, what, plain(why), data, self._now())

    async def _member(self, tx: Transaction, campaign: CampaignRow, user_id: int) -> PlayerRow:
        player = await tx.player(campaign.id, user_id)
        if player is None or player.left_at is not None:
            raise ServiceError("not-player")
        return player

    async def _open_round_for(
        self, tx: Transaction, campaign: CampaignRow, round_id: int
    ) -> RoundRow:
        """The round a draft, lock or unlock names, if it is still the open one."""
        return self._open_round(await tx.live_round(campaign.id), round_id)

    def _open_round(self, live: RoundRow | None, round_id: int) -> RoundRow:
        """``live`` (the campaign's live round), if it is round ``round_id`` and open."""
        if live is None or live.id != round_id or live.status != "open":
            raise ServiceError("stale-round")
        if live.deadline_at is not None and self._now() >= live.deadline_at:
            # The deadline timer may not have fired yet; the deadline has passed all the same.
            raise ServiceError("deadline-passed")
        return live

    @staticmethod
    async def _commanders(tx: Transaction, campaign_id: int) -> dict[str, int]:
        return {p.side: p.user_id for p in await tx.players(campaign_id) if p.commander}

    async def _panel(
        self,
        tx: Transaction,
        campaign_id: int,
        user_id: int,
        *,
        rows: PanelRows | None = None,
    ) -> PanelData:
        """Build the panel; ``rows``: its rows, when the caller read them in this
        transaction (and changed them only as it says)."""
        if rows is None:
            self._real_id(campaign_id)
            rows = await tx.panel_rows(campaign_id, user_id)
        campaign, player = self._seated(rows, campaign_id)
        live = rows.live
        if campaign.status == "finished":
            raise ServiceError("finished")
        if live is None:
            raise ServiceError("no-open-round")
        if rows.snapshot is None:
            raise RuntimeError(f"snapshot {live.snapshot_before_id} is missing")
        self._require_seated_before(player, live)
        rules = self._plugin(campaign).rules
        state = await load_state(tx, rules, rows.snapshot, history=False)
        return await panel_data(
            tx,
            rules,
            campaign,
            player,
            live,
            state,
            self._now(),
            locks=rows.locks,
            drafts=rows.drafts,
            snapshot=rows.snapshot,
        )

    @staticmethod
    def _real_id(campaign_id: int) -> None:
        if not 0 < campaign_id < 2**63:  # a forged id: no database integer is that large
            raise ServiceError("unknown-campaign", campaign=campaign_id)

    @staticmethod
    def _seated(rows: PanelRows, campaign_id: int) -> tuple[CampaignRow, PlayerRow]:
        """The campaign and the player ``rows`` were read for, or the refusal: an unknown
        campaign, or someone not seated in it."""
        if rows.campaign is None:
            raise ServiceError("unknown-campaign", campaign=campaign_id)
        if rows.player is None or rows.player.left_at is not None:
            raise ServiceError("not-player")
        return rows.campaign, rows.player

    @staticmethod
    def _require_seated_before(player: PlayerRow, live: RoundRow) -> None:
        """A teammate seated during a round sees that side's orders from the next round on.

        The commander always sees them (a substitute must be able to lock).
        """
        if not player.commander and player.joined_at > live.opened_at:
            raise ServiceError("joined-mid-round")

    async def _panel_if_open(
        self, tx: Transaction, campaign: CampaignRow, user_id: int, side: str
    ) -> None:
        live = await tx.live_round(campaign.id)
        if live is not None and live.status == "open":
            await send_panel(tx, campaign, live.id, user_id, side, self._now())

    async def _resolve(self, round_id: int, started: Started | None = None) -> bool:
        """Run the resolution transaction; a failure is recorded and left for a retry.

        The round stays ``resolving`` (its locks are committed, nothing is lost); the
        failure goes in the log with a reference that the GM is given on the first one,
        and ``tick`` retries with a growing delay (``retry_due``), as does
        ``/campaign resolve``, so a campaign never wedges silently.

        A round nobody decides in, opened by the resolution, is resolved next the same way
        (its own failure recorded against it): its engine never runs while the write lock
        is held, where every other campaign's writes would wait for it. True when the
        round asked for was resolved here.
        """
        resolved = False
        while True:
            try:
                written, campaign = await self._resolve_outside_lock(round_id, started)
            except Exception as exc:
                ref = f"R{round_id}-{self._now()}"
                log.exception(
                    "resolution of round %s failed (ref %s); it stays 'resolving' for a retry",
                    round_id,
                    ref,
                )
                await self._record_failure(round_id, ref, type(exc).__name__)
                return resolved
            started = None
            if not written:
                return resolved
            resolved = True
            if campaign is None:
                return True  # resolved under the lock, the rounds after it too
            try:
                quiet = await self._quiet_round(campaign.id)
            except Exception:
                # The round after it stays resolving: the scheduler's tick resolves it.
                log.exception(
                    "campaign %s: the round after %s was not looked up", campaign.id, round_id
                )
                return True
            if quiet is None:
                self._prepare(campaign)
                return True
            round_id = quiet

    async def _resolve_outside_lock(
        self, round_id: int, started: Started | None
    ) -> tuple[bool, CampaignRow | None]:
        """The engine runs on a read, the write lock is held only to re-check and write:
        the round must still be resolving from the same snapshot and locks, else the
        outcome is computed again (and, after a few tries, under the lock). ``started``:
        the engine's job sent by the Lock that completed the round, its first plan.
        (Whether this call wrote it; its campaign when a round nobody decides in may
        follow, None when it was resolved under the lock with those rounds.)"""
        ctx = self._ctx()
        for _attempt in range(RESOLVE_TRIES):
            if started is not None:
                plan: Resolution | None = await started.plan(ctx, self.repo.read)
                started = None
            else:
                async with self.repo.read() as tx:
                    plan = await plan_resolution(tx, ctx, round_id)
            if plan is None:
                return False, None
            # Only this campaign's rows: other campaigns' writers go on meanwhile.
            async with self.repo.transaction(plan.campaign.id) as tx:
                written = await apply_resolution(tx, ctx, plan, chain=False)
            if written is not None:
                return written, plan.campaign
        async with self.repo.transaction() as tx:
            return await resolve_round(tx, ctx, round_id), None

    async def _quiet_round(self, campaign_id: int) -> int | None:
        """The campaign's live round if it waits, resolving, for nobody (``open_round``
        with ``chain`` False): every lock its own. A round resolving on players' Locks is
        left to the Lock that completed it."""
        async with self.repo.read() as tx:
            live = await tx.live_round(campaign_id)
            if live is None or live.status != "resolving":
                return None
            locks = await tx.standing_locks(live.id)
        return live.id if locks and all(idle_lock(lock) for lock in locks.values()) else None

    def _prepare(self, campaign: CampaignRow) -> None:
        """The new round's decisions and views, worked out now that the write lock is
        free, without holding up the lock that resolved the round."""
        rules = self._plugin(campaign).rules

        async def prepare() -> None:
            try:
                async with self.repo.read() as tx:
                    prepared = await prepare_round(tx, rules, campaign.id)
                if prepared is not None and self.draws_ahead and drawing.in_workers():
                    # Off the event loop, in the drawing processes: the round message's
                    # board for each lock state it will pass through, and the order panels.
                    await boards.draw_ahead(self._plugin(campaign), prepared, campaign.locale)
            except Exception:
                # Only a head start: the first panel works them out itself.
                log.exception("preparing campaign %s's next round failed", campaign.id)

        task = asyncio.get_running_loop().create_task(prepare())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        """Wait for the work started after resolutions (``_prepare``), so a shutdown never
        closes the database under a read that is still running."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def _record_failure(self, round_id: int, ref: str, error: str) -> None:
        try:
            async with self.repo.transaction() as tx:
                row = await tx.round(round_id)
                campaign = await tx.campaign(row.campaign_id) if row else None
                if row is None or campaign is None:
                    return
                failures = await self._failures(tx, campaign.id, round_id)
                await tx.append_events(
                    campaign.id,
                    round_id,
                    row.branch,
                    [NewEvent("resolution-failed", row.turn, {"ref": ref, "error": error})],
                    self._now(),
                )
                if not failures:
                    await gm_notice(
                        tx,
                        campaign,
                        "resolution-failed",
                        self._now(),
                        ref=ref,
                        turn=row.turn,
                        round=row.kind,
                    )
        except Exception:
            log.exception("could not record the failure of round %s", round_id)

    @staticmethod
    async def _failures(tx: Transaction, campaign_id: int, round_id: int) -> list[int]:
        """When each failed resolution attempt of the round was recorded (oldest first)."""
        events = await tx.events(campaign_id, round_id=round_id)
        return [e.created_at for e in events if e.kind == "resolution-failed"]

    async def retry_due(self, tx: Transaction, campaign_id: int, round_id: int) -> bool:
        """Whether a stuck round may be retried now: 1 min after the first failure, then
        doubling up to an hour, so a resolution that always fails does not flood the log."""
        failures = await self._failures(tx, campaign_id, round_id)
        if not failures:
            return True
        wait = min(60 * 2 ** (len(failures) - 1), 3600)
        return bool(self._now() >= int(failures[-1]) + wait)
