"""GM moderation: pause, resume, extend, resolve now, rollback, end, kick, substitute.

Every action checks that the caller is the campaign's GM (or holds the server's GM role,
or is a server administrator), and writes its reason to the audit trail and the log.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from bot.limits import is_blank, plain
from bot.service_core import ServiceCore, round_info
from bot.service_model import (
    MAX_ROUND_SECONDS,
    PlayerInfo,
    RoundInfo,
    ServiceError,
)
from bot.service_notify import gm_notice, refresh_card, refresh_panels, refresh_round_message
from bot.service_resolve import finish_campaign, open_round
from bot.service_rounds import close_with_defaults
from bot.service_states import state_of
from db.repository import (
    CampaignRow,
    PlayerRow,
    RoundRow,
    Transaction,
)

# How long a GM's question stays answerable: long enough to step away, short enough that
# an old Confirm does not surprise anyone.
REQUEST_SECONDS = 3600


@dataclass(frozen=True)
class GmRequest:
    """A GM action asked for and waiting for its Confirm (kept in the audit trail)."""

    id: int
    campaign_id: int
    by: int
    action: str
    params: dict[str, Any]
    reason: str


class ModerationMixin(ServiceCore):
    """What the GM can do to a running campaign."""

    async def kick(
        self, campaign_id: int, by: int, user_id: int, reason: str, *, roles: Collection[int] = ()
    ) -> None:
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            self._require_other_gm(campaign, by, user_id)
            player = await self._member(tx, campaign, user_id)
            now = self._now()
            await tx.update_player(campaign.id, user_id, left_at=now, commander=False)
            promoted: int | None = None
            if player.commander:
                # The longest-serving player left on the side takes command.
                for other in await tx.players(campaign.id):
                    if other.side == player.side:
                        promoted = other.user_id
                        await tx.update_player(campaign.id, other.user_id, commander=True)
                        break
            await self._event(
                tx,
                campaign,
                "player-removed",
                {"user": user_id, "side": player.side, "new_commander": promoted},
            )
            await self._audit(tx, campaign, by, "kick", reason, user=user_id, promoted=promoted)
            await refresh_card(tx, campaign, now)
            if promoted is not None:
                await self._panel_if_open(tx, campaign, promoted, player.side)
            elif player.commander:
                await gm_notice(tx, campaign, "no-commander", now, side=player.side)

    async def seat_check(
        self, campaign_id: int, by: int, *users: int, roles: Collection[int] = ()
    ) -> None:
        """Refuse now a kick, seat or substitution the GM would make of himself, so he is
        not asked to confirm what the action refuses (``_require_other_gm``)."""
        async with self.repo.read() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            self._require_other_gm(campaign, by, *users)

    async def substitute(
        self,
        campaign_id: int,
        by: int,
        old_user_id: int,
        new_user_id: int,
        reason: str,
        *,
        roles: Collection[int] = (),
    ) -> PlayerInfo:
        """``new`` takes ``old``'s place; if ``new`` already plays that side, command moves."""
        if old_user_id == new_user_id:
            raise ServiceError("same-user")
        async with self.repo.transaction() as tx:
            campaign = await self._campaign(tx, campaign_id)
            self._require_live(campaign)
            await self._require_gm(tx, campaign, by, roles)
            self._require_other_gm(campaign, by, old_user_id, new_user_id)
            old = await self._member(tx, campaign, old_user_id)
            now = self._now()
            new = await tx.player(campaign.id, new_user_id)
            if new is not None and new.left_at is None:
                if new.side != old.side:
                    raise ServiceError("already-joined", side=new.side)
                # Same side: hand over command, the old commander stays as a player.
                await tx.update_player(campaign.id, old_user_id, commander=False)
                await tx.update_player(campaign.id, new_user_id, commander=old.commander)
                kept_old = True
            else:
                await tx.update_player(campaign.id, old_user_id, left_at=now, commander=False)
                await tx.upsert_player(
                    PlayerRow(
                        campaign_id=campaign.id,
                        user_id=new_user_id,
                        side=old.side,
                        commander=old.commander,
                        dm_ok=new.dm_ok if new is not None else True,
                        joined_at=now,
                        last_active=now,
                        left_at=None,
                    )
                )
                kept_old = False
            await self._event(
                tx,
                campaign,
                "player-substituted",
                {"old": old_user_id, "new": new_user_id, "side": old.side, "kept_old": kept_old},
            )
            await self._audit(
                tx, campaign, by, "substitute", reason, old=old_user_id, new=new_user_id
            )
            await refresh_card(tx, campaign, now)
            if old.commander:
                await self._panel_if_open(tx, campaign, new_user_id, old.side)
            row = await tx.player(campaign.id, new_user_id)
            assert row is not None
            return self._player_info(row)

    async def pause(
        self, campaign_id: int, by: int, reason: str = "", *, roles: Collection[int] = ()
    ) -> None:
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            if campaign.status != "active":
                raise ServiceError("not-active")
            now = self._now()
            await tx.update_campaign(campaign.id, status="paused", paused_at=now)
            await self._event(tx, campaign, "paused", {"by": by, "reason": reason})
            await self._audit(tx, campaign, by, "pause", reason)
            live = await tx.live_round(campaign.id)
            if live is not None:
                await refresh_round_message(tx, campaign, live.id, now)
                await refresh_panels(tx, campaign, live.id, now)

    async def resume(
        self, campaign_id: int, by: int, reason: str = "", *, roles: Collection[int] = ()
    ) -> RoundInfo | None:
        """Resume; the deadline and reminders move later by the time spent paused."""
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            if campaign.status != "paused":
                raise ServiceError("not-paused")
            now = self._now()
            shift = max(0, now - (campaign.paused_at or now))
            await tx.update_campaign(campaign.id, status="active", paused_at=None)
            live = await tx.live_round(campaign.id)
            if live is not None and live.deadline_at is not None:
                await tx.update_round(live.id, deadline_at=live.deadline_at + shift)
                await tx.shift_round_timers(live.id, shift)
                await refresh_round_message(tx, campaign, live.id, now)
                await refresh_panels(tx, campaign, live.id, now)
            await self._event(tx, campaign, "resumed", {"by": by, "shift": shift})
            await self._audit(tx, campaign, by, "resume", reason, shift=shift)
            live = await tx.live_round(campaign.id)
            return None if live is None else round_info(live)

    async def extend(
        self,
        campaign_id: int,
        by: int,
        seconds: int,
        reason: str,
        *,
        roles: Collection[int] = (),
    ) -> RoundInfo:
        if seconds <= 0 or seconds > MAX_ROUND_SECONDS:
            raise ServiceError("bad-duration")
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            self._require_live(campaign)
            live = await tx.live_round(campaign.id)
            if live is None or live.status != "open" or live.deadline_at is None:
                raise ServiceError("no-open-round")
            now = self._now()
            # An extension counts from the later of the old deadline and now, so extending
            # a round whose deadline just passed (timer not yet fired) still gives time.
            base = max(live.deadline_at, now)
            shift = base + seconds - live.deadline_at
            await tx.update_round(live.id, deadline_at=live.deadline_at + shift)
            await tx.shift_round_timers(live.id, shift)
            await self._event(
                tx,
                campaign,
                "deadline-extended",
                {"by": by, "seconds": seconds, "deadline": live.deadline_at + shift},
                round_id=live.id,
                turn=live.turn,
            )
            await self._audit(tx, campaign, by, "extend", reason, seconds=seconds, round=live.id)
            await refresh_round_message(tx, campaign, live.id, now)
            await refresh_panels(tx, campaign, live.id, now)
            row = await tx.round(live.id)
            assert row is not None
            return round_info(row)

    async def redeliver(self, campaign_id: int, by: int, *, roles: Collection[int] = ()) -> int:
        """Make every undelivered announcement of the campaign due now; how many."""
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            count = await tx.redeliver(campaign.id, self._now())
            await self._audit(tx, campaign, by, "redeliver", "", count=count)
            return count

    async def resolve_now(
        self, campaign_id: int, by: int, reason: str, *, roles: Collection[int] = ()
    ) -> list[str]:
        """Resolve the open round at once; sides that have not locked get the default."""
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            self._require_live(campaign)
            live = await tx.live_round(campaign.id)
            if live is None:
                raise ServiceError("no-open-round")
            if live.status == "resolving":
                # Stuck after a failure: the GM's resolve is a retry, at once.
                await self._audit(tx, campaign, by, "resolve-retry", reason, round=live.id)
                stuck: int | None = live.id
            else:
                stuck = None
        if stuck is not None:
            if not await self._resolve(stuck):
                raise ServiceError("resolution-failed", ref=f"R{stuck}")
            return []
        async with self.repo.transaction() as tx:
            campaign = await self._campaign(tx, campaign_id)
            live = await tx.live_round(campaign.id)
            if live is None or live.status != "open":
                raise ServiceError("no-open-round")
            ctx = self._ctx()
            filled = await close_with_defaults(tx, ctx, campaign, live, "resolve-now")
            await self._audit(
                tx,
                campaign,
                by,
                "resolve-now",
                reason,
                round=live.id,
                defaulted=list(filled),
            )
            round_id = live.id
        await self._resolve(round_id)
        return filled

    async def ask(
        self,
        campaign_id: int,
        by: int,
        action: str,
        params: Mapping[str, Any],
        reason: str,
        *,
        roles: Collection[int] = (),
    ) -> int:
        """Record a GM action waiting for its Confirm; the id goes in the buttons.

        The question lives in the database, not in a bot's memory, so its Confirm answers
        after any wait (until it expires) and across restarts.
        """
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            now = self._now()
            data = {"action": action, "params": dict(params), "expires_at": now + REQUEST_SECONDS}
            return await tx.add_audit(
                campaign.id, campaign.guild_id, by, "ask", plain(reason), data, now
            )

    async def answer(
        self, campaign_id: int, request_id: int, by: int, *, confirm: bool
    ) -> GmRequest:
        """Take a GM request's answer once: its asker only, before it expires, never twice."""
        async with self.repo.transaction() as tx:
            campaign = await self._campaign(tx, campaign_id)
            rows = await tx.audit(campaign.id)
            asked = next((a for a in rows if a.id == request_id and a.what == "ask"), None)
            if asked is None:
                raise ServiceError("request-unknown")
            if asked.who != by:
                raise ServiceError("request-not-yours")
            if any(a.what == "answer" and a.data.get("request") == request_id for a in rows):
                raise ServiceError("request-answered")
            now = self._now()
            if now >= int(asked.data.get("expires_at", 0)):
                raise ServiceError("request-expired")
            await tx.add_audit(
                campaign.id,
                campaign.guild_id,
                by,
                "answer",
                "",
                {"request": request_id, "confirmed": confirm},
                now,
            )
        return GmRequest(
            request_id,
            campaign_id,
            by,
            str(asked.data.get("action", "")),
            dict(asked.data.get("params", {})),
            asked.why,
        )

    async def rollback_check(
        self, campaign_id: int, by: int, to_turn: int, *, roles: Collection[int] = ()
    ) -> None:
        """Refuse now what ``rollback`` would refuse, so the GM is not asked to confirm it."""
        async with self.repo.read() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            await self._rollback_target(tx, campaign, to_turn)

    async def _rollback_target(
        self, tx: Transaction, campaign: CampaignRow, to_turn: int
    ) -> tuple[list[RoundRow], RoundRow]:
        if campaign.status == "finished":
            raise ServiceError("finished")
        if campaign.status == "setup":
            raise ServiceError("not-started")
        rounds = [r for r in await tx.rounds(campaign.id) if r.status != "void"]
        first_round = self._plugin(campaign).rules.first_round
        target = next((r for r in rounds if r.turn == to_turn and r.kind == first_round), None)
        if target is None:
            turns = sorted({r.turn for r in rounds})
            raise ServiceError(
                "bad-turn",
                turn=to_turn,
                first=turns[0] if turns else 1,
                last=turns[-1] if turns else 1,
            )
        return rounds, target

    async def rollback(
        self, campaign_id: int, by: int, to_turn: int, reason: str, *, roles: Collection[int] = ()
    ) -> RoundInfo:
        """Go back to the start of ``to_turn`` on a new branch; nothing is deleted."""
        if is_blank(reason):  # invisible characters are no reason either
            raise ServiceError("reason-required")
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            rounds, target = await self._rollback_target(tx, campaign, to_turn)
            ctx = self._ctx()
            voided = [r.id for r in rounds if r.id >= target.id]
            live = await tx.live_round(campaign.id)
            for round_id in voided:
                await tx.update_round(round_id, status="void")
                await tx.finish_round_timers(round_id)
            if live is not None and live.id in voided:
                await refresh_round_message(tx, campaign, live.id, ctx.now)
                await refresh_panels(tx, campaign, live.id, ctx.now)
            voided_events = await tx.void_events(campaign.id, voided)
            old_branch = campaign.branch
            start = await tx.snapshot(target.snapshot_before_id)
            assert start is not None
            await tx.update_campaign(
                campaign.id, branch=old_branch + 1, status="active", paused_at=None
            )
            campaign = await self._campaign(tx, campaign_id)
            # The new branch starts with the records its start state has, copied from the
            # start's branch: the abandoned branch's later records stay where they were.
            await tx.copy_history(campaign.id, start.branch, campaign.branch, start.history_len)
            snapshot_id = await tx.insert_snapshot(
                campaign.id,
                campaign.branch,
                start.turn,
                start.round_kind,
                start.state,
                ctx.now,
                history_len=start.history_len,
            )
            await self._event(
                tx,
                campaign,
                "rollback",
                {
                    "by": by,
                    "reason": reason,
                    "to_turn": to_turn,
                    "from_branch": old_branch,
                    "branch": campaign.branch,
                    "void_rounds": voided,
                },
                turn=to_turn,
            )
            await self._audit(
                tx,
                campaign,
                by,
                "rollback",
                reason,
                to_turn=to_turn,
                from_branch=old_branch,
                branch=campaign.branch,
                void_rounds=voided,
                void_events=voided_events,
            )
            await gm_notice(tx, campaign, "rollback", ctx.now, turn=to_turn, reason=reason, by=by)
            rules = self._plugin(campaign).rules
            state = await state_of(tx, rules, snapshot_id, history=False)
            round_id = await open_round(tx, ctx, campaign, state, snapshot_id)
            await refresh_card(tx, campaign, ctx.now)
            row = await tx.round(round_id)
            assert row is not None
            return round_info(row)

    async def end(
        self, campaign_id: int, by: int, reason: str, *, roles: Collection[int] = ()
    ) -> None:
        """End the campaign as it stands (the open round is abandoned); the seed is revealed."""
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            self._require_live(campaign)
            live = await tx.live_round(campaign.id)
            if live is not None:
                await tx.update_round(live.id, status="void")
                await tx.finish_round_timers(live.id)
                # The round message and the DM panels say the round is closed, not open.
                await refresh_round_message(tx, campaign, live.id, self._now())
                await refresh_panels(tx, campaign, live.id, self._now())
            await self._audit(tx, campaign, by, "end", reason)
            assert campaign.snapshot_id is not None
            await finish_campaign(
                tx,
                self._ctx(),
                campaign,
                campaign.snapshot_id,
                reason=plain(reason) or "ended",
                by=by,
            )
