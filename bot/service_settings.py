"""The GM changes a running campaign's settings, with a reason kept in the audit and the log.

What may change is what does not touch the game's secrets or its outcome: the time per
round, the reminders, what a missing side gets at the deadline, the campaign's language and
whether a commander may unlock. Whether the GM sees locked orders is agreed when players
join, so it stays as the campaign was created.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot import secrecy
from bot import switches as gm_switches
from bot.i18n import SUPPORTED
from bot.limits import MAX_REMINDERS
from bot.service_core import ServiceCore
from bot.service_model import (
    MAX_ROUND_SECONDS,
    MIN_ROUND_SECONDS,
    MISSING_POLICIES,
    ServiceError,
)
from bot.service_notify import refresh_card
from bot.service_states import store_state
from db.repository import CampaignRow, NewEvent, Transaction


@dataclass(frozen=True)
class SettingsChange:
    """The settings a GM asked for; ``None`` leaves a setting as it is."""

    round_seconds: int | None = None
    reminder_offsets: tuple[int, ...] | None = None
    missing_policy: str | None = None
    locale: str | None = None
    allow_unlock: bool | None = None
    switches: str | None = None  # the GM's text, as on /campaign new; before the start only

    def params(self) -> dict[str, Any]:
        """As JSON for a GM request waiting for its Confirm."""
        return {
            "round_seconds": self.round_seconds,
            "reminder_offsets": (
                list(self.reminder_offsets) if self.reminder_offsets is not None else None
            ),
            "missing_policy": self.missing_policy,
            "locale": self.locale,
            "allow_unlock": self.allow_unlock,
            "switches": self.switches,
        }

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> SettingsChange:
        offsets = params.get("reminder_offsets")
        unlock = params.get("allow_unlock")
        seconds = params.get("round_seconds")
        return cls(
            round_seconds=int(seconds) if seconds is not None else None,
            reminder_offsets=tuple(int(o) for o in offsets) if offsets is not None else None,
            missing_policy=params.get("missing_policy"),
            locale=params.get("locale"),
            allow_unlock=bool(unlock) if unlock is not None else None,
            switches=params.get("switches"),
        )


def setting_changes(campaign: CampaignRow, change: SettingsChange) -> list[tuple[str, Any, Any]]:
    """Each setting that would really change, as (option, old, new) in the setting's own
    values (seconds, a policy, a language code, a flag): ``bot.logtext.settings_changes_text``
    words them in the reader's language.

    Refuses, changing nothing, a value the campaign could not run with.
    """
    seconds = change.round_seconds or campaign.round_seconds
    offsets = (
        change.reminder_offsets
        if change.reminder_offsets is not None
        else campaign.reminder_offsets
    )
    if not MIN_ROUND_SECONDS <= seconds <= MAX_ROUND_SECONDS:
        raise ServiceError("bad-pace", min=MIN_ROUND_SECONDS // 60, max=MAX_ROUND_SECONDS // 86400)
    if any(o <= 0 or o >= seconds for o in offsets):
        raise ServiceError("bad-reminders")
    if len(offsets) > MAX_REMINDERS:
        raise ServiceError("too-many-reminders", max=MAX_REMINDERS)
    if change.missing_policy is not None and change.missing_policy not in MISSING_POLICIES:
        raise ServiceError("bad-policy", policy=change.missing_policy)
    if change.locale is not None and change.locale not in SUPPORTED:
        raise ServiceError(
            "bad-locale",
            value=change.locale,
            known=", ".join(SUPPORTED),
        )
    changed: list[tuple[str, Any, Any]] = []
    if change.round_seconds is not None and change.round_seconds != campaign.round_seconds:
        changed.append(("deadline", campaign.round_seconds, seconds))
    if change.reminder_offsets is not None and offsets != campaign.reminder_offsets:
        changed.append(("reminders", list(campaign.reminder_offsets), list(offsets)))
    policy = change.missing_policy
    if policy is not None and policy != campaign.missing_policy:
        changed.append(("missing", campaign.missing_policy, policy))
    if change.locale is not None and change.locale != campaign.locale:
        changed.append(("language", campaign.locale, change.locale))
    unlock = change.allow_unlock
    if unlock is not None and unlock != campaign.allow_unlock:
        changed.append(("allow_unlock", campaign.allow_unlock, unlock))
    return changed


class SettingsMixin(ServiceCore):
    """``/campaign settings``: checked before the GM is asked, applied on Confirm."""

    async def settings_check(
        self,
        campaign_id: int,
        by: int,
        change: SettingsChange,
        *,
        roles: Collection[int] = (),
    ) -> list[tuple[str, Any, Any]]:
        """What the change would do, or the refusal it would meet; nothing is written."""
        async with self.repo.read() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            changed, _switched = await self._changes_or_refuse(tx, campaign, change)
            return changed

    async def _changes_or_refuse(
        self, tx: Transaction, campaign: CampaignRow, change: SettingsChange
    ) -> tuple[list[tuple[str, Any, Any]], dict[str, str] | None]:
        """The changes, and the campaign's new switches when they change (else None)."""
        if campaign.status == "finished":
            raise ServiceError("finished")
        changed = setting_changes(campaign, change)
        switched = None
        if change.switches is not None:
            # Seed K.1's switches shape the table drawn at creation: once the players have
            # seen it and the first turn is open, changing them would deal another game.
            if campaign.status != "setup":
                raise ServiceError("switches-started")
            rules = self._plugin(campaign).rules
            old = await gm_switches.created_switches(tx, campaign.id)
            new = gm_switches.changed_set(rules, campaign.scenario, old, change.switches)
            if new != old:
                changed.append(("switches", gm_switches.as_text(old), gm_switches.as_text(new)))
                switched = new
        if not changed:
            raise ServiceError("settings-unchanged")
        return changed, switched

    async def change_settings(
        self,
        campaign_id: int,
        by: int,
        change: SettingsChange,
        reason: str,
        *,
        roles: Collection[int] = (),
    ) -> list[tuple[str, Any, Any]]:
        """Apply the change and say what changed (time per round and reminders: next round on).

        The open round keeps the deadline its players were given (``/campaign extend``
        moves that one); the missing-orders policy applies at that deadline already.
        """
        if not reason.strip():
            raise ServiceError("no-reason")
        async with self.repo.transaction() as tx:
            campaign = await self._gm_campaign(tx, campaign_id, by, roles)
            changed, switched = await self._changes_or_refuse(tx, campaign, change)
            fields: dict[str, Any] = {}
            if change.round_seconds is not None:
                fields["round_seconds"] = change.round_seconds
            if change.reminder_offsets is not None:
                fields["reminder_offsets"] = tuple(change.reminder_offsets)
            if change.missing_policy is not None:
                fields["missing_policy"] = change.missing_policy
            if change.locale is not None:
                fields["locale"] = change.locale
            if change.allow_unlock is not None:
                fields["allow_unlock"] = change.allow_unlock
            if fields:
                await tx.update_campaign(campaign.id, **fields)
            # The values, not words: the log words them in each reader's language.
            summary = [[name, old, new] for name, old, new in changed]
            logged: dict[str, Any] = {"by": by, "changes": summary, "reason": reason}
            if switched is not None:
                logged[gm_switches.SWITCHES] = switched  # verify replays the start with them
            await self._event(tx, campaign, gm_switches.CHANGED, logged)
            if switched is not None:
                await self._draw_again(tx, campaign, switched)
            await self._audit(
                tx,
                campaign,
                by,
                "settings",
                reason,
                changes={name: {"from": old, "to": new} for name, old, new in changed},
            )
            updated = await self._campaign(tx, campaign.id)
            await refresh_card(tx, updated, self._now())
            return changed

    async def _draw_again(
        self, tx: Transaction, campaign: CampaignRow, switched: dict[str, str]
    ) -> None:
        """The campaign's first state drawn again from its seed with the new switches, as
        ``create_campaign`` drew it, and what that drew logged after the change."""
        rules = self._plugin(campaign).rules
        now = self._now()
        state = gm_switches.begin(rules, campaign.scenario, campaign.seed, switched)
        snapshot_id = await store_state(tx, rules, campaign, state, now)
        await tx.update_campaign(campaign.id, snapshot_id=snapshot_id)
        opening = [
            NewEvent(e.kind, e.turn, e.data, source="engine")
            for e in secrecy.published(rules, rules.opening(state))
        ]
        if opening:
            await tx.append_events(campaign.id, None, campaign.branch, opening, now)
