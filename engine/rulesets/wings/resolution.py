"""A Wings round resolved on the seam. A flying turn is ``program`` (every plane's three
cards, sealed and held) then ``reorder``, which flies the turn and closes it; in a turn
where a pursuer tails an enemy the engine waits in ``reorder`` for him (he has seen the
enemy's first card), and an Ace of Aces may change his last card in ``swap``. The debrief
is a turn of its own, and the next mission's briefing is played with its stream (the
debrief itself draws nothing). A Dambuster raid's turn is ``program`` then ``reorder``,
stopped at night for the crew's pick."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine.rulesets.wings.behaviours as behaviours
import engine.rulesets.wings.campaign as wings
import engine.rulesets.wings.dam as dam_rules
import engine.rulesets.wings.dambuster as db
import engine.rulesets.wings.legacy as legacy
from engine.rng import Rng
from engine.ruleset import Event, Refusal, Rules
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.choices import engine_choices
from engine.rulesets.wings.state import SIDES, CampaignState
from engine.rulesets.wings.stored import WingsState, stage_of
from engine.sight import own

Resolved = tuple[WingsState, list[Event]]


def brief(
    catalog: Catalog, state: CampaignState, rng: Rng, kind: str = "patrol"
) -> tuple[CampaignState, list[Any]]:
    """The briefing, which the seam has no round for: the mission ``kind`` when the
    briefing squadron may fly it."""
    if state.phase != "briefing":
        return state, []
    choices = wings.defaults(wings.pending(catalog, state))
    if wings.mission_decision(catalog, state).allows(kind):
        choices[state.active]["mission"] = kind
    return wings.resolve(catalog, state, choices, rng)


def resolve(
    rules: Rules[WingsState, Any],
    catalog: Catalog,
    state: WingsState,
    choices: Mapping[str, Mapping[str, str]],
    rng: Rng,
) -> Resolved:
    stage = stage_of(state)
    if stage == "ended":
        raise wings.IllegalChoice("entente", "phase", "", "campaign-over")
    if legacy.is_old(choices) and state.campaign is not None:
        # Locked before fields were named after their planes (an older export).
        choices = legacy.current_choices(
            choices, state.camp.mission, wings.pending(catalog, state.camp)
        )
    # Only legal choices reach the engine: an option of a menu, a program the rules accept
    # (``read_text``) for a written one.
    for decision in rules.pending(state):
        value = choices.get(decision.side, {}).get(decision.field)
        refusal = Refusal("missing") if value is None else rules.accept(state, decision, value)
        if refusal is not None:
            raise wings.IllegalChoice(decision.side, decision.field, str(value), refusal.reason)
    if state.dam is not None:
        return _resolve_dam(catalog, state, state.dam, stage, choices, rng)
    if stage == "program":
        return _programs(catalog, state, choices, rng)
    if stage in ("reorder", "swap"):
        return _fly(catalog, state, choices, rng)
    campaign = state.camp
    engine = engine_choices(catalog, state, choices)
    chooser = campaign.active
    campaign, events = wings.resolve(catalog, campaign, engine, rng)
    # The debrief draws nothing, so its stream is still unused for the next briefing.
    kind = choices.get(chooser, {}).get("mission", "patrol")
    campaign, briefed = brief(catalog, campaign, rng, kind)
    new = state.model_copy(update={"campaign": campaign, "turn": state.turn + 1})
    return new, public(state.turn, [*events, *briefed])


def _programs(
    catalog: Catalog, state: WingsState, choices: Mapping[str, Mapping[str, str]], rng: Rng
) -> Resolved:
    """The program round: the programs held until the turn flies, or given to the engine
    when a pursuer must see his enemy's first card before it does."""
    campaign = state.camp
    engine = engine_choices(catalog, state, choices)
    state = _remember(state, engine)
    assert campaign.mission is not None
    live = {
        p: t
        for p, t in campaign.mission.pursuits.items()
        if campaign.mission.planes[p].status == "flying"
        and campaign.mission.planes[t].status == "flying"
    }
    if live:
        # The engine seals the programs and waits for the pursuers' reorder; it draws
        # nothing on this path, and its "first card shown" events are secret.
        campaign, events = wings.resolve(catalog, campaign, engine, rng)
        return state.model_copy(update={"campaign": campaign, "opening": []}), [
            *public(state.turn, events)
        ]
    held = {pid: value for side in engine.values() for pid, value in side.items()}
    return state.model_copy(update={"held": held, "opening": []}), []


def _fly(
    catalog: Catalog, state: WingsState, choices: Mapping[str, Mapping[str, str]], rng: Rng
) -> Resolved:
    """The turn flown: the held programs, or a pursuer's reorder and the rest, or an Ace's
    last card."""
    campaign = state.camp
    if state.held:
        flown: dict[SideName, dict[str, str]] = {side: {} for side in SIDES}
        assert campaign.mission is not None
        for pid, program in state.held.items():
            flown[behaviours.side_of(campaign.mission, pid)][pid] = program
    else:
        flown = engine_choices(catalog, state, choices)
    campaign, events = wings.resolve(catalog, campaign, flown, rng)
    state = _remember(state, flown)  # a pursuer's reordered program
    if campaign.mission is not None and campaign.mission.round == "swap":
        # Two maneuvers flown; the turn waits on the Aces' last cards (its own round).
        new = state.model_copy(update={"campaign": campaign, "held": {}})
        return new, public(state.turn, events)
    reports = dict(state.reports)
    if campaign.phase in ("debrief", "ended"):  # a mission flown: its report posts
        reports[state.turn] = campaign.mission_number
    new = state.model_copy(
        update={"campaign": campaign, "held": {}, "turn": state.turn + 1, "reports": reports}
    )
    return new, public(state.turn, events)


def _resolve_dam(
    catalog: Catalog,
    state: WingsState,
    dam: db.DamState,
    stage: str,
    choices: Mapping[str, Mapping[str, str]],
    rng: Rng,
) -> Resolved:
    if stage == "program":
        held = dam_rules.sealed(choices.get("entente", {}))
        return state.model_copy(update={"held": held}), []
    if stage == dam_rules.NIGHT:
        orders = choices.get("entente", {})
        dam, events = dam_rules.pick(catalog, dam, orders, rng, state.turn)
    else:
        dam, events = dam_rules.fly_held(catalog, dam, state.held, rng, state.turn)
    # A turn stopped for the crew's night pick goes on in a round of the same turn.
    going_on = dam.night_pick is not None and not dam.finished
    turn = state.turn if going_on else state.turn + 1
    new = state.model_copy(update={"dam": dam, "held": {}, "turn": turn})
    return new, events


def public(turn: int, events: list[Any]) -> list[Event]:
    """The engine's events on the seam, each one a side's own secret labelled so (the rest
    take their kind's label, ``engine.rulesets.wings.events``): its damage cards, jams, the
    first card a pursuer saw, purchases. The maneuver (1-3) an event happened in goes with
    it: the channel draws and tells the turn step by step from these events alone."""
    return [
        Event(
            kind=e.kind,
            turn=turn,
            data={
                **({"mission_turn": e.turn} if e.turn else {}),
                **({"phase": e.phase} if e.phase else {}),
                **e.data,
            },
            sight=None if e.secret_for is None else own(),
            owner=e.secret_for,
        )
        for e in events
    ]


def _remember(state: WingsState, given: Mapping[Any, Mapping[str, str]]) -> WingsState:
    """The programs just given (a plane's come-back or sun choice is no program), for the
    next turn's quick picks."""
    programs = {pid: v for side in given.values() for pid, v in side.items() if " " in v.strip()}
    return state.model_copy(update={"flown": {**state.flown, **programs}}) if programs else state
