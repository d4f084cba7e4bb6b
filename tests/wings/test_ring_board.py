"""The board draws the protective ring (seed A.IV.i.2): its sections as dashed lines from
balloon to balloon, none to the table's edges, and a line saying how each hangs; a balloon
winched down shows as such (seed A.IV.i.3)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from engine.rulesets.wings import WingsRules, WingsState
from engine.rulesets.wings.state import Objective
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.map import NET, table_map
from tests.rendering.phone import recording
from tests.wings.helpers import catalog

SPOTS = {"c-B1": (17.0, 5.0), "c-B2": (14.0, 11.0), "c-B3": (17.0, 17.0)}


def ringed(**b2: Any) -> tuple[WingsRules, WingsState]:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "board")
    mission = state.camp.mission
    assert mission is not None
    objectives = {
        oid: Objective(id=oid, kind="balloon", side="central", x=x, y=y, level=3)
        for oid, (x, y) in SPOTS.items()
    }
    objectives["c-B2"] = objectives["c-B2"].model_copy(update=b2)
    mission = mission.model_copy(
        update={"nets": True, "net_shape": "ring", "objectives": objectives}
    )
    return rules, state.model_copy(
        update={"campaign": state.camp.model_copy(update={"mission": mission})}
    )


def texts(rules: WingsRules, state: WingsState) -> str:
    with recording() as images:
        WingsPresenter().status_board(rules.view(state, None), {}, None, "en")
    (image,) = images
    return " ".join(text.text for text in image.texts)


def net_pixels(mission: dict[str, Any], spots: list[tuple[float, float]]) -> list[bool]:
    """Whether the net's grey shows within a few pixels of each table point."""
    width = 600
    image = table_map(mission, {}, width, "en")
    scale = (width - 36 - 8) / float(mission["table"][0])
    found = []
    for x, y in spots:
        px, py = 36 + x * scale, 36 + y * scale
        found.append(
            any(
                image.getpixel((int(px) + dx, int(py) + dy)) == NET
                for dx in range(-3, 4)
                for dy in range(-3, 4)
            )
        )
    return found


def along(first: str, second: str, share: float) -> tuple[float, float]:
    (ax, ay), (bx, by) = SPOTS[first], SPOTS[second]
    return (ax + (bx - ax) * share, ay + (by - ay) * share)


def test_the_ring_is_drawn_balloon_to_balloon_and_named_section_by_section() -> None:
    rules, state = ringed()
    words = texts(rules, state)
    assert "Protective ring net round the balloons:" in words
    for section in ("c-B1–c-B2 alt 3", "c-B2–c-B3 alt 3", "c-B3–c-B1 alt 3"):
        assert section in words
    assert "Barrage net" not in words
    mission = rules.view(state, None).data["mission"]
    # A dash of each section, clear of the balloons' cards.
    dashes = [along("c-B1", "c-B2", 2.3 / 6), along("c-B2", "c-B3", 2.3 / 6)]
    dashes.append(along("c-B1", "c-B3", 4.3 / 12))
    assert net_pixels(mission, dashes) == [True, True, True]
    # Nothing runs on to the table's edges, as a barrage would.
    assert net_pixels(mission, [(17.0, 1.0), (17.0, 21.0)]) == [False, False]


def test_a_balloon_winched_down_takes_its_sections_down_and_says_so() -> None:
    rules, state = ringed(hauled_down=True, level=0, winching=True)
    words = texts(rules, state)
    assert "c-B1–c-B2 down" in words and "c-B2–c-B3 down" in words
    assert "c-B3–c-B1 alt 3" in words
    assert "down on its winch, out of the fight" in words
    mission = rules.view(state, None).data["mission"]
    assert net_pixels(mission, [along("c-B1", "c-B2", 2.3 / 6)]) == [False]


def test_a_balloon_coming_down_shows_it() -> None:
    rules, state = ringed(winching=True, level=2, counters=1)
    assert "coming down on its winch, altitude 2" in texts(rules, state)


def test_the_png_is_a_board() -> None:
    rules, state = ringed()
    png = WingsPresenter().status_board(rules.view(state, None), {}, None, "en")
    assert Image.open(io.BytesIO(png)).format == "PNG"
