"""The phone-first strike report keeps what a reader needs and says what it left out.

On a phone the strike report can hold only a few bombing runs, flak rows and duels; the
rest is cut with "... and n more in the log". What stays must be what matters (flak that
did something before quiet flak), the picture must stay a few screens long however big the
strike, and its legend must explain the marks and card names it shows, and only those.
"""

from __future__ import annotations

import io

from PIL import Image

from engine.zero.report import FlakShot, StrikeReport
from rendering.zero.strike import render_strike_report
from tests.rendering.fixtures import (
    CORAL_PLACES,
    MIDWAY_PLACES,
    cards,
    hidden_strike,
    japanese_strike,
    large_strike,
)
from tests.rendering.phone import recording

MAX_HEIGHT = 2400


def _texts(report: StrikeReport, locale: str = "en") -> tuple[list[str], Image.Image]:
    with recording() as images:
        data = render_strike_report(report, place_names=MIDWAY_PLACES, cards=cards(), locale=locale)
    (picture,) = images
    return [text.text for text in picture.texts], Image.open(io.BytesIO(data))


def test_the_legend_names_each_card_shown_and_only_marks_in_use() -> None:
    texts, _ = _texts(japanese_strike())
    # every card title on the picture is named in the legend, once
    for code, name in (
        ("IMS", "In My Sights"),
        ("VR", "Vertical Roll"),
        ("SC", "Scissors"),
        ("HL", "Half Loop"),
        ("OTS", "Out of the Sun"),
        ("MAN", "Maneuvering"),
        ("TT", "Tight Turn"),
    ):
        assert name in texts, code
        assert texts.count(name) == 1, code
    assert "lost on recovery" in texts and "torpedo" in texts
    assert "CAP" in texts and "Combat Air Patrol (the defending fighters)" in texts
    assert "answering card; in combat, damage back to the attacker" in texts  # the ↩ shown
    quiet, _ = _texts(hidden_strike())
    # nobody was hit, nothing was drawn: no mark for them and no card names
    for absent in ("Destroyed", "Damaged", "lost on recovery", "torpedo", "In My Sights", "↩"):
        assert absent not in quiet, absent
    assert "bomb" in quiet


def test_the_french_legend_names_cards_in_french() -> None:
    texts, _ = _texts(japanese_strike(), "fr")
    assert "virage serré" in texts and "dans mon viseur" in texts
    assert "Tight Turn" not in texts
    assert "PC" in texts and "patrouille de combat (les chasseurs en défense)" in texts


def test_a_large_strike_is_cut_and_says_so() -> None:
    texts, image = _texts(large_strike())
    assert image.width == 800
    assert image.height <= MAX_HEIGHT
    assert "… and 2 more in the log" in texts  # bombing runs: 5 flown, 3 shown
    assert any(text.startswith("… and") and "more in the log" in text for text in texts)
    assert sum("more in the log" in text for text in texts) == 3  # runs, flak, duels


def test_a_huge_strike_still_fits_three_phone_screens() -> None:
    big = large_strike()
    many = big.model_copy(
        update={
            "flak": big.flak * 3,
            "bomb_runs": big.bomb_runs * 3,
            "exchanges": big.exchanges * 3,
        }
    )
    texts, image = _texts(many)
    assert image.height <= MAX_HEIGHT
    assert sum("more in the log" in text for text in texts) == 3


def test_flak_that_did_something_is_shown_before_quiet_flak() -> None:
    strike = japanese_strike()
    quiet = tuple(
        FlakShot(phase="ingress", kind="area", against=uid, cards=(45,), damage=0)
        for uid in ("J-S-A6M2-1L", "J-S-A6M2-1W", "J-S-B5N2-1W", "J-S-D3A1-1L", "J-S-B5N2-1L")
    )
    hit = FlakShot(phase="egress", kind="area", against="J-S-D3A1-1L", cards=(20,), damage=3)
    texts, _ = _texts(strike.model_copy(update={"flak": (*quiet, hit)}))
    assert "3 dmg" in texts  # the last row in phase order, but the only one that hurt
    assert "… and 2 more in the log" in texts
    assert "Egress · Area Flak" in texts


def test_every_strike_report_fixture_is_800_px_wide() -> None:
    for report, places in ((japanese_strike(), CORAL_PLACES), (hidden_strike(), CORAL_PLACES)):
        data = render_strike_report(report, place_names=places, cards=cards(), locale="en")
        assert Image.open(io.BytesIO(data)).width == 800
