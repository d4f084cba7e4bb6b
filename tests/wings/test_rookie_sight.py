"""The rookie stand-in sees the nets and the relief on the board (seed A.IV.i.2, F.V;
``engine.rulesets.wings.rookie``, ``engine.rulesets.wings.nets.ahead``), and nothing the enemy
keeps secret."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings import nets
from engine.rulesets.wings.fire import base_polygon
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.program import Program, parse_program, random_program
from engine.rulesets.wings.rookie import _heights, goal, rookie_program
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.turn import Turn, play_turn
from tests.wings.helpers import catalog, plane
from tests.wings.test_nets import barrage
from tests.wings.test_relief import PLATEAU, fly, low
from tests.wings.test_ring_nets import ringed

SEEDS = range(16)


def net_events(state: MissionState, program: Program, seed: int) -> list[str]:
    programs = {"e": program, "c": parse_program("S S S")}
    _, events = play_turn(catalog(), state, programs, Rng(str(seed), 1, "t"))
    return [e.kind for e in events if e.kind.startswith("net-") and e.data["plane"] == "e"]


def test_the_rookie_never_flies_into_a_barrage_or_a_ring_he_can_see() -> None:
    for state in (barrage(8.5), ringed(8.5)):
        flyer = state.planes["e"]  # level 2, heading at the balloons (level 3) on their line
        blind = 0
        for seed in SEEDS:
            stream = Rng(str(seed), 1, "ai").stream("e")
            assert net_events(state, rookie_program(catalog(), state, flyer, stream), seed) == []
            stream = Rng(str(seed), 1, "random").stream("e")
            drawn = random_program(catalog(), flyer, state.rules, 1, stream)
            blind += bool(net_events(state, drawn, seed))
        assert blind >= 4  # a blind program meets the same net often enough to tell


def test_the_rookie_keeps_off_a_hill_he_is_not_above() -> None:
    # Level 0 heading east at a plateau of floor 1, an enemy beyond it to chase: he cannot
    # get above it this turn (one counter at most), so he must not end over it.
    flyer = low("e", y=10.0, level=0, counters=0, x=5.0)
    enemy = plane("c", "camel", side="entente", x=18.0, y=10.0, heading=180.0, level=3)
    blind = 0
    for seed in SEEDS:
        state, _ = fly(PLATEAU, flyer, enemy, program="S S S", seed=str(seed))
        start = state.model_copy(
            update={"planes": {"e": flyer, "c": enemy}, "turn": 1, "finished": False}
        )
        assert goal(catalog(), start, flyer) == (enemy.x, enemy.y)  # beyond the hill
        stream = Rng(str(seed), 1, "ai").stream("e")
        chosen = rookie_program(catalog(), start, flyer, stream)
        _, events = play_turn(
            catalog(), start, {"e": chosen, "c": parse_program("S S S")}, Rng(str(seed), 1, "t")
        )
        assert not [e for e in events if e.kind == "crashed-into-relief"], chosen.cards
        drawn = random_program(catalog(), flyer, start.rules, 1, Rng(str(seed), 1, "r").stream("e"))
        _, events = play_turn(
            catalog(), start, {"e": drawn, "c": parse_program("S S S")}, Rng(str(seed), 1, "t")
        )
        blind += any(e.kind == "crashed-into-relief" for e in events)
    assert blind >= 3


def test_what_the_rookie_foresees_of_a_net_is_what_the_turn_does() -> None:
    """Every card of the plane's deck, from spots before, on and past the net and at three
    heights: the share ``nets.ahead`` finds after the first card decides the turn's event."""
    deck = catalog().maneuver_decks[catalog().planes["camel"].deck]
    checked = 0
    for shape in (barrage, ringed):
        for x in (8.0, 9.0, 9.8, 10.6, 11.4):
            for level, counters in ((2, 0), (3, 0), (3, 1)):
                state = shape(x, level=level, counters=counters)
                flyer = state.planes["e"]
                for card in deck.cards:
                    cards = (card.code, "S", "S")
                    height = _heights(catalog(), state, flyer, cards)[0]
                    move = catalog().move(catalog().planes[flyer.type], card.code)
                    x1, y1, heading = geo.apply_move(flyer.x, flyer.y, flyer.heading, move)
                    moved = flyer.model_copy(update={"x": x1, "y": y1, "heading": heading})
                    share = nets.ahead(
                        state, "entente", base_polygon(catalog(), moved), (flyer.x, flyer.y), height
                    )
                    work = Turn(catalog(), state, Rng("n", 1, "t"))
                    work.phase = 1
                    work.play_phase({"e": Program(cards=cards), "c": parse_program("S S S")})
                    caught = [e.kind for e in work.events if e.kind.startswith("net-")]
                    expected = (
                        []
                        if share <= geo.EPS
                        else ["net-crash" if share > 1 / 3 else "net-contact"]
                    )
                    assert caught == expected, (shape.__name__, x, level, counters, card.code)
                    checked += bool(expected)
    assert checked >= 20


def test_the_rookie_reads_no_secret_of_the_enemy() -> None:
    """Two boards differing only in what the balloon owner keeps to himself (his winch
    orders, his planes' damage cards and hidden specials): the rookie flies the same."""
    state = barrage(8.5).model_copy(update={"net_shape": "barrage"})
    enemy = state.planes["c"]
    secret = state.model_copy(
        update={
            "winch_orders": ("c-B1", "c-B2"),
            "planes": {
                **state.planes,
                "c": enemy.model_copy(update={"cards": (("A", 3), ("B", 7)), "damage": 0}),
            },
        }
    )
    flyer = state.planes["e"]
    for seed in SEEDS:
        picks = [
            rookie_program(catalog(), board, flyer, Rng(str(seed), 1, "ai").stream("e")).cards
            for board in (state, secret)
        ]
        assert picks[0] == picks[1]


def test_a_rookie_defender_meets_the_raider_where_he_will_be() -> None:
    """He makes for the raider's place after a turn's straights flown at the objective the
    raider carries his task for (public: where he stands, his type, where the defender's
    own objectives are), not for where he is now."""
    state = barrage(8.5)  # "e", an Entente fighter, carries the balloon-busting task
    raider = state.planes["e"]
    defender = state.planes["c"]
    length = catalog().move(catalog().planes[raider.type], "S").dx
    balloons = [(b.x, b.y) for b in state.objectives.values()]
    aim = min(balloons, key=lambda b: geo.distance((raider.x, raider.y), b))
    far = geo.distance((raider.x, raider.y), aim)
    part = min(1.0, 3 * length / far)
    expected = (raider.x + part * (aim[0] - raider.x), raider.y + part * (aim[1] - raider.y))
    target = goal(catalog(), state, defender)
    assert target is not None and target != (raider.x, raider.y)
    assert target == pytest.approx(expected)
    # Far from it, he expects him a turn's three straights along the way.
    distant = raider.model_copy(update={"x": 1.0})
    state = state.model_copy(update={"planes": {**state.planes, "e": distant}})
    target = goal(catalog(), state, defender)
    aim = min(balloons, key=lambda b: geo.distance((distant.x, distant.y), b))
    assert target is not None
    assert geo.distance((distant.x, distant.y), target) == pytest.approx(3 * length)
    assert geo.distance(target, aim) < geo.distance((distant.x, distant.y), aim)


def test_a_rookie_defender_takes_as_much_care_as_the_raider_on_his_run_in() -> None:
    """The raider weighs a thousand programs within a turn's flight of his objective; the
    defender then weighs as many, and only eight with the raider far off."""

    def cards_drawn(raider_x: float) -> int:
        state = barrage(raider_x)
        stream = Rng("care", 1, "ai").stream("c")
        count = 0
        choice = stream.choice

        def counted(seq):  # type: ignore[no-untyped-def]
            nonlocal count
            count += 1
            return choice(seq)

        stream.choice = counted  # type: ignore[method-assign]
        rookie_program(catalog(), state, state.planes["c"], stream)
        return count

    assert cards_drawn(8.5) >= 3 * 1000  # 4.5 bw from his balloons: on his run-in
    assert cards_drawn(1.0) <= 3 * (8 + 80)  # 12 bw off: the defender draws a handful


def test_a_rookie_defender_flies_to_shoot_at_a_raider_on_his_way_in() -> None:
    """A bomber a ruler past no-man's land flies straight at the deep target; the defender
    beyond it, head-on, picks programs that bring the bomber into his gun's arc and reach
    on the way (what he can read off the board), not only ones that end near him."""
    from tests.wings.test_mission_kinds import with_recon_crew

    mission, _, _ = generate_mission(
        catalog(), with_recon_crew(), Rng("r", 0, "b"), "bombing", enemy_zone=True
    )
    (target,) = mission.objectives.values()
    bomber = plane("r", "se5a", side="entente", x=6.0, y=target.y, heading=0.0, level=2)
    bomber = bomber.model_copy(update={"bombs": 1})
    defender = plane("d", "albatros_d3", side="central", x=19.7, y=target.y, heading=180.0)
    defender = defender.model_copy(update={"level": 2})
    state = mission.model_copy(update={"planes": {"r": bomber, "d": defender}, "ground": {}})
    shots, fired = 0, 0
    for seed in SEEDS:
        program = rookie_program(catalog(), state, defender, Rng(str(seed), 1, "ai").stream("d"))
        programs = {"r": parse_program("S S S"), "d": program}
        _, events = play_turn(catalog(), state, programs, Rng(str(seed), 1, "t"))
        his = [e for e in events if e.kind == "fire" and e.data["shooter"] == "d"]
        shots += len(his)
        fired += bool(his)
    assert fired >= 14  # nearly every time he gets a shot in
    assert shots >= 24  # and most often two of the turn's three fire steps


def test_a_rookie_defender_reads_no_secret_of_the_raiders() -> None:
    """Whether the enemy two-seater's observer is hurt is the enemy's secret (its life
    points are stripped from the other side's view), and so are its damage cards: two
    boards differing only in them, the defender flies the same, taking the two-seater for
    a raider either way."""
    from tests.wings.test_mission_kinds import with_recon_crew

    mission, _, _ = generate_mission(catalog(), with_recon_crew(), Rng("s", 0, "b"), "recon")
    camera = next(p for p in mission.planes.values() if catalog().planes[p.type].two_seater)
    hurt = camera.model_copy(
        update={"observer_lp": 1, "cards": (("A", 3), ("A", 5)), "damage": 6, "wounded": True}
    )
    secret = mission.model_copy(update={"planes": {**mission.planes, camera.id: hurt}})
    defenders = [p for p in mission.planes.values() if p.side != camera.side]
    for defender in defenders:
        assert goal(catalog(), mission, defender) == goal(catalog(), secret, defender)
        for seed in range(4):
            picks = [
                rookie_program(
                    catalog(), board, defender, Rng(str(seed), 1, "ai").stream(defender.id)
                ).cards
                for board in (mission, secret)
            ]
            assert picks[0] == picks[1], (defender.id, seed)
