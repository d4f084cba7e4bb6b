"""The Dambuster scenarios of the Wings ruleset behind the seam (``dambuster``).

The same rounds as a Wings mission turn: in ``program`` the Entente seals the order of the
Lancaster on the table (field ``plane1``: a card and a bomb order, e.g. ``SS aim:25``); in
``reorder`` both sides lock and the turn is flown. The Central Powers have nothing to
decide (their AA guns fire by standing order), so they only lock. At night the turn may
stop at a gun whose two C cards the crew picks from (DB 6): a ``night`` round asks the
Entente alone (field ``night``), then the turn goes on, maybe to another such round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import engine.rulesets.wings.dambuster as db
import engine.rulesets.wings.night_pick as night
from engine.rng import Rng
from engine.ruleset import Decision, Event, Excluded, Option, Progress
from engine.rulesets.wings.catalog import Catalog

# Scenario key -> (name, dam); authored names for the seed's DB 8.d-e scenarios.
DAM_SCENARIOS: dict[str, tuple[str, db.DamKind]] = {
    "dambuster-eder": ("Dambuster: the Eder dam (three Lancasters, undefended)", "eder"),
    "dambuster-mohne": ("Dambuster: the Möhne dam (five Lancasters, at night, AA)", "mohne"),
    "dambuster-eder-short": ("Dambuster: the Eder dam, short scenario (one Lancaster)", "eder"),
    # DB 10, 12 (authored scenario): the standard Lancaster against the industrial complex.
    "lancaster-industrial": (
        "Lancaster: the industrial complex (one Lancaster, three bombs, AA)",
        "industrial",
    ),
}
# DB 8.d's short scenario: one plane, won if the dam is hit.
SHORT_SCENARIOS = frozenset({"dambuster-eder-short"})
FIELD = "plane1"
ESCORT_FIELD = "plane2"  # Gibson's Lancaster when he re-engages (DB 8.e)
START_FIELD = "heading"  # DB 8.d: the angle to the Allied edge the plane starts at
LIGHTS_FIELD = "lights"  # DB 6: the searchlight switch, at night
START_WORDS = "dam-start"  # an option's detail: the presenter words the heading
LIGHTS_WORDS = "dam-lights."  # an option's detail: the presenter words the switch
NIGHT = "night"  # the round, and its one field, where the crew picks its night card
NIGHT_WORDS = "night-pick."  # an option's detail: "night-pick.<points>.<special>"
# The most seam turns a raid can last: each run at most max_turns, plus its bomb's flight.
TURNS_PER_RUN = int(db.DamState.model_fields["max_turns"].default) + 3


def new_raid(scenario: str) -> db.DamState:
    return db.new_dam(DAM_SCENARIOS[scenario][1], full=scenario not in SHORT_SCENARIOS)


@cache
def turns(scenario: str) -> int:
    # Worked out from a new raid once per scenario: every card and panel names the
    # campaign's length (``scenarios()``), and a new raid cost 60 µs a time (issue 29).
    return len(new_raid(scenario).roster) * TURNS_PER_RUN


def pending(catalog: Catalog, dam: db.DamState, stage: str) -> list[Decision]:
    if stage == NIGHT and dam.night_pick is not None:
        return [night_decision(dam.night_pick)]
    if stage != "program":
        return []
    legal, refused = db.legal_orders(catalog, dam)
    plane = db.on_table(dam)
    reg = plane.id if plane is not None else ""
    default = "SS" if "SS" in legal else legal[0]
    decisions = [
        _crew(
            FIELD,
            [(text, reg) for text in legal],
            default,
            tuple(Excluded(id=text, label=text, reason=why) for text, why in refused),
        )
    ]
    escort = db.escort_orders(catalog, dam)
    if escort:
        # DB 8.e: Gibson may come back beside this plane ("-" keeps him away), then flies
        # with it, sealed like the other order.
        decisions.append(_crew(ESCORT_FIELD, [(text, db.GIBSON) for text in escort], escort[0]))
    headings = db.start_headings(dam)
    if headings:
        # DB 8.d: any angle to the Allied edge, chosen with the first card, sealed with it.
        decisions.append(_crew(START_FIELD, [(str(h), START_WORDS) for h in headings], "0"))
    lights = db.lights_options(dam)
    if lights:
        # DB 6: the player's own switch; its default is the bomb's timing.
        lit = [(o, LIGHTS_WORDS + o) for o in lights]
        decisions.append(_crew(LIGHTS_FIELD, lit, db.LIGHTS_AUTO))
    return decisions


def night_decision(pick: night.NightPick) -> Decision:
    """DB 6: the two cards the gun drew, the Lancaster's player keeps one; a missed
    deadline keeps the one the engine kept for him before (never an explosion, the lower)."""
    cards = zip(night.options(pick), pick.cards, strict=True)
    shown = [(option, f"{NIGHT_WORDS}{card.value}.{card.special}") for option, card in cards]
    return _crew(NIGHT, shown, night.default(pick))


def _crew(
    field: str,
    options: Sequence[tuple[str, str]],
    default: str,
    excluded: tuple[Excluded, ...] = (),
) -> Decision:
    """The Lancaster crew's choice (the Entente's): each option its id and detail."""
    return Decision(
        side="entente",
        field=field,
        options=tuple(Option(id=id_, label=id_, detail=detail) for id_, detail in options),
        excluded=excluded,
        default=default,
    )


def sealed(orders: Mapping[str, str]) -> dict[str, str]:
    """The Entente's orders held until the turn flies (none of them public before)."""
    held = {FIELD: orders.get(FIELD, "-")}
    for field in (ESCORT_FIELD, START_FIELD, LIGHTS_FIELD):
        if field in orders:
            held[field] = orders[field]
    return held


def fly_held(
    catalog: Catalog, dam: db.DamState, held: Mapping[str, str], rng: Rng, turn: int
) -> tuple[db.DamState, list[Event]]:
    start = held.get(START_FIELD)
    return fly(
        catalog,
        dam,
        held.get(FIELD, "-"),
        rng,
        turn,
        held.get(ESCORT_FIELD, db.STAYS_OUT),
        start=None if start is None else int(start),
        lights=held.get(LIGHTS_FIELD, db.LIGHTS_AUTO),
        asks=True,
    )


def pick(
    catalog: Catalog, dam: db.DamState, orders: Mapping[str, str], rng: Rng, turn: int
) -> tuple[db.DamState, list[Event]]:
    """The crew's night card kept, the turn flown on from the gun that stopped it."""
    pause = dam.night_pick
    assert pause is not None
    dam, events = db.resume(catalog, dam, orders.get(NIGHT, night.default(pause)), rng)
    return dam, _public(dam, events, turn)


def fly(
    catalog: Catalog,
    dam: db.DamState,
    order: str,
    rng: Rng,
    turn: int,
    escort: str = db.STAYS_OUT,
    *,
    start: int | None = None,
    lights: str = db.LIGHTS_AUTO,
    asks: bool = False,
) -> tuple[db.DamState, list[Event]]:
    dam, events = db.play(catalog, dam, order, rng, escort, start=start, lights=lights, asks=asks)
    return dam, _public(dam, events, turn)


def _public(dam: db.DamState, events: list[dict[str, object]], turn: int) -> list[Event]:
    public = [
        Event(kind=str(e["kind"]), turn=turn, data={k: v for k, v in e.items() if k != "kind"})
        for e in events
    ]
    if dam.finished:
        public.append(Event(kind="raid-over", turn=turn, data=db.result(dam)))
    return public


def winner(dam: db.DamState) -> str | None:
    if not dam.finished:
        return None
    return "central" if db.result(dam)["result"] == "defeat" else "entente"


def progress(dam: db.DamState, turn: int, stage: str) -> Progress:
    outcome = db.result(dam)
    score = outcome.get("vp", dam.hits)
    return Progress(
        turn=turn,
        round="debrief" if stage == "ended" else stage,
        finished=dam.finished,
        winner=winner(dam),
        vp={"entente": int(score) if isinstance(score, int) else 0, "central": 0},
    )


def view_data(dam: db.DamState, structure: int = 32, crew: bool = True) -> dict[str, Any]:
    """Nothing on the table is secret in the raid (the marker is laid openly); only the
    sealed order, held by the ruleset until the turn flies, stays out, and the two night
    cards waiting for the crew's pick, which only the ``crew`` (the Entente) sees: the
    others learn which gun fired at which plane. ``structure`` is the Lancaster's damage
    points, for the lines that show its damage."""
    data = dam.model_dump(mode="json")
    if dam.night_pick is not None and not crew:
        data["night_pick"] = {"plane": dam.night_pick.plane, "gun": dam.night_pick.gun}
    return {
        "dam": data,
        "dam_result": db.result(dam),
        "dam_structure": structure,
    }
