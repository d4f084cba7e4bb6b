"""A Wings campaign as the seam stores it: the engine's campaign (or a Dambuster raid) and
what the mapping onto the seam needs beside it, and which round it stands at."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

import engine.rulesets.wings.dambuster as db
from engine.ruleset import Event
from engine.rulesets.wings.state import CampaignState
from engine.sight import Public, Sealed

Stage = Literal["program", "reorder", "swap", "debrief", "ended", "night"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WingsState(_Model):
    """The engine's campaign state plus what the mapping needs: the seam turn and the
    programs sealed in ``program`` and held until ``reorder`` flies them."""

    scenario: Public[str]
    turn: Public[int] = 1
    campaign: Public[CampaignState | None] = None  # a squadron campaign...
    dam: Public[db.DamState | None] = None  # ...or a Dambuster raid
    held: Sealed[dict[str, str]] = {}  # plane id -> program text, sealed until the turn flies
    # Seam turn -> the mission whose last turn it flew: the turn's closing round posts that
    # mission's report.
    reports: Public[dict[int, int]] = {}
    # The first briefing is played inside ``new`` (see the package note); its public events
    # wait here until the service logs them with the campaign's creation, and go with the
    # first round.
    opening: list[Event] = []
    # Wings rules 13 and before sealed the flak orders, equipment and purchases as digests
    # and kept here what each stood for; a snapshot of those days still holds them. Nothing
    # writes them now: those fields open with the campaign's end instead.
    flak_opened: Sealed[dict[str, str]] = {}
    kit_opened: Sealed[dict[str, str]] = {}
    buy_opened: Sealed[dict[str, str]] = {}
    # Plane id -> the program it was last given, offered again as a quick pick on its own
    # side's panel (``pending``); no view needs it.
    flown: Sealed[dict[str, str]] = {}

    @property
    def camp(self) -> CampaignState:
        assert self.campaign is not None, "a Dambuster raid has no squadron campaign"
        return self.campaign


def stage_of(state: WingsState) -> Stage:
    """The round the campaign waits on, read from the engine's phase and what is held."""
    if state.dam is not None:
        if state.dam.finished:
            return "ended"
        if state.dam.night_pick is not None:
            return "night"
        return "reorder" if state.held else "program"
    campaign = state.camp
    if campaign.phase == "ended":
        return "ended"
    if campaign.phase == "debrief":
        return "debrief"
    assert campaign.mission is not None
    if campaign.mission.round == "swap":
        return "swap"
    if state.held or campaign.mission.round == "reorder":
        return "reorder"
    return "program"
