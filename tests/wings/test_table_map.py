"""The Wings table drawn from above on the boards: planes where the view puts them, each
pointing along its heading; nothing the viewer may not know (a plane's way in the clouds)."""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image

from engine.rulesets.wings import WingsRules, WingsState
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.map import SIDE_INK, table_map
from tests.rendering.phone import recording
from tests.wings.helpers import catalog, with_planes

WIDTH = 768


def _state(**planes: dict[str, Any]) -> WingsState:
    return with_planes(WingsRules(catalog()).new("wings-1917", "map"), planes)


def _map(state: WingsState, viewer: str | None = None) -> tuple[Image.Image, Any]:
    view = WingsRules(catalog()).view(state, viewer)
    mission = view.data["mission"]
    return table_map(mission, view.slots, WIDTH, "en"), mission


def _pixel(image: Image.Image, mission: Any, x: float, y: float) -> tuple[int, int, int]:
    """The map's pixel at table point (x, y), as ``table_map`` lays the table out: the
    table's y grows upwards (authored 3.1), so a left turn reads as one on the picture."""
    band = 36
    scale = (WIDTH - band - 8) / float(mission["table"][0])
    top = float(mission["table"][1])
    return image.getpixel((round(band + x * scale), round(band + (top - y) * scale)))  # type: ignore[return-value]


def _ahead(plane: Any, bw: float) -> tuple[float, float]:
    heading = math.radians(plane["heading"])
    return plane["x"] + bw * math.cos(heading), plane["y"] + bw * math.sin(heading)


def test_each_flying_plane_points_along_its_heading_in_its_side_colour() -> None:
    state = _state(P1={"x": 8.0, "y": 6.0, "heading": 90.0})
    image, mission = _map(state)
    for plane in mission["planes"].values():
        colour = SIDE_INK[plane["side"]]
        assert _pixel(image, mission, *_ahead(plane, 0.35)) == colour  # its nose
        assert _pixel(image, mission, *_ahead(plane, -1.2)) != colour  # nothing behind it
    # Turned to 90°, P1's arrow runs down the y axis, not along x.
    assert _pixel(image, mission, 8.0, 6.4) == SIDE_INK["entente"]
    assert _pixel(image, mission, 8.6, 6.0) != SIDE_INK["entente"]


def test_planes_off_the_table_are_not_drawn_and_downed_ones_are_a_cross() -> None:
    state = _state(
        P1={"x": 8.0, "y": 6.0, "status": "left"},
        P2={"x": 8.0, "y": 16.0, "status": "shot_down"},
    )
    with recording() as drawn:
        WingsPresenter().status_board(WingsRules(catalog()).view(state, None), {}, None, "en")
    labels = {text.text for image in drawn for text in image.texts}
    assert {"C1 · 2", "C2 · 2"} <= labels and not {"E1 · 2", "E2 · 2"} & labels
    image, mission = _map(state)
    clear = _pixel(image, mission, 8.3, 9.0)  # bare no-man's land
    assert _pixel(image, mission, 8.3, 6.0) == clear  # nothing where P1 left from
    assert _pixel(image, mission, 8.3, 16.0) == clear  # no arrow for P2...
    assert _pixel(image, mission, 8.0, 16.0) != clear  # ...but the cross where it fell


def test_the_enemy_cannot_read_a_plane_s_way_in_the_clouds_off_the_board() -> None:
    """Two states differing only in the cards a plane flies blind in the clouds give the
    enemy and the public the same board, byte for byte."""
    presenter = WingsPresenter()
    boards = []
    for cards in (("S", "S"), ("TL", "BR")):
        state = _state(P1={"in_cloud": True, "cloud_cards": cards, "cloud_salt": "salt"})
        rules = WingsRules(catalog())
        boards.append(
            tuple(
                presenter.status_board(rules.view(state, viewer), {}, None, "en")
                for viewer in ("central", None)
            )
        )
    assert boards[0] == boards[1]


def test_the_boards_open_with_the_table() -> None:
    state = _state()
    rules = WingsRules(catalog())
    png = WingsPresenter().status_board(rules.view(state, None), {}, None, "en")
    board = Image.open(io.BytesIO(png))
    image, _ = _map(state)
    assert board.height > image.height + 400  # the title, the table, then the lines


def test_a_deep_objective_is_ringed_and_a_near_one_is_not() -> None:
    # Seed E.I.b: in the enemy zone a deep objective doubles the award; the bomber sees
    # which on the table, not only in the list under it.
    from engine.rulesets.wings.zones import place_deep

    state = _state()
    mission = state.camp.mission
    assert mission is not None
    placed = place_deep(catalog(), "bombing", "central", 2)
    sites = list(placed.values())
    assert [s.deep for s in sites] == [True, False]
    mission = mission.model_copy(update={"objectives": placed})
    campaign = state.camp.model_copy(update={"mission": mission})
    state = state.model_copy(update={"campaign": campaign})
    image, view = _map(state)
    colour = SIDE_INK["central"]
    scale = (WIDTH - 36 - 8) / float(view["table"][0])
    for site in sites:
        ring = (0.55 + 0.25) * scale - 1.5  # the ring's stroke, in pixels from the centre
        top = float(view["table"][1])  # the table's y grows upwards
        left = image.getpixel(
            (round(36 + site.x * scale - ring), round(36 + (top - site.y) * scale))
        )
        assert (left == colour) == site.deep, site.id


def test_a_plane_s_label_moves_under_it_when_a_marker_stands_where_it_would_be() -> None:
    # The flak battery's "F" beside a plane's start was hidden under the plane's label.
    from engine.rulesets.wings.state import GroundElement

    state = _state(P1={"x": 8.0, "y": 10.0, "heading": 0.0})
    mission = state.camp.mission
    assert mission is not None
    free, _ = _map(state)

    def label_ink(image: Image.Image, mission: Any, above: bool) -> int:
        colour = SIDE_INK[mission["planes"]["P1"]["side"]]
        band, scale = 36, (WIDTH - 36 - 8) / float(mission["table"][0])
        cx, cy = band + 8.0 * scale, band + (float(mission["table"][1]) - 10.0) * scale
        rows = (
            range(int(cy - 0.75 * scale - 24), int(cy - 0.75 * scale))
            if above
            else range(int(cy + 0.75 * scale), int(cy + 0.75 * scale + 24))
        )
        return sum(
            image.getpixel((x, y)) == colour
            for x in range(int(cx - 30), int(cx + 30))
            for y in rows
        )

    view = WingsRules(catalog()).view(state, None).data["mission"]
    assert label_ink(free, view, above=True) > 20 and label_ink(free, view, above=False) == 0
    # Just above the plane on the table (its y grows upwards): where the label would be.
    post = GroundElement(id="c-F9", kind="dca", side="central", x=8.0, y=11.1)
    crowded = mission.model_copy(update={"ground": {**mission.ground, "c-F9": post}})
    state = state.model_copy(
        update={"campaign": state.camp.model_copy(update={"mission": crowded})}
    )
    moved, view = _map(state)
    assert label_ink(moved, view, above=False) > 20  # under the plane now


def test_a_plane_s_label_by_the_table_s_edge_stays_inside_its_frame() -> None:
    """A plane near the top edge has its label under it, one by the left edge has it moved
    in: the frame line runs unbroken past them and no label ink falls in the coordinate
    bands, where it would sit over the frame and the ruler's numbers."""
    from rendering.rulesets.wings.map import BAND, EDGE

    state = _state(P1={"x": 0.3, "y": 16.0, "heading": 0.0}, P3={"x": 10.0, "y": 21.2})
    image, mission = _map(state)
    table_w, table_h = (float(v) for v in mission["table"])
    assert table_h - 1.2 < 21.2 < table_h, table_h  # P3 a base under the top edge
    scale = (WIDTH - BAND - 8) / table_w
    p3 = mission["planes"]["P3"]
    ink = SIDE_INK[p3["side"]]
    cx = round(BAND + 10.0 * scale)
    # The top frame line, where P3's label stood across it before (its arrow's wings,
    # a base wide, may touch it: the line is looked at beside them).
    beside = [*range(cx - 40, cx - 25), *range(cx + 25, cx + 40)]
    assert all(image.getpixel((x, BAND)) == EDGE for x in beside)
    band = [(x, y) for x in range(cx - 60, cx + 60) for y in range(0, BAND)]
    assert not any(image.getpixel(xy) == ink for xy in band)
    cy = BAND + (table_h - 21.2) * scale
    under = range(round(cy + 0.75 * scale), round(cy + 0.75 * scale + 24))
    assert sum(image.getpixel((x, y)) == ink for x in range(cx - 30, cx + 30) for y in under) > 20
    # P1 by the left edge: its label is inside the table, not over the left band (the
    # arrow's tail may poke into it: the rows looked at are the label's).
    entente = SIDE_INK[mission["planes"]["P1"]["side"]]
    y1 = BAND + (table_h - 16.0) * scale
    rows = range(round(y1 - 0.75 * scale - 24), round(y1 - 0.75 * scale))
    assert not any(image.getpixel((x, y)) == entente for x in range(0, BAND - 1) for y in rows)
