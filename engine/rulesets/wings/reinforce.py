"""Seed E.IV on the seam: a reinforcement order on the downed plane's own field.

The engine's decision (kind ``reinforce``) names the downed or fleeing plane; on the seam it
takes that plane's own field, ``program:<its id>`` (the new plane gets its own once it stands
on the table). Option details are locale keys' tails for the presenter:
``reinforce.no`` and ``reinforce.cost.N`` (the MP it takes from the reserve).
"""

from __future__ import annotations

import engine.rulesets.wings.reinforcements as reinforcements
from engine.ruleset import Decision, Excluded, Option
from engine.rulesets.wings.state import Decision as EngineDecision

WORDS = "reinforce."  # an option detail so prefixed names a ``wings.reinforce`` string
NO = reinforcements.NO
PREFIX = reinforcements.PREFIX


def reinforce_decision(decision: EngineDecision, field: str, label: str = "") -> Decision:
    options = tuple(
        Option(
            id=o.id,
            label=o.label,
            detail=f"{WORDS}no" if o.id == NO else f"{WORDS}cost.{o.detail}",
        )
        for o in decision.options
    )
    return Decision(
        side=decision.side,
        field=field,
        options=options,
        excluded=tuple(
            Excluded(id=e.id, label=e.label, reason=e.reason) for e in decision.excluded
        ),
        default=decision.default,
        label=label,
    )
