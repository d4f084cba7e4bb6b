"""Ammunition cards (seed B.II) as a scenario switch."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings.missions import Sortie, new_mission
from engine.rulesets.wings.scenarios import BASE_RULES_ONLY
from engine.rulesets.wings.state import MissionRules
from engine.rulesets.wings.turn import Shot, Turn
from tests.wings.helpers import card_id, catalog, mission, plane, seen, stack
from tests.wings.test_turn import programs

FRONT = catalog().planes["camel"].guns[0]  # damage deck A


def sorties() -> list[Sortie]:
    return [
        Sortie(id="E1", type="camel", side="entente"),
        Sortie(id="E2", type="bristol_f2b", side="entente"),
        Sortie(id="C1", type="dr1", side="central"),
    ]


def test_each_gun_starts_with_eight_face_down_cards_valued_one_to_three() -> None:
    cat = catalog()
    state = new_mission(cat, sorties(), Rng("a", 0, "m"))
    for plane_ in state.planes.values():
        assert plane_.ammo is not None
        guns = cat.planes[plane_.type].guns
        assert set(plane_.ammo) == {gun.name for gun in guns}
        for gun in guns:
            ids = plane_.ammo[gun.name]
            deck = cat.damage_decks[gun.deck].expanded
            assert len(ids) == 8
            assert {deck[i % len(deck)].value for i in ids} <= {1, 2, 3}
            assert not set(ids) & set(state.decks[gun.deck].pile)  # off the common pile
    off = new_mission(cat, sorties(), Rng("a", 0, "m"), rules=MissionRules(ammunition=False))
    assert all(p.ammo is None for p in off.planes.values())
    assert not BASE_RULES_ONLY.ammunition


def test_a_deck_short_of_ammunition_is_dealt_evenly_round_the_guns() -> None:
    fighters = [Sortie(id=f"E{i}", type="camel", side="entente") for i in range(4)]
    fighters += [Sortie(id=f"C{i}", type="dr1", side="central") for i in range(4)]
    state = new_mission(catalog(), fighters, Rng("a", 0, "m"))
    counts = {p.id: len(p.ammo["front"]) for p in state.planes.values() if p.ammo}
    # Eight A planes share two copies of the A deck (26 cards of 1-3 each): 6 a gun.
    assert set(counts.values()) == {6} and len(counts) == 8


def duel(ammo: tuple[int, ...]) -> Turn:
    shooter = plane("s", type_="camel", side="entente", x=10.0, y=10.0, ammo={"front": ammo})
    victim = plane("t", type_="dr1", side="central", x=13.0, y=10.0)
    top = card_id("A", 4, "none")
    return Turn(catalog(), stack(mission(shooter, victim), "A", [top]), Rng("a", 1, "t"))


def test_a_shot_takes_its_first_card_from_the_ammunition_and_the_rest_from_the_pile() -> None:
    one, top = card_id("A", 1, "none"), card_id("A", 4, "none")
    work = duel((one, card_id("A", 2, "none")))
    work.deal([Shot("s", FRONT, "t", cards=2, bonus=0, aimed=False, short=True)])
    assert [card for _deck, card in work.planes["t"].cards] == [one, top]
    assert work.planes["t"].damage == 1 + 4
    assert work.planes["s"].ammo == {"front": (card_id("A", 2, "none"),)}


def test_a_gun_out_of_ammunition_does_not_fire() -> None:
    work = duel(())
    work.phase = 1
    work.play_phase(programs(s="S S S", t="S S S"))
    assert not any(e.kind == "fire" and e.data["shooter"] == "s" for e in work.events)
    armed = duel((card_id("A", 1, "none"),))
    armed.phase = 1
    armed.play_phase(programs(s="S S S", t="S S S"))
    assert any(e.kind == "fire" and e.data["shooter"] == "s" for e in armed.events)


def test_a_plane_shot_down_gives_its_unused_ammunition_under_the_common_pile() -> None:
    ammo = (card_id("A", 1, "none"), card_id("A", 2, "none"))
    work = duel(ammo)
    work.shoot_down("s", "shot_down", "t")
    from engine.rulesets.wings.ammunition import return_unused

    return_unused(work)
    assert tuple(work.piles["A"][-2:]) == ammo and work.planes["s"].ammo == {}


def test_even_the_owner_only_sees_how_many_cards_are_left() -> None:
    from engine.rulesets.wings import WingsRules

    state = WingsRules(catalog()).new("wings-1917", "ammo").camp
    assert state.mission is not None
    own = seen(state, "entente")["mission"]["planes"]
    for data in own.values():
        if data["side"] == "entente":
            assert data["ammo"] == {"front": 8}
        else:
            assert "ammo" not in data
    basic = WingsRules(catalog()).new("wings-1917-basic", "ammo").camp
    assert basic.mission is not None
    assert all(p.ammo is None for p in basic.mission.planes.values())


def test_strafing_spends_a_round_too() -> None:
    from engine.rulesets.wings.state import GroundElement

    one, two = card_id("A", 1, "none"), card_id("A", 2, "none")
    shooter = plane("s", type_="camel", side="entente", x=10.0, y=10.0, ammo={"front": (one, two)})
    post = GroundElement(id="c-trench1", kind="trench", side="central", x=12.0, y=10.0)
    state = mission(shooter, plane("t", type_="dr1", side="central", x=20.0, y=20.0))
    work = Turn(catalog(), state.model_copy(update={"ground": {post.id: post}}), Rng("a", 1, "t"))
    work.hit_ground([Shot("s", FRONT, "c-trench1", cards=1, bonus=0, aimed=False, short=False)])
    assert work.planes["s"].ammo == {"front": (two,)} and work.piles["A"][-1] == one
