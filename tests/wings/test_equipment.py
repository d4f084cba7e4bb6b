"""Pilot equipment bought with VP between missions (seed D.VIII)."""

from __future__ import annotations

import pytest

from bot import secrecy
from engine.rng import Rng
from engine.rulesets.wings import SCENARIOS, WingsRules, equipment
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.missions import Sortie, new_mission
from engine.rulesets.wings.pilots import after_mission, skills_due, spendable_vp
from engine.rulesets.wings.state import CampaignState, GroundElement, MissionRules, Objective
from engine.rulesets.wings.turn import Shot, Turn
from tests.wings.helpers import card_id, catalog, mission, pilot, plane, seen, stack
from tests.wings.test_turn import duel, phase, programs

BLANK = card_id("A", 0, "none")


def _debrief(**p1: object) -> CampaignState:
    """The wings-1917 squadrons at a debrief, the Entente's Albert Ball (P1, a Hothead)
    and Cecil Lewis (P2, a Knight) changed as asked."""
    _, date, missions, squadrons = SCENARIOS["wings-1917"]
    state = wings.new_campaign(catalog(), "kit", squadrons, date=date, missions=missions)
    pilots = dict(state.pilots)
    pilots["P1"] = pilots["P1"].model_copy(update=p1)
    return state.model_copy(update={"phase": "debrief", "pilots": pilots})


def _asked(state: CampaignState, pid: str = "P1") -> wings.Decision:
    return next(d for d in wings.pending(catalog(), state) if d.field == f"equip:{pid}")


def _buy(state: CampaignState, item: str, pid: str = "P1") -> CampaignState:
    choices = wings.defaults(wings.pending(catalog(), state))
    choices[state.pilots[pid].side][f"equip:{pid}"] = item
    after, events = wings.resolve(catalog(), state, choices, Rng("kit", 1, "debrief"))
    bought = [e for e in events if e.kind == "equipment-bought"]
    assert all(e.secret_for == state.pilots[pid].side for e in bought)
    return after


# --- spending VP --------------------------------------------------------------------------


def test_only_the_vp_above_the_last_multiple_of_ten_may_be_spent() -> None:
    assert spendable_vp(pilot(id="a", name="a", kills=5, vp=23)) == 3
    state = _debrief(kills=5, vp=23)
    asked = _asked(state)
    assert asked.default == "none"
    assert {o.id for o in asked.options} == {
        "none",
        "extinguisher",
        "vest",
        "incendiary",
        "surplus",
        "parachute",
        "pistol",
        "bullets",
    }
    state = _buy(state, "vest")
    ball = state.pilots["P1"]
    assert (ball.vp, ball.vp_spent, ball.equipment) == (23, 2, {"vest": 5})
    state = state.model_copy(update={"phase": "debrief"})
    asked = _asked(state)  # 1 VP left above 20
    refused = {e.id: e.reason for e in asked.excluded}
    assert refused["parachute"] == "not-enough-vp" and refused["vest"] == "vest-worn"
    assert "extinguisher" in {o.id for o in asked.options}
    with pytest.raises(wings.IllegalChoice) as error:
        _buy(state, "parachute")
    assert error.value.reason == "not-enough-vp"
    state = _buy(state, "extinguisher")
    assert equipment.progression_vp(state.pilots["P1"]) == 20  # never below 20
    state = state.model_copy(update={"phase": "debrief"})
    assert "equip:P1" not in {d.field for d in wings.pending(catalog(), state)}


def test_a_pilot_on_a_multiple_of_ten_has_nothing_to_spend() -> None:
    state = _debrief(kills=5, vp=30)
    assert "equip:P1" not in {d.field for d in wings.pending(catalog(), state)}


def test_spent_vp_no_longer_count_towards_skills_and_status() -> None:
    # 41 VP earned, 3 of them spent: 38 count, one skill per full 20 (seed D.II), not two.
    spent = pilot(id="a", name="a", kills=5, vp=41, vp_spent=3)
    kept = spent.model_copy(update={"vp_spent": 0})
    assert skills_due(catalog(), kept) - skills_due(catalog(), spent) == 1
    veteran = spent.model_copy(update={"vp": 83})
    assert veteran.status == "veteran"  # 80 reached stays reached: only 3 were spendable
    assert veteran.model_copy(update={"vp": 82}).status == "ace"


def test_the_knight_never_buys_a_pistol_or_incendiary_bullets() -> None:
    _, date, missions, squadrons = SCENARIOS["wings-1917"]
    state = wings.new_campaign(catalog(), "kit", squadrons, date=date, missions=missions)
    pilots = dict(state.pilots)
    pilots["P2"] = pilots["P2"].model_copy(update={"kills": 5, "vp": 9})  # Cecil Lewis
    pilots["P1"] = pilots["P1"].model_copy(update={"kills": 5, "vp": 9})  # Albert Ball
    state = state.model_copy(update={"phase": "debrief", "pilots": pilots})
    knight = {e.id: e.reason for e in _asked(state, "P2").excluded}
    assert state.pilots["P2"].behaviour == "knight"
    assert knight["incendiary"] == knight["pistol"] == knight["bullets"] == "knight-refuses"
    hothead = _asked(state, "P1")
    assert "incendiary" in {o.id for o in hothead.options}
    assert {"pistol", "bullets"} <= {o.id for o in hothead.options}  # seed D.VIII, played
    with pytest.raises(wings.IllegalChoice) as error:
        _buy(state, "incendiary", "P2")
    assert error.value.reason == "knight-refuses"


def test_the_surplus_needs_the_ammunition_rule() -> None:
    state = _debrief(kills=5, vp=5)
    state = state.model_copy(update={"rules": MissionRules(ammunition=False)})
    assert {e.id: e.reason for e in _asked(state).excluded}["surplus"] == "needs-ammunition-rule"


def test_one_game_items_are_used_by_the_next_mission_and_the_rest_come_back() -> None:
    ball = pilot(name="a", equipment={"incendiary": 1, "surplus": 1, "extinguisher": 2, "vest": 5})
    flown = plane(
        "P1",
        type_="camel",
        side="entente",
        pilot="P1",
        kit={"incendiary": 1, "surplus": 1, "extinguisher": 1, "vest": 3},
    )
    back = equipment.after_mission(after_mission(catalog(), ball, flown, 0), flown.kit)
    assert back.equipment == {"extinguisher": 1, "vest": 3}
    dead = flown.model_copy(update={"pilot_lp": -1})
    lost = equipment.after_mission(after_mission(catalog(), ball, dead, 0), dead.kit)
    assert lost.state == "dead" and lost.equipment == {}


# --- in play ------------------------------------------------------------------------------


def test_the_extinguisher_puts_out_one_fire_and_the_card_goes_back() -> None:
    state = stack(duel(kit={"extinguisher": 1}), "A", [card_id("A", 2, "fire"), BLANK])
    fire_card = state.decks["A"].pile[0]
    work = phase(state, programs(se="S S S", alb="S S S"))
    victim = work.planes["alb"]
    assert (victim.fire, victim.smoke, victim.damage) == (0, 0, 2)  # its points still count
    assert ("A", fire_card) not in victim.cards and work.piles["A"][-1] == fire_card
    assert victim.kit == {"extinguisher": 0}
    used = [e for e in work.events if e.kind == "extinguisher"]
    assert len(used) == 1 and used[0].secret_for is None  # the enemy sees it act
    # Single use: the next fire burns.
    work.apply_special("alb", "fire", 2, "se", None)
    assert work.planes["alb"].fire == 3
    assert len([e for e in work.events if e.kind == "extinguisher"]) == 1


def test_the_vest_stops_one_wound_card_then_is_gone() -> None:
    state = stack(duel(kit={"vest": 5}), "A", [card_id("A", 3, "pilot_wounded"), BLANK])
    work = phase(state, programs(se="S S S", alb="S S S"))
    victim = work.planes["alb"]
    assert (victim.pilot_lp, victim.wounded, victim.damage) == (10, False, 3)
    assert victim.kit == {"vest": 0}
    told = [e for e in work.events if e.kind == "vest"]
    assert told and all(e.secret_for == "central" for e in told)  # a secret wound stays so
    work.apply_special("alb", "pilot_wounded", 3, "se", None)
    assert work.planes["alb"].pilot_lp == 5  # the vest served once


def test_the_vest_absorbs_five_points_of_direct_wounds() -> None:
    # Seed D.VII.b Excellent shot: a point to the pilot per card at short range.
    state = duel(kit={"vest": 5})
    shooter = state.planes["se"].model_copy(update={"skills": ("excellent_shot",), "tokens": 4})
    state = state.model_copy(update={"planes": {**state.planes, "se": shooter}})
    state = stack(state, "A", [card_id("A", 2, "none"), card_id("A", 3, "none")])
    work = phase(state, programs(se="S S S", alb="S S S"))
    victim = work.planes["alb"]
    assert (victim.pilot_lp, victim.kit) == (10, {"vest": 3})
    # A Killer's card of 4 points: 3 absorbed, the vest destroyed, 1 to the pilot.
    assert equipment.direct_wound(work, "alb", 4) == 1
    assert work.planes["alb"].kit == {"vest": 0}
    assert equipment.direct_wound(work, "alb", 2) == 2


def test_incendiary_bullets_change_the_damage_fire_and_engine_hits() -> None:
    shooter = {"kit": {"incendiary": 1}}
    for cards, damage in (((1, 2), 4), ((3, 0), 4), ((4, 5), 11)):
        state = duel()
        se = state.planes["se"].model_copy(update=shooter)
        state = state.model_copy(update={"planes": {**state.planes, "se": se}})
        stack_ids = [card_id("A", value, "none") for value in cards]
        work = phase(stack(state, "A", stack_ids), programs(se="S S S", alb="S S S"))
        assert work.planes["alb"].damage == damage, cards
        shown = [e for e in work.events if e.kind == "incendiary"]
        assert len(shown) == 1 and shown[0].secret_for is None
    work = Turn(catalog(), state, Rng("i", 1, "t"))
    work.apply_special("alb", "fire", 2, "se", None)
    assert work.planes["alb"].fire == 4  # one turn more
    work.apply_special("alb", "engine", 2, "se", None)
    assert work.planes["alb"].smoke >= 3  # an engine hit also smokes
    plain = Turn(catalog(), duel(), Rng("i", 1, "t"))
    plain.apply_special("alb", "fire", 2, "se", None)
    plain.apply_special("alb", "engine", 2, "se", None)
    assert plain.planes["alb"].fire == 3


def _se5a_firing(
    kit: dict[str, int], target: dict[str, object], special: str, value: int, rng_seed: str
) -> Turn:
    """An SE5a carrying ``kit`` with a Central target (``target``, put into the mission) in
    its sights, a far enemy plane, and the damage card (value, special) drawn next."""
    se = plane("se", type_="se5a", side="entente", kit=kit)
    state = mission(se, plane("far", side="central", x=20.0))
    state = stack(state.model_copy(update=target), "A", [card_id("A", value, special)])
    return Turn(catalog(), state, Rng(rng_seed, 1, "t"))


def _se5a_shot(target: str) -> Shot:
    return Shot("se", catalog().planes["se5a"].guns[0], target, 1, 0, False, True)


def test_incendiary_bullets_set_a_balloon_on_fire_with_any_special_but_a_jam() -> None:
    balloon = Objective(id="c-B1", kind="balloon", side="central", x=13.0, y=10.0, level=2)
    for kit, fire in (({"incendiary": 1}, 1), ({}, 0)):
        work = _se5a_firing(kit, {"objectives": {"c-B1": balloon}}, "rudder_left", 1, "b")
        work.hit_balloon(_se5a_shot("c-B1"))
        assert work.objectives["c-B1"].fire == fire
        assert work.objectives["c-B1"].damage == (0 if kit else 1)  # a 1 does nothing


def test_incendiary_bullets_hit_a_trench_harder() -> None:
    trench = GroundElement(id="c-I1", kind="trench", side="central", x=13.0, y=10.0)
    for kit, damage in (({"incendiary": 1}, 4), ({}, 2)):
        work = _se5a_firing(kit, {"ground": {"c-I1": trench}}, "none", 2, "g")
        work.hit_ground([_se5a_shot("c-I1")])
        assert work.ground["c-I1"].damage == damage


def test_the_ammunition_surplus_gives_half_as_many_cards_again() -> None:
    sorties = [
        Sortie(id="E1", type="camel", side="entente", kit={"surplus": 1}),
        Sortie(id="C1", type="dr1", side="central"),
    ]
    state = new_mission(catalog(), sorties, Rng("a", 0, "m"))
    assert state.planes["E1"].ammo is not None and state.planes["C1"].ammo is not None
    assert {len(cards) for cards in state.planes["E1"].ammo.values()} == {12}
    assert {len(cards) for cards in state.planes["C1"].ammo.values()} == {8}


def _shot_down(x: float, cards: list[int], level: int = 2, heading: float = 0.0) -> Turn:
    """The Albatros one point from going down, a parachute aboard, at ``x``, the SE5a
    3.3 bw behind it (both flying ``heading``, east or west)."""
    behind = -3.3 if heading == 0.0 else 3.3
    se = plane("se", type_="se5a", side="entente", x=x + behind, level=level, heading=heading)
    alb = plane(
        "alb", side="central", x=x, damage=13, kit={"parachute": 1}, level=level, heading=heading
    )
    state = stack(
        mission(se, alb, collisions=False, tailing=False), "A", [card_id("A", 1, "none"), *cards]
    )
    return phase(state, programs(se="S S S", alb="S S S"))


def test_the_parachute_lands_the_pilot_where_he_jumped() -> None:
    # Over no-man's-land (the middle half of the table): missing, only a rescue brings him.
    work = _shot_down(10.0, [card_id("A", 2, "none")])
    victim = work.planes["alb"]
    assert victim.status == "shot_down" and victim.kit == {"parachute": 0}
    assert (victim.pilot_lp, victim.crash_zone) == (8, "no_mans_land")
    assert [e.secret_for for e in work.events if e.kind == "parachute-missing"] == [None]
    assert not [e for e in work.events if e.kind == "crash"]  # he did not ride it down
    # Over his own lines (the Central quarter): home, and hurt (Wounded at best).
    home = _shot_down(17.5, [card_id("A", 0, "none")]).planes["alb"]
    assert (home.crash_zone, home.pilot_lp) == ("friendly", 5)
    ace = pilot(id="a", name="a", side="central", plane="albatros_d3")
    assert after_mission(catalog(), ace, home, 0).state == "wounded"
    # Over the enemy's: captured.
    taken = _shot_down(7.0, [card_id("A", 0, "none")], level=1, heading=180.0).planes["alb"]
    assert taken.crash_zone == "enemy"
    assert after_mission(catalog(), ace, taken, 0).state == "captured"


def test_a_failed_chute_draws_two_more_cards_a_level() -> None:
    deck = catalog().damage_decks["A"].expanded
    plain = [i for i, c in enumerate(deck) if c.value in (2, 3) and c.special == "none"][:5]
    work = _shot_down(10.0, [card_id("A", 3, "pilot_wounded"), *plain])
    victim = work.planes["alb"]
    # Level 2: four more cards, points only; the fifth stays on the deck.
    assert victim.pilot_lp == 10 - 3 - sum(deck[i].value for i in plain[:4])
    assert victim.status == "shot_down" and work.piles["A"][0] == plain[4]
    assert [e.data["failed"] for e in work.events if e.kind == "parachute-killed"] == [True]


# --- secrecy ------------------------------------------------------------------------------


def test_the_enemy_never_sees_what_a_pilot_carries() -> None:
    def run(kit: dict[str, int]) -> tuple[CampaignState, list[object]]:
        rules = WingsRules(catalog())
        state = rules.new("wings-1917", "kit-secret")
        camp = state.camp
        pilots = dict(camp.pilots)
        pilots["P1"] = pilots["P1"].model_copy(update={"equipment": kit})
        assert camp.mission is not None
        planes = dict(camp.mission.planes)
        planes["P1"] = planes["P1"].model_copy(update={"kit": kit})
        mission_ = camp.mission.model_copy(update={"planes": planes})
        camp = camp.model_copy(update={"pilots": pilots, "mission": mission_})
        state = state.model_copy(update={"campaign": camp})
        events: list[object] = []
        for turn in range(1, 3):
            for kind in ("program", "reorder"):
                choices = rules.defaults(rules.pending(state))
                state, more = rules.resolve(state, choices, Rng("kit-secret", turn, kind))
                events += more
        return state.camp, events

    worn, worn_events = run({"vest": 5, "parachute": 1})
    bare, bare_events = run({})
    assert seen(worn, "central") == seen(bare, "central")
    assert worn_events == bare_events  # the public events
    assert seen(worn, "entente") != seen(bare, "entente")
    assert seen(worn, "entente")["pilots"]["P1"]["equipment"] == {"vest": 5, "parachute": 1}


# --- the panel's words --------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_owner_reads_each_item_its_price_and_effect_and_the_orders_wait_for_the_end(
    locale: str,
) -> None:
    from rendering.rulesets.wings import WingsPresenter
    from tests.test_french import problems

    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "kit-words")
    pilots = dict(state.camp.pilots)
    pilots["P2"] = pilots["P2"].model_copy(update={"kills": 5, "vp": 24})  # the Knight
    camp = state.camp.model_copy(update={"pilots": pilots, "phase": "debrief"})
    state = state.model_copy(update={"campaign": camp})
    asked = next(d for d in rules.pending(state) if d.field.startswith("equip:"))
    presenter = WingsPresenter()
    lines = presenter.option_lines("wings-1917", asked, locale)
    described = [presenter.option_description(asked.field, o, locale) for o in asked.options]
    refused = presenter.excluded_lines("wings-1917", asked, locale)
    picked = [presenter.option_text("wings-1917", asked.field, o.id, locale) for o in asked.options]
    # The order names the item; it reaches nobody else before the campaign ends (the field
    # is undeclared, so it opens then, and the debrief's receipts with it).
    assert rules.field_spec(asked.field) is None
    assert not secrecy.opens_before_the_end(rules, [asked.field, "mission"])
    assert all(len(text) <= 100 for text in described)
    words = " ".join([*lines, *described, *(f"{a} {b}" for a, b in refused)])
    if locale == "en":
        assert "Bulletproof vest" in lines[0] and "Parachute" in lines[0]
        assert "Bulletproof vest: 2 VP" in " ".join(described)
        assert ("Incendiary bullets", "a Knight of the Air never uses it") in refused
        assert "Bulletproof vest" in picked
    else:
        assert "Gilet pare-balles" in lines[0]
        assert "Gilet pare-balles" in picked
        assert not problems([("equipment", words), *(("picked", s) for s in picked)])


def test_the_owner_board_shows_what_his_pilot_carries_and_the_enemy_board_does_not() -> None:
    from rendering.rulesets.wings import WingsPresenter

    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "kit-board")
    camp = state.camp
    assert camp.mission is not None
    planes = dict(camp.mission.planes)
    planes["P1"] = planes["P1"].model_copy(update={"kit": {"vest": 3, "parachute": 1}})
    camp = camp.model_copy(update={"mission": camp.mission.model_copy(update={"planes": planes})})
    state = state.model_copy(update={"campaign": camp})
    presenter = WingsPresenter()

    def text(viewer: str | None) -> str:
        lines = presenter._plane_lines(rules.view(state, viewer), "en")
        return " ".join(line for line, _, _ in lines)

    assert "aboard: Parachute, Bulletproof vest 3/5" in text("entente")
    assert "aboard" not in text("central") and "aboard" not in text(None)
