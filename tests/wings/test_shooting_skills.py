"""Sharpshooter, Killer and Expert's eye (seed D.VII.b-c), as standing orders."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, shooting
from engine.rulesets.wings.turn import Shot, Turn
from tests.wings.helpers import card_id, catalog, mission, plane, seen, stack

FRONT = catalog().planes["camel"].guns[0]  # twin guns, damage deck A


def duel(skills: tuple[str, ...], top: list[int], tokens: int = 2, **target: object) -> Turn:
    shooter = plane("s", type_="camel", side="entente", skills=skills, tokens=tokens)
    victim = plane("t", type_="dr1", side="central", x=12.0, y=10.0, **target)  # type: ignore[arg-type]
    return Turn(catalog(), stack(mission(shooter, victim), "A", top), Rng("k", 1, "t"))


def aimed_shot() -> Shot:
    # Short range (2 cards), consecutive fire on the same target: the aiming +1.
    return Shot("s", FRONT, "t", cards=2, bonus=1, aimed=True, short=True)


def fire(work: Turn, shot: Shot) -> None:
    shooting.choose(work, shot)
    work.deal([shot])


ONE, FOUR, TWO = card_id("A", 1, "none"), card_id("A", 4, "none"), card_id("A", 2, "none")


def test_sharpshooter_draws_one_more_keeps_the_best_and_sends_the_spare_under() -> None:
    work = duel(("sharpshooter",), [ONE, FOUR, TWO])
    fire(work, aimed_shot())
    assert work.planes["t"].damage == 4 + 2  # the 1 left out, and no aiming +1 instead
    assert sorted(card for _deck, card in work.planes["t"].cards) == sorted([FOUR, TWO])
    assert work.piles["A"][-1] == ONE and ONE not in work.spent["A"]
    assert work.planes["s"].tokens == 1
    plain = duel((), [ONE, FOUR, TWO])
    fire(plain, aimed_shot())
    assert plain.planes["t"].damage == (1 + 1) + (4 + 1)  # the aiming +1 on each card
    unaimed = duel(("sharpshooter",), [ONE, FOUR, TWO])
    fire(unaimed, Shot("s", FRONT, "t", cards=2, bonus=0, aimed=False, short=True))
    assert unaimed.planes["t"].damage == 1 + 4 and unaimed.planes["s"].tokens == 2


def test_killer_gives_the_wound_card_to_the_pilot_and_the_other_to_the_plane() -> None:
    wound = card_id("A", 3, "pilot_wounded")
    work = duel(("killer",), [FOUR, wound])
    fire(work, Shot("s", FRONT, "t", cards=2, bonus=0, aimed=False, short=True))
    victim = work.planes["t"]
    # The pilot takes the card's 3 points plus the wound's 5: 10 - 8 = 2 LP.
    assert victim.pilot_lp == 2 and victim.wounded
    assert victim.damage == 4  # the aircraft only takes the other card
    assert work.planes["s"].ultimate_uses == 1 and work.planes["s"].tokens == 1
    # Without a wound card, the card with most points goes to the pilot.
    work = duel(("killer",), [TWO, FOUR])
    fire(work, Shot("s", FRONT, "t", cards=2, bonus=0, aimed=False, short=True))
    assert (work.planes["t"].pilot_lp, work.planes["t"].damage) == (6, 2)
    # Long range, or a fourth use in the game: an ordinary shot.
    far = duel(("killer",), [TWO, FOUR])
    fire(far, Shot("s", FRONT, "t", cards=1, bonus=0, aimed=False, short=False))
    assert far.planes["t"].pilot_lp == 10 and far.planes["s"].tokens == 2
    spent = duel(("killer",), [TWO, FOUR])
    spent.update("s", ultimate_uses=3)
    fire(spent, Shot("s", FRONT, "t", cards=2, bonus=0, aimed=False, short=True))
    assert spent.planes["t"].pilot_lp == 10 and spent.planes["t"].damage == 6


def test_killer_cannot_single_out_a_ghost() -> None:
    from tests.wings.test_turn import programs

    shooter = plane("s", type_="camel", side="entente", x=10.0, y=10.0, skills=("killer",),
                    tokens=2)  # fmt: skip
    target = plane("t", type_="dr1", side="central", x=13.0, y=10.0, skills=("ghost",))
    work = Turn(catalog(), mission(shooter, target), Rng("g", 1, "t"))
    work.phase = 1
    work.play_phase(programs(s="S S S", t="S S S"))
    assert any(e.kind == "fire" and e.data["shooter"] == "s" for e in work.events)
    assert work.planes["s"].tokens == 2 and work.planes["t"].pilot_lp == 10


def test_experts_eye_sees_his_specials_and_for_a_token_the_damage_of_planes_in_sight() -> None:
    smoke_free = card_id("A", 1, "rudder_left")
    work = duel(("experts_eye",), [smoke_free])
    work.apply_card("t", work.catalog.damage_decks["A"].expanded[smoke_free], "s", FRONT)
    seen = [e for e in work.events if e.kind == "special-seen"]
    assert [(e.data["special"], e.secret_for) for e in seen] == [("rudder_left", "entente")]
    assert work.planes["s"].tokens == 2  # this part is free
    work.update("t", cards=(("A", smoke_free),))  # the card it took
    work.end_of_turn()
    assert work.planes["s"].eyeing == ("t",) and work.planes["s"].tokens == 1
    unhurt = duel(("experts_eye",), [])
    unhurt.end_of_turn()  # an empty pile is not worth a token
    assert unhurt.planes["s"].eyeing == () and unhurt.planes["s"].tokens == 2
    # Out of sight (two levels apart): no look, no token.
    high = duel(("experts_eye",), [], level=4, cards=(("A", smoke_free),))
    high.end_of_turn()
    assert high.planes["s"].eyeing == () and high.planes["s"].tokens == 2


def test_the_expert_side_view_shows_the_damage_he_saw_and_no_one_else_does() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "eye")
    campaign = state.camp
    assert campaign.mission is not None
    ours = next(p for p in campaign.mission.planes.values() if p.side == "entente")
    theirs = next(p for p in campaign.mission.planes.values() if p.side == "central")
    planes = {
        **campaign.mission.planes,
        ours.id: ours.model_copy(update={"eyeing": (theirs.id,)}),
        theirs.id: theirs.model_copy(update={"damage": 3, "cards": (("A", 7),)}),
    }
    campaign = campaign.model_copy(
        update={"mission": campaign.mission.model_copy(update={"planes": planes})}
    )
    entente = seen(campaign, "entente")["mission"]["planes"][theirs.id]
    assert entente["damage"] == 3 and entente["cards"] == [["A", 7]]
    central = seen(campaign, "central")["mission"]["planes"][ours.id]
    assert "eyeing" not in central  # whom he watches stays his side's
    public = rules.view(state.model_copy(update={"campaign": campaign}), None)
    assert "damage" not in public.data["mission"]["planes"][theirs.id]
