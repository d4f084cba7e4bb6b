"""How a strike pairs its aircraft into elements and reads their ratings (3.7.1, 19.25).

The strike's set-up and its skill-adjusted ratings were rewritten for speed (issue 13);
these hold what a player would see of them: who leads, who flies with whom, and what a
pilot's skills add on either side of the card.
"""

from __future__ import annotations

from engine.zero.cards import Deck
from engine.zero.dogfight import hurt
from engine.zero.orders import FlightUnit, PilotFace
from engine.zero.strike import Strike
from tests.engine.strike_fixtures import CATALOG, A, H, J, L, M, element, make_setup


def _strike(strike: list[FlightUnit], cap: list[FlightUnit]) -> Strike:
    return Strike(make_setup(strike, cap, sheet_id="5A"), CATALOG, Deck(CATALOG.deck.cards, None))


def _as(units: list[FlightUnit], *roles: str) -> list[FlightUnit]:
    return [u.model_copy(update={"role": role}) for u, role in zip(units, roles, strict=True)]


def _leads(strike: Strike) -> dict[str, bool]:
    return {p.uid: p.lead for p in strike.sky.planes}


def test_two_wingmen_fly_as_one_element_led_by_the_first() -> None:
    pair = _as(element("A6M2", J, "strike", "J1", M), "wingman", "wingman")
    strike = _strike(pair, element("F4F", A, "cap", "A1"))
    first, second = (p for p in strike.sky.planes if p.element == "J1")
    assert (first.lead, second.lead) == (True, False)
    assert first.mate is second and second.mate is first
    assert second.band == first.band


def test_two_leaders_in_one_element_keep_one_leader() -> None:
    pair = _as(element("A6M2", J, "strike", "J1", M), "leader", "leader")
    strike = _strike(pair, element("F4F", A, "cap", "A1"))
    assert [lead for uid, lead in _leads(strike).items() if uid.startswith("J1")] == [True, False]


def test_a_wingman_listed_first_flies_behind_its_leader() -> None:
    wing, lead = reversed(element("A6M2", J, "strike", "J1", M))
    strike = _strike([wing, lead], element("F4F", A, "cap", "A1"))
    (j1,) = (e for e in strike.elements[J] if e.key == "J1")
    assert [p.uid for p in j1.planes] == [lead.uid, wing.uid]  # the Leader first
    assert j1.planes[1].band == j1.planes[0].band


def test_a_lone_wingman_leads_itself() -> None:
    (wing,) = _as(element("A6M2", J, "strike", "J1", M, wingman=False), "wingman")
    strike = _strike([wing], element("F4F", A, "cap", "A1"))
    assert _leads(strike)[wing.uid] is True


def test_skills_add_to_the_side_of_the_card_in_use() -> None:
    """P, BU and H add one to Performance, Burst and each band's Horsepower, on the
    undamaged side and, once the card flips, on the damaged side (19.25, 3.2.7)."""
    ace = PilotFace(name="Sakai", skills=("P", "BU", "H"))
    skilled = element("A6M2", J, "strike", "J1", M, wingman=False, pilot=ace)
    plain = _as(element("A6M2", J, "strike", "J2", M, wingman=False), "leader")
    strike = _strike(skilled + plain, element("F4F", A, "cap", "A1", H))
    by = {p.uid: p for p in strike.sky.planes}
    sakai, other = by[skilled[0].uid], by[plain[0].uid]
    for p in (sakai, other):
        p.band = L
    assert (sakai.perf(), sakai.burst(), sakai.hp()) == (
        other.perf() + 1,
        other.burst() + 1,
        other.hp() + 1,
    )
    sky = strike.sky
    for p in (sakai, other):
        hurt(sky, p, p.flip_at - p.damage)  # the card flips, the aircraft still flies
        assert p.damaged and not p.destroyed and p.rat is p.kind.damaged
    assert sakai.perf() == sakai.kind.damaged.performance + 1
    assert (sakai.perf(), sakai.burst(), sakai.hp()) == (
        other.perf() + 1,
        other.burst() + 1,
        other.hp() + 1,
    )
