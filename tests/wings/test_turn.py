"""A turn's three simultaneous phases: movement, altitude, fire, damage, specials and
destruction (seed A.I-A.IV, authored 4.1)."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import MissionState, Program
from engine.rulesets.wings.turn import Turn, play_turn
from tests.wings.helpers import card_id, catalog, mission, plane, stack


def programs(**texts: str) -> dict[str, Program]:
    return {pid: parse_program(text) for pid, text in texts.items()}


def phase(state: MissionState, progs: dict[str, Program], seed: str = "t") -> Turn:
    work = Turn(catalog(), state, Rng(seed, state.turn, "turn"))
    work.phase = 1
    work.play_phase(progs)
    return work


def duel(**target: object) -> MissionState:
    """An SE5a (twin guns, deck A damage) 2.3 bw behind an Albatros D.III, both flying east
    with the same card, so the gap stays the same after the move."""
    shooter = plane("se", type_="se5a", side="entente", x=10.0, y=10.0)
    victim = plane("alb", type_="albatros_d3", side="central", x=13.0 + 0.3, y=10.0, **target)  # type: ignore[arg-type]
    return mission(shooter, victim, collisions=False, tailing=False)


def test_a_short_range_burst_deals_two_a_cards() -> None:
    state = duel()
    # Deck E straight moves 3.0, deck J 2.7: the gap closes to 2.0 bw (short range).
    state = stack(state, "A", [card_id("A", 3, "none"), card_id("A", 4, "none")])
    work = phase(state, programs(se="S S S", alb="S S S"))
    assert work.planes["alb"].damage == 7
    fire = [e for e in work.events if e.kind == "fire"]
    assert [(e.data["shooter"], e.data["range"], e.data["cards"]) for e in fire] == [
        ("se", "short", 2)
    ]
    # The damage values are the target's secret.
    assert all(e.secret_for == "central" for e in work.events if e.kind == "damage-card")


def test_consecutive_fire_adds_one_except_on_zero_cards() -> None:
    state = duel()
    state = state.model_copy(
        update={
            "planes": {
                **state.planes,
                "se": state.planes["se"].model_copy(update={"aim": {"front": "alb"}}),
            }
        }
    )
    state = stack(state, "A", [card_id("A", 0, "none"), card_id("A", 2, "none")])
    work = phase(state, programs(se="S S S", alb="S S S"))
    assert work.planes["alb"].damage == 3  # 0 stays 0, 2 becomes 3


def test_destruction_and_kill_credit() -> None:
    state = duel(damage=12)  # D.III holds 14 points
    state = stack(state, "A", [card_id("A", 1, "none"), card_id("A", 1, "smoke")])
    work = phase(state, programs(se="S S S", alb="S S S"))
    victim = work.planes["alb"]
    assert victim.status == "shot_down" and victim.destroyed_by == "se"
    assert work.planes["se"].kills == ("alb",)
    assert any(e.kind == "crash" for e in work.events)


def test_explosion_and_its_blast() -> None:
    state = duel()
    wingman = plane("wing", type_="camel", side="entente", x=15.0, y=11.2, level=2)
    # The Albatros's gun is jammed, so only the SE5a's burst draws from the A deck.
    jammed = state.planes["alb"].model_copy(update={"jams": {"front": 3}})
    state = state.model_copy(update={"planes": {**state.planes, "alb": jammed}})
    state = state.model_copy(update={"planes": {**state.planes, "wing": wingman}})
    state = stack(
        state, "A", [card_id("A", 0, "explosion"), card_id("A", 2, "none"), card_id("A", 4, "none")]
    )
    work = phase(state, programs(se="S S S", alb="S S S", wing="ST S S"))
    assert work.planes["alb"].status == "exploded"
    assert work.planes["alb"].pilot_lp < 0
    # Seed B.VI: the Camel within R/2 at the same level takes the next A card; the burst's
    # second card is not drawn for a plane already gone.
    assert work.planes["wing"].damage == 2


def test_specials_smoke_fire_rudder_engine_and_jam() -> None:
    state = duel()
    state = stack(state, "A", [card_id("A", 2, "fire"), card_id("A", 0, "jam_red")])
    work = phase(state, programs(se="S S S", alb="S S S"))
    victim = work.planes["alb"]
    assert (victim.fire, victim.smoke) == (3, 3)
    # Three counters, the first discarded at the end of the shooter's next maneuver.
    assert work.planes["se"].jams == {"front": 3}

    state = duel()
    state = stack(state, "A", [card_id("A", 1, "rudder_left"), card_id("A", 2, "engine")])
    victim = phase(state, programs(se="S S S", alb="S S S")).planes["alb"]
    assert (victim.rudder, victim.rudder_until, victim.engine_hits) == ("L", 2, 1)


def test_pilot_wounds_follow_life_points() -> None:
    # Seed D.V: two wound cards take 10 LP to 0: seriously wounded, not dead (J 2).
    state = duel(pilot_lp=5, wounded=True)
    state = stack(state, "A", [card_id("A", 3, "pilot_wounded"), card_id("A", 0, "none")])
    victim = phase(state, programs(se="S S S", alb="S S S")).planes["alb"]
    assert victim.pilot_lp == 0 and victim.status == "flying" and victim.no_fire == 4
    state = duel(pilot_lp=4, wounded=True)
    state = stack(state, "A", [card_id("A", 3, "pilot_wounded"), card_id("A", 0, "none")])
    victim = phase(state, programs(se="S S S", alb="S S S")).planes["alb"]
    assert victim.pilot_lp < 0 and victim.status == "crashed"


def test_observer_takes_the_five() -> None:
    shooter = plane("se", type_="se5a", side="entente", x=10.0)
    bristol = plane("br", type_="halberstadt_cl2", side="central", x=13.3)
    state = mission(shooter, bristol, collisions=False)
    state = stack(state, "A", [card_id("A", 5, "pilot_wounded"), card_id("A", 0, "none")])
    victim = phase(state, programs(se="S S S", br="S S S")).planes["br"]
    assert (victim.pilot_lp, victim.observer_lp) == (10, 5)


def test_cards_are_dealt_from_the_letter_nearest_z() -> None:
    # Two duels in one phase: the Pfalz (deck K) is served before the Albatros (deck J).
    a = plane("se1", type_="se5a", side="entente", x=5.0, y=5.0)
    b = plane("alb", type_="albatros_d3", side="central", x=8.3, y=5.0)
    c = plane("se2", type_="se5a", side="entente", x=5.0, y=16.0)
    d = plane("pfz", type_="pfalz_d3a", side="central", x=8.1, y=16.0)
    state = mission(a, b, c, d, collisions=False)
    work = phase(state, programs(se1="S S S", alb="S S S", se2="S S S", pfz="S S S"))
    order = [e.data["plane"] for e in work.events if e.kind == "damage-card"]
    assert order == ["pfz", "alb", "pfz", "alb"]


def test_altitude_climb_dive_and_the_floor() -> None:
    camel = plane("c", type_="camel", side="entente", x=3, y=3, level=1, counters=2)
    far = plane("f", type_="dr1", side="central", x=20, y=20)
    state = mission(camel, far)
    after = phase(state, programs(c="CL S S", f="S S S")).planes["c"]
    assert (after.level, after.counters) == (2, 0)  # climb value 3 reached
    state = mission(plane("c", type_="camel", side="entente", x=3, y=3, level=1, counters=2), far)
    after = phase(state, programs(c="DV S S", f="S S S")).planes["c"]
    assert (after.level, after.counters) == (0, 1)  # seed A.III.b: from level 1 keep one
    state = mission(plane("c", type_="camel", side="entente", x=3, y=3, level=0), far)
    after = phase(state, programs(c="DV S S", f="S S S")).planes["c"]
    assert after.status == "crashed"


def test_one_climb_counter_a_turn() -> None:
    camel = plane("c", type_="camel", side="entente", x=3, y=3, level=1)
    far = plane("f", type_="dr1", side="central", x=20, y=20)
    state, _ = play_turn(
        catalog(), mission(camel, far), programs(c="S IM S", f="S S S"), Rng("x", 1, "t")
    )
    assert state.planes["c"].counters == 1
    state, _ = play_turn(catalog(), state, programs(c="CL S S", f="S S S"), Rng("x", 2, "t"))
    assert state.planes["c"].counters == 2


def test_over_the_ceiling_costs_a_card_and_a_spin() -> None:
    camel = plane("c", type_="camel", side="entente", x=3, y=3, level=3, counters=2)
    far = plane("f", type_="dr1", side="central", x=20, y=20)
    state = mission(camel, far)
    work = Turn(catalog(), state, Rng("s", 1, "t"))
    for number in (1, 2):
        work.phase = number
        work.play_phase(programs(c="CL S S", f="S S S"))
        if number == 1:
            assert work.planes["c"].spin and len(work.planes["c"].cards) == 1
    spun = work.planes["c"]
    assert spun.level == 2 and not spun.spin and spun.last_card == "ST"


def test_collision_risk_between_planes_crossing_paths() -> None:
    # Head-on at the same level: their paths meet during the move.
    a = plane("a", type_="camel", side="entente", x=8, y=10, heading=0)
    b = plane("b", type_="dr1", side="central", x=12, y=10, heading=180)
    hits = 0
    for seed in range(12):
        work = phase(
            mission(a, b, fire_prohibition=False), programs(a="S S S", b="S S S"), str(seed)
        )
        risks = [e for e in work.events if e.kind == "collision-risk"]
        assert len(risks) == 1
        collided = [e for e in work.events if e.kind == "collision"]
        if collided:
            hits += 1
            assert collided[0].data["deck"] == "A"  # head-on: angle over 90 degrees
            # Each takes two A cards (unless it blew up on the first one).
            for pid in ("a", "b"):
                held = [deck for deck, _ in work.planes[pid].cards]
                assert held == ["A", "A"] or work.planes[pid].status == "exploded"
    assert 0 < hits < 12  # a coin between left and right per pilot


def test_table_exit_counts_as_left() -> None:
    a = plane("a", type_="camel", side="entente", x=21.5, y=10, heading=0)
    b = plane("b", type_="dr1", side="central", x=2, y=2, heading=180)
    work = phase(mission(a, b), programs(a="S S S", b="S S S"))
    assert work.planes["a"].status == "left"


def test_tailing_behind_an_enemy() -> None:
    def tail(**hunter_kw: object) -> dict[str, str]:
        # The hunter's gun is jammed for the whole turn, so the prey survives to be tailed.
        hunter_kw.setdefault("jams", {"front": 9})
        hunter = plane("h", type_="camel", side="entente", x=10, y=10, **hunter_kw)  # type: ignore[arg-type]
        prey = plane("p", type_="dr1", side="central", x=12.5, y=10)
        state = mission(hunter, prey, collisions=False)
        end, _ = play_turn(catalog(), state, programs(h="S S S", p="S S S"), Rng("z", 1, "t"))
        assert end.planes["h"].status == "flying" and end.planes["p"].status == "flying"
        return end.pursuits

    # The Camel ends 1.6 bw behind the Dr.I, nose to tail: it tails, not the other way round.
    assert tail() == {"h": "p"}
    assert tail(smoke=5) == {}  # seed A.IV.d: a smoking plane cannot pursue
    assert tail(level=1) == {}  # seed A.IV.d: the pursuer must be level with or above


def test_same_seed_same_turn_byte_for_byte() -> None:
    a = plane("a", type_="camel", side="entente", x=8, y=10)
    b = plane("b", type_="dr1", side="central", x=12.5, y=10.5, heading=180)
    first = play_turn(catalog(), mission(a, b), programs(a="S BR S", b="S TL S"), Rng("q", 1, "t"))
    second = play_turn(catalog(), mission(a, b), programs(a="S BR S", b="S TL S"), Rng("q", 1, "t"))
    assert first[0].model_dump_json() == second[0].model_dump_json()
    assert [e.model_dump_json() for e in first[1]] == [e.model_dump_json() for e in second[1]]


@pytest.mark.parametrize("weather", ["heavy"])
def test_heavy_weather_turbulence(weather: str) -> None:
    a = plane("a", type_="camel", side="entente", x=3, y=3)
    b = plane("b", type_="dr1", side="central", x=19, y=19, heading=180)
    state = mission(a, b).model_copy(update={"weather": weather})
    state = stack(state, "B", [card_id("B", 1, "smoke"), card_id("B", 2, "none")])
    end, _events = play_turn(catalog(), state, programs(a="S S S", b="S S S"), Rng("w", 1, "t"))
    # Odd B card: one point, the smoke ignored; even card: nothing.
    assert (end.planes["a"].damage, end.planes["a"].smoke) == (1, 0)
    assert end.planes["b"].damage == 0


def test_jam_counters_run_out_after_three_more_maneuvers() -> None:
    state = duel()
    state = stack(state, "A", [card_id("A", 0, "jam_red"), card_id("A", 0, "none")])
    work = Turn(catalog(), state, Rng("j", 1, "t"))
    seen = []
    for number in (1, 2, 3):
        work.phase = number
        work.play_phase(programs(se="S S S", alb="S S S"))
        seen.append(dict(work.planes["se"].jams))
    assert seen == [{"front": 3}, {"front": 2}, {"front": 1}]
    assert [e.data["shooter"] for e in work.events if e.kind == "fire"] == ["se"]


def climb_state(level: int, counters: int, text: str, **kw: object) -> tuple[int, int]:
    camel = plane(
        "c", type_="camel", side="entente", x=3, y=3, level=level, counters=counters, **kw
    )  # type: ignore[arg-type]
    far = plane("f", type_="dr1", side="central", x=20, y=20, heading=180)
    state, _ = play_turn(
        catalog(), mission(camel, far), programs(c=text, f="S S S"), Rng("c", 1, "t")
    )
    after = state.planes["c"]
    return after.level, after.counters


def test_complex_maneuvers_change_altitude() -> None:
    assert climb_state(2, 0, "S IM S") == (2, 1)  # modern Immelmann: +1 counter
    assert climb_state(2, 1, "split_s: ST IM S") == (2, 0)  # Split-S: -1 counter
    assert climb_state(2, 0, "split_s: ST IM S") == (1, 2)  # no counter: borrow a level
    assert climb_state(3, 2, "forced_dive: ST DV S") == (1, 0)  # two levels in one turn
    ace = {"skills": ("piloting_ace",)}
    assert climb_state(2, 2, "controlled_dive_steep: S ST S", **ace) == (2, 0)
    assert climb_state(2, 0, "historical_immelmann: CL IM S", **ace) == (2, 0)


def test_shot_down_pilot_rides_the_wreck_down() -> None:
    # Seed B.VIII: one ruler ahead at level 2, then one A card per peg (three) for the pilot.
    state = duel(damage=13)
    blank = [
        i
        for i, c in enumerate(catalog().damage_decks["A"].expanded)
        if c.value == 0 and c.special == "none"
    ]
    wound = card_id("A", 3, "pilot_wounded")
    # The first card of the burst brings it down, so the second is never drawn.
    state = stack(state, "A", [card_id("A", 1, "none"), blank[0], wound, blank[1]])
    work = phase(state, programs(se="S S S", alb="S S S"))
    victim = work.planes["alb"]
    assert victim.status == "shot_down"
    # The wreck ends past x = 16.6, in the Central Powers' own quarter of the table.
    assert victim.crash_zone == "friendly"
    assert victim.pilot_lp == 10 - 3 - 5  # the wound card's points and its wound


def test_doubled_specials_become_permanent() -> None:
    work = Turn(catalog(), duel(), Rng("d", 1, "t"))
    work.apply_special("alb", "smoke", 1, "se", None)
    assert work.planes["alb"].smoke == 3
    work.apply_special("alb", "smoke", 2, "se", None)
    assert work.planes["alb"].smoke > 100  # seed B.IX: for the rest of the mission
    work.apply_special("alb", "engine", 2, "se", None)
    assert work.planes["alb"].status == "flying"
    work.apply_special("alb", "engine", 3, "se", None)
    assert work.planes["alb"].status == "shot_down"  # second engine hit


def test_the_lancaster_flies_its_thirteen_card_deck() -> None:
    # The bomber has no stall: an engine hit asks for a slow straight, a spin falls back on
    # its own card, and its turrets fire from their own points.
    lanc = plane("l", type_="lancaster", side="entente", x=6, y=10, engine_hits=1)
    fighter = plane("f", type_="fokker_d7", side="central", x=3.2, y=10.0)
    state = mission(lanc, fighter, collisions=False)
    end, events = play_turn(catalog(), state, programs(l="SS SF SS", f="S S S"), Rng("l", 1, "t"))
    fire = [(e.data["shooter"], e.data["gun"]) for e in events if e.kind == "fire"]
    assert ("l", "rear_turret") in fire
    assert end.planes["l"].x > 6


def test_a_burning_plane_draws_flames_before_the_first_card() -> None:
    burning = plane("b", type_="camel", side="entente", x=3, y=3, fire=3, smoke=3,
                    last_hit_by="f")  # fmt: skip
    far = plane("f", type_="dr1", side="central", x=19, y=19, heading=180)
    state = stack(mission(burning, far), "A", [card_id("A", 3, "rudder_left")])
    end, events = play_turn(catalog(), state, programs(b="S S S", f="S S S"), Rng("f", 1, "t"))
    after = end.planes["b"]
    # Only the points count: the rudder symbol on the flame card is ignored.
    assert (after.fire, after.damage, after.rudder) == (2, 3, None)
    assert after.smoke == 2  # one smoke counter gone at the end of the turn
    secret = [e for e in events if e.kind == "damage-card"]
    assert secret and all(e.secret_for == "entente" for e in secret)
