"""The Soldier's dive shot (seed D.VI): besides the extra card his once-a-game power adds,
that one shot makes a jammed rudder, fire and smoke last the whole mission, and turns a
"pilot wounded" card into a pilot seriously wounded.

Authored readings (docs/wings-data.md, "Soldier and Système D"): seriously wounded is the
top of D.V's 0-2 band, so the wound leaves the pilot at 2 life points at most (a pilot
already lower just takes the wound); the observer of a two-seater, hit by the 5 card,
takes an ordinary wound; and the Soldier's permanence beats a defender's skill that would
shorten the special (Système D), since "when two pilots' skills conflict, the attacker
wins" (seed D.VII).
"""

from __future__ import annotations

from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.pilots import state_from_lp

# The specials his dive shot makes lasting, which no defender's skill may then shorten.
LASTING = frozenset(("rudder_left", "rudder_right", "fire", "smoke"))


def seriously(catalog: Catalog, lp: int) -> int:
    """Life points after a wound the Soldier's dive shot made serious: no higher than the
    seriously wounded band's top (seed D.V), and never raised."""
    top = lp
    while state_from_lp(catalog, top) not in ("seriously_wounded", "dead"):
        top -= 1
    return top
