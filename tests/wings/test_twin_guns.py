"""Twin guns (seed B.IV) as a scenario switch."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import catalog, mission, plane
from tests.wings.test_turn import programs

FRONT = catalog().planes["camel"].guns[0]  # twin guns, damage deck A
SINGLE = catalog().planes["spad7"].guns[0]  # one gun, deck B


def duel(
    shooter_type: str = "camel", twin_guns: bool = True, doubled: bool = True, **extra: object
) -> Turn:
    shooter = plane("s", type_=shooter_type, side="entente", x=10.0, y=10.0, **extra)  # type: ignore[arg-type]
    victim = plane("t", type_="dr1", side="central", x=13.0, y=10.0)
    state = mission(shooter, victim, twin_guns=twin_guns, doubled_specials=doubled)
    return Turn(catalog(), state, Rng("w", 1, "t"))


def test_a_green_jam_stops_one_twin_gun_a_red_or_second_green_both() -> None:
    work = duel(doubled=False)  # B.IX (doubled jams) apart
    work.apply_special("t", "jam_green", 0, "s", FRONT)
    s = work.planes["s"]
    assert s.half_jams == {"front": 3} and s.jams == {}
    work.apply_special("t", "jam_green", 0, "s", FRONT)
    s = work.planes["s"]
    assert s.half_jams == {} and s.jams == {"front": 3}  # two greens: both guns
    red = duel()
    red.apply_special("t", "jam_red", 0, "s", FRONT)
    assert red.planes["s"].jams == {"front": 3} and red.planes["s"].half_jams == {}
    off = duel(twin_guns=False)
    off.apply_special("t", "jam_green", 0, "s", FRONT)
    assert off.planes["s"].jams == {"front": 3}  # switch off: the usual jam
    single = duel("spad7")
    single.apply_special("t", "jam_green", 0, "s", SINGLE)
    assert single.planes["s"].jams == {"front": 3}  # one gun only: no twin to fall back on


def test_the_working_gun_fires_b_damage_and_the_jam_clears_only_when_it_rests() -> None:
    work = duel(half_jams={"front": 2})
    work.phase = 1
    work.play_phase(programs(s="S S S", t="S S S"))
    fired = [e for e in work.events if e.kind == "fire" and e.data["shooter"] == "s"]
    assert fired
    assert {deck for deck, _card in work.planes["t"].cards} == {"B"}  # single-gun damage
    assert work.planes["s"].half_jams == {"front": 2}  # busy firing: no work on the jam
    idle = duel(half_jams={"front": 2}, heading=180.0)  # facing away: nothing to fire at
    idle.phase = 1
    idle.play_phase(programs(s="S S S", t="S S S"))
    assert idle.planes["s"].half_jams == {"front": 1}
    idle.phase = 2
    idle.play_phase(programs(s="S S S", t="S S S"))
    assert idle.planes["s"].half_jams == {}


def duel_rules(**rules: bool) -> Turn:
    shooter = plane("s", type_="camel", side="entente", x=10.0, y=10.0)
    victim = plane("t", type_="dr1", side="central", x=13.0, y=10.0)
    return Turn(catalog(), mission(shooter, victim, **rules), Rng("w", 1, "t"))


def test_doubled_jams_last_the_mission_b9() -> None:
    from engine.rulesets.wings.twin import LASTING

    work = duel_rules()
    work.apply_special("t", "jam_green", 0, "s", FRONT)
    work.apply_special("t", "jam_green", 0, "s", FRONT)
    s = work.planes["s"]
    assert s.half_jams == {"front": LASTING} and s.jams == {}  # one twin gun for good
    work.phase = 1
    work.play_phase(programs(s="S S S", t="S S S"))
    assert work.planes["s"].half_jams == {"front": LASTING}
    red = duel_rules()
    red.apply_special("t", "jam_red", 0, "s", FRONT)
    red.apply_special("t", "jam_red", 0, "s", FRONT)
    assert red.planes["s"].jams == {"front": LASTING}  # no more fire this mission
    red.phase = 1
    red.play_phase(programs(s="S S S", t="S S S"))
    assert red.planes["s"].jams == {"front": LASTING}
    assert not any(e.kind == "fire" and e.data["shooter"] == "s" for e in red.events)
    off = duel_rules(doubled_specials=False)
    off.apply_special("t", "jam_green", 0, "s", FRONT)
    off.apply_special("t", "jam_green", 0, "s", FRONT)
    assert off.planes["s"].jams == {"front": 3} and off.planes["s"].half_jams == {}  # B.IV


def test_a_tinkerer_shakes_off_the_doubled_jam_but_not_the_third() -> None:
    from engine.rulesets.wings.twin import LASTING

    work = duel_rules()
    work.update("s", skills=("tinkerer",))
    for _ in range(2):
        work.apply_special("t", "jam_red", 0, "s", FRONT)
    assert work.planes["s"].jams == {"front": 3}
    work.apply_special("t", "jam_red", 0, "s", FRONT)
    assert work.planes["s"].jams == {"front": LASTING}
