"""The authored dogfight model: responses, budgets, damage steps, attacks on formations."""

from __future__ import annotations

from collections.abc import Sequence

from engine.zero.cards import Card
from engine.zero.dogfight import (
    Plane,
    Sky,
    Source,
    attack_formation,
    budget,
    chain,
    discard_and_draw,
    fire,
    hurt,
    make_plane,
    maneuver,
    opening_hand,
    set_pos,
    wingman_shot,
)
from engine.zero.orders import Doctrine
from engine.zero.types import Band, Ordnance, Side
from tests.engine.strike_fixtures import AIRCRAFT, ANSWERS, VH, A, H, J, M, T, card, stacked


def _sky(cards: Sequence[Card] = ()) -> Sky:
    return Sky(stacked(cards), ANSWERS)


def _plane(
    sky: Sky,
    code: str,
    uid: str,
    *,
    side: Side = J,
    role: str = "leader",
    element: str = "E",
    band: Band = M,
    doctrine: Doctrine | None = None,
    skills: tuple[str, ...] = (),
    damage: int = 0,
    ordnance: Ordnance = Ordnance.NONE,
) -> Plane:
    plane = make_plane(
        uid,
        AIRCRAFT[code],
        side=side,
        role=role,  # type: ignore[arg-type]
        group="strike" if side is J else "cap",
        element=element,
        order=len(sky.planes),
        doctrine=doctrine or Doctrine(),
        band=band,
        skills=skills,
        damage=damage,
        ordnance=ordnance,
    )
    sky.planes.append(plane)
    return plane


def _pair(sky: Sky, a: Plane, b: Plane) -> None:
    a.mate, b.mate = b, a


# --- Responses (3.2.6) -----------------------------------------------------------------------


def test_barrel_roll_cancels_ims_and_same_title_answers_it() -> None:
    sky = _sky()
    att = _plane(sky, "A6M2", "Z")
    dfd = _plane(sky, "P-40B", "P", side=A)
    ims = card(T.IMS, 1, 2)
    dfd.hand = [card(T.BR)]
    played: list[tuple[str, int]] = [("Z", ims.id)]
    mine, theirs = [Source(att, att.hand, False)], [Source(dfd, dfd.hand, False)]
    assert chain(sky, att, ims, mine, theirs, played) is False
    assert len(played) == 2
    dfd.hand.append(card(T.BR))
    att.hand.append(card(T.BR))  # the same title answers a response
    played = [("Z", ims.id)]
    assert chain(sky, att, ims, mine, theirs, played) is True
    assert [who for who, _ in played] == ["Z", "P", "Z"]


def test_an_ims_is_no_answer_to_an_ims_and_scissors_needs_a_bad_position() -> None:
    sky = _sky()
    att = _plane(sky, "A6M2", "Z")
    dfd = _plane(sky, "P-40B", "P", side=A)
    dfd.hand = [card(T.IMS, 1, 1), card(T.SC)]
    ims = card(T.IMS, 1, 1)
    assert chain(sky, att, ims, [], [Source(dfd, dfd.hand, True)], [("Z", ims.id)]) is True
    man = card(T.MAN)
    assert chain(sky, att, man, [], [Source(dfd, dfd.hand, False)], [("Z", man.id)]) is True
    set_pos(att, dfd, 1)  # the defender is now Disadvantaged: SCISSORS works
    assert chain(sky, att, man, [], [Source(dfd, dfd.hand, False)], [("Z", man.id)]) is False


def test_loaded_aircraft_cannot_play_the_banned_cards() -> None:
    """17.15: no MANEUVERING, HALF LOOP, SCISSORS or FULL THROTTLE while loaded."""
    sky = _sky()
    att = _plane(sky, "A6M2", "Z")
    val = _plane(sky, "D3A1", "V", side=A, ordnance=Ordnance.BOMB)
    val.hand = [card(T.FT)]
    man = card(T.MAN)
    assert chain(sky, att, man, [], [Source(val, val.hand, False)], [("Z", man.id)]) is True
    val.unload()
    assert chain(sky, att, man, [], [Source(val, val.hand, False)], [("Z", man.id)]) is False


def test_ace_pilot_only_saves_a_leader_from_a_flip() -> None:
    sky = _sky()
    p40 = _plane(sky, "P-40B", "P", side=A)  # flips at 4
    zero = _plane(sky, "A6M2", "Z", skills=("A",))  # flips at 3
    set_pos(p40, zero, 2)
    small, big = card(T.IMS, 1, 1), card(T.IMS, 2, 3)
    p40.hand = [small, big]
    p40.spent = 0
    filler = card(T.TT)
    zero.hand = [filler]
    fire(sky, p40, zero)
    # The big shot would flip the Zero: its pilot's Ace ability (19.25 A) turns the
    # TIGHT TURN into ACE PILOT. The small one lands.
    assert zero.damage == 1 and not zero.damaged
    assert not zero.ace and "ace:Z" in sky.notes
    assert [e["note"] for e in sky.exchanges] == ["cancelled", "hit"]


# --- Budgets and attacks (3.2.5) -------------------------------------------------------------


def test_burst_budget_by_position() -> None:
    sky = _sky()
    p40 = _plane(sky, "P-40B", "P", side=A)  # Burst 3
    assert [budget(p40, pos, False) for pos in (2, 1, 0, -1, -2)] == [3, 2, 1, 0, 0]
    assert [budget(p40, pos, True) for pos in (2, 0, -1, -2)] == [3, 3, 3, -1]
    val = _plane(sky, "D3A1", "V")  # Burst 0 may still fire a 1B card when Tailing
    assert budget(val, 2, False) == 1
    ace = _plane(sky, "A6M2", "Z", skills=("BU",))
    assert budget(ace, 2, False) == 3


def test_fire_plays_the_most_damage_within_budget() -> None:
    sky = _sky()
    p40 = _plane(sky, "P-40B", "P", side=A)
    zero = _plane(sky, "Ki-43", "K")
    set_pos(p40, zero, 1)  # Advantaged: 2 bursts
    big, mid, small = card(T.IMS, 3, 4), card(T.IMS, 2, 3), card(T.IMS, 1, 1)
    p40.hand = [small, big, mid]
    fire(sky, p40, zero)
    assert [e["cards"][0][1] for e in sky.exchanges] == [mid.id]
    assert zero.damage == 3 and p40.hand == [small, big]


def test_maneuvering_to_tailing_then_fire() -> None:
    sky = _sky()
    p40 = _plane(sky, "P-40B", "P", side=A)
    zero = _plane(sky, "A6M2", "Z")
    p40.hand = [card(T.HL), card(T.IMS, 3, 4)]
    maneuver(sky, p40, zero)
    assert p40.foe is zero and p40.pos == 2 and zero.pos == -2
    fire(sky, p40, zero)
    assert zero.destroyed  # 4 >= 3 + 1


def test_damage_steps_forced_jettison_and_promotion() -> None:
    """3.2.7 flip at U, destroyed at U + D; 18.22; the Wingman takes over as Leader."""
    sky = _sky([card(T.MAN) for _ in range(6)])
    val_l = _plane(sky, "D3A1", "V-L", ordnance=Ordnance.BOMB)
    val_w = _plane(sky, "D3A1", "V-W", role="wingman", ordnance=Ordnance.BOMB)
    _pair(sky, val_l, val_w)
    hurt(sky, val_l, 3)
    assert val_l.damaged and not val_l.destroyed and not val_l.loaded
    assert val_l.rat is AIRCRAFT["D3A1"].damaged
    assert "forced-jettison:V-L" in sky.notes
    hurt(sky, val_l, 2)
    assert val_l.destroyed and val_w.lead and len(val_w.hand) == 4
    hurt(sky, val_l, 5)
    assert val_l.damage == 5 and val_l.destroyed  # stays Destroyed, nothing more counted
    hurt(sky, val_w, -3)
    assert val_w.damage == 0  # damage is never negative


def test_skill_d_and_carried_damage() -> None:
    sky = _sky()
    tough = _plane(sky, "A6M2", "Z", skills=("D",))
    assert (tough.flip_at, tough.destroy_at) == (4, 6)
    worn = _plane(sky, "P-40B", "P", side=A, damage=5)
    assert worn.damaged and not worn.destroyed and worn.perf() == 4


def test_hand_limits_and_draw_by_band() -> None:
    sky = _sky([card(T.MAN) for _ in range(20)])
    zero = _plane(sky, "A6M2", "Z", skills=("P", "CV"))
    opening_hand(sky, zero)
    assert len(zero.hand) == 7  # Performance 6 + P
    zero.hand = zero.hand[:2]
    zero.band = VH
    discard_and_draw(sky, zero)
    assert len(zero.hand) == 4  # Horsepower 2 at Very High


def test_wingman_shot_uses_one_attack_card() -> None:
    sky = _sky([card(T.IMS, 1, 1), card(T.OTS, 2, 3), card(T.BR), card(T.MAN)])
    zero_w = _plane(sky, "A6M2", "Z-W", role="wingman")
    p40 = _plane(sky, "P-40B", "P", side=A)
    p40.hand = [card(T.BR)]  # BR cannot stop the OTS
    wingman_shot(sky, zero_w, p40)
    assert p40.damage == 3 and len(sky.exchanges) == 1


# --- 20.5 counter-fire example -----------------------------------------------------------------


def test_counter_fire_example_20_5() -> None:
    """A Zero Wingman against two B-17Es, one with 7 damage; an Unengaged P-40 helps."""
    zero_ims, zero_ots = card(T.IMS, 1, 2), card(T.OTS, 2, 3)
    zero_man, zero_tt = card(T.MAN), card(T.TT)
    b17_ims1, b17_ims2 = card(T.IMS, 1, 1), card(T.IMS, 1, 2)
    b17_spoil = card(T.MAN, spoiled=True)
    sky = _sky([zero_ims, zero_ots, zero_man, zero_tt, b17_ims1, b17_ims2, b17_spoil])
    fresh = _plane(sky, "B-17E", "B1", side=A, role="formation", element="F", band=H)
    hurt_b17 = _plane(sky, "B-17E", "B2", side=A, role="formation", element="F", band=H, damage=7)
    p40 = _plane(sky, "P-40B", "P40", side=A, band=H)
    p40_tt = card(T.TT)
    p40.hand = [p40_tt]
    zero_w = _plane(sky, "A6M2", "Z-W", role="wingman", band=H)

    attack_formation(sky, zero_w, [fresh, hurt_b17])

    select, first, second = sky.exchanges
    # 1. MANEUVERING to pick the hurt B-17; the P-40's TIGHT TURN, the Zero's TIGHT TURN.
    assert select["note"] == "select" and select["defender"] == "B2"
    assert select["cards"] == (("Z-W", zero_man.id), ("P40", p40_tt.id), ("Z-W", zero_tt.id))
    # 2-3. The B-17 draws 3 (TD 2 + TS 1); the IMS is spoiled by the spoiling MANEUVERING.
    assert first["cards"] == (("Z-W", zero_ims.id), ("B2", b17_spoil.id))
    assert first["note"] == "spoiled" and first["damage_to_defender"] == 0
    # 4. The OTS hits for 3 (total 10: Damaged); the B-17's IMS (2D) hurts the Zero.
    assert second["cards"] == (("Z-W", zero_ots.id), ("B2", b17_ims2.id))
    assert second["damage_to_defender"] == 3 and second["damage_to_attacker"] == 2
    assert hurt_b17.damage == 10 and hurt_b17.damaged and zero_w.damage == 2
    # 5. The Damaged B-17 leaves the formation: no Turret Support from its partner.
    assert hurt_b17.formation != fresh.formation
    assert not fresh.damaged and fresh.damage == 0


def test_counter_fire_outcomes_table_20_52() -> None:
    """IMS without spoil: both hit; spoil only: nothing; spoiling IMS: spoiled, fighter hit."""
    for answer, to_bomber, to_fighter in (
        (card(T.IMS, 1, 2), 1, 2),
        (card(T.HL, spoiled=True), 0, 0),
        (card(T.IMS, 2, 2, spoiled=True), 0, 2),
        (card(T.BR), 1, 0),  # not a legal counter-fire card: the bomber takes the hit
    ):
        attack = card(T.IMS, 1, 1)
        sky = _sky([attack, card(T.SC), answer])
        ki21 = _plane(sky, "Ki-21", "K", role="formation", element="F")
        buffalo = _plane(sky, "Buffalo-I", "B-W", side=A, role="wingman")
        buffalo.doctrine = Doctrine(attack_angle="head-on")  # 20.31: Off + Def - 1 = 2 cards
        ki21.rat = ki21.rat.model_copy(update={"turret_defense": 2})  # 2 - 1 (head-on) = 1
        attack_formation(sky, buffalo, [ki21])
        assert (ki21.damage, buffalo.damage) == (to_bomber, to_fighter)


def test_leader_gets_two_extra_bursts_against_bombers() -> None:
    """20.22: a Burst 2 Zero Leader can fire a 3B + 1B pair (budget 4) at a bomber."""
    sky = _sky([card(T.SC)])  # the bomber's mini-hand: TD 1, no mate
    zero = _plane(sky, "A6M2", "Z", band=M)
    ki21 = _plane(sky, "Ki-21", "K", role="formation", element="F")
    three, one = card(T.IMS, 3, 4), card(T.IMS, 1, 1)
    zero.hand = [three, one]
    attack_formation(sky, zero, [ki21])
    assert ki21.damage == 5 and zero.spent == 4 and zero.hand == []
