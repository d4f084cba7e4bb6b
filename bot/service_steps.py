"""Choices built in steps (card 1, 2, 3): a pick at a time, each checked against its step.

A ``steps`` decision (``engine.ruleset``) is drafted as a text is once whole (the ruleset
reads its picks as one text and stores what it reads, sealed or not); until then its picks
are kept in a draft row of their own (``building_key``), read by the side's panel alone, so
a restart keeps a half-built choice and a Lock names it missing. A step changed clears the
steps after it, and the whole choice with them; the same pick again changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.rulesets import Plugin
from bot.service_model import (
    PanelData,
    ServiceError,
    building_key,
    builds_of,
    choices_of,
    steps_token,
    text_refused,
)
from bot.service_panels import steps_draft
from db.repository import CampaignRow, PanelRows, RoundRow, Transaction
from engine.ruleset import Decision, Refusal, join_steps


@dataclass(frozen=True)
class Drafting:
    """A side's panel as a draft finds it, in the campaign's write transaction."""

    rows: PanelRows
    campaign: CampaignRow
    side: str
    live: RoundRow
    plugin: Plugin[Any, Any]
    state: Any
    decisions: dict[str, Decision]

    @property
    def rules(self) -> Any:
        return self.plugin.rules


class StepsMixin:
    async def pick_step(
        self,
        campaign_id: int,
        user_id: int,
        round_id: int,
        field: str,
        step: int,
        value: str,
        *,
        token: str,
        panel_side: str | None = None,
    ) -> PanelData:
        """Pick ``value`` at ``step`` (0 for the first) of the choice ``field`` is built
        of. ``token`` fingerprints the picks before that step as the clicked panel showed
        them (``steps_token``): a select drawn over other picks changes nothing."""
        # A draft: a working note (``Repository.working_transaction``).
        async with self.repo.working_transaction(campaign_id) as tx:  # type: ignore[attr-defined]
            at: Drafting = await self._drafting(  # type: ignore[attr-defined]
                tx, campaign_id, user_id, round_id, panel_side
            )
            decision = _steps_decision(at, field)
            drafts = dict(at.rows.drafts)
            choices = choices_of(drafts)
            picks = steps_draft(at.rules, at.state, decision, choices, builds_of(drafts)).picks
            before = picks[:step]
            if not 0 <= step < decision.steps or step > len(picks):
                raise ServiceError("panel-outdated")
            if steps_token(before) != token:
                raise ServiceError("panel-outdated")
            menu = at.rules.next_step(at.state, decision, before)
            if menu is None:
                raise ServiceError("panel-outdated")  # the choice was whole before this step
            if not menu.allows(value):
                reason = next((e.reason for e in menu.excluded if e.id == value), "unknown-option")
                raise _refused(decision, (*before, value), Refusal(reason))
            if step < len(picks) and picks[step] == value:
                return await self._drafted(tx, at, user_id, drafts)  # a double click
            built = (*before, value)
            now = self._now()  # type: ignore[attr-defined]
            cid, rid, side = at.campaign.id, at.live.id, at.side
            building = building_key(field)
            if at.rules.next_step(at.state, decision, built) is None:
                whole = at.rules.read_text(at.state, decision, join_steps(built))
                if isinstance(whole, Refusal):
                    raise _refused(decision, built, whole)
                await tx.record_draft(cid, rid, side, field, whole, user_id, now)
                drafts[field] = whole
                if drafts.pop(building, None) is not None:
                    await tx.clear_draft(rid, side, building)
            else:
                await tx.record_draft(cid, rid, side, building, join_steps(built), user_id, now)
                drafts[building] = join_steps(built)
                if drafts.pop(field, None) is not None:  # no longer whole
                    await tx.clear_draft(rid, side, field)
            return await self._drafted(tx, at, user_id, drafts)

    async def restart_steps(
        self,
        campaign_id: int,
        user_id: int,
        round_id: int,
        field: str,
        *,
        panel_side: str | None = None,
    ) -> PanelData:
        """Forget every step of ``field``'s choice, whole or not: its selects start again."""
        # A draft: a working note (``Repository.working_transaction``).
        async with self.repo.working_transaction(campaign_id) as tx:  # type: ignore[attr-defined]
            at: Drafting = await self._drafting(  # type: ignore[attr-defined]
                tx, campaign_id, user_id, round_id, panel_side
            )
            _steps_decision(at, field)
            drafts = dict(at.rows.drafts)
            for name in (field, building_key(field)):
                if drafts.pop(name, None) is not None:
                    await tx.clear_draft(at.live.id, at.side, name)
            return await self._drafted(tx, at, user_id, drafts)

    async def _drafted(
        self, tx: Transaction, at: Drafting, user_id: int, drafts: dict[str, str]
    ) -> PanelData:
        # The side's drafts as they now stand, in the stores' byte order, not read back.
        rows = replace(at.rows, drafts=dict(sorted(drafts.items())))
        panel: PanelData = await self._panel(  # type: ignore[attr-defined]
            tx, at.campaign.id, user_id, rows=rows
        )
        return panel


def _steps_decision(at: Drafting, field: str) -> Decision:
    decision = at.decisions.get(field)
    if decision is None or decision.input != "steps":
        raise ServiceError("unknown-field", field=field)
    return decision


def _refused(decision: Decision, picks: tuple[str, ...], why: Refusal) -> ServiceError:
    """A step refused (a forged pick), in the words of a refused text: the picks quoted."""
    return text_refused(decision, join_steps(picks), why)
