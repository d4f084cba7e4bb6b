"""The turn service: every change to a campaign goes through ``CampaignService``.

Belongs here: set-up, players and the secret orders (draft, lock, unlock), plus ``tick``;
each public method is one transaction that re-reads and re-checks what it needs before
writing. Refusals raise ``ServiceError`` and change nothing. The class is assembled from
``bot.service_core`` (shared checks), ``bot.service_gm`` (moderation) and
``bot.service_queries`` (read-only questions); the round machinery is in
``bot.service_rounds`` (locks, defaults), ``bot.service_resolve`` (opening, resolution) and
``bot.service_reveal`` (what a reveal shows), parsed states in ``bot.service_states``, the
data shapes in ``bot.service_model``.

Exactly once: a lock-in that completes the round marks it ``resolving`` in the lock's own
transaction, and the resolution is a second transaction that only proceeds while the round
is still ``resolving``. A crash between the two leaves a ``resolving`` round that the next
``tick()`` (or ``recover()`` at start) resolves; a second caller finds it ``resolved``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from bot import drawing, secrecy
from bot import switches as switches_of
from bot.dice import DICE_ROLLED, MAX_DICE, free_roll_stream
from bot.i18n import SUPPORTED, t
from bot.limits import MAX_REMINDERS, TEXT_INPUT_LIMIT
from bot.rulesets import Plugin
from bot.scheduler import run_due
from bot.service_core import parse_side, round_info
from bot.service_gm import ModerationMixin
from bot.service_model import (
    ADMIN_ROLE,
    MAX_ROUND_SECONDS,
    MIN_ROUND_SECONDS,
    MISSING_POLICIES,
    CampaignInfo,
    LockResult,
    Pace,
    PanelData,
    PlayerInfo,
    RoundInfo,
    ServiceError,
    TickResult,
    building_key,
    choices_of,
    drafts_version,
    idle_lock,
    text_refused,
)
from bot.service_notify import refresh_card, refresh_round_message
from bot.service_panels import side_decisions
from bot.service_plan import start_resolution
from bot.service_queries import QueryMixin
from bot.service_resolve import open_round
from bot.service_rounds import lock_side
from bot.service_settings import SettingsMixin
from bot.service_states import load_state, state_of, store_state
from bot.service_steps import Drafting, StepsMixin
from bot.service_upgrade import UpgradeMixin
from db.repository import (
    CampaignRow,
    ConstraintError,
    NewCampaign,
    NewEvent,
    PanelRows,
    PlayerRow,
    Transaction,
)
from engine.rng import seed_commitment
from engine.ruleset import Decision, Refusal

log = logging.getLogger(__name__)


class CampaignService(ModerationMixin, SettingsMixin, QueryMixin, UpgradeMixin, StepsMixin):
    """Campaign set-up, secret orders, resolution and moderation, safe across restarts."""

    async def set_gm_role(self, guild_id: int, role_id: int | None, *, by: int = 0) -> None:
        async with self.repo.transaction() as tx:
            await tx.set_gm_role(guild_id, role_id, self._now())
            await tx.add_audit(
                None, guild_id, by, "set-gm-role", "", {"role_id": role_id}, self._now()
            )

    async def create_campaign(
        self,
        guild_id: int,
        channel_id: int,
        gm_id: int,
        scenario: str,
        pace: Pace | None = None,
        seed: str | None = None,
        *,
        ruleset: str | None = None,
        locale: str | None = None,
        switches: Mapping[str, str] | None = None,
    ) -> CampaignInfo:
        pace = pace or Pace()
        ruleset = ruleset or self.rulesets.default
        if ruleset not in self.rulesets:
            raise ServiceError(
                "unknown-ruleset", ruleset=ruleset, known=", ".join(self.rulesets.keys())
            )
        rules = self.rulesets.get(ruleset).rules
        if scenario not in rules.scenarios():
            raise ServiceError(
                "unknown-scenario",
                scenario=scenario,
                known=", ".join(sorted(rules.scenarios())),
            )
        chosen = switches_of.checked(rules, scenario, switches or {})
        if not MIN_ROUND_SECONDS <= pace.round_seconds <= MAX_ROUND_SECONDS:
            raise ServiceError(
                "bad-pace", min=MIN_ROUND_SECONDS // 60, max=MAX_ROUND_SECONDS // 86400
            )
        if any(o <= 0 or o >= pace.round_seconds for o in pace.reminder_offsets):
            raise ServiceError("bad-reminders")
        if len(pace.reminder_offsets) > MAX_REMINDERS:  # each one DMs every side every round
            raise ServiceError("too-many-reminders", max=MAX_REMINDERS)
        if pace.missing_policy not in MISSING_POLICIES:
            raise ServiceError("bad-policy", policy=pace.missing_policy)
        seed = seed if seed is not None else self._seeds.token_hex(16)
        state = switches_of.begin(rules, scenario, seed, chosen)
        progress = rules.progress(state)
        now = self._now()
        try:
            async with self.repo.transaction() as tx:
                if await tx.live_campaign_in_channel(channel_id) is not None:
                    raise ServiceError("channel-busy")
                campaign_id = await tx.insert_campaign(
                    NewCampaign(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        gm_id=gm_id,
                        ruleset=ruleset,
                        scenario=scenario,
                        locale=locale or self.default_locale,
                        seed=seed,
                        seed_commitment=seed_commitment(seed),
                        round_seconds=pace.round_seconds,
                        reminder_offsets=tuple(pace.reminder_offsets),
                        missing_policy=pace.missing_policy,
                        gm_sees_secrets=pace.gm_sees_secrets,
                        allow_unlock=pace.allow_unlock,
                        created_at=now,
                    )
                )
                campaign = await self._campaign(tx, campaign_id)
                snapshot_id = await store_state(tx, rules, campaign, state, now)
                await tx.update_campaign(campaign_id, snapshot_id=snapshot_id)
                campaign = await self._campaign(tx, campaign_id)
                await self._event(
                    tx,
                    campaign,
                    "campaign-created",
                    {
                        "scenario": scenario,
                        "ruleset": ruleset,
                        "rules_version": rules.version,
                        "gm": gm_id,
                        "seed_commitment": campaign.seed_commitment,
                        # The GM's switches (bot.switches): verify replays the start with them.
                        **({"switches": chosen} if chosen else {}),
                    },
                    turn=progress.turn,
                )
                # What setting the table drew (a first briefing's weather, say) is logged
                # as the engine's, with no round: verify replays it from ``new``.
                opening = [
                    NewEvent(e.kind, e.turn, e.data, source="engine")
                    for e in secrecy.published(rules, rules.opening(state))
                ]
                if opening:
                    await tx.append_events(campaign_id, None, campaign.branch, opening, now)
                await self._audit(tx, campaign, gm_id, "create", "", scenario=scenario)
                await refresh_card(tx, campaign, now)
                return await self._info(tx, campaign)
        except ConstraintError as exc:
            # The partial unique index caught a race the check above could not see.
            raise ServiceError("channel-busy") from exc

    async def join(self, campaign_id: int, user_id: int, side: str) -> PlayerInfo:
        """A player joins a side before the start; the first on a side is its commander.

        Once the campaign has started, or for someone who was removed, a seat is the GM's to
        give (``add_player``): a stranger joining mid-round would otherwise read a side's
        orders in progress.
        """
        async with self.repo.transaction() as tx:
            campaign = await self._campaign(tx, campaign_id)
            side = parse_side(self._plugin(campaign), side)
            self._require_live(campaign)
            existing = await tx.player(campaign.id, user_id)
            seated = existing is not None and existing.left_at is None
            if not seated and (campaign.status != "setup" or existing is not None):
                raise ServiceError("join-needs-gm")
            return await self._add(tx, campaign, user_id, side, by=user_id, reason="")

    async def side_check(self, campaign_id: int, value: str, locale: str) -> str:
        """The side ``value`` names in the campaign, in the reader's words, or a refusal:
        checked before a question echoes it (a typed side may be 6,000 characters)."""
        async with self.repo.read() as tx:
            campaign = await self._campaign(tx, campaign_id)
        side = parse_side(self._plugin(campaign), value)
        return t(f"service.side.{side}", locale)

    async def add_player(
        self,
        campaign_id: int,
        by: int,
        user_id: int,
        side: str,
        *,
        roles: Collection[int] = (),
        reason: str = "",
    ) -> PlayerInfo:
        """The GM seats a player (at any time, a removed one included); audited."""
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            side = parse_side(self._plugin(campaign), side)
            self._require_other_gm(campaign, by, user_id)
            return await self._add(tx, campaign, user_id, side, by=by, reason=reason)

    async def may_create(self, guild_id: int, roles: Collection[int], manager: bool) -> bool:
        """Whether this member may create campaigns on the server (its ``creators`` setting).

        ``gm`` (the default): members with Manage Server, administrators and the GM role.
        ``everyone``: any member.
        """
        async with self.repo.read() as tx:
            if await tx.creators(guild_id) == "everyone":
                return True
            role = await tx.gm_role(guild_id)
        return manager or ADMIN_ROLE in roles or (role is not None and role in roles)

    async def set_creators(self, guild_id: int, who: str, *, by: int = 0) -> None:
        if who not in ("gm", "everyone"):
            raise ServiceError("bad-value", value=who)
        async with self.repo.transaction() as tx:
            await tx.set_creators(guild_id, who, self._now())
            await tx.add_audit(None, guild_id, by, "set-creators", "", {"who": who}, self._now())

    async def _add(
        self,
        tx: Transaction,
        campaign: CampaignRow,
        user_id: int,
        side: str,
        *,
        by: int,
        reason: str,
    ) -> PlayerInfo:
        self._require_live(campaign)
        now = self._now()
        existing = await tx.player(campaign.id, user_id)
        if existing is not None and existing.left_at is None:
            if existing.side == side:
                return self._player_info(existing)  # joining twice is harmless
            raise ServiceError("already-joined", side=existing.side)
        players = await tx.players(campaign.id)
        commander = not any(p.commander and p.side == side for p in players)
        row = PlayerRow(
            campaign_id=campaign.id,
            user_id=user_id,
            side=side,
            commander=commander,
            dm_ok=existing.dm_ok if existing is not None else True,
            joined_at=now,
            last_active=now,
            left_at=None,
        )
        await tx.upsert_player(row)
        await self._event(
            tx,
            campaign,
            "player-joined",
            {"user": user_id, "side": side, "commander": commander},
        )
        if by != user_id:
            await self._audit(tx, campaign, by, "add-player", reason, user=user_id, side=side)
        await refresh_card(tx, campaign, now)
        if commander:
            await self._panel_if_open(tx, campaign, user_id, side)
        return self._player_info(row)

    async def mark_dm(self, campaign_id: int, user_id: int, ok: bool) -> None:
        """Record whether the bot can DM this player (the outbox calls it on a closed DM)."""
        async with self.repo.transaction() as tx:
            if await tx.player(campaign_id, user_id) is not None:
                await tx.update_player(campaign_id, user_id, dm_ok=ok)

    async def roll(self, campaign_id: int, user_id: int, count: int) -> dict[str, Any]:
        """Roll ``count`` of the game's own dice for what is played at the table (``/roll``)
        and log them. Anyone may ask; the dice come from the campaign's seed, drawn from a
        stream named by the log's length at that moment, so verify replays every roll."""
        if not 1 <= count <= MAX_DICE:
            raise ServiceError("dice-count", most=MAX_DICE)
        async with self.repo.transaction() as tx:
            campaign = await self._campaign(tx, campaign_id)
            self._require_live(campaign)
            rules = self._plugin(campaign).rules
            turn = (
                rules.progress(await state_of(tx, rules, campaign.snapshot_id)).turn
                if campaign.snapshot_id
                else 1
            )
            index = await tx.count_events(campaign.id)
            faces = rules.roll_dice(count, free_roll_stream(campaign.seed, turn, index))
            if faces is None:
                raise ServiceError("no-dice")
            data = {"by": user_id, "count": count, "faces": list(faces), "index": index}
            await self._event(tx, campaign, DICE_ROLLED, data, turn=turn)
            return data

    async def start(self, campaign_id: int, by: int, *, roles: Collection[int] = ()) -> RoundInfo:
        """Open turn 1's orders round; every side needs a commander."""
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            if campaign.status != "setup":
                raise ServiceError("already-started")
            present = await self._commanders(tx, campaign.id)
            rules = self._plugin(campaign).rules
            for side in rules.side_ids:
                if side not in present:
                    raise ServiceError("no-commander", side=side)
            ctx = self._ctx()
            await tx.update_campaign(campaign.id, status="active", started_at=ctx.now)
            campaign = await self._campaign(tx, campaign_id)
            state = await state_of(tx, rules, campaign.snapshot_id, history=False)
            assert campaign.snapshot_id is not None
            turn = rules.progress(state).turn
            await self._event(tx, campaign, "campaign-started", {"by": by}, turn=turn)
            round_id = await open_round(tx, ctx, campaign, state, campaign.snapshot_id)
            await refresh_card(tx, campaign, ctx.now)
            row = await tx.round(round_id)
            assert row is not None
        if self.draws_ahead and drawing.in_workers():
            self._prepare(campaign)  # the first round's pictures, drawn ahead as later ones'
        return round_info(row)

    async def panel(self, campaign_id: int, user_id: int) -> PanelData:
        """The order panel of the player's side for the current round.

        Its rows are read in one statement (``panel_rows``); anything more it may read is a
        snapshot or history, which never change once written, so a glance will do.
        """
        async with self.repo.glance() as tx:
            return await self._panel(tx, campaign_id, user_id)

    async def draft(
        self, campaign_id: int, user_id: int, round_id: int, field: str, value: str
    ) -> PanelData:
        """Record one field of the side's choice, if it is legal right now: an option of a
        menu, or a text the ruleset reads (a quick pick is one such text)."""
        panel, refused = await self.write(campaign_id, user_id, round_id, {field: value})
        if refused:
            raise refused[field]
        return panel

    async def write(
        self,
        campaign_id: int,
        user_id: int,
        round_id: int,
        texts: Mapping[str, str],
        *,
        panel_side: str | None = None,
    ) -> tuple[PanelData, dict[str, ServiceError]]:
        """Record several fields at once (a modal's text inputs): each one the ruleset
        accepts is drafted, as the value it reads; each one it refuses changes nothing and
        comes back with its refusal. A refusal of the whole (a round over, a side locked)
        is raised, and then nothing is drafted. ``panel_side``: the side whose panel the
        modal came from; a player of another side is refused before anything is read."""
        # Drafts are working notes: a power cut may take back the last of them, never a Lock
        # (``Repository.working_transaction``).
        async with self.repo.working_transaction(campaign_id) as tx:
            at = await self._drafting(tx, campaign_id, user_id, round_id, panel_side)
            campaign, side, live, plugin, rules, state, rows = (
                at.campaign, at.side, at.live, at.plugin, at.rules, at.state, at.rows
            )  # fmt: skip
            decisions = at.decisions
            if len(texts) == 1 and next(iter(texts)) not in decisions:
                raise ServiceError("unknown-field", field=next(iter(texts)))
            now = self._now()
            drafts = dict(rows.drafts)
            refused: dict[str, ServiceError] = {}
            for field, text in texts.items():
                decision = decisions.get(field)
                if decision is None:
                    refused[field] = ServiceError("unknown-field", field=field)
                    continue
                value = read_value(rules, state, decision, text)
                if isinstance(value, Refusal):
                    refused[field] = _refusal(plugin, campaign.scenario, decision, text, value)
                    continue
                if drafts.get(field) == value and building_key(field) not in drafts:
                    continue  # the same again (a double submit): nothing to write
                await tx.record_draft(campaign.id, live.id, side, field, value, user_id, now)
                drafts[field] = value
                if building_key(field) in drafts:  # written whole: its steps give way
                    await tx.clear_draft(live.id, side, building_key(field))
                    del drafts[building_key(field)]
            # The side's drafts as they now stand, without reading them back (byte order,
            # as the stores sort them: code point order is UTF-8's byte order).
            drafts = dict(sorted(drafts.items()))
            panel = await self._panel(tx, campaign_id, user_id, rows=replace(rows, drafts=drafts))
            return panel, refused

    async def _drafting(
        self,
        tx: Transaction,
        campaign_id: int,
        user_id: int,
        round_id: int,
        panel_side: str | None,
    ) -> Drafting:
        """What drafting on a panel needs, in the campaign's write transaction, or the
        refusal of the whole (a round over, a side locked, another side's panel)."""
        self._real_id(campaign_id)
        # The campaign's writer lock is held: these rows stay as read until we write.
        rows = await tx.panel_rows(campaign_id, user_id)
        campaign, player = self._seated(rows, campaign_id)
        side = player.side
        if panel_side is not None and not secrecy.may_read_drafts(
            secrecy.Viewer.player(side), panel_side
        ):
            raise ServiceError("wrong-side", panel_side=panel_side, side=side)
        self._require_playing(campaign)
        live = self._open_round(rows.live, round_id)
        self._require_seated_before(player, live)
        if side in rows.locks:
            raise ServiceError("already-locked")
        if rows.snapshot is None:
            raise RuntimeError(f"snapshot {live.snapshot_before_id} is missing")
        plugin = self._plugin(campaign)
        state = await load_state(tx, plugin.rules, rows.snapshot, history=False)
        decisions = {d.field: d for d in side_decisions(plugin.rules, state, side)}
        return Drafting(rows, campaign, side, live, plugin, state, decisions)

    async def lock(
        self,
        campaign_id: int,
        user_id: int,
        round_id: int,
        *,
        version: str | None = None,
        panel_side: str | None = None,
    ) -> LockResult:
        """Commit the side's drafted choice; the last side to lock triggers the resolution.

        ``version`` is the fingerprint of the drafts the commander's panel showed: if a
        teammate changed them since, nothing is locked (the panel is redrawn instead).
        ``panel_side``: the side whose panel was clicked; a player of another side (a
        forwarded panel, a forged id) is refused before anything is read or locked.
        The result carries the locker's panel as the lock left it, built in the same
        transaction: the caller shows it without reading again.
        """
        self._real_id(campaign_id)
        async with self.repo.transaction(campaign_id) as tx:
            # Every row the Lock reads before it writes, at once (the campaign's writer lock
            # is held: they stay as read until it writes).
            rows = await tx.panel_rows(campaign_id, user_id)
            campaign, player = self._seated(rows, campaign_id)
            live = rows.live
            side = player.side
            if panel_side is not None and not secrecy.may_read_drafts(
                secrecy.Viewer.player(side), panel_side
            ):
                raise ServiceError("wrong-side", panel_side=panel_side, side=side)
            standing = rows.locks if live and live.id == round_id else {}
            if side in standing and not standing[side].defaulted:
                # A double click: the same receipt, nothing new.
                return LockResult(
                    round_id,
                    side,
                    standing[side].receipt,
                    resolved=False,
                    already_locked=True,
                    panel=await self._panel(tx, campaign_id, user_id, rows=rows),
                )
            self._require_playing(campaign)
            live = self._open_round(live, round_id)
            if not player.commander:
                raise ServiceError("not-commander")
            rules = self._plugin(campaign).rules
            snapshot = rows.snapshot
            if snapshot is None:
                raise RuntimeError(f"snapshot {live.snapshot_before_id} is missing")
            state = await load_state(tx, rules, snapshot, history=False)
            decisions = side_decisions(rules, state, side)
            # A choice still being built in steps is not drafted: Lock names it missing.
            raw = rows.drafts
            drafts = choices_of(raw)
            if version is not None and version != drafts_version(drafts):
                raise ServiceError("panel-outdated")
            missing = [d.field for d in decisions if d.field not in drafts]
            if missing:
                labels = {d.field: d.label for d in decisions if d.field in missing and d.label}
                raise ServiceError(
                    "incomplete", fields=", ".join(missing), missing=missing, labels=labels
                )
            for decision in decisions:
                refusal = rules.accept(state, decision, drafts[decision.field])
                if refusal is not None:
                    # A draft the rules no longer take (the panel was older than a change
                    # of rules): refused by name, nothing locked.
                    raise _illegal(
                        self._plugin(campaign),
                        campaign.scenario,
                        decision.field,
                        drafts[decision.field],
                        "unknown-option",
                    )
            choice: dict[str, str] = {d.field: drafts[d.field] for d in decisions}
            whole = rules.check_choice(state, side, choice)
            if whole is not None:
                # Fields fine one by one that the rules refuse together: nothing locked.
                raise ServiceError(
                    "refused-choice", reason=whole.reason, reason_params=dict(whole.params)
                )
            ctx = self._ctx()
            receipt = await lock_side(tx, ctx, campaign, live, side, choice, by_user=user_id)
            await tx.update_player(campaign.id, user_id, last_active=ctx.now)
            await refresh_round_message(tx, campaign, live.id, ctx.now)
            locks = await tx.standing_locks(live.id)
            complete = len(locks) == len(rules.side_ids)
            if complete:
                await tx.update_round(live.id, status="resolving")
                live = dataclasses.replace(live, status="resolving")
            # The panel as the lock leaves it, from the rows just read: the drafts are
            # unchanged by locking.
            rows = PanelRows(campaign, player, live, snapshot, dict(locks), dict(raw))
            panel = await self._panel(tx, campaign_id, user_id, rows=rows)
            # Last in the transaction: the engine's job goes to a worker now and runs while
            # the Lock's COMMIT waits for the disk (a resolving Lock's answer waited for
            # both, one after the other).
            started = (
                start_resolution(tx, ctx, campaign, live, snapshot, locks) if complete else None
            )
        resolved = await self._resolve(round_id, started) if complete else False
        if resolved:
            panel = dataclasses.replace(panel, status="resolved", can_unlock=False)
        return LockResult(round_id, side, receipt, resolved=resolved, panel=panel)

    async def unlock(self, campaign_id: int, user_id: int, round_id: int) -> PanelData:
        """Withdraw the side's lock before the deadline, if the campaign allows it."""
        # The campaign's writer lock (as Lock's): it writes that campaign's rows only.
        async with self.repo.transaction(campaign_id) as tx:
            campaign = await self._campaign(tx, campaign_id)
            player = await self._member(tx, campaign, user_id)
            self._require_playing(campaign)
            live = await self._open_round_for(tx, campaign, round_id)
            if not campaign.allow_unlock:
                raise ServiceError("unlock-not-allowed")
            if not player.commander:
                raise ServiceError("not-commander")
            side = player.side
            locks = await tx.standing_locks(live.id)
            if side not in locks:
                raise ServiceError("not-locked")
            if idle_lock(locks[side]):
                # The round locked this side itself: it asks it nothing, and unlocking would
                # only hold the round up until the deadline locks it again.
                raise ServiceError("nothing-to-unlock")
            now = self._now()
            await tx.withdraw_lock(live.id, side, now)
            await tx.append_events(
                campaign.id,
                live.id,
                live.branch,
                [NewEvent("side-unlocked", live.turn, {"side": side})],
                now,
            )
            await tx.update_player(campaign.id, user_id, last_active=now)
            await refresh_round_message(tx, campaign, live.id, now)
            return await self._panel(tx, campaign_id, user_id)

    async def tick(self) -> TickResult:
        """Fire every reminder and deadline due at ``clock.now()``; retry stuck resolutions."""
        return await run_due(self)

    async def recover(self) -> TickResult:
        """At start: a tick (timers are rows; nothing to re-arm in memory) that also retries
        every stuck resolution at once, after telling campaigns begun under older rules."""
        await self.announce_rule_upgrades()
        return await run_due(self, retry_all=True)


def read_value(rules: Any, state: Any, decision: Decision, text: str) -> str | Refusal:
    """The value a draft of ``decision`` stores for what was picked or typed: a text (or a
    choice built in steps) as the ruleset reads it, a menu's or a confirm's option as it
    is."""
    if decision.written:
        if len(text) > TEXT_INPUT_LIMIT:
            return Refusal("text-too-long", {"limit": TEXT_INPUT_LIMIT})
        return rules.read_text(state, decision, text)  # type: ignore[no-any-return]
    refusal = rules.accept(state, decision, text)
    return text if refusal is None else refusal


def _refusal(
    plugin: Plugin[Any, Any], scenario: str, decision: Decision, text: str, refusal: Refusal
) -> ServiceError:
    """A refused draft in words: a menu's option by its name (``_illegal``), a typed text
    quoted back with the ruleset's reason and the unit it was written for."""
    if not decision.written:
        return _illegal(plugin, scenario, decision.field, text, refusal.reason)
    return text_refused(decision, text, refusal)


def _illegal(
    plugin: Plugin[Any, Any], scenario: str, field: str, value: str, reason: str
) -> ServiceError:
    """The refusal of an option that may not be picked now (a forged or stale menu), naming
    it as the panel does in each language ("Long Range", "Longue Distance"), not by its id;
    a value no option has (forged) is quoted back as it came."""
    names = {lang: plugin.presenter.option_text(scenario, field, value, lang) for lang in SUPPORTED}
    return ServiceError("illegal-option", reason=reason, field=field, value=value, names=names)
