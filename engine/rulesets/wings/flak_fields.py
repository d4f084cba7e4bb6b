"""Seed A.IV.h on the seam: the flak gunner's order on his side's program panel.

A side's batteries take the fields ``flak``, ``flak2``... in id order. The order is the
gunner's side's until the campaign ends (the field is declared so): the turn's end must not
tell the enemy where a delayed shell waits. An option names a locale key's tail for the
presenter (``wings.flak.fire`` with the plane and its altitude).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def flak_decision(
    decision: EngineDecision, field: str, who: Mapping[str, str] | None = None
) -> Decision:
    """The gunner's order as his panel offers it: each option is the order's words key
    ("flak.fire.P3.2": the order, the plane and its altitude), for the presenter to word;
    an order aimed over a plane is labelled with that plane as players know it (``who``:
    "Kurt Wolff · Albatros D.III"), never by its id (issue 27)."""
    who = who or {}

    def label(option: Any) -> str:
        parts = option.detail.split(".")
        return who.get(parts[1], parts[1]) if len(parts) == 3 else str(option.label)

    return Decision(
        side=decision.side,
        field=field,
        options=tuple(
            Option(id=f"{WORDS}{o.detail}", label=label(o), detail=f"{WORDS}{o.detail}")
            for o in decision.options
        ),
        default=_words(decision, decision.default),
    )


def _words(decision: EngineDecision, order: str) -> str:
    return next((f"{WORDS}{o.detail}" for o in decision.options if o.id == order), order)


def order_of(decision: EngineDecision, value: str) -> str:
    """The option picked back to the engine's order ("flak.fire.P3.2" -> "fire:P3")."""
    return next((o.id for o in decision.options if f"{WORDS}{o.detail}" == value), value)
