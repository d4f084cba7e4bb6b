"""Seed A.IV.h on the seam: the flak gunner's order on his side's program panel.

A side's batteries take the fields ``flak``, ``flak2``... in id order. Each option reaches
the seam sealed (``gunner.sealed``): the orders opened at the turn's end must not tell the
enemy where a delayed shell waits. The detail names a locale key's tail for the presenter
(``wings.flak.fire`` with the plane and its altitude), which only the owner's panel shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import engine.rulesets.wings.gunner as gunner
from engine.ruleset import Decision, Option
from engine.rulesets.wings.state import Decision as EngineDecision
from engine.rulesets.wings.state import MissionState

WORDS = "flak."  # an option detail so prefixed names a ``wings.flak`` string
FIELD = "flak"


def fields(mission: MissionState) -> dict[str, str]:
    """Engine field ("flak:c-F1") -> seam field ("flak", then "flak2"...), per side."""
    names: dict[str, str] = {}
    count: dict[str, int] = {}
    for bid in sorted(mission.ground):
        battery = mission.ground[bid]
        if battery.kind != "dca":
            continue
        count[battery.side] = count.get(battery.side, 0) + 1
        number = count[battery.side]
        names[f"{gunner.PREFIX}{bid}"] = FIELD if number == 1 else f"{FIELD}{number}"
    return names


def flak_decision(mission: MissionState, decision: EngineDecision, field: str) -> Decision:
    return Decision(
        side=decision.side,
        field=field,
        options=tuple(
            Option(
                id=gunner.sealed(mission, decision.field, o.id),
                label=o.label,
                detail=f"{WORDS}{o.detail}",
            )
            for o in decision.options
        ),
        default=gunner.sealed(mission, decision.field, decision.default),
    )


def unsealed(mission: MissionState, decision: EngineDecision, value: str) -> str:
    """The sealed option back to the order it stands for."""
    orders = {gunner.sealed(mission, decision.field, o.id): o.id for o in decision.options}
    return orders.get(value, value)


def opened(
    mission: MissionState,
    decisions: Sequence[EngineDecision],
    choices: Mapping[str, Mapping[str, str]],
) -> dict[str, str]:
    """The sealed orders picked this round, each with its words (the option's detail): the
    seam keeps them out of every view until the campaign is over, when the after-action
    report says what each gunner ordered instead of a digest."""
    names = fields(mission)
    result: dict[str, str] = {}
    for d in decisions:
        if d.kind != "flak" or d.field not in names:
            continue
        picked = choices.get(d.side, {}).get(names[d.field])
        for o in d.options:
            if picked is not None and gunner.sealed(mission, d.field, o.id) == picked:
                result[picked] = f"{WORDS}{o.detail}"
    return result
