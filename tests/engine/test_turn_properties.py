"""Rules of issue 11 checked on every turn of random campaigns (random legal commanders).

Each check reads only the turn records (picks, strike reports, recovery draws) and the
sheets, the way a player holding the log would check them.
"""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.carrier.state import TurnRecord
from engine.zero.catalog import Scenario
from engine.zero.loader import default_catalog
from engine.zero.types import BombResult, Side
from tests.engine.campaign_helpers import play

CATALOG = default_catalog()
ACE_LEADER = 14


def _range(record: TurnRecord, side: Side) -> int:
    return record.picks[side].tactic.recovery_cards


def _check_recovery(scenario: Scenario, record: TurnRecord) -> None:
    """25.71 with 25.34: each force counts its range; a base counts its attacker's."""
    reports = {r.id: r for r in record.strikes}
    for draw in record.recovery:
        report = reports[draw.strike]
        if report.kind == "land-based":
            assert len(draw.cards) == 1
            continue
        origin = scenario.place(report.origin)
        target = scenario.place(report.target)
        ranges = [
            _range(record, place.side if place.carrier_fleet else other.side)
            for place, other in ((origin, target), (target, origin))
        ]
        assert len(draw.cards) == sum(ranges), (report.id, report.origin, report.target)


def _check_scouts(record: TurnRecord) -> None:
    """23.64 / authored 3.4: success comes from the report draw; one CAP element at most."""
    for report in record.strikes:
        if report.kind != "scout":
            continue
        found = any(
            r.mode == "recon" and any(res is not BombResult.MISS for res in r.results)
            for r in report.bomb_runs
        )
        assert report.scout_success is found
        cap = [a for a in report.aircraft if a.group == "cap"]
        assert len({a.element for a in cap}) <= 1 and len(cap) <= 2


def _check_aces(record: TurnRecord) -> None:
    """Authored #14: one named ace per side holding the resource, none otherwise."""
    aces: dict[Side, set[str]] = defaultdict(set)
    for report in record.strikes:
        for a in report.aircraft:
            if (a.pilot or "").startswith("Ace leader"):
                aces[a.side].add(a.uid)
    for side in Side:
        limit = 1 if record.picks[side].resource == ACE_LEADER else 0
        assert len(aces[side]) <= limit


def _check_box(record: TurnRecord) -> None:
    """25.65: a side never has more aircraft of a type in the air in one turn than the box
    holds cards (an aircraft met in several raids counts once)."""
    flying: dict[tuple[Side, str], set[str]] = defaultdict(set)
    for report in record.strikes:
        for a in report.aircraft:
            flying[(a.side, a.aircraft)].add(a.uid)
    for (side, code), uids in flying.items():
        assert len(uids) <= CATALOG.aircraft[code].box, (side, code, sorted(uids))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    pick=st.integers(0, 10_000),
    scenario=st.sampled_from(["coral-sea", "midway"]),
)
def test_every_turn_of_a_random_campaign_keeps_the_rules(
    seed: int, pick: int, scenario: str
) -> None:
    final, _events, _states = play(CATALOG, scenario, f"p{seed}", pick)
    sheet = CATALOG.scenarios[scenario]
    for record in final.history:
        _check_recovery(sheet, record)
        _check_scouts(record)
        _check_aces(record)
        _check_box(record)
