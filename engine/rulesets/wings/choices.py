"""The choices a side locks, checked and turned back into the engine's: a program written
as players write them is read against the plane's deck and the rules (with the reason of a
refusal), a sealed one opened to the program it stands for, and the seam's fields named
again as the engine names them."""

from __future__ import annotations

from collections.abc import Mapping

import engine.rulesets.wings.campaign as wings
import engine.rulesets.wings.flak_fields as flak_rules
import engine.rulesets.wings.written as written
from engine.ruleset import Decision, Refusal, unit_of
from engine.rulesets.wings.asked import seam_field
from engine.rulesets.wings.catalog import Catalog, SideName
from engine.rulesets.wings.picks import program_of, stored_option
from engine.rulesets.wings.program import check_program, parse_program
from engine.rulesets.wings.rounds import NOTHING, PURCHASE_FIELD, SEALED, SEQUENCE_MARK, WINCH_FIELD
from engine.rulesets.wings.state import SIDES, MissionState, PlaneState
from engine.rulesets.wings.stored import WingsState


def plane_of(state: WingsState, decision: Decision) -> tuple[MissionState, PlaneState] | None:
    """The mission and the plane a written program is for (None for any other field)."""
    if not decision.written or state.campaign is None or state.camp.mission is None:
        return None
    mission = state.camp.mission
    plane = mission.planes.get(unit_of(decision.field))
    return None if plane is None else (mission, plane)


def read_program(
    catalog: Catalog, mission: MissionState, plane: PlaneState, text: str
) -> str | Refusal:
    """A written program as the seam stores it, or why the rules refuse it."""
    program = program_of(catalog, mission, plane, text)
    if program is None:
        return Refusal("unknown-option")
    refusals = check_program(catalog, plane, parse_program(program), mission.rules, mission.turn)
    if refusals:
        first = refusals[0]
        where: dict[str, str | int] = {}
        if first.position >= 0 and first.code:
            where = {"at": first.code, "position": first.position + 1}
        return Refusal(first.reason, where)
    if (
        text.startswith(SEALED)
        and written.unseal(plane.cloud_salt, mission.turn, plane.id, text) is None
    ):
        return text  # an older campaign's digest, drafted before this release
    return stored_option(catalog, mission, plane, program).id


def engine_choices(
    catalog: Catalog, state: WingsState, choices: Mapping[str, Mapping[str, str]]
) -> dict[SideName, dict[str, str]]:
    """The seam's {side: {program:P3: ...}} back in the engine's field names and values."""
    campaign = state.camp
    engine = wings.pending(catalog, campaign)
    result: dict[SideName, dict[str, str]] = {side: {} for side in SIDES}

    def picked(side: SideName, field: str, engine_field: str) -> str:
        value = choices.get(side, {}).get(field)
        if value is None:
            raise wings.IllegalChoice(side, engine_field, "", "missing")
        return value

    if campaign.phase == "debrief":
        for d in engine:
            seam = PURCHASE_FIELD if d.kind == "purchase" else d.field
            value = choices.get(d.side, {}).get(seam, d.default)
            if d.kind != "equipment" and value == NOTHING:
                value = ""
            result[d.side][d.field] = value
        return result
    assert campaign.mission is not None
    mission = campaign.mission
    flak_fields = flak_rules.fields(mission)
    for d in engine:
        if d.kind == "flak":
            result[d.side][d.field] = flak_rules.order_of(
                d, picked(d.side, flak_fields[d.field], d.field)
            )
            continue
        if d.kind == "winch":
            result[d.side][d.field] = choices.get(d.side, {}).get(WINCH_FIELD, d.default)
            continue
        value = picked(d.side, seam_field(d), d.field)
        plane = mission.planes.get(d.field)
        if plane is not None and (
            (plane.cloud_salt and value.startswith(SEALED)) or SEQUENCE_MARK in value
        ):
            # A sealed program back to the one it seals (a written one, a quick pick, or
            # an older campaign's menu digest).
            value = program_of(catalog, mission, plane, value) or value
        result[d.side][d.field] = value
    return result
