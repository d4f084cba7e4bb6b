"""The order panel's preview before Lock (issue 27, part 2): a side's drafted programs flown
as ghost paths on its own picture, from its own view and drafts only."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from engine.rulesets.wings import WingsRules, WingsState
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.flight import GHOST_INK, cards_in, levels
from rendering.rulesets.wings.preview import drafted_programs, preview_board, preview_lines
from tests.test_french import problems
from tests.wings.helpers import catalog, with_planes

RULES = WingsRules(catalog())


def _state(**planes: dict[str, Any]) -> WingsState:
    return with_planes(RULES.new("wings-1917", "preview"), planes)


def _ghost_rows(board: Image.Image, side: str) -> list[int]:
    """The picture rows holding the side's ghost colour."""
    rgb = board.convert("RGB")
    ink = GHOST_INK[side]
    pixels = ((x, y) for y in range(rgb.height) for x in range(0, rgb.width, 2))
    return sorted({y for x, y in pixels if rgb.getpixel((x, y)) == ink})


def test_a_left_bank_flies_to_the_pilot_s_left_on_the_picture() -> None:
    # Albert Ball flies east across the middle; the rest of the table out of the way.
    view = RULES.view(_state(P1={"x": 8.0, "y": 11.0, "heading": 0.0}), "entente")
    rows = {}
    for program in ("BL BL BL", "BR BR BR"):
        board = preview_board(view, drafted_programs(view, {"program:P1": program}), 768, "en")
        assert board is not None
        rows[program] = _ghost_rows(board, "entente")
    # East is to the right, north (the table's +y) up: a left bank climbs the picture.
    assert min(rows["BL BL BL"]) < min(rows["BR BR BR"])
    assert max(rows["BR BR BR"]) > max(rows["BL BL BL"])


def test_the_picture_changes_with_the_drafts_and_is_the_board_without_them() -> None:
    presenter = WingsPresenter()
    view = RULES.view(_state(), "entente")
    bare = presenter.panel_image(view, "en")
    assert presenter.panel_image(view, "en", {}) == bare
    one = presenter.panel_image(view, "en", {"program:P1": "S S S"})
    two = presenter.panel_image(view, "en", {"program:P1": "BL BL TR"})
    assert len({bare, one, two}) == 3
    # A choice that is not a program (a Knight's order) draws no ghost.
    assert presenter.panel_image(view, "en", {"order:P2": "kill"}) == bare


def test_a_side_s_field_names_only_its_own_planes() -> None:
    # Each plane's field is named after it: the Entente's drafts fly Albert Ball and Cecil
    # Lewis; a draft naming an Entente plane flies nothing for the Central viewer, who
    # programs P3 under its own name (and, in a campaign begun before, its slot "plane1").
    view = RULES.view(_state(), "entente")
    assert drafted_programs(view, {"program:P1": "S S S", "program:P2": "BL S S"}) == {
        "P1": ("S", "S", "S"),
        "P2": ("BL", "S", "S"),
    }
    central = RULES.view(_state(), "central")
    assert drafted_programs(central, {"program:P1": "S S S"}) == {}
    assert set(drafted_programs(central, {"program:P3": "S S S"})) == {"P3"}
    assert set(drafted_programs(central, {"plane1": "S S S"})) == {"P3"}
    # The public sees no one's drafts.
    assert drafted_programs(RULES.view(_state(), None), {"program:P1": "S S S"}) == {}


def test_a_plane_in_the_clouds_or_down_draws_no_ghost() -> None:
    view = RULES.view(_state(P1={"in_cloud": True}, P2={"status": "shot_down"}), "entente")
    assert drafted_programs(view, {"program:P1": "S S S", "program:P2": "S S S"}) == {}


def test_the_cards_of_a_program_option_are_its_card_codes_only() -> None:
    deck = ("S", "BL", "BR", "ST", "IM", "CL", "DV")
    assert cards_in("S S S", deck) == ("S", "S", "S")
    assert cards_in("S split_s: ST IM", deck) == ("S", "ST", "IM")
    assert cards_in("S S S bomb@2", deck) == ("S", "S", "S")
    assert cards_in("S S BL #3f2a", deck) == ("S", "S", "BL")
    assert cards_in("bl, bl, s", deck) == ("BL", "BL", "S")


def test_climbs_and_dives_say_the_altitude_each_card_leaves() -> None:
    kind = {"kinds": {"CL": "climb", "DV": "dive", "S": "straight"}, "climb": 2}
    plane = {"level": 2, "counters": 1}
    # One counter a turn (seed A.III.a): the second climb gains nothing.
    assert levels(plane, kind, ("CL", "CL", "S")) == ["2+1", "3", "3", "3"]
    assert levels({"level": 1, "counters": 0}, kind, ("DV", "S", "S")) == ["1", "0+1", "0+1", "0+1"]


def test_the_words_under_the_picture_name_the_pilot_and_read_in_french() -> None:
    presenter = WingsPresenter()
    view = RULES.view(_state(), "entente")
    drafted = drafted_programs(view, {"program:P1": "S CL S"})
    slot, pilot = presenter._slot, presenter._pilot
    en = [text for text, _, _ in preview_lines(view, drafted, "en", slot, pilot)]
    fr = [text for text, _, _ in preview_lines(view, drafted, "fr", slot, pilot)]
    assert any("Albert Ball: S CL S" in text for text in en), en
    assert any("Albert Ball\u00a0: S CL S" in text for text in fr), fr
    assert problems([("preview", text) for text in fr]) == []
    png = presenter.panel_image(view, "fr", {"program:P1": "S CL S"})
    assert Image.open(io.BytesIO(png)).width == 800
