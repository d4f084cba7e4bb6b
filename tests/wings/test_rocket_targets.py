"""Le Prieur rockets at targets other than balloons (seed A.IV.j): the nearest enemy ground
element or bombing target in a legal position after the second maneuver, balloons first,
under the attack's usual conditions."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.state import GroundElement, MissionState, Objective
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import card_id, catalog, mission, plane, stack
from tests.wings.test_turn import programs

POST = (12.5, 10.0)  # two straights from x = 5 bring the camel 1.2 bw short of its card


def plain(letter: str, count: int) -> list[int]:
    """Ids of cards without a special, so the posts' fire cannot stop the run."""
    cards = default_catalog().damage_decks[letter].expanded
    return [i for i, c in enumerate(cards) if c.special == "none"][:count]


def run(
    *,
    level: int = 1,
    ground: dict[str, GroundElement] | None = None,
    objectives: dict[str, Objective] | None = None,
    rockets: list[int] | None = None,
    x: float = 5.0,
) -> tuple[MissionState, list[tuple[str, dict[str, object]]]]:
    e = plane("e", type_="camel", side="entente", x=x, y=10.0, level=level, rockets=2)
    far = plane("c", type_="dr1", side="central", x=20.0, y=20.0, heading=180.0)
    state = mission(e, far).model_copy(
        update={"ground": ground or {}, "objectives": objectives or {}, "kind": "balloon"}
    )
    state = stack(state, "A", plain("A", 12))
    state = stack(state, "B", plain("B", 12))
    d_cards = rockets or [card_id("D", 2, "none"), card_id("D", 2, "smoke")]
    state = stack(state, "D", d_cards)
    after, events = play_turn(
        catalog(), state, programs(e="LP S S ST", c="S S S"), Rng("lp", 1, "t")
    )
    kinds = ("rockets-fired", "rockets-fired-ground", "rockets-held", "rockets-silenced",
             "ground-destroyed")  # fmt: skip
    return after, [(ev.kind, ev.data) for ev in events if ev.kind in kinds]


def post(kind: str = "caa", side: str = "central", at: tuple[float, float] = POST) -> GroundElement:
    return GroundElement(id=f"{side[0]}-X1", kind=kind, side=side, x=at[0], y=at[1])  # type: ignore[arg-type]


def test_with_no_balloon_in_reach_the_rockets_hit_the_nearest_ground_post() -> None:
    after, told = run(ground={"c-X1": post()})
    assert told == [
        ("rockets-fired-ground", {"plane": "e", "post": "c-X1", "batches": 2, "damage": 4}),
        ("rockets-silenced", {"post": "c-X1"}),  # the smoke card: the AA gun is out
    ]
    hit = after.ground["c-X1"]
    assert hit.damage == 4 and hit.silenced and not hit.destroyed
    assert after.planes["e"].rockets == 0


def test_an_explosion_card_destroys_a_trench() -> None:
    explosion = [card_id("D", 0, "explosion"), card_id("D", 2, "none")]
    after, told = run(ground={"c-X1": post("trench")}, rockets=explosion)
    assert ("ground-destroyed", {"post": "c-X1", "by": "e"}) in told
    assert after.ground["c-X1"].destroyed and after.ground["c-X1"].destroyed_by == "e"


def test_a_bombing_target_counts_the_rockets_points() -> None:
    target = Objective(id="c-T1", kind="target", side="central", x=POST[0], y=POST[1])
    after, told = run(objectives={"c-T1": target})
    assert told[0] == (
        "rockets-fired-ground",
        {"plane": "e", "post": "c-T1", "batches": 2, "damage": 4},
    )
    assert after.objectives["c-T1"].damage == 4 and after.objectives["c-T1"].hit_by == "e"


def test_a_balloon_in_reach_goes_first_even_farther_than_a_post() -> None:
    low = Objective(id="c-B1", kind="balloon", side="central", x=15.0, y=11.5, level=1)
    after, told = run(ground={"c-X1": post()}, objectives={"c-B1": low})
    assert told[0] == ("rockets-fired", {"plane": "e", "objective": "c-B1", "batches": 2})
    assert after.ground["c-X1"].damage == 0 and after.objectives["c-B1"].damage > 0


def test_no_rockets_at_the_ground_from_too_high_behind_own_posts_or_sites() -> None:
    high, told = run(level=2, ground={"c-X1": post()})
    assert told == [("rockets-held", {"plane": "e"})] and high.planes["e"].rockets == 2
    assert high.ground["c-X1"].damage == 0
    _behind, told = run(ground={"c-X1": post(at=(2.0, 10.0))})
    assert told == [("rockets-held", {"plane": "e"})]
    own, told = run(ground={"e-X1": post(side="entente")})
    assert told == [("rockets-held", {"plane": "e"})] and own.ground["e-X1"].damage == 0
    site = Objective(id="c-R1", kind="recon", side="central", x=POST[0], y=POST[1])
    _recon, told = run(objectives={"c-R1": site})
    assert told == [("rockets-held", {"plane": "e"})]  # a site takes no damage: never aimed at
