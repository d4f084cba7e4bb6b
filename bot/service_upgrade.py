"""Telling a campaign that this release plays newer rules than the ones it began under.

A ruleset's ``version`` changes when a fix alters what a seed and choices produce. A running
campaign then goes on under the new rules (its state is still valid), but its players should
not find out from a ``verify`` refusal weeks later: at start each such campaign gets one
``rules-upgraded`` event in its log and a notice in its channel, once per version.
"""

from __future__ import annotations

from typing import Any

from bot.service_notify import gm_notice
from bot.service_states import state_of
from db.repository import CampaignRow, NewEvent, Transaction

LIVE = ("setup", "active", "paused")


def version_played(created: dict[str, Any] | None, upgrades: list[dict[str, Any]]) -> str:
    """The rules version a campaign now runs under, from its creation and upgrade events."""
    if upgrades:
        return str(upgrades[-1].get("new", ""))
    # Campaigns created before versions were recorded played version 1.
    return str((created or {}).get("rules_version", "1"))


class UpgradeMixin:
    async def announce_rule_upgrades(self) -> int:
        """One log event and channel notice per live campaign behind this release's rules."""
        told = 0
        async with self.repo.read() as tx:  # type: ignore[attr-defined]
            live = [c.id for c in await tx.campaigns(LIVE)]
        for campaign_id in live:
            # One write transaction per campaign: the check and the event are atomic, so
            # two processes starting together tell a campaign once.
            async with self.repo.transaction() as tx:  # type: ignore[attr-defined]
                campaign = await tx.campaign(campaign_id)
                if campaign is not None and campaign.status in LIVE:
                    told += await self._upgrade_one(tx, campaign)
        return told

    async def _upgrade_one(self, tx: Transaction, campaign: CampaignRow) -> int:
        rules = self._plugin(campaign).rules  # type: ignore[attr-defined]
        first = await tx.events(campaign.id, limit=1)
        created = first[0].data if first and first[0].kind == "campaign-created" else None
        if created is not None and str(created.get("rules_version", "1")) == rules.version:
            return 0  # the common case, answered from one row
        upgrades = [
            e.data
            for e in await tx.events(campaign.id)
            if e.kind == "rules-upgraded" and not e.void
        ]
        played = version_played(created, upgrades)
        if played == rules.version:
            return 0
        turn = 1
        if campaign.snapshot_id:
            turn = rules.progress(
                await state_of(tx, rules, campaign.snapshot_id, history=False)
            ).turn
        now = self._now()  # type: ignore[attr-defined]
        data = {"ruleset": campaign.ruleset, "old": played, "new": rules.version}
        await tx.append_events(
            campaign.id, None, campaign.branch, [NewEvent("rules-upgraded", turn, data)], now
        )
        await gm_notice(
            tx, campaign, "rules-upgraded", now, old=played, new=rules.version, turn=turn
        )
        return 1
