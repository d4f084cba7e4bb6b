"""The Knight's capture, the Guardian Angel's help, the Rammer's collision and the Artist's
dodge (seed D.VI): each worked in a hand-placed situation, once a game, with its VP bonus
and the restrictions that come with the behaviour."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rng import Rng
from engine.rulesets.wings import behaviours
from engine.rulesets.wings.campaign import (
    IllegalChoice,
    PilotSetup,
    SquadronSetup,
    defaults,
    new_campaign,
    pending,
    resolve,
)
from engine.rulesets.wings.pilots import after_mission, allowed_skills
from engine.rulesets.wings.state import MissionState, Pilot, PlaneState
from engine.rulesets.wings.turn import Turn
from tests.wings.helpers import card_id, catalog, mission, plane, stack
from tests.wings.test_behaviours import fire_cards, first_phase
from tests.wings.test_turn import programs

WOUND = card_id("A", 3, "pilot_wounded")
BLANK = card_id("A", 0, "none")


def duel(shooter: dict[str, Any], target: dict[str, Any], **rules: bool) -> MissionState:
    """An SE5a 3.3 base widths behind an Albatros at its level: a short-range shot of two A
    cards in the first maneuver if both fly straight (the Albatros's gun is jammed)."""
    se = plane("se", type_="se5a", side="entente", x=10, y=10, pilot="pe", **shooter)
    alb = plane("alb", type_="albatros_d3", side="central", x=13.3, y=10, pilot="pc",
                jams={"front": 5}, **target)  # fmt: skip
    rules.setdefault("collisions", False)
    return mission(se, alb, **rules)


def with_orders(state: MissionState, **orders: str) -> MissionState:
    return state.model_copy(update={"orders": orders})


def events(work: Turn, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in work.events if e.kind == kind]


# --- Knight of the Air ------------------------------------------------------------------


def knight_kills(order: str | None = None, **knight: Any) -> Turn:
    """The Knight's first card wounds the Albatros's already wounded pilot: he dies."""
    state = stack(duel({"behaviour": "knight", **knight}, {"wounded": True, "pilot_lp": 4}),
                  "A", [WOUND, BLANK])  # fmt: skip
    if order is not None:
        state = with_orders(state, se=order)
    return first_phase(state, se="S S S", alb="S S S")


def test_the_knight_spares_and_captures_a_pilot_who_dies_under_his_fire() -> None:
    work = knight_kills()  # no order given: sparing is the Knight's default
    victim, knight = work.planes["alb"], work.planes["se"]
    assert victim.status == "crashed" and victim.destroyed_by == "se"
    assert (victim.pilot_lp, victim.captured_by) == (0, "se")
    assert (knight.power_used, knight.kills) == (True, ("alb",))
    assert events(work, "pilot-spared") == [{"plane": "se", "target": "alb"}]
    # The campaign: the spared pilot is a prisoner (only a rescue brings him back), and the
    # Knight scores his capture, not the killer's bonus of a dead pilot.
    cat = catalog()
    pilot = Pilot(id="pc", name="Wolff", side="central", behaviour="soldier", plane="albatros_d3")
    assert after_mission(cat, pilot, victim, 0).state == "captured"
    assert behaviours.vp_bonus(knight, work.planes) == 1


def test_the_knights_order_of_no_quarter_lets_the_pilot_die_and_keeps_the_power() -> None:
    work = knight_kills("kill")
    assert work.planes["alb"].pilot_lp < 0 and work.planes["alb"].captured_by is None
    assert work.planes["se"].power_used is False
    assert events(work, "pilot-spared") == []
    assert behaviours.vp_bonus(work.planes["se"], work.planes) == 0


def test_the_knight_spares_once_a_game_and_no_other_behaviour_does() -> None:
    assert knight_kills(power_used=True).planes["alb"].pilot_lp < 0
    for behaviour in ("soldier", "artist", "guardian_angel"):
        state = stack(duel({"behaviour": behaviour}, {"wounded": True, "pilot_lp": 4}),
                      "A", [WOUND, BLANK])  # fmt: skip
        work = first_phase(with_orders(state, se=behaviours.SPARE), se="S S S", alb="S S S")
        assert work.planes["alb"].pilot_lp < 0, behaviour


def test_an_exploded_plane_s_pilot_is_spared_too() -> None:
    # "Whatever the circumstances": even blown up under the Knight's fire.
    boom = card_id("A", 0, "explosion")
    work = first_phase(stack(duel({"behaviour": "knight"}, {}), "A", [boom, BLANK]),
                       se="S S S", alb="S S S")  # fmt: skip
    assert work.planes["alb"].status == "exploded"
    assert work.planes["alb"].captured_by == "se" and work.planes["alb"].pilot_lp == 0


def test_the_knight_may_never_be_a_killer() -> None:
    knight = Pilot(id="k", name="K", side="entente", behaviour="knight", plane="spad7",
                   skills=("very_good_shot", "sharpshooter", "excellent_shot"))  # fmt: skip
    legal, refused = allowed_skills(catalog(), knight)
    assert "killer" not in legal and ("killer", "barred-by-behaviour") in refused
    soldier = knight.model_copy(update={"behaviour": "soldier"})
    assert "killer" in allowed_skills(catalog(), soldier)[0]


# --- Guardian Angel ---------------------------------------------------------------------


def guarded(mate: dict[str, Any], angel: dict[str, Any] | None = None, **target: Any) -> Turn:
    """The Guardian Angel in the SE5a's seat, his teammate far off the fight."""
    state = duel({"behaviour": "guardian_angel", **(angel or {})}, target)
    friend = plane("mate", type_="se5a", side="entente", x=5, y=18, heading=180, **mate)
    state = state.model_copy(update={"planes": {**state.planes, "mate": friend}})
    return first_phase(state, se="S S S", alb="S S S", mate="S S S")


def test_the_guardian_angel_adds_a_card_against_the_pursuer_of_a_teammate_in_trouble() -> None:
    fired_at_mate = {"aim": {"front": "mate"}}
    work = guarded({"smoke": 2}, **fired_at_mate)
    assert fire_cards(work) == [3]
    assert (work.planes["se"].power_used, work.planes["se"].power_target) == (True, "alb")
    # "In trouble" is computed: 3 damage cards count too, two do not...
    assert fire_cards(guarded({"cards": (("A", 1), ("A", 2), ("A", 3))}, **fired_at_mate)) == [3]
    assert fire_cards(guarded({"cards": (("A", 1), ("A", 2))}, **fired_at_mate)) == [2]
    # ...nor a wounded pilot or a hit engine, secret to his side: the Angel's public extra
    # card would give them away.
    assert fire_cards(guarded({"wounded": True, "pilot_lp": 5}, **fired_at_mate)) == [2]
    assert fire_cards(guarded({"specials": ("engine",)}, **fired_at_mate)) == [2]
    # Not pursuing him (it fired at nobody, tails nobody): no help.
    assert fire_cards(guarded({"smoke": 2})) == [2]
    # Once a game.
    assert fire_cards(guarded({"smoke": 2}, {"power_used": True}, **fired_at_mate)) == [2]


def test_the_angel_s_help_never_tells_the_enemy_a_secret_wound() -> None:
    # Two runs differing only in the teammate's secret wound: the same public events.
    runs = [
        guarded({"wounded": wounded, "pilot_lp": 5 if wounded else 10}, aim={"front": "mate"})
        for wounded in (True, False)
    ]
    public = [[e.model_dump() for e in run.events if e.secret_for is None] for run in runs]
    assert public[0] == public[1]


def test_a_tailing_enemy_is_pursuing_the_teammate() -> None:
    state = duel({"behaviour": "guardian_angel"}, {})
    friend = plane("mate", type_="se5a", side="entente", x=5, y=18, heading=180, fire=2)
    state = state.model_copy(
        update={"planes": {**state.planes, "mate": friend}, "pursuits": {"alb": "mate"}}
    )
    assert fire_cards(first_phase(state, se="S S S", alb="S S S", mate="S S S")) == [3]


def test_no_skill_lessens_the_guardian_angel_s_card() -> None:
    # Snake turns unaimed 1s and 2s to 0, a token each: the first two cards, not the third.
    two = card_id("A", 2, "none")
    state = duel({"behaviour": "guardian_angel"},
                 {"aim": {"front": "mate"}, "skills": ("snake",), "tokens": 5})  # fmt: skip
    friend = plane("mate", type_="se5a", side="entente", x=5, y=18, heading=180, smoke=2)
    state = stack(state.model_copy(update={"planes": {**state.planes, "mate": friend}}),
                  "A", [two, two, two])  # fmt: skip
    work = first_phase(state, se="S S S", alb="S S S", mate="S S S")
    assert [e["value"] for e in events(work, "damage-card") if e["plane"] == "alb"] == [0, 0, 2]
    assert work.planes["alb"].damage == 2


def test_no_skill_lessens_the_opportunist_s_card_either() -> None:
    two = card_id("A", 2, "none")
    # The Opportunist's third card stands; a Soldier (no power here) fires two, both lessened.
    for behaviour, values in (("opportunist", [0, 0, 2]), ("soldier", [0, 0])):
        target = {"smoke": 2, "last_hit_by": "other", "skills": ("snake",), "tokens": 5}
        state = duel({"behaviour": behaviour}, target)
        work = first_phase(stack(state, "A", [two, two, two]), se="S S S", alb="S S S")
        dealt = [e["value"] for e in events(work, "damage-card") if e["plane"] == "alb"]
        assert dealt == values, behaviour


def test_the_guardian_angel_scores_only_if_he_downs_that_plane_himself() -> None:
    angel = plane("ga", side="entente", behaviour="guardian_angel", power_target="alb",
                  kills=("alb",))  # fmt: skip
    down = plane("alb", status="shot_down", destroyed_by="ga")
    assert behaviours.vp_bonus(angel, {"ga": angel, "alb": down}) == 1
    other_kill = angel.model_copy(update={"kills": ()})
    assert behaviours.vp_bonus(other_kill, {"ga": other_kill, "alb": down}) == 0


# --- Rammer -----------------------------------------------------------------------------


def collision(rammer: dict[str, Any], side: str = "central", seed: str = "ram") -> Turn:
    """Two planes colliding head-on (the first seed among a few whose turn cards match)."""
    for attempt in range(40):
        r = plane("r", type_="se5a", side="entente", behaviour="rammer", **rammer)
        foe = plane("foe", type_="albatros_d3", side=side, x=11, y=10, heading=180)
        work = Turn(catalog(), mission(r, foe), Rng(f"{seed}{attempt}", 1, "t"))
        work.phase = 1
        work.collide([("foe", "r")])
        if events(work, "collision"):
            return work
    raise AssertionError("no collision in 40 seeds")


def test_the_rammer_hands_one_of_his_collision_cards_to_the_enemy() -> None:
    work = collision({})
    rammer, foe = work.planes["r"], work.planes["foe"]
    assert (len(rammer.cards), len(foe.cards)) == (1, 3)  # he takes 1 card, the enemy 3
    deck = catalog().damage_decks["A"].expanded
    value = {"r": 0, "foe": 0}
    for pid in value:
        value[pid] = sum(deck[i % len(deck)].value for _, i in work.planes[pid].cards)
    assert (rammer.damage, foe.damage) == (value["r"], value["foe"])
    assert (rammer.power_used, rammer.power_target) == (True, "foe")
    assert events(work, "rammed") == [{"plane": "r", "target": "foe"}]


def test_the_rammer_rams_once_and_never_a_friend() -> None:
    again = collision({"power_used": True})
    assert (len(again.planes["r"].cards), len(again.planes["foe"].cards)) == (2, 2)
    friend = collision({}, side="entente")
    assert (len(friend.planes["r"].cards), len(friend.planes["foe"].cards)) == (2, 2)
    assert friend.planes["r"].power_used is False


def test_the_rammer_scores_when_his_collision_downs_the_enemy() -> None:
    work = collision({})
    assert behaviours.vp_bonus(work.planes["r"], work.planes) == 0  # both still fly
    # The same collision against a plane one point from going down.
    for attempt in range(40):
        r = plane("r", type_="se5a", side="entente", behaviour="rammer")
        foe = plane("foe", type_="albatros_d3", side="central", x=11, y=10, heading=180,
                    damage=catalog().planes["albatros_d3"].damage_points - 1)  # fmt: skip
        hit = Turn(catalog(), mission(r, foe), Rng(f"ram{attempt}", 1, "t"))
        hit.phase = 1
        hit.collide([("foe", "r")])
        if hit.planes["foe"].status != "flying":
            break
    assert hit.planes["foe"].status != "flying" and hit.planes["r"].power_downed
    assert behaviours.vp_bonus(hit.planes["r"], hit.planes) == 1


def rammer_campaign(skill: str) -> dict[str, Any]:
    return {
        "entente": SquadronSetup(
            name="A",
            players=2,
            pilots=(PilotSetup(name="R", behaviour="rammer", plane="spad7", skills=(skill,)),),
        ),
        "central": SquadronSetup(
            name="B",
            players=2,
            pilots=(PilotSetup(name="S", behaviour="soldier", plane="albatros_d3"),),
        ),
    }


def test_the_rammer_may_never_take_a_shooting_skill() -> None:
    cat = catalog()
    shooting = [key for key, skill in cat.skills.items() if skill.field == "tir"]
    with pytest.raises(IllegalChoice) as refused:
        new_campaign(cat, "r", rammer_campaign(shooting[0]))  # type: ignore[arg-type]
    assert refused.value.reason == "barred-by-behaviour"
    mechanic = next(key for key, skill in cat.skills.items() if skill.field == "mecanique")
    state = new_campaign(cat, "r", rammer_campaign(mechanic))  # type: ignore[arg-type]
    # Later picks (one owed here): every Tir skill is refused with its reason.
    rammer = next(p for p in state.pilots.values() if p.behaviour == "rammer")
    rammer = rammer.model_copy(update={"skill_picks": 1})
    state = state.model_copy(update={"pilots": {**state.pilots, rammer.id: rammer}})
    asked = next(d for d in pending(cat, state) if d.kind == "skill")
    assert {e.id for e in asked.excluded if e.reason == "barred-by-behaviour"} >= set(shooting)
    choices = defaults(pending(cat, state))
    choices["entente"][asked.field] = shooting[0]
    with pytest.raises(IllegalChoice) as picked:
        resolve(cat, state, choices, Rng("r", 1, "b"))
    assert picked.value.reason == "barred-by-behaviour"


# --- Artist -----------------------------------------------------------------------------


def artist_shot_at(order: str | None, shooter: dict[str, Any] | None = None,
                   **artist: Any) -> Turn:  # fmt: skip
    state = duel(shooter or {}, {"behaviour": "artist", **artist})
    if order is not None:
        state = with_orders(state, alb=order)
    return first_phase(state, se="S S S", alb="S S S")


def test_the_artist_cancels_a_short_range_shot_by_standing_order() -> None:
    work = artist_shot_at(behaviours.SHORT)
    assert fire_cards(work) == [2]  # the shot is declared...
    assert events(work, "shot-cancelled") == [
        {"plane": "alb", "shooter": "se", "gun": "front", "target": "alb"}
    ]
    assert work.planes["alb"].cards == () and work.planes["alb"].damage == 0  # ...and dodged
    assert work.planes["alb"].power_used is True


def test_the_artist_keeps_his_dodge_when_the_order_does_not_match() -> None:
    for order in (None, behaviours.OFF, behaviours.HEAVY):  # off by default; 2 cards < 3
        work = artist_shot_at(order)
        assert len(work.planes["alb"].cards) == 2, order
        assert work.planes["alb"].power_used is False and not events(work, "shot-cancelled")


def test_the_artist_cancels_even_a_shot_boosted_by_a_behaviour() -> None:
    # The Opportunist's extra card against a smoking plane makes it a 3-card shot.
    boosted = artist_shot_at(behaviours.HEAVY, {"behaviour": "opportunist"}, smoke=2,
                             last_hit_by="other")  # fmt: skip
    assert fire_cards(boosted) == [3] and events(boosted, "shot-cancelled")
    assert boosted.planes["alb"].cards == ()


def test_the_artist_dodges_once_a_game() -> None:
    assert len(artist_shot_at(behaviours.ANY, power_used=True).planes["alb"].cards) == 2
    work = artist_shot_at(behaviours.ANY)
    work.phase = 2
    work.play_phase(programs(se="S S S", alb="S S S"))  # fired at again, next maneuver
    assert len(events(work, "shot-cancelled")) == 1
    assert work.planes["alb"].cards != ()


# --- standing orders on the engine's panel ------------------------------------------------


def test_knights_and_artists_with_their_power_are_asked_for_a_standing_order() -> None:
    state = duel({"behaviour": "knight"}, {"behaviour": "artist"})
    asked = {d.field: d for d in behaviours.order_decisions(state)}
    assert [o.id for o in asked["order:se"].options] == ["spare", "kill"]
    assert asked["order:se"].default == "spare" and asked["order:alb"].default == "off"
    # The order in force is what a missed deadline keeps.
    kept = with_orders(state, alb="short")
    assert {d.field: d.default for d in behaviours.order_decisions(kept)}["order:alb"] == "short"
    spent = duel({"behaviour": "knight", "power_used": True}, {"behaviour": "soldier"})
    assert behaviours.order_decisions(spent) == []


def test_a_plane_with_no_dodge_left_is_not_asked() -> None:
    shot: PlaneState = artist_shot_at(behaviours.ANY).planes["alb"]
    state = duel({}, {})
    state = state.model_copy(update={"planes": {**state.planes, "alb": shot}})
    assert behaviours.order_decisions(state) == []


def test_a_spared_pilot_is_a_prisoner_his_squadron_may_fly_to_rescue() -> None:
    from engine.rulesets.wings.campaign import _debrief, mission_decision
    from tests.wings.test_pilots_campaign import squadrons

    cat = catalog()
    state = new_campaign(cat, "k", squadrons())  # type: ignore[arg-type]
    # P1 (the Knight) shot down P3, whose pilot died and was spared; P4's pilot died of
    # P2's fire, unspared: the Knight's capture stands beside an ordinary death.
    planes = [
        plane("P1", type_="nieuport17", side="entente", pilot="P1", behaviour="knight",
              kills=("P3",), power_used=True, power_target="P3"),
        plane("P2", type_="spad7", side="entente", pilot="P2", behaviour="hothead",
              kills=("P4",)),
        plane("P3", type_="albatros_d3", side="central", pilot="P3", status="crashed",
              destroyed_by="P1", crash_zone="friendly", pilot_lp=0, captured_by="P1"),
        plane("P4", type_="albatros_d3", side="central", pilot="P4", status="crashed",
              destroyed_by="P2", crash_zone="friendly", pilot_lp=-3),
    ]  # fmt: skip
    finished = mission(*planes).model_copy(update={"finished": True, "active": "entente"})
    after, _ = _debrief(cat, state.model_copy(update={"mission": finished}), Rng("k", 1, "m"), [])
    assert after.pilots["P3"].state == "captured" and after.pilots["P4"].state == "dead"
    # Kill + capture for the Knight, the Hothead's kill: 3 team VP, no killer's bonus.
    assert after.squadrons["entente"].score == 3

    # The Central squadron has a prisoner to rescue now (its planes still need a two-seater
    # for the mission): the rescue is refused for want of the plane, not of the pilot.
    def rescue_refusal(campaign: Any) -> str:
        decision = mission_decision(cat, campaign.model_copy(update={"active": "central"}))
        return next(e.reason for e in decision.excluded if e.id == "rescue")

    assert rescue_refusal(after) == "needs-two-seater"
    p3 = after.pilots["P3"].model_copy(update={"state": "active"})
    assert rescue_refusal(after.model_copy(update={"pilots": {**after.pilots, "P3": p3}})) == (
        "nobody-to-rescue"
    )
