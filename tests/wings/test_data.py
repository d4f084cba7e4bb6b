"""The shipped Wings of War data: loads, matches the authored tables, refuses broken files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.rulesets.wings.catalog import (
    DATA_DIR,
    DataError,
    centre_move,
    default_catalog,
    load_catalog,
)

# Centre moves (dx, dy, dtheta) transcribed from the right-hand column of the authored deck
# tables (wings-authored-data.md 3.4). The data files store only the card (a, b, theta); the
# loader derives these, so agreement checks both the formula of 3.1 and the transcription.
CENTRE_MOVES = {
    ("A", "S"): (3.00, 0.00, 0),
    ("A", "BL"): (2.83, 0.76, 30),
    ("A", "TR"): (2.21, -1.27, -60),
    ("A", "ST"): (1.70, 0.00, 0),
    ("A", "IM"): (1.00, 0.00, 180),
    ("A", "DV"): (3.40, 0.00, 0),
    ("B", "HL"): (1.34, 1.34, 90),
    ("B", "SR"): (2.50, -0.50, 0),
    ("C", "BR"): (2.45, -0.66, -30),
    ("C", "HR"): (1.21, -1.21, -90),
    ("D", "WL"): (2.00, 0.90, 0),
    ("D", "TL"): (1.79, 1.04, 60),
    ("E", "HR"): (1.40, -1.40, -90),
    ("F", "BL"): (2.74, 0.73, 30),
    ("H", "IM"): (0.80, 0.00, 180),
    ("I", "HL"): (1.21, 1.21, 90),
    ("J", "BR"): (2.55, -0.68, -30),
    ("K", "DV"): (3.50, 0.00, 0),
    ("L", "TL"): (1.88, 1.08, 60),
    ("XD", "SF"): (3.40, 0.00, 0),
    ("XD", "BL"): (3.01, 0.81, 30),
    ("XD", "TL"): (2.58, 1.49, 60),
}

DECK_SIZES = {"A": 18, "B": 20, "C": 20, "D": 20, "E": 20, "F": 20, "G": 20, "H": 18,
              "I": 20, "J": 20, "K": 20, "L": 18, "XD": 13}  # fmt: skip


@pytest.mark.parametrize(("key", "expected"), sorted(CENTRE_MOVES.items()))
def test_centre_move_matches_the_authored_table(
    key: tuple[str, str], expected: tuple[float, float, float]
) -> None:
    catalog = default_catalog()
    deck = catalog.maneuver_decks[key[0]]
    card = deck.card(key[1])
    assert card is not None
    length = catalog.rules.units.large_base[1] if deck.base == "large" else 1.4
    move = centre_move(card, length)
    # The table rounds values derived from unrounded arcs: allow one unit in the last place.
    assert move.dx == pytest.approx(expected[0], abs=0.011)
    assert move.dy == pytest.approx(expected[1], abs=0.011)
    assert move.dtheta == expected[2]


def test_deck_sizes_and_found_facts() -> None:
    catalog = default_catalog()
    sizes = {letter: deck.cards[-1].no[1] for letter, deck in catalog.maneuver_decks.items()}
    assert sizes == DECK_SIZES
    for letter, deck in catalog.maneuver_decks.items():
        assert deck.codes[-2:] == ("CL", "DV")
        immelmanns = [card for card in deck.cards if card.code == "IM"]
        assert len(immelmanns) == (0 if letter == "XD" else 1)
    # Deck C is the asymmetric Camel: right tight turn blue and doubled, left one steep.
    camel = catalog.maneuver_decks["C"]
    assert camel.card("HR") is not None and not camel.card("HR").steep  # type: ignore[union-attr]
    assert camel.card("HR").copies == 2  # type: ignore[union-attr]
    assert camel.card("HL").steep  # type: ignore[union-attr]


def test_damage_decks_match_the_authored_counts_and_means() -> None:
    catalog = default_catalog()
    expected = {"A": (44, 1.68), "B": (44, 1.30), "C": (24, 3.21), "D": (12, 3.42),
                "E": (32, 0.88)}  # fmt: skip
    for letter, (size, mean) in expected.items():
        cards = catalog.damage_decks[letter].expanded
        assert len(cards) == size
        assert sum(card.value for card in cards) / size == pytest.approx(mean, abs=0.0051)
    for letter in ("A", "B"):
        specials = [card.special for card in catalog.damage_decks[letter].expanded]
        assert specials.count("explosion") == 2  # seed B.VI
    fires = {
        letter: [c.special for c in catalog.damage_decks[letter].expanded].count("fire")
        for letter in ("A", "B")
    }
    assert fires == {"A": 2, "B": 3}
    wounded_values = sorted(
        card.value for card in catalog.damage_decks["A"].cards if card.special == "pilot_wounded"
    )
    assert wounded_values == [3, 5]  # seed A.II.b


def test_found_plane_values_are_kept() -> None:
    planes = default_catalog().planes
    d3, n17 = planes["albatros_d3"], planes["nieuport17"]
    assert (d3.deck, d3.guns[0].deck, d3.damage_points) == ("J", "A", 14)
    assert (n17.deck, n17.guns[0].deck, n17.damage_points) == ("I", "B", 12)
    assert planes["spad7"].deck == "B"
    assert planes["lancaster"].deck == "XD" and planes["lancaster"].damage_points > 20
    assert planes["roland_c2"].guns[1].all_round_above


def test_service_class_by_date() -> None:
    camel = default_catalog().planes["camel"]  # May 1917
    assert camel.service_class("1917-04") == "future"
    assert camel.service_class("1917-07") == "advanced"
    assert camel.service_class("1918-01") == "period"
    assert camel.service_class("1918-11") == "obsolete"


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


# One hand-made mistake in a data file each: (file, text found, text put instead, what the
# refusal must say).
BROKEN = {
    "card-number": (
        "maneuvers.toml", '{ no = [4, 5], code = "BL"', '{ no = [5, 5], code = "BL"',
        r"maneuvers.toml: entry 'decks.A': card BL numbered",
    ),
    "deck-reference": (
        "planes.toml", 'deck = "J"', 'deck = "Q"',
        r"planes.albatros_d3.*unknown maneuver deck 'Q'",
    ),
    "field-type": (
        "damage.toml", 'special = "smoke"', 'special = "smok"',
        r"damage.toml: entry 'decks.A': field 'cards.5.special'",
    ),
    "climb-and-dive-close-the-deck": (
        "maneuvers.toml", '{ no = [17, 17], code = "CL"', '{ no = [17, 17], code = "SX"',
        "unknown card code 'SX'",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("name", "found", "instead", "said"), BROKEN.values(), ids=BROKEN)
def test_a_broken_data_file_is_refused_naming_the_entry(
    tmp_path: Path, name: str, found: str, instead: str, said: str
) -> None:
    data = _copy(tmp_path)
    path = data / name
    text = path.read_text()
    assert found in text  # the mistake is made, not silently skipped
    path.write_text(text.replace(found, instead, 1))
    with pytest.raises(DataError, match=said):
        load_catalog(data)


def test_missing_file(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    (data / "rules.toml").unlink()
    with pytest.raises(DataError, match=r"rules\.toml: file not found"):
        load_catalog(data)
