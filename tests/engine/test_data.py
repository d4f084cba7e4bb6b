"""The data files against zero-authored-data.md: section 3 tables, section 4 seed values,
and the loader's precise errors on broken copies."""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from engine.zero.catalog import Catalog, DataError, UnitSpec
from engine.zero.loader import DATA_DIR, default_catalog, derive_damaged, load_catalog, load_pilots
from engine.zero.types import AircraftClass, Band, BombMode, BombResult, CardTitle, Side
from tests.engine.deck_listing import DECK_LISTING

CATALOG = default_catalog()

# --- The deck: zero-authored-data.md 3.3, copied verbatim ----------------------------------


_RESULT_LETTER = {
    "M": BombResult.MISS,
    "H": BombResult.HIT,
    "D": BombResult.DIRECT,
    "V": BombResult.VITAL,
}


def _listed_cards() -> list[tuple[int, str, int | None, int | None, bool, BombResult, bool, str]]:
    cards = []
    for text in (c.strip() for c in DECK_LISTING.replace("\n", "|").split("|")):
        if not text:
            continue
        match = re.fullmatch(r"(\d{3}) (\w+)(?: (\d)B/(\d)D)?( \*)? ([MHDV])([s-])([bt])", text)
        assert match, text
        number, title, burst, damage, spoiled, result, strafe, border = match.groups()
        cards.append(
            (
                int(number),
                title,
                int(burst) if burst else None,
                int(damage) if damage else None,
                bool(spoiled),
                _RESULT_LETTER[result],
                strafe == "s",
                "blue" if border == "b" else "tan",
            )
        )
    return cards


def test_deck_is_the_authored_list_card_for_card() -> None:
    listed = _listed_cards()
    assert len(listed) == 110
    loaded = [
        (c.id, c.title.value, c.burst, c.damage, c.spoiled, c.bombing, c.strafe_hit, c.border)
        for c in CATALOG.deck.cards
    ]
    assert loaded == listed


def test_deck_section_totals() -> None:
    cards = CATALOG.deck.cards
    assert len(cards) == 110
    assert len({c.id for c in cards}) == 110
    bombing = Counter(c.bombing for c in cards)
    assert bombing == {
        BombResult.MISS: 50,
        BombResult.HIT: 35,
        BombResult.DIRECT: 18,
        BombResult.VITAL: 7,
    }
    assert sum(c.strafe_hit for c in cards) == 40
    assert sum(c.border == "blue" for c in cards) == 36
    assert sum(c.spoiled for c in cards) == 16


def test_deck_copies_per_title() -> None:
    titles = Counter(c.title.value for c in CATALOG.deck.cards)
    assert titles == {
        "IMS": 22, "OTS": 6, "MAN": 16, "HL": 6, "BR": 12, "SC": 8,
        "TT": 10, "VR": 8, "SS": 6, "IMM": 6, "FT": 6, "AP": 4,
    }  # fmt: skip
    spoiled = Counter(c.title.value for c in CATALOG.deck.cards if c.spoiled)
    assert spoiled == {"IMS": 2, "MAN": 5, "HL": 3, "BR": 2, "SC": 2, "TT": 2}


def test_deck_has_every_seed_variant() -> None:
    """Seed 0.3, 22.3, 24.44: the attack values and spoiling copies the examples show."""
    variants = {
        (c.title.value, c.burst, c.damage, c.spoiled) for c in CATALOG.deck.cards if c.is_attack
    }
    for variant in [
        ("IMS", 1, 1, False),
        ("IMS", 1, 2, False),
        ("IMS", 2, 2, False),
        ("IMS", 2, 2, True),
        ("IMS", 2, 3, False),
        ("OTS", 2, 3, False),
        ("OTS", 3, 4, False),
    ]:
        assert variant in variants
    assert any(c.title is CardTitle.IMS and c.burst == 3 for c in CATALOG.deck.cards)
    for title in (CardTitle.MAN, CardTitle.HL):
        assert any(c.title is title and c.spoiled for c in CATALOG.deck.cards)
    # Mission-table keys (24.44): IMS-1B 11, IMS-2B 8, IMS-3B 3.
    ims = Counter(c.burst for c in CATALOG.deck.cards if c.title is CardTitle.IMS)
    assert ims == {1: 11, 2: 8, 3: 3}


def test_response_table() -> None:
    """3.2.6, and the seed's BR > IMS, VR > OTS, TT > MAN (0.3)."""
    answers = {t.value: {a.value for a in v} for t, v in CATALOG.deck.answers.items()}
    assert answers == {
        "IMS": set(), "OTS": set(), "MAN": set(), "HL": set(),
        "BR": {"IMS"}, "VR": {"OTS"}, "TT": {"MAN"}, "SC": {"MAN", "HL"},
        "SS": {"IMS"}, "IMM": {"HL"}, "FT": {"MAN"},
        "AP": {t.value for t in CardTitle},
    }  # fmt: skip


# --- Aircraft: 3.5, copied from the authored tables -----------------------------------------

# code | Perf | HP VH/H/M/L/VL | Burst | Off/Def | Gun | U/D | bomb | VP | Box
# Rows marked in docs/data.md as balance changes (A6M2, F4F, D3A1, B5N2) differ from 3.5.
NON_FORMATION = """
A6M2 | 6 | 2/2/3/3/2 | 2 | 2/2 | 0 | 3/2 | - | 7 | 8
A5M4 | 5 | 1/2/2/2/2 | 1 | 1/2 | 0 | 2/1 | - | 3 | 4
Ki-27 | 6 | 1/2/2/3/2 | 1 | 1/2 | 0 | 2/2 | - | 4 | 6
Ki-43 | 6 | 1/2/3/3/2 | 1 | 2/2 | 0 | 3/1 | - | 5 | 6
P-40B | 5 | 1/2/2/3/3 | 3 | 1/2 | 0 | 4/3 | - | 5 | 6
P-40E | 5 | 1/2/2/3/3 | 3 | 2/1 | 0 | 4/3 | level 1 | 6 | 4
P-35A | 4 | 1/1/2/2/2 | 2 | 1/1 | 0 | 3/2 | - | 3 | 4
P-39D | 4 | -/1/2/3/3 | 3 | 1/2 | 0 | 4/2 | level 1 | 5 | 4
Buffalo-I | 4 | 1/1/2/2/2 | 2 | 1/2 | 0 | 5/3 | - | 4 | 6
F2A-3 | 4 | 1/1/2/2/2 | 2 | 1/1 | 0 | 4/2 | - | 3 | 4
Hurricane-IIB | 5 | 2/2/3/3/2 | 3 | 2/2 | 0 | 4/2 | level 1 | 6 | 4
F4F | 5 | 1/2/2/2/2 | 2 | 2/2 | 0 | 4/2 | - | 6 | 4
D3A1 | 4 | -/1/2/2/2 | 0 | 1/1 | 1 | 4/2 | dive 2 | 6 | 6
B5N2 | 3 | -/1/2/2/2 | 0 | 0/1 | 1 | 4/2 | torpedo 1, level 1 | 6 | 6
Ki-30 | 4 | -/2/2/2/2 | 1 | 1/2 | 1 | 3/2 | level 1 | 4 | 4
SBD-3 | 4 | -/1/2/2/2 | 1 | 1/1 | 1 | 4/2 | dive 2 | 6 | 6
TBD-1 | 3 | -/-/1/2/2 | 0 | 0/1 | 1 | 3/2 | torpedo 1, level 1 | 4 | 4
TBF-1 | 3 | -/1/2/2/2 | 1 | 0/1 | 2 | 5/3 | torpedo 1, level 1 | 7 | 2
SB2U-3 | 3 | -/-/1/2/2 | 0 | 0/1 | 1 | 3/1 | dive 1 | 4 | 4
"""

# code | class | Speed | TD/TS | U/D | bomb undamaged | damaged saturation | max | VP | Box
FORMATION = """
G4M1 | medium | 5 | 1/1 | 4/2 | saturation 1, torpedo 1 | 0 | H | 10 | 6
G3M2 | medium | 4 | 1/1 | 5/3 | saturation 1, torpedo 1 | 0 | H | 8 | 6
Ki-21 | medium | 5 | 1/1 | 6/4 | saturation 1 | 0 | H | 8 | 6
Hudson | medium | 5 | 1/1 | 6/3 | saturation 1, recon 1 | 0 | H | 8 | 4
Blenheim-IV | medium | 4 | 1/0 | 5/3 | saturation 1 | 0 | H | 7 | 4
B-26 | medium | 5 | 2/1 | 7/4 | saturation 2, torpedo 1 | 1 | H | 10 | 2
B-17D | heavy | 5 | 1/1 | 9/5 | saturation 5 | 3 | VH | 14 | 4
B-17E | heavy | 5 | 2/1 | 10/6 | saturation 6 | 4 | VH | 15 | 4
PBY-5 | recon | 3 | 1/0 | 6/3 | recon 2 | - | M | 8 | 2
H6K4 | recon | 3 | 1/0 | 7/4 | recon 2 | - | M | 10 | 2
E13A1 | recon | 4 | 0/0 | 3/1 | recon 1 | - | M | 3 | 2
"""

BANDS = (Band.VH, Band.H, Band.M, Band.L, Band.VL)


def _rows(table: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("|")] for line in table.strip().splitlines()]


def _bomb(text: str) -> dict[BombMode, int]:
    if text == "-":
        return {}
    return {BombMode(m): int(v) for m, v in (part.split() for part in text.split(", "))}


def test_all_aircraft_codes() -> None:
    codes = [row[0] for row in _rows(NON_FORMATION)] + [row[0] for row in _rows(FORMATION)]
    assert sorted(CATALOG.aircraft) == sorted(codes)
    assert len(codes) == 30


@pytest.mark.parametrize("row", _rows(NON_FORMATION), ids=lambda row: row[0])
def test_fighters_and_fighter_bombers_match_3_5(row: list[str]) -> None:
    code, perf, hp, burst, offdef, gun, ud, bomb, vp, box = row
    a = CATALOG.aircraft[code]
    u = a.undamaged
    assert u.performance == int(perf)
    assert [u.horsepower[b] for b in BANDS] == [None if v == "-" else int(v) for v in hp.split("/")]
    assert u.burst == int(burst)
    assert f"{u.offensive}/{u.defensive}" == offdef
    assert u.gunner == int(gun)
    assert f"{a.flip_at}/{a.destroy_extra}" == ud
    assert u.bomb == _bomb(bomb)
    assert (a.vp, a.box) == (int(vp), int(box))
    assert u.speed == 6  # seed 23.24
    assert a.max_band == max(b for b in BANDS if u.horsepower[b] is not None)
    expected_cls = AircraftClass.FIGHTER_BOMBER if int(gun) else AircraftClass.FIGHTER
    assert a.cls is expected_cls
    assert a.mk13 is (code in ("TBD-1", "TBF-1"))


@pytest.mark.parametrize("row", _rows(FORMATION), ids=lambda row: row[0])
def test_formation_aircraft_match_3_5(row: list[str]) -> None:
    code, cls, speed, tdts, ud, bomb, damaged_sat, max_band, vp, box = row
    a = CATALOG.aircraft[code]
    assert a.cls is AircraftClass(cls)
    assert a.cls.is_formation
    assert a.undamaged.speed == int(speed)
    assert f"{a.undamaged.turret_defense}/{a.undamaged.turret_support}" == tdts
    assert f"{a.flip_at}/{a.destroy_extra}" == ud
    assert a.undamaged.bomb == _bomb(bomb)
    if damaged_sat != "-":
        assert a.damaged.bomb[BombMode.SATURATION] == int(damaged_sat)
    assert a.max_band is Band[max_band]
    assert (a.vp, a.box) == (int(vp), int(box))
    assert a.norden is code.startswith("B-17")
    assert a.mk13 is (code == "B-26")
    # 3.2.7 / 3.5: damaged speed and Turret Defense one less.
    assert a.damaged.speed == a.undamaged.speed - 1
    assert a.damaged.turret_defense == max(0, a.undamaged.turret_defense - 1)


def test_aircraft_nations_and_services() -> None:
    services = {code: (a.nation.value, a.service) for code, a in CATALOG.aircraft.items()}
    assert services["A6M2"] == ("japanese", "navy")
    assert services["Ki-43"] == ("japanese", "army")
    assert services["P-40B"] == ("allied", "army")
    assert services["F2A-3"] == ("allied", "marines")
    assert services["Hurricane-IIB"] == ("allied", "british")
    assert services["Hudson"] == ("allied", "british")
    assert services["F4F"] == ("allied", "navy")


def test_seed_aircraft_values() -> None:
    """zero-authored-data.md section 4, one assertion per seed value."""
    a = CATALOG.aircraft
    # 20.5, 21.62: B-17E TD 2, TS 1; Saturation 6 + Norden; 7 damage + 3 more flips it.
    b17 = a["B-17E"]
    assert (b17.undamaged.turret_defense, b17.undamaged.turret_support) == (2, 1)
    assert b17.undamaged.bomb[BombMode.SATURATION] == 6 and b17.norden
    assert 7 < b17.flip_at == 7 + 3
    # 22.3, 23.25: Ki-21 Speed 5, Saturation 1 / Damaged 0, flips at 6, destroyed at 10.
    ki21 = a["Ki-21"]
    assert ki21.undamaged.speed == 5
    assert ki21.undamaged.bomb == {BombMode.SATURATION: 1}
    assert ki21.damaged.bomb == {BombMode.SATURATION: 0}
    assert ki21.flip_at == 6 and ki21.flip_at + ki21.destroy_extra == 10
    # 21.74: the Val has Burst 0 (it strafes with the minimum of 1 card).
    assert a["D3A1"].undamaged.burst == 0
    # 20.13: Wingman Off+Def: P-40B 3, Zero 4.
    assert a["P-40B"].undamaged.offensive + a["P-40B"].undamaged.defensive == 3
    assert a["A6M2"].undamaged.offensive + a["A6M2"].undamaged.defensive == 4
    # 22.3: Hurricane IIB Wingman: defensive mini-hand 2, dies to 6 damage from fresh.
    hurricane = a["Hurricane-IIB"]
    assert (hurricane.flip_at, hurricane.destroy_extra) == (4, 2)
    assert hurricane.undamaged.defensive == 2
    # 22.3: Ki-30 Level bomb rating 1, defensive mini-hand 2.
    assert a["Ki-30"].undamaged.bomb == {BombMode.LEVEL: 1}
    assert a["Ki-30"].undamaged.defensive == 2
    # 24.61: P-40B 5 VP, G4M 10 VP.
    assert a["P-40B"].vp == 5 and a["G4M1"].vp == 10
    # 25.65: the box holds two F4F elements.
    assert a["F4F"].box == 4


def test_named_ordnance() -> None:
    a = CATALOG.aircraft
    assert a["D3A1"].undamaged.bomb == {BombMode.DIVE: 2}  # balance change, docs/data.md
    assert a["B5N2"].undamaged.bomb == {BombMode.TORPEDO: 1, BombMode.LEVEL: 1}
    assert a["G4M1"].undamaged.bomb == {BombMode.SATURATION: 1, BombMode.TORPEDO: 1}
    assert a["G4M1"].damaged.bomb == {BombMode.SATURATION: 0, BombMode.TORPEDO: 1}
    assert a["B-17E"].damaged.bomb == {BombMode.SATURATION: 4}
    assert a["PBY-5"].undamaged.bomb == {BombMode.RECON: 2}
    assert a["PBY-5"].damaged.bomb == {BombMode.RECON: 2}
    assert {code for code, t in a.items() if t.mk13} == {"TBD-1", "TBF-1", "B-26"}
    assert {code for code, t in a.items() if t.norden} == {"B-17D", "B-17E"}


def test_damaged_side_follows_3_2_7() -> None:
    zero = CATALOG.aircraft["A6M2"]
    d = zero.damaged
    assert d.performance == 5
    assert [d.horsepower[b] for b in BANDS] == [1, 1, 2, 2, 1]
    assert (d.burst, d.offensive, d.defensive, d.speed) == (1, 1, 1, 6)
    # Floors: Defensive stays at 1, a Burst 0 stays 0, a forbidden band stays forbidden.
    kate = CATALOG.aircraft["B5N2"].damaged
    assert (kate.burst, kate.offensive, kate.defensive) == (0, 0, 1)
    assert kate.horsepower[Band.VH] is None and kate.horsepower[Band.H] == 1
    assert kate.bomb == CATALOG.aircraft["B5N2"].undamaged.bomb  # jettisons when Damaged
    tbd = CATALOG.aircraft["TBD-1"].damaged
    assert [tbd.horsepower[b] for b in BANDS] == [None, None, 1, 1, 1]
    # Formation aircraft have no hand: nothing drops below 0, Defensive 0 is not lifted.
    b17 = CATALOG.aircraft["B-17E"].damaged
    assert (b17.performance, b17.defensive, b17.turret_defense, b17.turret_support) == (0, 0, 1, 1)
    for aircraft in CATALOG.aircraft.values():
        assert derive_damaged(aircraft.undamaged, aircraft.cls).model_dump(
            exclude={"bomb"}
        ) == aircraft.damaged.model_dump(exclude={"bomb"})


# --- Target sheets and tracks ----------------------------------------------------------------

# id | area/target | hit/direct/vital/strafe | naval
SHEETS = """
1A | 1/2 | 1/2/4/1 | no
2A | 2/3 | 1/3/5/1 | no
2B | 1/2 | 1/3/6/no | no
3A | 1/1 | 1/2/3/1 | no
3B | 1/3 | 1/3/5/1 | no
3C | 2/2 | 1/2/4/1 | no
4A | 1/2 | 1/3/5/1 | yes
4B | 2/3 | 1/3/5/1 | yes
4C | 1/3 | 2/4/6/1 | yes
4D | 2/4 | 1/3/5/no | yes
4E | 3/4 | 1/2/4/1 | yes
5A | 1/3 | 1/3/5/no | yes
5B | 2/3 | 1/2/4/1 | no
5C | 2/2 | 1/3/5/1 | yes
5D | 1/2 | 1/2/4/1 | no
"""


@pytest.mark.parametrize("row", _rows(SHEETS), ids=lambda row: row[0])
def test_target_sheets_match_3_6(row: list[str]) -> None:
    sheet_id, flak, points, naval = row
    sheet = CATALOG.targets[sheet_id]
    assert f"{sheet.area_flak}/{sheet.target_flak}" == flak
    hit, direct, vital, strafe = points.split("/")
    assert sheet.points == {
        BombResult.MISS: 0,
        BombResult.HIT: int(hit),
        BombResult.DIRECT: int(direct),
        BombResult.VITAL: int(vital),
    }
    assert sheet.strafe == (None if strafe == "no" else int(strafe))
    assert sheet.naval is (naval == "yes")
    assert len(sheet.levels) == (0 if sheet_id.startswith("5") else 4)


def test_seed_target_values() -> None:
    t = CATALOG.targets
    # 21.74: Battleship Target Flak 4, strafe Hit 1 point.
    assert t["4E"].name == "Battleship" and t["4E"].target_flak == 4 and t["4E"].strafe == 1
    # 21.55: Destroyer Direct 4 points (8 by torpedo).
    assert t["4C"].points[BombResult.DIRECT] * 2 == 8
    # 22.3: Rail Yard Area 1, Target 3, Hit 1, Direct 3; 4 points = Damaged, 3 VP.
    rail = t["3B"]
    assert (rail.area_flak, rail.target_flak) == (1, 3)
    assert (rail.points[BombResult.HIT], rail.points[BombResult.DIRECT]) == (1, 3)
    level = rail.level(4)
    assert level is not None and (level.name, level.vp) == ("Damaged", 3)
    # 21.81: Ground Forces 0-1 Untouched, 2-3 Reduced 1 VP, 4-5 Disrupted, 6+ Shattered 5 VP.
    ground = t["3A"]
    names = [(p, ground.level(p)) for p in range(8)]
    assert [lvl.name for _, lvl in names if lvl] == ["Untouched"] * 2 + ["Reduced"] * 2 + [
        "Disrupted"
    ] * 2 + ["Shattered"] * 2
    reduced, shattered = ground.level(2), ground.level(6)
    assert reduced is not None and reduced.vp == 1
    assert shattered is not None and shattered.vp == 5
    # 24.61: Docks 8 points = Heavy Damage, 6 VP.
    heavy = t["2A"].level(8)
    assert heavy is not None and (heavy.name, heavy.vp) == ("Heavy Damage", 6)
    # 21.71: a carrier fleet is never strafed.
    assert t["5A"].strafe is None


def test_carrier_fleet_track() -> None:
    track = CATALOG.tracks["carrier-fleet"]
    assert track.boxes == 30
    assert track.level(4).name == "Untouched" and track.level(4).strike_minus == 0
    light = track.level(5)  # seed [EX] 25.63: 5 points -> strike -1 a/c
    assert (light.strike_minus, light.provenance) == (1, "seed")
    rows = [
        (lvl.min_boxes, lvl.name, lvl.vp, lvl.strike_minus, lvl.cap_minus, lvl.no_large)
        for lvl in track.levels
    ]
    assert rows == [
        (0, "Untouched", 0, 0, 0, False),
        (5, "Light", 3, 1, 0, False),
        (10, "Damaged", 6, 1, 1, False),
        (15, "Heavy", 10, 2, 1, True),
        (20, "Crippled", 15, 3, 2, True),
        (25, "Sinking", 20, 0, 2, True),
        (30, "Out of Action", 30, 0, 0, False),
    ]
    assert track.level(25).no_strike_only and track.level(30).out_of_action


def test_other_tracks() -> None:
    t = CATALOG.tracks
    japan = t["japanese-fleet-midway"]
    assert japan.boxes == 40
    assert [(lvl.min_boxes, lvl.vp) for lvl in japan.levels] == [
        (0, 0), (6, 2), (12, 5), (18, 8), (24, 12), (30, 18), (40, 30)
    ]  # fmt: skip
    assert japan.level(40).out_of_action
    invasion = t["invasion-force"]
    assert invasion.boxes == 15
    assert invasion.level(5).cap_shift == 1 and invasion.level(10).no_cap
    assert [(lvl.min_boxes, lvl.vp) for lvl in invasion.levels] == [
        (0, 0),
        (5, 3),
        (10, 7),
        (15, 12),
    ]
    moresby = t["port-moresby"]
    assert moresby.level(10).cap_shift == 1 and moresby.level(15).no_cap
    moresby_levels = [(lvl.min_boxes, lvl.vp) for lvl in moresby.levels]
    assert moresby_levels == [(0, 0), (5, 3), (10, 7), (15, 12)]
    midway = t["midway-airfield"]
    assert midway.boxes == 20
    assert [(lvl.min_boxes, lvl.vp) for lvl in midway.levels] == [
        (0, 0), (5, 4), (10, 8), (15, 12), (20, 16)
    ]  # fmt: skip
    assert not any(lvl.out_of_action for lvl in midway.levels)  # does not end the campaign
    for key in ("midway-ground", "midway-transports"):
        assert t[key].provenance == "authored-change"


# --- Resources -------------------------------------------------------------------------------


def test_resources() -> None:
    r = {res.number: res for res in CATALOG.resources}
    assert sorted(r) == list(range(1, 16))
    assert len({res.key for res in CATALOG.resources}) == 15
    radar = CATALOG.resource(3)
    assert radar.name == "Radar" and radar.effect.enemy_tb_mod == 2 and radar.provenance == "seed"
    assert radar.side is Side.ALLIED
    deck = CATALOG.resource(7)
    assert deck.name == "Loaded Flight Deck" and deck.effect.fleet_damage_bonus == 1
    assert [res.number for res in CATALOG.resources if res.repeatable] == [15]
    assert r[15].effect == type(r[15].effect)()
    assert r[1].effect.scout and r[9].effect.out_of_sight and r[8].effect.land_based_strike
    assert r[6].side is Side.JAPANESE and r[6].effect.veteran_aircrew
    assert r[10].effect.own_tb_mod == -1 and r[10].effect.cap_minus == 1
    assert r[11].effect_for(Side.ALLIED).damage_control == 3
    assert r[11].effect_for(Side.JAPANESE).damage_control == 2
    assert r[13].effect.enemy_area_flak_mod == 1 and r[13].effect.enemy_target_flak_mod == 1


def test_codebreakers_is_the_recorded_change() -> None:
    codebreakers = CATALOG.resource(2)
    assert codebreakers.provenance == "authored-change"
    assert codebreakers.side is Side.ALLIED
    assert codebreakers.effect.enemy_tb_mod == 1
    assert codebreakers.effect.cap_add_elements == 1
    assert "Codebreakers" in (Path(DATA_DIR).parents[2] / "docs" / "data.md").read_text()


# --- Campaign sheets -------------------------------------------------------------------------


def _specs(specs: tuple[UnitSpec, ...]) -> list[str]:
    return [f"{s.count} {s.kind} {s.aircraft}" for s in specs]


def test_coral_sea_seed_rows() -> None:
    """Seed [EX] 25.63 / 25.64."""
    coral = CATALOG.scenarios["coral-sea"]
    large = coral.flight_ops[Side.JAPANESE]["large"]
    assert _specs(large.strike) == ["1 L/W A6M2", "1 L/W B5N2", "1 L D3A1"]
    assert _specs(large.cap) == ["1 L A6M2"]
    assert large.provenance == "seed"
    assert coral.scouts[Side.JAPANESE].bonus.aircraft == "D3A1"  # seed [EX] 25.53


def test_coral_sea_sheet() -> None:
    coral = CATALOG.scenarios["coral-sea"]
    assert coral.turns == 6 and coral.turn_labels[0] == "6 May PM"
    assert coral.turn_labels[-1] == "9 May AM"
    assert [p.key for p in coral.places] == [
        "japanese-fleet", "allied-fleet", "invasion-force", "port-moresby"
    ]  # fmt: skip
    ops = {
        (side.value, size): (_specs(row.strike), _specs(row.cap))
        for side, rows in coral.flight_ops.items()
        for size, row in rows.items()
    }
    assert ops == {
        ("japanese", "large"): (["1 L/W A6M2", "1 L/W B5N2", "1 L D3A1"], ["1 L A6M2"]),
        ("japanese", "small"): (["1 L A6M2", "1 L/W D3A1"], ["1 L/W A6M2"]),
        ("japanese", "none"): ([], ["2 L/W A6M2"]),
        ("allied", "large"): (["1 L F4F", "1 L/W SBD-3", "1 L/W TBD-1"], ["1 L/W F4F"]),
        ("allied", "small"): (["1 L F4F", "1 L/W SBD-3"], ["1 L/W F4F"]),
        ("allied", "none"): ([], ["2 L/W F4F"]),
    }
    assert coral.strike_targets[Side.JAPANESE] == ("allied-fleet", "port-moresby")
    assert coral.strike_targets[Side.ALLIED] == ("japanese-fleet", "invasion-force")
    invasion = coral.place("invasion-force")
    assert [(row.result, _specs(row.cap)) for row in invasion.cap_table] == [
        (BombResult.MISS, ["1 L A5M4"]),
        (BombResult.HIT, ["1 L/W A5M4"]),
        (BombResult.DIRECT, ["1 L/W A6M2"]),
        (BombResult.VITAL, ["1 L/W A6M2", "1 L A5M4"]),
    ]
    moresby = coral.place("port-moresby")
    assert _specs(moresby.cap_table[3].cap) == ["1 L/W P-39D", "1 L P-40E"]
    assert moresby.side is Side.ALLIED and moresby.sheet == "5D"
    assert coral.fleet_of(Side.JAPANESE).key == "japanese-fleet"
    assert _specs(coral.land_based[Side.JAPANESE]) == ["2 formation G4M1"]
    assert coral.land_based[Side.JAPANESE][0].ordnance == "torpedo"
    assert _specs(coral.land_based[Side.ALLIED]) == ["2 formation B-17E"]
    assert coral.scouts[Side.JAPANESE].aircraft == "H6K4"
    assert coral.scouts[Side.ALLIED].aircraft == "PBY-5"
    assert not coral.submarine
    assert [o.side for o in coral.objectives] == [Side.ALLIED, Side.JAPANESE]


def test_midway_seed_rows_and_box() -> None:
    """Seed [EX] 25.65: No Strike CAP 2 L/W F4F; the box holds only those two F4F elements,
    so Extra CAP can add an SBD element but not a third F4F pair."""
    midway = CATALOG.scenarios["midway"]
    none = midway.flight_ops[Side.ALLIED]["none"]
    assert _specs(none.cap) == ["2 L/W F4F"] and none.provenance == "seed"
    f4f = CATALOG.aircraft["F4F"]
    assert f4f.box // 2 == 2
    used = Counter({"F4F": 4})
    assert used["F4F"] + 2 > f4f.box
    sbd_in_use = 1  # Midway's 0-4 row flies 1 L SBD-3
    assert sbd_in_use + 2 <= CATALOG.aircraft["SBD-3"].box


def test_midway_sheet() -> None:
    midway = CATALOG.scenarios["midway"]
    assert midway.submarine
    assert midway.turn_labels == (
        "4 June dawn", "4 June morning", "4 June midday", "4 June afternoon", "5 June", "6 June"
    )  # fmt: skip
    keys = {p.key: p for p in midway.places}
    assert set(keys) == {
        "japanese-fleet", "allied-fleet", "midway-airfield", "midway-ground", "midway-transports"
    }  # fmt: skip
    assert keys["japanese-fleet"].track == "japanese-fleet-midway"
    assert (keys["midway-ground"].sheet, keys["midway-ground"].vp_only) == ("3A", True)
    assert (keys["midway-transports"].sheet, keys["midway-transports"].vp_only) == ("4B", True)
    airfield = keys["midway-airfield"]
    assert airfield.strike_target == "japanese-fleet"
    assert [
        (row.min_boxes, _specs(row.strike), _specs(row.cap)) for row in airfield.airfield_table
    ] == [
        (0, ["2 formation B-17E", "1 L SBD-3", "1 L TBF-1"], ["1 L/W F2A-3", "1 L F2A-3"]),
        (5, ["2 formation B-26", "1 L SB2U-3"], ["1 L/W F2A-3"]),
        (10, ["2 formation B-17E"], ["1 L F2A-3"]),
        (15, ["1 L SB2U-3"], []),
        (20, [], []),
    ]
    assert airfield.airfield_table[1].strike[0].ordnance == "torpedo"
    assert _specs(midway.flight_ops[Side.JAPANESE]["none"].cap) == ["3 L/W A6M2"]
    assert _specs(midway.flight_ops[Side.ALLIED]["large"].strike) == [
        "1 L F4F", "2 L/W SBD-3", "1 L/W TBD-1"
    ]  # fmt: skip
    assert midway.strike_targets[Side.JAPANESE] == (
        "allied-fleet", "midway-airfield", "midway-ground"
    )  # fmt: skip
    assert midway.strike_targets[Side.ALLIED] == ("japanese-fleet", "midway-transports")
    assert midway.sighting_rule == {Side.JAPANESE: True, Side.ALLIED: False}
    assert midway.scouts[Side.JAPANESE].aircraft == "E13A1"


def test_every_force_fits_the_box() -> None:
    """25.65: no Flight Ops row, plus what the side's bases may add, exceeds the box."""
    for scenario in CATALOG.scenarios.values():
        for rows in scenario.flight_ops.values():
            for row in rows.values():
                used: Counter[str] = Counter()
                for spec in (*row.strike, *row.cap):
                    used[spec.aircraft] += spec.count * (2 if spec.kind == "L/W" else 1)
                for code, cards in used.items():
                    assert cards <= CATALOG.aircraft[code].box


# --- Provenance labels -----------------------------------------------------------------------

FILES = {
    "deck.toml": "3.3",
    "aircraft.toml": "3.5",
    "targets.toml": "3.6",
    "tracks.toml": "3.7.5",
    "resources.toml": "3.7.2",
    "coral-sea.toml": "3.7.3",
    "midway.toml": "3.7.4",
    "pilots.toml": "3.9",
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_files_say_they_are_authored_defaults(name: str) -> None:
    text = (DATA_DIR / name).read_text()
    header = text.split("\n\n")[0]
    assert all(line.startswith("#") for line in header.splitlines())
    assert "AUTHORED DEFAULT" in header
    assert f"zero-authored-data.md section {FILES[name]}" in header
    assert "NOT" in header
    assert tomllib.loads(text)["provenance"] == "authored-default"


# --- Broken copies: the loader names file, entry and field -----------------------------------


@pytest.fixture
def data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(directory: Path, name: str, old: str, new: str) -> None:
    path = directory / name
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def _error(directory: Path) -> str:
    with pytest.raises(DataError) as info:
        load_catalog(directory)
    return str(info.value)


def test_the_copy_loads(data: Path) -> None:
    assert isinstance(load_catalog(data), Catalog)


# One hand-made mistake in a data file each: (file, text found, text put instead, the
# refusal). A refusal ending in "…" is checked by its start: the rest is pydantic's wording.
REFUSALS = {
    "unknown-aircraft-in-a-strike": (
        "coral-sea.toml",
        '{ count = 1, kind = "L/W", aircraft = "B5N2" }',
        '{ count = 1, kind = "L/W", aircraft = "B5N3" }',
        "coral-sea.toml: entry 'flight_ops.japanese.large': field 'strike[1].aircraft': "
        "unknown aircraft 'B5N3'",
    ),
    "unknown-aircraft-in-a-card-cap-table": (
        "coral-sea.toml",
        '{ result = "hit", cap = [{ count = 1, kind = "L", aircraft = "P-39D" }] }',
        '{ result = "hit", cap = [{ count = 1, kind = "L", aircraft = "P-39X" }] }',
        "coral-sea.toml: entry 'place port-moresby': field 'cap_table[1].cap[0].aircraft': "
        "unknown aircraft 'P-39X'",
    ),
    "box-limit": (
        "midway.toml",
        'cap = [{ count = 2, kind = "L/W", aircraft = "F4F" }]',
        'cap = [{ count = 3, kind = "L/W", aircraft = "F4F" }]',
        "midway.toml: entry 'flight_ops.allied.none': field 'cap': "
        "needs 6 F4F cards, the box holds 4 (25.65)",
    ),
    "formation-kind-is-checked": (
        "coral-sea.toml",
        '{ count = 2, kind = "formation", aircraft = "B-17E" }',
        '{ count = 2, kind = "L/W", aircraft = "B-17E" }',
        "coral-sea.toml: entry 'coral-sea': field 'land_based.allied[0].kind': "
        "B-17E flies as formation",
    ),
    "duplicate-card-id": (
        "deck.toml",
        "{ id =   2,",
        "{ id =   1,",
        "deck.toml: entry 'card 1': field 'id': duplicate card id 1",
    ),
    "attack-card-without-damage": (
        "deck.toml",
        '{ id =  23, title = "OTS", burst = 2, damage = 3,',
        '{ id =  23, title = "OTS", burst = 2,',
        "deck.toml: entry 'card 23': field 'damage': an OTS card needs burst and damage",
    ),
    "duplicate-resource-number": (
        "resources.toml",
        "number = 13\n",
        "number = 12\n",
        "resources.toml: entry 'resource 12': field 'number': duplicate resource number 12",
    ),
    "resource-effect-typo": (
        "resources.toml",
        "effect = { fleet_damage_bonus = 1 }",
        "effect = { fleet_damage_bonus = 1, radar = true }",
        "resources.toml: entry 'resource 7': field 'effect.radar': Extra inputs are not permitted",
    ),
    "unknown-sheet-and-track": (
        "coral-sea.toml",
        'sheet = "5C"',
        'sheet = "9Z"',
        "coral-sea.toml: entry 'place invasion-force': field 'sheet': unknown target sheet '9Z'",
    ),
    "unknown-track": (
        "midway.toml",
        'track = "midway-ground"',
        'track = "midway-sand"',
        "midway.toml: entry 'place midway-ground': field 'track': "
        "unknown damage track 'midway-sand'",
    ),
    "track-levels-must-rise": (
        "tracks.toml",
        '{ name = "Delayed", min_boxes = 5,',
        '{ name = "Delayed", min_boxes = 0,',
        "tracks.toml: entry 'invasion-force': field 'levels': "
        "levels must start at 0 boxes and rise",
    ),
    "target-points-missing-a-result": (
        "targets.toml",
        "points = { miss = 0, hit = 2, direct = 4, vital = 6 }",
        "points = { miss = 0, hit = 2, direct = 4 }",
        "targets.toml: entry '4C': field 'points.vital': Field required",
    ),
    "missing-provenance": (
        "targets.toml",
        'provenance = "authored-default"\n',
        "",
        "targets.toml: field 'provenance': Field required",
    ),
    "wrong-type": (
        "aircraft.toml",
        "burst = 2\noffensive = 2  # seed",
        'burst = "two"\noffensive = 2  # seed',
        "aircraft.toml: entry 'A6M2': field 'undamaged.burst': Input should be a valid integer…",
    ),
    "missing-horsepower-band": (
        "aircraft.toml",
        "horsepower = { VH = 2, H = 2, M = 3, L = 3, VL = 2 }\nburst = 2\noffensive = 2",
        "horsepower = { VH = 2, H = 2, M = 3, L = 3 }\nburst = 2\noffensive = 2",
        "aircraft.toml: entry 'A6M2': field 'undamaged.horsepower.VL': band missing…",
    ),
    "unknown-band-name": (
        "midway.toml",
        'aircraft = "E13A1"  # cruiser floatplane\nband = "M"',
        'aircraft = "E13A1"  # cruiser floatplane\nband = "MED"',
        "midway.toml: entry 'scouts.japanese': field 'band': unknown band 'MED'…",
    ),
    "card-with-a-bad-result": (
        "deck.toml",
        '{ id =   7, title = "IMS", burst = 1, damage = 2, bombing = "vital"',
        '{ id =   7, title = "IMS", burst = 1, damage = 2, bombing = "great"',
        "deck.toml: entry 'card 7': field 'bombing': unknown bombing result 'great'…",
    ),
    "place-field-type": (
        "midway.toml",
        "min_boxes = 5\n",
        'min_boxes = "five"\n',
        "midway.toml: entry 'place midway-airfield': field 'airfield_table[1].min_boxes': "
        "Input should be a valid integer…",
    ),
}


@pytest.mark.parametrize(("name", "old", "new", "said"), REFUSALS.values(), ids=REFUSALS)
def test_a_mistake_is_refused_saying_where(
    data: Path, name: str, old: str, new: str, said: str
) -> None:
    _edit(data, name, old, new)
    refusal = _error(data)
    if said.endswith("…"):
        assert refusal.startswith(said.removesuffix("…")), refusal
    else:
        assert refusal == said


def test_missing_field(data: Path) -> None:
    ki30 = 'performance = 4\nhorsepower = { VH = "-", H = 2'
    _edit(
        data,
        "aircraft.toml",
        f"vp = 4\nbox = 4\n[aircraft.undamaged]\n{ki30}",
        f"box = 4\n[aircraft.undamaged]\n{ki30}",
    )
    assert _error(data) == "aircraft.toml: entry 'Ki-30': field 'vp': Field required"


def test_wrong_side_aircraft(data: Path) -> None:
    row = '[flight_ops.allied.none]\nprovenance = "seed"'
    _edit(data, "midway.toml", row, '[flight_ops.allied.none]\nprovenance = "authored-default"')
    _edit(
        data,
        "midway.toml",
        'kind = "L/W", aircraft = "F4F" }]\n\n#',
        'kind = "L/W", aircraft = "A6M2" }]\n\n#',
    )
    assert _error(data) == (
        "midway.toml: entry 'flight_ops.allied.none': field 'cap[0].aircraft': "
        "A6M2 does not fly for the allied side"
    )


def test_box_limit_counts_the_airfield(data: Path) -> None:
    # 3 L/W SBD-3 (6 cards) in the Allied Large Strike + Midway's 1 L + the scout bonus.
    _edit(
        data,
        "midway.toml",
        '{ count = 2, kind = "L/W", aircraft = "SBD-3" }',
        '{ count = 3, kind = "L/W", aircraft = "SBD-3" }',
    )
    message = _error(data)
    assert message.startswith("midway.toml: entry 'flight_ops.allied.large': field 'strike': ")
    assert "needs 8 SBD-3 cards with the other aircraft" in message


def test_unparseable_toml(data: Path) -> None:
    (data / "tracks.toml").write_text('provenance = "authored-default"\n[[track]\nid = 3\n')
    assert _error(data).startswith("tracks.toml: not valid TOML: ")


def test_missing_file(data: Path) -> None:
    (data / "resources.toml").unlink()
    assert _error(data).startswith("resources.toml: file not found in ")


def test_pilot_unknown_skill(data: Path) -> None:
    catalog = load_catalog(data)
    _edit(data, "pilots.toml", '"Honda", skills = ["BU"]', '"Honda", skills = ["XX"]')
    with pytest.raises(DataError) as info:
        load_pilots(data, catalog)
    assert str(info.value).startswith(
        "pilots.toml: entry 'jn-a6m2-1': field 'faces[0].skills[0]': unknown skill code 'XX'"
    )


def test_pilot_counter_for_another_service(data: Path) -> None:
    catalog = load_catalog(data)
    _edit(
        data,
        "pilots.toml",
        'id = "jn-a6m2-1", aircraft = "A6M2"',
        'id = "jn-a6m2-1", aircraft = "Ki-43"',
    )
    with pytest.raises(DataError) as info:
        load_pilots(data, catalog)
    assert str(info.value) == (
        "pilots.toml: entry 'jn-a6m2-1': field 'aircraft': "
        "Ki-43 is not flown by this pool's service"
    )
