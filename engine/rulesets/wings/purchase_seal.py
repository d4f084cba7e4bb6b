"""A squadron's purchases at the debrief, sealed on the seam (seed E/F: "each side's
purchases" are secret and simultaneous).

The debrief's orders open when the debrief resolves: the channel posts each side's salt,
the export and ``/receipt`` the canonical choice. A plain option id ("plane:spad7") would
then tell the other side what was bought, and a short menu could be brute-forced from the
salt and the receipt. So each option, "nothing" included (else the reveal would tell
whether anything was bought), is a digest under the campaign's secret ``kit_salt`` (which
every view strips) and names its squadron, so two sides buying the same resource do not
show it by the same code. The owner's panel reads the resource and its price from the
option's detail; the seam keeps each pick with what it bought out of every view until the
campaign is over (``WingsState.buy_opened``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from engine.ruleset import Option
from engine.rulesets.wings.state import CampaignState
from engine.rulesets.wings.state import Decision as EngineDecision

PREFIX = "buy-"  # a purchase option's id as the orders carry it
WORDS = "buy|"  # its detail: "buy|<kind>|<price>", "|new" for a kind never owned
NOTHING = "none"  # the seam's "nothing" (the engine's is "")


def sealed(campaign: CampaignState, side: str, kind: str) -> str:
    """A purchase option as the orders carry it: only the rules, holding the salt, open it."""
    text = f"{campaign.kit_salt}:{campaign.mission_number}:purchase:{side}:{kind or NOTHING}"
    return PREFIX + hashlib.sha256(text.encode()).hexdigest()[:10]


def options(campaign: CampaignState, decision: EngineDecision) -> tuple[Option, ...]:
    """The engine's purchase options sealed, each naming its resource and price for the
    owner's panel alone."""
    result = []
    for option in decision.options:
        cost, _, new = option.detail.partition(" ")  # "2 (new)" or "2"
        detail = f"{WORDS}{option.id or NOTHING}|{cost}" + ("|new" if new else "")
        sealed_id = sealed(campaign, decision.side, option.id)
        result.append(Option(id=sealed_id, label=option.label, detail=detail))
    return tuple(result)


def opened(campaign: CampaignState, decision: EngineDecision) -> dict[str, str]:
    """Each sealed option -> the resource it buys ("none" for nothing)."""
    return {sealed(campaign, decision.side, o.id): o.id or NOTHING for o in decision.options}


def unsealed(campaign: CampaignState, decision: EngineDecision, value: str) -> str:
    """The seam's pick back in the engine's words ("" for nothing); a plain value (an
    order given by hand) goes through as it was."""
    value = opened(campaign, decision).get(value, value)
    return "" if value == NOTHING else value


def picked(
    campaign: CampaignState,
    asked: list[EngineDecision],
    choices: Mapping[str, Mapping[str, str]],
) -> dict[str, str]:
    """The sealed purchases picked at this debrief with what each bought, for the report
    once the campaign is over."""
    result = {}
    for decision in asked:
        if decision.kind != "purchase":
            continue
        value = choices.get(decision.side, {}).get("purchase")
        items = opened(campaign, decision)
        if value in items:
            result[value] = items[value]
    return result
