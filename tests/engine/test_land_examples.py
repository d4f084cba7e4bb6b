"""The land-campaign worked examples of zero-campaign.md, replayed with the real deck and data.

The land pieces of engine/rulesets/land/sheet.py: target draw 24.44-24.46, mission length
23.23-23.25 and mission VPs 24.61. The ruleset that plays them is tested in test_land_ruleset.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.rulesets.land.sheet import (
    MISSION_KEYS,
    AircraftOutcome,
    draw_target,
    load_land_campaign,
    mission_key,
    mission_length,
    mission_vp,
)
from engine.zero.catalog import ActionCard, DataError
from engine.zero.loader import DATA_DIR, default_catalog
from engine.zero.types import Band, CardTitle, Side


def _card(title: CardTitle, burst: int | None = None) -> ActionCard:
    for card in default_catalog().deck.cards:
        if card.title is title and (burst is None or card.burst == burst):
            return card
    raise AssertionError(f"no {title} card in the deck")


def test_burma_sheet_loads_as_authored_default() -> None:
    burma = load_land_campaign("burma")
    assert burma.provenance == "authored-default"
    assert burma.periods == ("Dec 41–Jan 42", "Feb–Mar 42")
    assert set(burma.missions) == set(MISSION_KEYS)
    assert len(burma.targets) == 18
    assert burma.target(15).provenance == "seed"


def test_mission_key_splits_ims_by_burst_cost() -> None:
    assert mission_key(_card(CardTitle.IMS, burst=1)) == "IMS-1B"
    assert mission_key(_card(CardTitle.IMS, burst=2)) == "IMS-2B"
    assert mission_key(_card(CardTitle.OTS)) == "OTS"
    assert mission_key(_card(CardTitle.AP)) == "AP"


def test_burma_ots_example_24_46_and_length_23_24() -> None:
    # 24.46 [EX]: Dec 41-Jan 42, OUT OF THE SUN -> #15, Freighter off Rangoon, sheet 4A,
    # attacked by two Ki-21.
    catalog = default_catalog()
    burma = load_land_campaign("burma")
    card = _card(CardTitle.OTS)
    assert card in catalog.deck.cards
    target = draw_target(burma, "Dec 41–Jan 42", card)
    assert target.number == 15
    assert target.target == "Freighter"
    assert target.location == "Off Rangoon"
    assert target.sheet == "4A"
    assert catalog.targets["4A"].name == "Freighter"
    assert target.attacker is Side.JAPANESE
    assert [(s.count, s.kind, s.aircraft) for s in target.attackers] == [(2, "formation", "Ki-21")]
    assert target.band is Band.M
    # 23.24: a/b less the slowest attacker's speed (Ki-21: 5).
    ki21 = catalog.aircraft["Ki-21"]
    length = mission_length(target.turns, [ki21, ki21])
    assert (length.target_bound, length.over_target, length.home_bound) == (2, 3, 1)
    assert length.skipped == ()
    # Fighters count as Speed 6: a Ki-43 element added by a resource (24.53 [EX]) does not
    # lengthen the mission; the slowest aircraft still sets it.
    length = mission_length(target.turns, [ki21, ki21, catalog.aircraft["Ki-43"]])
    assert (length.target_bound, length.home_bound) == (2, 1)


def test_fighters_count_speed_6_and_phases_at_zero_are_skipped() -> None:
    # 23.24-23.25: fighters and fighter-bombers count 6; a phase at 0 or less is skipped.
    catalog = default_catalog()
    burma = load_land_campaign("burma")
    hurricane = catalog.aircraft["Hurricane-IIB"]
    target = burma.target(12)  # 7/7, one L/W Hurricane IIB
    length = mission_length(target.turns, [hurricane, hurricane])
    assert (length.target_bound, length.over_target, length.home_bound) == (1, 3, 1)
    ki30 = catalog.aircraft["Ki-30"]  # fighter-bomber: Speed 6
    length = mission_length("6/5", [ki30])
    assert (length.target_bound, length.over_target, length.home_bound) == (0, 3, 0)
    assert length.skipped == ("target-bound", "home-bound")
    assert length.total == 3
    length = mission_length("7/6", [catalog.aircraft["Ki-21"]], home_bound_change=-1)
    assert (length.target_bound, length.home_bound, length.skipped) == (2, 0, ("home-bound",))
    dogfight = mission_length(burma.target(16).turns, [catalog.aircraft["Ki-27"]])
    assert dogfight.single == 6
    assert dogfight.total == 6


def test_burma_dogfight_16_lists_both_sides_24_47() -> None:
    burma = load_land_campaign("burma")
    target = draw_target(burma, "Dec 41–Jan 42", _card(CardTitle.MAN))
    assert target.number == 16
    assert target.is_dogfight
    assert [(s.count, s.kind, s.aircraft) for s in target.attackers] == [(2, "L/W", "Ki-27")]
    assert [(s.count, s.kind, s.aircraft) for s in target.defenders] == [(2, "L/W", "Buffalo-I")]


def test_malaya_11_example_23_25() -> None:
    # 23.25 [EX]: four Ki-21 (Speed 5) on Malaya #11, base 9/8 -> 4 TB, 3 Over-Target, 3 HB.
    ki21 = default_catalog().aircraft["Ki-21"]
    assert ki21.undamaged.speed == 5
    length = mission_length("9/8", [ki21] * 4)
    assert (length.target_bound, length.over_target, length.home_bound) == (4, 3, 3)
    assert length.skipped == ()
    assert length.total == 10


def test_docks_vp_example_24_61() -> None:
    # 24.61 [EX]: four G4M and two Ki-27 attack Docks defended by two P-40B. 8 points on
    # the Docks = Heavy Damage, 6 VP; both P-40B destroyed = 10 VP (5 each); one G4M
    # destroyed = 10 VP to the Allies. Japanese 16, Allied 10.
    catalog = default_catalog()
    assert catalog.targets["2A"].name == "Docks"
    level = catalog.targets["2A"].level(8)
    assert level is not None
    assert (level.name, level.vp) == ("Heavy Damage", 6)
    outcomes = [
        AircraftOutcome(aircraft="P-40B", result="destroyed"),
        AircraftOutcome(aircraft="P-40B", result="destroyed"),
        AircraftOutcome(aircraft="G4M1", result="destroyed"),
    ]
    survivors = ["G4M1"] * 3
    vp = mission_vp(Side.JAPANESE, "2A", 8, outcomes, returned_undamaged=survivors)
    assert [(line.side, line.vp) for line in vp.lines] == [
        (Side.JAPANESE, 6),
        (Side.JAPANESE, 5),
        (Side.JAPANESE, 5),
        (Side.ALLIED, 10),
    ]
    assert vp.japanese == 16
    assert vp.allied == 10
    # The authored return bonus (3.5) is off by default; switched on, the three G4Ms that
    # came home undamaged would add 2 each.
    with_bonus = mission_vp(
        Side.JAPANESE, "2A", 8, outcomes, returned_undamaged=survivors, return_bonus=True
    )
    assert (with_bonus.japanese, with_bonus.allied) == (22, 10)


def test_damaged_aircraft_score_half_vp() -> None:
    outcomes = [
        AircraftOutcome(aircraft="P-40B", result="damaged"),
        AircraftOutcome(aircraft="G4M1", result="disengaged"),
    ]
    vp = mission_vp(Side.JAPANESE, "2A", 0, outcomes)
    assert (vp.japanese, vp.allied) == (2, 5)


def test_malformed_burma_sheet_names_file_entry_and_field(tmp_path: Path) -> None:
    text = (DATA_DIR / "burma.toml").read_text(encoding="utf-8")
    bad = text.replace(
        'attackers = [{ count = 2, kind = "formation", aircraft = "Ki-21" }]\n'
        'band = "M"\nturns = "7/6"',
        'attackers = [{ count = 2, kind = "formation", aircraft = "Ki-99" }]\n'
        'band = "M"\nturns = "7/6"',
        1,
    )
    assert bad != text
    (tmp_path / "burma.toml").write_text(bad, encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load_land_campaign("burma", tmp_path)
    assert str(raised.value) == (
        "burma.toml: entry 'target #15': field 'attackers[0].aircraft': unknown aircraft 'Ki-99'"
    )


def test_malformed_burma_schema_error(tmp_path: Path) -> None:
    shutil.copy(DATA_DIR / "burma.toml", tmp_path / "burma.toml")
    path = tmp_path / "burma.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"number = 15\n", 'number = "fifteen"\n', text), encoding="utf-8")
    with pytest.raises(DataError, match=r"^burma\.toml: entry 'target #fifteen': field 'number'"):
        load_land_campaign("burma", tmp_path)
