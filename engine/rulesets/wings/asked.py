"""What a Wings round asks each side, on the seam: every plane's program (or what stands
for it: a come-back, a reinforcement, the sun, a standing order), the flak gunner's and the
winch's orders, a pursuer's reorder, an Ace's last card, and the debrief's choices.

Wings names its fields after planes and pilots ("P3", "skill:P3"); on the seam a plane's
is ``program:<its id>``, a pilot's debrief field keeps the engine's name and the label
names him, ``purchase`` is one field a side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine.rulesets.wings.behaviours as behaviours
import engine.rulesets.wings.campaign as wings
import engine.rulesets.wings.card_by_card as card_by_card
import engine.rulesets.wings.dam as dam_rules
import engine.rulesets.wings.flak_fields as flak_rules
import engine.rulesets.wings.purchase as purchase
import engine.rulesets.wings.winch as winch
from engine.ruleset import Decision, Excluded, Option, unit_field
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.picks import Seal, quick_picks, refusals, stored_option
from engine.rulesets.wings.reinforce import reinforce_decision
from engine.rulesets.wings.rounds import (
    EXIT_WORDS,
    NOTHING,
    ORDER_WORDS,
    PROGRAM_FIELD,
    PURCHASE_FIELD,
    SEQUENCE_MARK,
    SUN_WORDS,
    SWAP_WORDS,
    WINCH_FIELD,
    WINCH_WORDS,
)
from engine.rulesets.wings.state import CampaignState, MissionState, PlaneState
from engine.rulesets.wings.stored import WingsState, stage_of


def seam_field(decision: Any) -> str:
    """A flying round's engine field -> its seam field: a plane's decision (its program,
    or what stands for it: a come-back, a reinforcement, the sun) is ``program:<id>``; a
    standing order keeps the engine's ``order:<id>``."""
    if decision.field.startswith(behaviours.ORDER_PREFIX):
        return str(decision.field)
    return unit_field(PROGRAM_FIELD, decision.field)


def _excluded(d: Any) -> tuple[Excluded, ...]:
    return tuple(Excluded(id=e.id, label=e.label, reason=e.reason) for e in d.excluded)


def _worded(d: Any, field: str, detail: Callable[[Any], str], label: str = "") -> Decision:
    """An engine choice whose every option's detail names a locale key's tail, for the
    presenter to word."""
    options = tuple(Option(id=o.id, label=o.label, detail=detail(o)) for o in d.options)
    return Decision(side=d.side, field=field, options=options, default=d.default, label=label)


def plane_label(catalog: Catalog, campaign: CampaignState, plane: PlaneState) -> str:
    """A plane in public words, as its panel names its field: "Albert Ball · Nieuport 17"
    (a plane without a pilot of the roster by its id)."""
    pilot = campaign.pilots.get(plane.pilot or "")
    kind = catalog.planes.get(plane.type)
    who = pilot.name if pilot is not None else plane.id
    return f"{who} · {kind.name}" if kind is not None else who


def pending(catalog: Catalog, state: WingsState, side: str | None = None) -> list[Decision]:
    """The round's decisions on the seam; ``side``: only that side's, in the same order
    (each decision is worded from its own engine decision alone, so the other side's are
    never worked out: its planes' legal programs are not judged)."""
    found = _pending(catalog, state, side)
    return found if side is None else [d for d in found if d.side == side]


def _pending(catalog: Catalog, state: WingsState, side: str | None) -> list[Decision]:
    stage = stage_of(state)
    if state.dam is not None:
        return dam_rules.pending(catalog, state.dam, stage)
    campaign = state.camp
    if stage == "ended":
        return []
    engine_decisions = wings.pending(catalog, campaign, side)
    if stage == "debrief":
        return debrief_decisions(catalog, campaign, engine_decisions)
    if side is not None:
        # A flying round's seam decision keeps its engine decision's side (``_flying``,
        # ``_sealed``): the other side's are left out before they are worded.
        engine_decisions = [d for d in engine_decisions if d.side == side]
    mission = campaign.mission
    assert mission is not None
    if stage == "swap":
        # Only the Ace's side is asked: keep his last card or fly another. The detail is a
        # locale key's tail (``wings.ace-swap.keep``), for the presenter to word. Its
        # programs are sealed as in the program round: keeping a maneuver begun late must
        # open like keeping the same cards flown plainly (seed A.I.b).
        def swapped(seal: Seal, d: Any, o: Any) -> Option:
            token = seal.id(o.id)
            label = o.label if token is None else token.partition(SEQUENCE_MARK)[0]
            return Option(id=token or o.id, label=label, detail=f"{SWAP_WORDS}{o.detail}")

        return [
            _sealed(catalog, campaign, mission, d, swapped, _excluded(d)) for d in engine_decisions
        ]
    if stage == "reorder":
        if mission.round != "reorder":
            return []  # no pursuit this turn: the round only flies the held programs

        # A program owing cards next turn is only kept; every order is sealed as in the
        # program round, so keeping it opens the same.
        def reordered(seal: Seal, d: Any, o: Any) -> Option:
            return seal.option(Option(id=o.id, label=o.label, detail=d.detail))

        return [_sealed(catalog, campaign, mission, d, reordered) for d in engine_decisions]
    flak_fields = flak_rules.fields(mission)
    return [_flying(catalog, state, mission, flak_fields, d) for d in engine_decisions]


def _sealed(
    catalog: Catalog,
    campaign: CampaignState,
    mission: MissionState,
    d: Any,
    option: Callable[[Seal, Any, Any], Option],
    excluded: tuple[Excluded, ...] = (),
) -> Decision:
    """A plane's choice among programs already written (a reorder, an Ace's last card),
    each option sealed by ``option`` as the program round seals it."""
    plane = mission.planes[d.field]
    seal = Seal(catalog, mission, plane)
    return Decision(
        side=d.side,
        field=seam_field(d),
        label=plane_label(catalog, campaign, plane),
        options=tuple(option(seal, d, o) for o in d.options),
        excluded=excluded,
        default=seal.id(d.default) or d.default,
    )


def _flying(
    catalog: Catalog, state: WingsState, mission: MissionState, flak_fields: Any, d: Any
) -> Decision:
    """One decision of the program round, worded for its panel."""
    campaign = state.camp
    if d.kind == "flak":
        who = {pid: plane_label(catalog, campaign, p) for pid, p in mission.planes.items()}
        return flak_rules.flak_decision(d, flak_fields[d.field], who)
    if d.kind == "winch":
        # Seed A.IV.i.3: "winch.keep" or "winch.down", for the presenter to word.
        return _worded(
            d, WINCH_FIELD, lambda o: WINCH_WORDS + (winch.KEEP if o.id == winch.KEEP else "down")
        )
    pid = d.field.removeprefix(behaviours.ORDER_PREFIX)
    label = plane_label(catalog, campaign, mission.planes[pid])
    if d.kind == "order":
        # Seed D.VI: the detail names a locale key's tail (``wings.order.knight.spare``).
        return _worded(d, seam_field(d), lambda o: f"{ORDER_WORDS}{o.detail}.{o.id}", label)
    if d.kind == "comeback":
        # Seed A.IV.c: off the table last turn (``wings.exit.come-back``).
        return _worded(d, seam_field(d), lambda o: f"{EXIT_WORDS}{o.id}", label)
    if d.kind == "reinforce":
        return reinforce_decision(d, seam_field(d), label)
    if d.kind == "sun":
        # Seed F.VI.e: on the first waiting plane's field, which has no program yet.
        return _worded(d, seam_field(d), lambda o: f"{SUN_WORDS}{o.id}", label)
    return _program(catalog, state, mission, d, label)


def _program(
    catalog: Catalog, state: WingsState, mission: MissionState, d: Any, label: str
) -> Decision:
    """A plane's program, written (issue 27): any legal program of its deck may be typed;
    a few quick picks stand beside it, each sealed as a written one would be."""
    plane = mission.planes[d.field]
    legal = [o.id for o in d.options]
    picks = quick_picks(catalog, mission, plane, legal, d.default, state.flown.get(d.field))
    options = tuple(stored_option(catalog, mission, plane, p) for p in picks)
    # A flying plane's program may also be picked card by card (``next_step``); one on
    # the ground only writes what it does there (``GD``, ``TO``).
    by_card = plane.status == "flying"
    return Decision(
        side=d.side,
        field=seam_field(d),
        input="steps" if by_card else "text",
        steps=card_by_card.CARDS_PER_TURN if by_card else 0,
        label=label,
        options=options,
        excluded=(*_excluded(d), *refusals(catalog, plane, mission)),
        default=options[0].id,
    )


def debrief_decisions(
    catalog: Catalog, campaign: CampaignState, engine: list[Any]
) -> list[Decision]:
    # The next active squadron (already known at the debrief) picks the next mission.
    upcoming = (
        wings.mission_decision(catalog, campaign)
        if campaign.missions_planned > campaign.mission_number
        else None
    )
    # The panel shows four selects: equipment (safe at "nothing") comes last, so a full
    # debrief cuts it off before the next mission's choice.
    ordered = [d for d in engine if d.kind != "equipment"] + ([upcoming] if upcoming else [])
    ordered += [d for d in engine if d.kind == "equipment"]
    return [_debrief(campaign, d) for d in ordered]


def _debrief(campaign: CampaignState, d: Any) -> Decision:
    """One debrief choice; a pilot's is labelled with his name."""
    pilot_id = d.field.partition(":")[2]
    label = campaign.pilots[pilot_id].name if pilot_id in campaign.pilots else ""
    field, default = d.field, d.default
    if d.kind == "purchase":
        # Seed E/F: a squadron's purchases are its secret until the campaign ends (the
        # field opens then, and the debrief's receipts with it).
        options = purchase.options(d)
        field, default = PURCHASE_FIELD, d.default or NOTHING
    else:
        options = tuple(
            Option(id=o.id, label=o.label, detail=_debrief_detail(campaign, d, o))
            for o in d.options
        )
    return Decision(
        side=d.side,
        field=field,
        options=options,
        excluded=_excluded(d),
        default=default,
        label=label,
    )


def _debrief_detail(campaign: CampaignState, d: Any, option: Any) -> str:
    if d.kind == "equipment":
        # Seed D.VIII: what a pilot buys is his side's secret until the campaign ends (an
        # ``equip`` field is undeclared: it opens then); the detail names the item for the
        # owner's panel.
        return f"equipment.{option.id}"
    if d.kind in ("skill", "wound"):
        # "Skill 1" or "Wounded pilot 1" alone does not say whose: the detail is the
        # pilot's name ("skill:P3" -> P3's), for his side's panel to name him.
        return str(campaign.pilots[d.field.partition(":")[2]].name)
    return str(option.detail)
