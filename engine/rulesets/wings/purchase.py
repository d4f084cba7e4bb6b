"""A squadron's purchases at the debrief on the seam (seed E/F: "each side's purchases" are
secret and simultaneous).

The ``purchase`` field opens when the campaign ends (``FieldSpec``): the debrief's receipts
stay closed until then, and no view shows what a side holds. Each option is the resource
itself ("nothing" too: a select option cannot be empty); its detail names the resource and
its price for the owner's panel.
"""

from __future__ import annotations

from engine.ruleset import Option
from engine.rulesets.wings.state import Decision as EngineDecision

WORDS = "buy|"  # an option's detail: "buy|<kind>|<price>", "|new" for a kind never owned
NOTHING = "none"  # the seam's "nothing" (the engine's is "")


def options(decision: EngineDecision) -> tuple[Option, ...]:
    """The engine's purchase options, each naming its resource and price for the owner."""
    result = []
    for option in decision.options:
        cost, _, new = option.detail.partition(" ")  # "2 (new)" or "2"
        detail = f"{WORDS}{option.id or NOTHING}|{cost}" + ("|new" if new else "")
        result.append(Option(id=option.id or NOTHING, label=option.label, detail=detail))
    return tuple(result)
