"""Bombing (21.x), strafing (21.7) and flak (22.x), with the 22.3 Rail Yard example replayed."""

from __future__ import annotations

import pytest

from engine.zero.bombing import (
    Target,
    applied_result,
    bomb_card_count,
    bomb_run,
    cancel_best,
    choose_mode,
    result_points,
    strafe_card_count,
    strafe_run,
    strafe_worthwhile,
    target_flak_count,
)
from engine.zero.cards import Card
from engine.zero.dogfight import Plane, Sky, hurt, make_plane
from engine.zero.flak import area_flak, target_flak
from engine.zero.orders import Doctrine
from engine.zero.strike import Strike
from engine.zero.types import AircraftState, BombMode, Ordnance, Side
from tests.engine.strike_fixtures import (
    AIRCRAFT,
    ANSWERS,
    CATALOG,
    TARGETS,
    VL,
    A,
    H,
    J,
    L,
    M,
    R,
    T,
    bombers,
    card,
    element,
    make_setup,
    stacked,
)

SAT, LEVEL, DIVE, TORP = BombMode.SATURATION, BombMode.LEVEL, BombMode.DIVE, BombMode.TORPEDO


def _sky(cards: list[Card]) -> Sky:
    return Sky(stacked(cards), ANSWERS)


def _plane(
    sky: Sky,
    code: str,
    *,
    uid: str = "P",
    side: Side = J,
    role: str = "leader",
    band: object = M,
    ordnance: Ordnance = Ordnance.NONE,
    naval: bool = False,
    element_key: str = "E1",
    damage: int = 0,
) -> Plane:
    kind = AIRCRAFT[code]
    plane = make_plane(
        uid,
        kind,
        side=side,
        role=role,  # type: ignore[arg-type]
        group="strike",
        element=element_key,
        order=len(sky.planes),
        doctrine=Doctrine(),
        band=band,  # type: ignore[arg-type]
        ordnance=ordnance,
        mode=choose_mode(kind, ordnance, naval),
        damage=damage,
    )
    sky.planes.append(plane)
    return plane


def _quiet(n: int) -> list[Card]:
    """Cards that neither hurt nor spoil (SCISSORS, bombing Miss)."""
    return [card(T.SC) for _ in range(n)]


# --- Bombing Display (authored 3.4 with the seed's cells) -------------------------------


def test_level_bomb_cards_and_flak_by_band() -> None:
    assert [bomb_card_count(LEVEL, b, 1) for b in (VL, L, M)] == [2, 1, 0]  # 21.32, 22.3
    assert target_flak_count(3, LEVEL, VL) == 4  # 21.32
    assert target_flak_count(3, LEVEL, L) == 3  # 22.3 Ki-30
    assert target_flak_count(3, None, M) == 2  # 22.3: a fighter at Medium not bombing


def test_dive_card_counts_at_low_and_very_low() -> None:
    """21.43-21.44: Bomb rating +1 ending Low, +2 ending Very Low (and +1 flak)."""
    assert bomb_card_count(DIVE, L, 1) == 2
    assert bomb_card_count(DIVE, VL, 1) == 3
    assert bomb_card_count(DIVE, VL, 2) == 4
    assert bomb_card_count(DIVE, M, 1) == 0  # a dive cannot end at Medium
    assert target_flak_count(3, DIVE, L) == 3
    assert target_flak_count(3, DIVE, VL) == 4


def test_torpedo_one_card_and_saturation_counts() -> None:
    assert bomb_card_count(TORP, VL, 1) == 1  # 21.55
    assert bomb_card_count(TORP, L, 1) == 0  # 21.53: only at Very Low
    assert bomb_card_count(SAT, H, 6, norden=True) == 8  # 21.62 B-17
    assert bomb_card_count(SAT, M, 1) == 1  # 22.3 Ki-21
    assert bomb_card_count(SAT, M, 0, norden=True, extra=1) == 0  # a Damaged Ki-21 draws none
    assert bomb_card_count(LEVEL, L, 1, extra=1) == 2  # pilot BM (19.25)
    assert target_flak_count(3, SAT, M) == 3  # 22.3: unmodified for the Ki-21s
    assert target_flak_count(3, TORP, VL, mod=-1) == 3


def test_strafe_counts() -> None:
    assert strafe_card_count(0) == 1  # 21.73: minimum 1 (the Val)
    assert strafe_card_count(3, True) == 4  # skill S
    assert target_flak_count(4, None, VL, strafe=True) == 5  # 21.74: battleship 4 + 1


def test_mode_choice() -> None:
    """17.14, 21.22: torpedo only at a naval target; dive before level for fighter-bombers."""
    assert choose_mode(AIRCRAFT["B5N2"], Ordnance.TORPEDO, True) is TORP
    assert choose_mode(AIRCRAFT["B5N2"], Ordnance.TORPEDO, False) is LEVEL
    assert choose_mode(AIRCRAFT["D3A1"], Ordnance.BOMB, True) is DIVE
    assert choose_mode(AIRCRAFT["Ki-21"], Ordnance.BOMB, False) is SAT
    assert choose_mode(AIRCRAFT["Hurricane-IIB"], Ordnance.BOMB, False) is LEVEL
    assert choose_mode(AIRCRAFT["A6M2"], Ordnance.BOMB, False) is None
    assert choose_mode(AIRCRAFT["B5N2"], Ordnance.NONE, True) is None


# --- Results and points ---------------------------------------------------------------------


def test_saturation_example_21_62_against_a_ship() -> None:
    """21.62-21.63: a B-17 draws 6 + 2 (Norden); vs a ship Miss x6, Hit, Direct."""
    printed = [R.MISS, R.MISS, R.MISS, R.HIT, R.HIT, R.HIT, R.DIRECT, R.VITAL]
    sky = _sky([card(T.MAN, bombing=r) for r in printed] + _quiet(3))
    b17 = _plane(sky, "B-17E", role="formation", band=H, ordnance=Ordnance.BOMB, side=A)
    run = bomb_run(sky, b17, Target(TARGETS["4C"]))
    assert len(run["cards"]) == 8
    assert run["results"] == (R.MISS,) * 6 + (R.HIT, R.DIRECT)
    assert run["points"] == 2 + 4  # Destroyer Hit 2, Direct 4
    assert b17.ordnance is Ordnance.NONE  # 18.23
    ground = [applied_result(r, SAT, naval=False, mk13=False) for r in printed]
    assert ground == printed


def test_torpedo_doubles_destroyer_direct_4_to_8() -> None:
    """21.55 [EX]: Direct on a Destroyer is 4 points, by torpedo 8."""
    destroyer = TARGETS["4C"]
    assert result_points(R.DIRECT, LEVEL, destroyer) == 4
    assert result_points(R.DIRECT, TORP, destroyer) == 8
    assert result_points(R.MISS, TORP, destroyer) == 0
    sky = _sky([card(T.MAN, bombing=R.DIRECT), *_quiet(4)])
    kate = _plane(sky, "B5N2", band=VL, ordnance=Ordnance.TORPEDO, naval=True)
    run = bomb_run(sky, kate, Target(destroyer))
    assert run["mode"] is TORP and len(run["cards"]) == 1
    assert run["results"] == (R.DIRECT,) and run["points"] == 8
    assert len(sky.flak[-1]["cards"]) == 3 + 1  # torpedo run: Target Flak +1 (3.4)


def test_mk13_reads_hit_as_miss() -> None:
    assert applied_result(R.HIT, TORP, naval=True, mk13=True) is R.MISS
    assert applied_result(R.DIRECT, TORP, naval=True, mk13=True) is R.DIRECT
    assert applied_result(R.HIT, LEVEL, naval=True, mk13=True) is R.HIT  # bombs are fine
    sky = _sky([card(T.MAN, bombing=R.HIT), *_quiet(4)])
    tbd = _plane(sky, "TBD-1", band=VL, ordnance=Ordnance.TORPEDO, naval=True)
    run = bomb_run(sky, tbd, Target(TARGETS["4C"]))
    assert run["results"] == (R.MISS,) and run["points"] == 0


def test_result_shift_and_carrier_bonus_after_doubling() -> None:
    fleet = TARGETS["5A"]
    assert applied_result(R.DIRECT, LEVEL, naval=True, mk13=False, shift=1) is R.HIT
    assert applied_result(R.HIT, LEVEL, naval=True, mk13=False, shift=3) is R.MISS
    assert result_points(R.HIT, TORP, fleet, carrier_fleet=True, damage_bonus=1) == 2 + 1
    assert result_points(R.MISS, TORP, fleet, carrier_fleet=True, damage_bonus=1) == 0
    assert result_points(R.VITAL, LEVEL, fleet, carrier_fleet=False, damage_bonus=1) == 5


def test_spoils_cancel_the_best_cards() -> None:
    cards = [card(T.MAN, bombing=r) for r in (R.HIT, R.VITAL, R.DIRECT, R.VITAL)]
    assert cancel_best(cards, 1) == {1}
    assert cancel_best(cards, 2) == {1, 3}
    assert cancel_best(cards, 9) == {0, 1, 2, 3}
    strafes = [card(T.MAN), card(T.MAN, strafe=True)]
    assert cancel_best(strafes, 1, strafe=True) == {1}


# --- Flak -----------------------------------------------------------------------------------


def test_area_flak_is_never_answered() -> None:
    """22.13-22.14: only IMS/OTS hurt; a BARREL ROLL in hand does not help."""
    sky = _sky([card(T.IMS, 1, 2), card(T.MAN, spoiled=True)])
    zero = _plane(sky, "A6M2")
    zero.hand = [card(T.BR)]
    shot = area_flak(sky, zero, 2)
    assert shot["damage"] == 2 and shot["answered"] is None and zero.damage == 2
    assert len(zero.hand) == 1


def test_target_flak_allows_one_answer_in_all() -> None:
    """22.25: one response card against the whole salvo, on the worst card it can cancel."""
    ims1, ims3 = card(T.IMS, 1, 1), card(T.IMS, 2, 3)
    sky = _sky([ims1, ims3])
    p40 = _plane(sky, "P-40B", side=A)
    br1, br2 = card(T.BR), card(T.BR)
    p40.hand = [br1, br2]
    shot = target_flak(sky, p40, 2)
    assert shot["answered"] == ims3.id and shot["answer_card"] == br1.id
    assert shot["damage"] == 1 and p40.damage == 1 and p40.hand == [br2]


def test_formations_cannot_answer_and_spoils_are_counted() -> None:
    sky = _sky([card(T.IMS, 2, 2, spoiled=True), card(T.HL, spoiled=True)])
    ki21 = _plane(sky, "Ki-21", role="formation")
    shot = target_flak(sky, ki21, 2)
    assert shot["damage"] == 2 and shot["spoils"] == 2 and shot["answered"] is None


def test_an_answered_spoiling_ims_keeps_its_spoil() -> None:
    """22.26: a Spoiled Attack can never be answered: only the IMS damage goes."""
    ims = card(T.IMS, 2, 2, spoiled=True)
    sky = _sky([ims])
    hurricane = _plane(sky, "Hurricane-IIB", side=A)
    hurricane.hand = [card(T.BR)]
    shot = target_flak(sky, hurricane, 1)
    assert shot["answered"] == ims.id and shot["damage"] == 0 and shot["spoils"] == 1


def test_ace_pilot_spent_in_flak_only_to_save_the_leader() -> None:
    sky = _sky([card(T.IMS, 1, 1), card(T.IMS, 3, 4)])
    zero = _plane(sky, "A6M2")  # flips at 3
    ap = card(T.AP)
    zero.hand = [ap]
    first = target_flak(sky, zero, 1)  # 1 damage: no reason to spend it
    assert first["answered"] is None and zero.hand == [ap]
    second = target_flak(sky, zero, 1)  # 4 would destroy it: spend it
    assert second["answer_card"] == ap.id and zero.damage == 1


# --- Strafing (21.7) ------------------------------------------------------------------------


def test_val_strafing_example_21_74() -> None:
    """Two Vals at Very Low over a Battleship: 1 card each, flak 4 + 1 = 5 each, Hit = 1."""
    hit_a, hit_b = card(T.MAN, strafe=True), card(T.MAN, strafe=True)
    spoil = card(T.MAN, spoiled=True)
    sky = _sky([hit_a, *_quiet(5), hit_b, spoil, *_quiet(4)])
    leader = _plane(sky, "D3A1", uid="V-L", band=VL)
    wing = _plane(sky, "D3A1", uid="V-W", role="wingman", band=VL)
    leader.mate, wing.mate = wing, leader
    battleship = Target(TARGETS["4E"])
    first = strafe_run(sky, leader, battleship)
    second = strafe_run(sky, wing, battleship)
    assert len(first["cards"]) == 1 and len(second["cards"]) == 1  # Burst 0 -> 1 card
    assert [len(f["cards"]) for f in sky.flak] == [5, 5]
    assert first["results"] == (R.HIT,) and first["points"] == 1
    assert second["cancelled"] == (hit_b.id,) and second["points"] == 0  # the spoil took the Hit
    assert not strafe_worthwhile(leader, battleship)  # 21.74: unwise, the policy says no


def test_never_strafe_a_carrier_fleet() -> None:
    """21.71 / 25.66: even when the cards would beat the flak."""
    sky = _sky([])
    p40 = _plane(sky, "P-40E", side=A, band=VL)
    assert strafe_worthwhile(p40, Target(TARGETS["1A"]))  # 3 cards vs 2 + 1 flak
    assert not strafe_worthwhile(p40, Target(TARGETS["5A"], flak_mod=-9))
    assert not strafe_worthwhile(p40, Target(TARGETS["4C"], carrier_fleet=True, flak_mod=-9))
    p40.band = L
    assert not strafe_worthwhile(p40, Target(TARGETS["1A"]))  # 16.23: Very Low only


# --- 22.3 worked example: Rail Yard, Japanese attacking, British defending -----------------


def test_rail_yard_example_22_3() -> None:
    """Replays steps 2-7 card for card through the functions ``fly_strike`` uses."""
    harmless = [card(T.MAN), card(T.SC), card(T.TT), card(T.MAN)]
    ingress = [
        harmless[0],  # Ki-30 Leader
        harmless[1],  # Ki-30 Wingman
        card(T.BR),  # Ki-21 #1
        card(T.OTS, 2, 2),  # Ki-21 #2: one OTS does 2
        card(T.IMS, 1, 1),  # Hurricane Leader: one IMS does 1
        harmless[2],  # Hurricane Wingman
    ]
    hur_l_ims = card(T.IMS, 1, 1)
    hurricane = [card(T.BR), hur_l_ims, card(T.IMS, 2, 2), card(T.OTS, 3, 4)]
    hurricane_mini = [card(T.SC), card(T.MAN)]
    ki30_direct, ki30_hit = card(T.MAN, bombing=R.DIRECT), card(T.TT, bombing=R.HIT)
    ki30_l_ims = card(T.IMS, 2, 3)
    ki30 = [ki30_direct, card(T.BR), card(T.HL, spoiled=True), ki30_l_ims]
    ki30 += [ki30_hit, card(T.IMS, 1, 2), card(T.BR), card(T.SC)]
    ki30_mini = [card(T.MAN), card(T.IMS, 1, 1)]
    ki21_1 = [card(T.BR), card(T.IMS, 2, 2, spoiled=True), card(T.IMS, 1, 2)]
    ki21_2_direct = card(T.SS, bombing=R.DIRECT)
    ki21_2 = [ki21_2_direct, card(T.IMS, 1, 2), card(T.MAN), card(T.MAN)]
    egress = [card(T.SC) for _ in range(4)]
    deck = stacked(
        ingress + hurricane + hurricane_mini + ki30 + ki30_mini + ki21_1 + ki21_2 + egress
    )

    setup = make_setup(
        element("Ki-43", J, "strike", "J1")
        + element("Ki-30", J, "strike", "J2", L, ordnance=Ordnance.BOMB)
        + bombers("Ki-21", J, "J3"),
        element("Buffalo-I", A, "cap", "B1") + element("Hurricane-IIB", A, "cap", "B2"),
        sheet_id="3B",
    )
    strike = Strike(setup, CATALOG, deck)
    sky = strike.sky
    by = {p.uid: p for p in sky.planes}
    hur_l, hur_w = by["B2-Hurricane-IIB-L"], by["B2-Hurricane-IIB-W"]
    k30_l, k30_w = by["J2-Ki-30-L"], by["J2-Ki-30-W"]
    k21_1, k21_2 = by["J3-Ki-21-1"], by["J3-Ki-21-2"]
    hur_br, k30_br = card(T.BR), card(T.BR)
    hur_l.hand = [hur_br]
    k30_l.hand = [k30_br]
    assert hur_l.band == M and k30_l.band == L and k21_1.band == M

    # 1. End of Target-Bound: the Ki-43s and the Buffalos stay outside the target area.
    for uid in ("J1-Ki-43-L", "J1-Ki-43-W", "B1-Buffalo-I-L", "B1-Buffalo-I-W"):
        by[uid].out = by[uid].was_out = True
    sky.over_target = True

    # 2. Ingress: the Hurricanes put 2 on each Ki-21 (their cards are not in the example),
    # then Area Flak 1 at every aircraft over the target.
    sky.phase = "ingress"
    hurt(sky, k21_1, 2)
    hurt(sky, k21_2, 2)
    strike.area_flak()
    assert [f["against"] for f in sky.flak] == [
        "J2-Ki-30-L",
        "J2-Ki-30-W",
        "J3-Ki-21-1",
        "J3-Ki-21-2",
        "B2-Hurricane-IIB-L",
        "B2-Hurricane-IIB-W",
    ]
    assert (k21_1.damage, k21_2.damage, hur_l.damage) == (2, 4, 1)
    assert not any(p.damaged for p in sky.planes)

    # 3. Bomb turn, Hurricanes: one attack does 4 to Ki-21 #1 (6: Damaged), then Target
    # Flak 3 - 1 = 2 cards each, Leader first.
    sky.phase = "bomb"
    hurt(sky, k21_1, 4)
    assert k21_1.damaged and k21_1.formation == k21_1.uid  # 17.28
    hurricanes = strike.elements[A][1]
    assert strike.plan_runs(hurricanes) == ([], [])
    assert strike.bomb_step(hurricanes, [], []) is False
    flak_l, flak_w = sky.flak[-2:]
    assert len(flak_l["cards"]) == 2 and len(flak_w["cards"]) == 2
    assert flak_l["answered"] == hur_l_ims.id and flak_l["answer_card"] == hur_br.id
    assert flak_l["damage"] == 0 and hur_l.damage == 1
    assert flak_w["answered"] is None and flak_w["damage"] == 6
    assert hur_w.destroyed

    # 4. Ki-30s at Low: 1 bomb card each, then 3 Target Flak cards.
    ki30_element = strike.elements[J][1]
    planned = strike.plan_runs(ki30_element)
    assert planned == ([k30_l, k30_w], [])
    assert strike.bomb_step(ki30_element, *planned) is True
    run_l, run_w = sky.runs
    assert run_l["cards"] == (ki30_direct.id,) and run_l["cancelled"] == (ki30_direct.id,)
    assert run_l["points"] == 0
    flak_l, flak_w = sky.flak[-2:]
    assert flak_l["spoils"] == 1 and flak_l["answered"] == ki30_l_ims.id
    assert flak_l["answer_card"] == k30_br.id and k30_l.damage == 0
    assert run_w["results"] == (R.HIT,) and run_w["points"] == 1
    assert flak_w["answered"] is None and k30_w.damage == 2

    # 5. End of the Bomb turn: the Ki-21s, no answers allowed.
    strike.formations_bomb()
    run_1, run_2 = sky.runs[2:]
    assert run_1["uid"] == k21_1.uid and run_1["cards"] == () and run_1["points"] == 0
    assert k21_1.damage == 10 and k21_1.destroyed
    assert run_2["results"] == (R.DIRECT,) and run_2["points"] == 3
    assert k21_2.damage == 6 and k21_2.damaged and not k21_2.destroyed

    # 7. Egress: the surviving Ki-30s, the Ki-21 and the Hurricane Leader face Area Flak.
    sky.phase = "egress"
    strike.area_flak()
    egress_targets = [f["against"] for f in sky.flak if f["phase"] == "egress"]
    assert egress_targets == ["J2-Ki-30-L", "J2-Ki-30-W", "J3-Ki-21-2", "B2-Hurricane-IIB-L"]

    # 6. Target damage: 1 + 3 = 4 points.
    report = strike.report()
    assert report.target_points == 4
    states = {a.uid: a.state for a in report.aircraft}
    assert states["B2-Hurricane-IIB-W"] is AircraftState.DESTROYED
    assert states["J3-Ki-21-1"] is AircraftState.DESTROYED
    assert states["J3-Ki-21-2"] is AircraftState.DAMAGED
    assert states["J2-Ki-30-W"] is AircraftState.OK
    assert {a.uid for a in report.aircraft if a.disengaged} == {
        "J1-Ki-43-L",
        "J1-Ki-43-W",
        "B1-Buffalo-I-L",
        "B1-Buffalo-I-W",
    }


@pytest.mark.parametrize("band", [VL, L, M, H])
def test_idle_fighters_take_target_flak_by_band(band: object) -> None:
    expected = {VL: 3, L: 3, M: 2, H: 1}[band]  # type: ignore[index]
    assert target_flak_count(3, None, band) == expected  # type: ignore[arg-type]
