"""The protective ring of nets and nets bought as a defence (seed A.IV.i.2, E.II.b;
``engine.rulesets.wings.nets``)."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.generator import generate_mission, sortie_cost
from engine.rulesets.wings.nets import price, ring_sections
from engine.rulesets.wings.state import CampaignState, MissionRules, MissionState, Objective
from tests.wings.helpers import catalog
from tests.wings.test_mission_kinds import with_recon_crew
from tests.wings.test_nets import barrage, kinds, phases


def site(oid: str, x: float, y: float, **extra: object) -> Objective:
    fields: dict[str, object] = {"level": 3, **extra}
    return Objective(id=oid, kind="balloon", side="central", x=x, y=y, **fields)  # type: ignore[arg-type]


def ringed(x: float, y: float = 10.0, **extra: object) -> MissionState:
    """The plane "e" flying east at (x, y), towards a ring of three balloons: c-B1 and c-B2
    on the line x = 13 (the section between them faces it), c-B3 behind at x = 17."""
    state = barrage(x, **extra)
    flyer = state.planes["e"].model_copy(update={"y": y})
    objectives = {
        "c-B1": site("c-B1", 13.0, 6.0),
        "c-B2": site("c-B2", 13.0, 14.0),
        "c-B3": site("c-B3", 17.0, 10.0),
    }
    return state.model_copy(
        update={
            "objectives": objectives,
            "net_shape": "ring",
            "planes": {**state.planes, "e": flyer},
        }
    )


def test_the_ring_runs_round_the_balloons() -> None:
    state = ringed(10.0)
    pairs = {frozenset((a.id, b.id)) for a, b in ring_sections(state.objectives)}
    assert pairs == {frozenset(p) for p in (("c-B1", "c-B2"), ("c-B2", "c-B3"), ("c-B3", "c-B1"))}
    two = {k: v for k, v in state.objectives.items() if k != "c-B3"}
    assert [(a.id, b.id) for a, b in ring_sections(two)] == [("c-B1", "c-B2")]
    line = {**two, "c-B3": site("c-B3", 13.0, 20.0)}  # three in a line: a chain, not closed
    assert [(a.id, b.id) for a, b in ring_sections(line)] == [("c-B1", "c-B2"), ("c-B2", "c-B3")]


def test_crossing_a_ring_section_destroys_touching_it_costs_two_a_cards() -> None:
    work = phases(ringed(10.0), 1)  # ends with 0.5 of its 1.4 bw past c-B1–c-B2
    assert kinds(work) == ["net-crash"] and work.planes["e"].status != "flying"
    work = phases(ringed(9.8), 1)  # 0.3 of 1.4 bw past it: a touch
    e = work.planes["e"]
    assert kinds(work) == ["net-contact"] and e.net_contact
    assert [deck for deck, _card in e.cards] == ["A", "A"]
    work.phase = 2
    from tests.wings.test_turn import programs

    work.play_phase(programs(e="S S S", c="S S S"))
    assert kinds(work) == ["net-contact", "net-crash"]  # still touching: destroyed


def test_the_ring_leaves_the_table_open_beyond_it_and_above_it() -> None:
    # Where the barrage would run on to the table's edge, the ring hangs nothing.
    assert kinds(phases(barrage(10.0).model_copy(update={"planes": ringed(10.0, 3.0).planes}), 1))
    assert kinds(phases(ringed(10.0, y=3.0), 1)) == []
    assert kinds(phases(ringed(10.0, level=3, counters=1), 1)) == []  # above the balloons
    # A section falls with one of its balloons, shot down or winched to the ground.
    for gone in ({"destroyed": True}, {"hauled_down": True}):
        state = ringed(10.0)
        down = state.objectives["c-B2"].model_copy(update=gone)
        state = state.model_copy(update={"objectives": {**state.objectives, "c-B2": down}})
        assert kinds(phases(state, 1)) == []


def campaign(rules: MissionRules, enemy_players: int | None = None) -> CampaignState:
    state = with_recon_crew()
    state = state.model_copy(update={"rules": rules})
    if enemy_players is not None:
        central = state.squadrons["central"].model_copy(update={"players": enemy_players})
        state = state.model_copy(update={"squadrons": {**state.squadrons, "central": central}})
    return state


def test_the_generator_lays_a_ring_mission_as_a_triangle() -> None:
    state = campaign(MissionRules(net_shape="ring"))
    three, _points, _forces = generate_mission(catalog(), state, Rng("g", 1, "b"), "balloon", 3)
    assert three.nets and three.net_shape == "ring"
    border = catalog().rules.units.table[0] * 3 / 4
    xs = [three.objectives[f"c-B{i}"].x for i in (1, 2, 3)]
    assert xs[1] == border and xs[0] == xs[2] == border + catalog().rules.units.ruler / 2
    assert len(ring_sections(three.objectives)) == 3
    again, _points, _forces = generate_mission(catalog(), state, Rng("g", 1, "b"), "balloon", 3)
    assert again == three  # same seed, same mission
    barrage3, _p, _f = generate_mission(
        catalog(), campaign(MissionRules()), Rng("g", 1, "b"), "balloon", 3
    )
    assert barrage3.net_shape == "barrage" and len({b.x for b in barrage3.objectives.values()}) == 1


def test_the_defender_buys_the_net_when_its_points_pay_for_it_and_its_planes() -> None:
    assert price(2, 5) == 5 and price(3, 5) == 10
    free, points, _forces = generate_mission(
        catalog(), campaign(MissionRules(), 5), Rng("g", 1, "b"), "balloon", 2
    )
    assert free.nets and free.net_price == 0  # the switch off: free, as before
    buyer = campaign(MissionRules(nets_bought=True), 5)
    bought, points, forces = generate_mission(catalog(), buyer, Rng("g", 1, "b"), "balloon", 2)
    assert bought.nets and bought.net_price == 5 and points.enemy == 10
    # Its planes are bought with what is left (E.II.b: the net first).
    spent = sum(sortie_cost(catalog(), p, buyer.date) for p in forces["central"])
    assert forces["central"] and spent <= points.enemy - bought.net_price
    # Two players' four MP cannot pay 5: no net hangs.
    poor, _points, _forces = generate_mission(
        catalog(), campaign(MissionRules(nets_bought=True), 2), Rng("g", 1, "b"), "balloon", 2
    )
    assert not poor.nets and poor.net_price == 0


def test_a_net_lets_its_own_sides_planes_through() -> None:
    # The owner's pilots deploy and enter behind their nets: only the enemy is caught.
    for state in (barrage(10.0), ringed(10.0)):
        assert kinds(phases(state, 1)) == ["net-crash"]
        own = {k: b.model_copy(update={"side": "entente"}) for k, b in state.objectives.items()}
        assert kinds(phases(state.model_copy(update={"objectives": own}), 1)) == []


def test_the_attacker_is_paid_the_creation_tables_net_row_when_a_net_hangs() -> None:
    state = campaign(MissionRules())
    _one, plain, _forces = generate_mission(catalog(), state, Rng("g", 1, "b"), "balloon", 1)
    two, netted, _forces = generate_mission(catalog(), state, Rng("g", 1, "b"), "balloon", 2)
    assert two.nets and dict(netted.lines)["enemy ground defences"] == 1 + 2  # DCA + net
    assert dict(plain.lines)["enemy ground defences"] == 1  # the flak battery only
    poor = campaign(MissionRules(nets_bought=True), 2)  # cannot buy it: no net, no row
    _m, unnetted, _f = generate_mission(catalog(), poor, Rng("g", 1, "b"), "balloon", 2)
    assert dict(unnetted.lines)["enemy ground defences"] == 1


def test_a_gm_sets_the_net_s_shape_on_campaign_new_and_a_bad_shape_is_refused() -> None:
    # The shape is a named value, not on/off: the GM's switch offers "barrage" and "ring".
    import pytest as _pytest

    from bot.service_model import ServiceError
    from bot.switches import checked
    from engine.rulesets.wings import WingsRules
    from tests.wings.helpers import catalog as _catalog

    rules = WingsRules(_catalog())
    assert checked(rules, "wings-1917", {"net_shape": "ring"}) == {"net_shape": "ring"}
    ringed = rules.new_switched("wings-1917", "gm-ring", {"net_shape": "ring"})
    plain = rules.new_switched("wings-1917", "gm-ring", {})
    assert ringed.camp.mission is not None and plain.camp.mission is not None
    assert ringed.camp.mission.rules.net_shape == "ring"
    assert plain.camp.mission.rules.net_shape == "barrage"
    with _pytest.raises(ServiceError):
        checked(rules, "wings-1917", {"net_shape": "on"})
