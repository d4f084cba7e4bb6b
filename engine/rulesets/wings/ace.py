"""The Ace of Aces' last-card change (seed D.VII.a, the piloting field's ultimate).

During the movement phase an Ace of Aces may change the last card of his program, but
only before his adversary's last card is revealed: at most 3 times a game, at most once
every two turns, and the forbidden sequences still hold. Like every skill it costs one
token (D.VII). The turn therefore stops after its second maneuver when such a pilot is in
the air (``swappers``); his side alone is asked (``decisions``); keeping the card is free
and is the default on a missed deadline; then the third maneuver is flown.

Authored limits (the seed is silent): the plane must be on the table (not in or at the
edge of a cloud, whose orders are sealed), not spinning (its next card is forced), and
flying a plain program (a landing, a rocket attack or a complex maneuver is one
declaration, not three free cards); the new card is judged against the plane as it was
programmed, like the rest of its program. The round opens on public facts alone: an Ace
with no token left, or flying a declared maneuver, is asked anyway and may only keep.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.ruleset import Excluded, Option
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.program import check_program, parse_program, program_text, uses_genius
from engine.rulesets.wings.state import Decision, Event, MissionState, PlaneState, Program

SKILL = "ace_of_aces"
USES = 3  # seed D.VII: an ultimate serves at most 3 times a game
REST = 2  # seed D.VII.a: at most once every two turns (used on turn t, again from t + 2)


def round_due(plane: PlaneState, turn: int) -> bool:
    """Whether the turn stops for this Ace after its second maneuver. Only facts everyone
    sees decide it (his skill, the counters of his uses, where and how he flies), so the
    round's opening tells the enemy nothing; his tokens and program, which are his side's
    secrets, only decide what his own panel offers (``may_swap``)."""
    return (
        SKILL in plane.skills
        and plane.status == "flying"
        and not plane.in_cloud
        and not plane.cloud_salt  # at the clouds' edge: a public fact (level and counters)
        and not plane.spin
        and plane.swaps < USES
        and turn - plane.swap_turn >= REST
    )


def why_not(plane: PlaneState, program: Program | None) -> str | None:
    """The secret reason an Ace whose round is due may not change his card, if any."""
    if plane.tokens <= 0:
        return "no-token-left"
    if program is None or program.maneuver is not None:
        return "declared-maneuver"
    return None


def may_swap(plane: PlaneState, program: Program | None, turn: int) -> bool:
    """Whether this plane's pilot may still change his last card this turn."""
    return round_due(plane, turn) and why_not(plane, program) is None


def swappers(
    planes: Mapping[str, PlaneState], programs: Mapping[str, Program], turn: int
) -> list[str]:
    """The planes whose Ace may change his last card now, after the second maneuver: only
    while an adversary still has a last card to reveal."""
    flying_sides = {p.side for p in planes.values() if p.status == "flying" and not p.in_cloud}
    return [
        pid
        for pid in sorted(planes)
        if round_due(planes[pid], turn)
        and pid in programs
        and any(side != planes[pid].side for side in flying_sides)
    ]


def as_programmed(plane: PlaneState, turn: int) -> PlaneState:
    """The plane as its program was judged. A Genius spent this turn is marked before the
    turn flies; any earlier mark (two turns back or more) judges the same, so -99 does."""
    if plane.genius_turn == turn:
        return plane.model_copy(update={"genius_turn": -99})
    return plane


def last_cards(
    catalog: Catalog, mission: MissionState, pid: str
) -> tuple[list[str], list[tuple[str, str]]]:
    """The other last cards the Ace may fly now, and the refused ones with their reason."""
    plane = mission.programmed[pid]
    kept = mission.programs[pid].cards
    deck = catalog.maneuver_decks[catalog.planes[plane.type].deck]
    legal: list[str] = []
    refused: list[tuple[str, str]] = []
    for card in deck.cards:
        if card.code == kept[-1] or card.code in legal:
            continue
        cards = (*kept[:-1], card.code)
        refusals = check_program(catalog, plane, Program(cards=cards), mission.rules, mission.turn)
        if refusals:
            refused.append((card.code, refusals[0].reason))
        else:
            legal.append(card.code)
    return legal, refused


def decisions(catalog: Catalog, mission: MissionState) -> list[Decision]:
    """One decision per Ace who may change his last card: keep (the default) or another."""
    result = []
    for pid in sorted(mission.programmed):
        plane = mission.planes[pid]
        # The bomb release announced stays with the program (its id names the cards only).
        kept = mission.programs[pid].model_copy(update={"release": None})
        head = kept.cards[:-1]
        options = [Option(id=program_text(kept), label=program_text(kept), detail="keep")]
        excluded: list[Excluded] = []
        reason = why_not(plane, kept)
        if reason is not None:
            # Asked all the same (the round is public): his panel says why he cannot change.
            excluded.append(Excluded(id="swap", label="swap", reason=reason))
        else:
            legal, refused = last_cards(catalog, mission, pid)
            options += [
                Option(id=" ".join((*head, code)), label=" ".join((*head, code)), detail="swap")
                for code in legal
            ]
            excluded += [
                Excluded(id=" ".join((*head, code)), label=code, reason=reason)
                for code, reason in refused
            ]
        result.append(Decision.of(plane.side, pid, "swap", options, program_text(kept), excluded))
    return result


def apply(
    catalog: Catalog,
    mission: MissionState,
    chosen: Mapping[str, tuple[SideName, str]],
) -> tuple[MissionState, list[Event]]:
    """Fly each Ace's choice: a changed last card costs a token and a use, and marks the
    turn; keeping it costs nothing. ``chosen`` maps a plane to its side and the program
    picked among the decision's options (the caller has checked them)."""
    planes = dict(mission.planes)
    programs = dict(mission.programs)
    events: list[Event] = []
    for pid, (side, text) in sorted(chosen.items()):
        cards = parse_program(text).cards  # a kept "S S split_s: ST" is no change
        if cards == programs[pid].cards:
            continue
        before = mission.programmed[pid]
        # Seed A.IV.e, D.VIII: the bomb release and the pistol shot stay as announced.
        new = programs[pid].model_copy(update={"cards": cards})
        deck = catalog.maneuver_decks[catalog.planes[before.type].deck]
        plane = planes[pid]
        genius = mission.turn if uses_genius(before, deck, new) else before.genius_turn
        planes[pid] = plane.model_copy(
            update={
                "tokens": plane.tokens - 1,
                "swaps": plane.swaps + 1,
                "swap_turn": mission.turn,
                "genius_turn": genius,
            }
        )
        programs[pid] = new
        was = mission.programs[pid].cards[-1]
        for kind, data in (
            ("skill-used", {"plane": pid, "skill": SKILL}),
            ("last-card-changed", {"plane": pid, "was": was, "card": cards[-1]}),
        ):
            events.append(Event(kind=kind, turn=mission.turn, phase=3, data=data, secret_for=side))
    return mission.model_copy(update={"planes": planes, "programs": programs}), events
