"""Every picture Sortie posts can be read on a phone (issue 16, design/ux.md "Images").

Discord shows an image about 400 px wide on a phone; no text may then be smaller than
11 px. Each image kind is rendered from the fixed fixtures, and every ruleset's demo is
played so that each picture players get in a real campaign (boards, DM panels, reveals,
reports, after-action) is looked at too; the smallest text of each is measured.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

import pytest

from bot.demo import run
from rendering.style import canvas, font, to_png
from tests.demos import ZERO_DEMOS
from tests.rendering.fixtures import image_cases
from tests.rendering.phone import MIN_PHONE_TEXT, DrawnImage, recording

DEMOS = (
    *ZERO_DEMOS,
    ("wings", None),
    ("wings", "dambuster-eder"),
    ("dambuster", "dambuster-mohne"),
)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[DrawnImage]]:
    kinds: dict[str, list[DrawnImage]] = defaultdict(list)
    for name, render in image_cases().items():
        with recording() as images:
            render()
        assert images, name
        kinds[f"fixture:{name}"].extend(images)
    for ruleset, scenario in DEMOS:
        out = tmp_path_factory.mktemp(f"phone-{ruleset}")
        with recording() as images:
            asyncio.run(run(scenario, 1942, out, ruleset=ruleset))
        for image in images:
            kinds[image.kind].append(image)
    return dict(kinds)


def _report(kind: str, images: list[DrawnImage]) -> str:
    worst = sorted({small for image in images for small in image.too_small()})[:8]
    widths = sorted({image.width for image in images})
    lines = ", ".join(f"{text!r} at {shown} px" for shown, text in worst)
    return f"{kind} (width {widths}): {lines}"


def test_every_picture_is_readable_at_phone_width(drawn: dict[str, list[DrawnImage]]) -> None:
    problems = [
        _report(kind, images)
        for kind, images in sorted(drawn.items())
        if any(image.too_small() for image in images)
    ]
    assert not problems, "text below 11 px on a 400 px phone:\n" + "\n".join(problems)


def test_the_demos_show_every_picture_kind(drawn: dict[str, list[DrawnImage]]) -> None:
    for presenter in ("carrier", "land", "pearl_harbor", "wings"):
        # A Wings turn is shown flown (issue 27), its sealed programs never "revealed".
        shown = "turn_told" if presenter == "wings" else "reveal_image"
        for part in ("status_board", "panel_image", shown, "report", "after_action"):
            kind = f"rendering/rulesets/{presenter}/__init__.py:{part}"
            assert kind in drawn, (presenter, part)


@pytest.mark.parametrize(("width", "size", "readable"), [(1200, 18, False), (800, 22, True)])
def test_the_measure_reads_size_against_width(width: int, size: int, readable: bool) -> None:
    with recording() as images:
        image, draw = canvas(100, width)
        draw.text((10, 10), "Japanese carrier fleet", font=font(size), fill=(0, 0, 0))
        to_png(image)
    (picture,) = images
    assert (picture.width, [t.size for t in picture.texts]) == (width, [size])
    assert (not picture.too_small()) is readable
    assert picture.smallest() == pytest.approx(size * 400 / width)
    assert (picture.smallest() >= MIN_PHONE_TEXT) is readable


def test_the_measure_names_the_picture_kind() -> None:
    with recording() as images:
        image_cases()["reveal_orders_en"]()
    assert [picture.kind for picture in images] == ["rendering/zero/reveal.py:render_reveal"]
