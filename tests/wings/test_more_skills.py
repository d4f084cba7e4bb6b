"""The skills added with the mission types (seed D.VII.c-d): Système D, Tinkerer, Ghost."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.turn import PERMANENT, Turn
from tests.wings.helpers import catalog, mission, plane


def turn_with(**extra: object) -> Turn:
    extra.setdefault("tokens", 4)
    pilot = plane("p", type_="camel", side="entente", **extra)
    enemy = plane("e", type_="dr1", side="central", x=20.0, y=20.0)
    return Turn(catalog(), mission(pilot, enemy), Rng("s", 1, "t"))


def test_systeme_d_ignores_the_first_jammed_rudder_and_shortens_the_first_fire() -> None:
    work = turn_with(skills=("systeme_d",))
    work.apply_special("p", "rudder_left", 1, "e", None)
    assert work.planes["p"].rudder is None and work.planes["p"].tokens == 3
    work.apply_special("p", "rudder_right", 1, "e", None)
    assert work.planes["p"].rudder == "R"  # the second one bites
    work.apply_special("p", "fire", 2, "e", None)
    assert work.planes["p"].fire == 1  # for the next turn only
    work.apply_special("p", "fire", 2, "e", None)
    assert work.planes["p"].fire == PERMANENT  # doubled: lasting (B.IX)
    plain = turn_with()
    plain.apply_special("p", "fire", 2, "e", None)
    assert plain.planes["p"].fire == catalog().rules.fire.fire_counters


def test_tinkerer_turns_an_explosion_into_fire_and_resists_a_double() -> None:
    work = turn_with(skills=("tinkerer",))
    work.apply_special("p", "explosion", 0, "e", None)
    hit = work.planes["p"]
    assert hit.status == "flying" and hit.fire == 3 and hit.ultimate_uses == 1
    work.apply_special("p", "smoke", 1, "e", None)
    work.apply_special("p", "smoke", 1, "e", None)
    assert work.planes["p"].smoke < PERMANENT  # the double does not last...
    work.apply_special("p", "smoke", 1, "e", None)
    assert work.planes["p"].smoke == PERMANENT  # ...the third one does
    broke = turn_with(skills=("tinkerer",), tokens=0)
    broke.apply_special("p", "explosion", 0, "e", None)
    assert broke.planes["p"].status == "exploded"  # no token, no skill


def test_ghost_shrugs_off_the_first_wound_and_tir_skills_cannot_single_him_out() -> None:
    work = turn_with(skills=("ghost",))
    work.apply_special("p", "pilot_wounded", 3, "e", None)
    assert work.planes["p"].pilot_lp == 10 and not work.planes["p"].wounded
    work.apply_special("p", "pilot_wounded", 3, "e", None)
    assert work.planes["p"].pilot_lp == 5 and work.planes["p"].wounded


def test_a_very_good_shot_keeps_his_token_against_a_ghost() -> None:
    from tests.wings.test_turn import programs

    def tokens_left(target_skills: tuple[str, ...]) -> int:
        shooter = plane("s", type_="camel", side="entente", x=10.0, y=10.0,
                        skills=("very_good_shot",), tokens=2)  # fmt: skip
        target = plane("t", type_="dr1", side="central", x=13.0, y=10.0, skills=target_skills)
        work = Turn(catalog(), mission(shooter, target), Rng("g", 1, "t"))
        work.phase = 1
        work.play_phase(programs(s="S S S", t="S S S"))
        assert any(e.kind == "fire" and e.data["shooter"] == "s" for e in work.events)
        return work.planes["s"].tokens

    assert tokens_left(()) == 1
    assert tokens_left(("ghost",)) == 2
