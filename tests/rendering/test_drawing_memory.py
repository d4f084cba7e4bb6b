"""The drawing process's peak (issue 29): what a board allocates, counted in rows and pixels.

A board was drawn on a canvas filled to a bound twice its height, copied to its height,
then copied twice more at four bytes a pixel by the palette quantizer: about 19 MiB at
once for an 800 × 1,660 board, the whole bot's peak while drawing ahead. Each test here
counts what one of those copies costs and checks the picture stays the same.
"""

from __future__ import annotations

import io
import weakref
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.zero.types import Side
from rendering import style
from rendering.rulesets.carrier import status
from rendering.rulesets.carrier.panel import render_order_panel
from tests.rendering.fixtures import RESOURCE_NAMES, coral_status, midway_status

J, A = Side.JAPANESE, Side.ALLIED


def _board() -> Image.Image:
    """A picture with many colours: bands, anti-aliased text and a gradient of lines."""
    image, draw = style.canvas(1660, 800)
    for row in range(0, 1660, 40):
        draw.rectangle((0, row, 800, row + 20), fill=(row % 255, 90, 200 - row % 180))
        draw.text((20, row), "Carrier Striking Force 12/30", font=style.font(22), fill=style.INK)
    return image


def _octree_pixels(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pixels handed to Pillow's own quantizer (the one that copies them twice at 4 bytes)."""
    counted: list[int] = []
    real = Image.Image.quantize

    def spy(self: Image.Image, colors: int = 256, method: Any = None, *a: Any, **k: Any) -> Any:
        if k.get("palette") is None:
            counted.append(self.width * self.height)
        return real(self, colors, method, *a, **k)

    monkeypatch.setattr(Image.Image, "quantize", spy)
    return counted


def test_the_palette_is_chosen_from_an_eighth_of_the_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    image = _board()
    counted = _octree_pixels(monkeypatch)
    png = style.to_png(image)
    assert sum(counted) <= 800 * 1660 // style.PALETTE_ROWS  # 166,000 pixels, not 1,328,000
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P" and decoded.size == (800, 1660)
    assert len(decoded.getcolors(256) or ()) <= 128
    # Every pixel is mapped to its nearest palette colour: the picture stays close to what
    # was drawn (the octree's own mapping was 0.9 to 1.2 off per channel on the boards).
    from PIL import ImageChops, ImageStat

    diff = ImageChops.difference(image, decoded.convert("RGB"))
    assert sum(ImageStat.Stat(diff).mean) / 3 < 1.5


def test_same_picture_same_bytes() -> None:
    assert style.to_png(_board()) == style.to_png(_board())


def test_a_canvas_is_cut_once_paletted_and_gives_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = _board()
    cut = style.to_png(image.crop((0, 0, 800, 1000)))
    crops: list[tuple[str, int]] = []
    real = Image.Image.crop

    def spy(self: Image.Image, box: Any = None) -> Image.Image:
        crops.append((self.mode, box[3] - box[1]))
        return real(self, box)

    monkeypatch.setattr(Image.Image, "crop", spy)
    assert style.to_png(image, height=1000) == cut
    # Cut at a byte a pixel, never copied at four first: the RGB copies are the bands
    # mapped one at a time (``style.MAP_ROWS`` rows each).
    assert crops and all(mode != "RGB" or height <= style.MAP_ROWS for mode, height in crops)


class _Live:
    """The bytes of the Pillow images alive (a byte a pixel paletted, four for RGB and
    RGBA), counted as each is made and let go, and the most alive at once."""

    def __init__(self) -> None:
        self.now = self.peak = 0
        self.sizes: dict[int, tuple[int, tuple[int, int]]] = {}
        self.made_sizes: list[tuple[int, int]] = []

    def made(self, image: Image.Image) -> None:
        size = image.width * image.height * (1 if image.mode in ("P", "L", "1") else 4)
        self.sizes[id(image)] = (size, image.size)
        self.made_sizes.append(image.size)
        self.now += size
        self.peak = max(self.peak, self.now)
        weakref.finalize(image, self.gone, id(image))

    def gone(self, key: int) -> None:
        self.now -= self.sizes.pop(key)[0]


def _live(monkeypatch: pytest.MonkeyPatch) -> _Live:
    live = _Live()
    real = Image.Image._new

    def spy(self: Image.Image, im: Any) -> Image.Image:
        made = real(self, im)
        live.made(made)
        return made

    monkeypatch.setattr(Image.Image, "_new", spy)
    return live


def test_only_the_picture_s_rows_are_mapped_to_the_palette(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = _board()  # 1,660 rows drawn, the picture the top 1,000
    cut = style.to_png(image.crop((0, 0, 800, 1000)))
    live = _live(monkeypatch)
    assert style.to_png(image, height=1000) == cut
    # Beside the canvas: the palette's sample (an eighth of the rows), the picture
    # paletted (a byte a pixel, its 1,000 rows) and one band at a time, RGB and paletted:
    # 1.41 MB. The whole canvas paletted, then cut, held 2.23 MB (its 1,660 rows and the
    # 1,000 cut from them).
    sample, band = 800 * (1000 // style.PALETTE_ROWS), 800 * style.MAP_ROWS * (4 + 1)
    assert live.peak <= sample + 800 * 1000 + band, live.peak
    assert live.now == 0  # (nothing made is kept)


def _wings_views() -> tuple[Any, Any]:
    from engine.rulesets.wings import WingsRules
    from tests.wings.helpers import catalog

    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "board")
    return rules.view(state, None), rules.view(state, "allied")


@pytest.mark.parametrize("method", ["status_board", "panel_image"])
def test_a_wings_table_is_let_go_once_on_the_canvas(
    monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """The table (768 × 768 at four bytes a pixel, 2.3 MiB) is pasted on the board's
    canvas, then not held while the picture is paletted and encoded."""
    import rendering.rulesets.wings as wings

    public, allied = _wings_views()
    presenter = wings.WingsPresenter()
    args = (public, {}, None, "en") if method == "status_board" else (allied, "en")
    png = getattr(presenter, method)(*args)
    live = _live(monkeypatch)
    held: list[list[tuple[int, int]]] = []
    real = wings.to_png

    def encoded(image: Image.Image, *rest: Any, **named: Any) -> bytes:
        held.append([size for _, size in live.sizes.values()])
        return real(image, *rest, **named)

    monkeypatch.setattr(wings, "to_png", encoded)
    assert getattr(presenter, method)(*args) == png  # the same picture
    (alive,) = held

    def table(size: tuple[int, int]) -> bool:  # (the canvas is the board's whole width)
        return size[0] < wings.WIDTH and size[0] * size[1] >= 400 * 400

    assert any(table(size) for size in live.made_sizes)  # a table was drawn
    assert not [size for size in alive if table(size)], alive


def _canvases(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    heights: list[int] = []
    real = style.canvas

    def spy(height: int, width: int = style.WIDTH) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        heights.append(height)
        return real(height, width)

    monkeypatch.setattr(style, "canvas", spy)
    return heights


@pytest.mark.parametrize("view", [coral_status, midway_status], ids=["coral", "midway"])
def test_a_status_board_is_drawn_on_a_canvas_near_its_height(
    monkeypatch: pytest.MonkeyPatch, view: Any
) -> None:
    board = view()
    heights = _canvases(monkeypatch)
    png = status.render_status_board(
        board, locked={J: False, A: False}, deadline_text=None, locale="fr"
    )
    drawn = Image.open(io.BytesIO(png)).height
    # One canvas, at most 1.5 times the board (it was 2.3 times: 3,761 rows for 1,660).
    assert len(heights) == 1 and heights[0] <= 1.5 * drawn, (heights, drawn)


def test_a_board_that_overflows_its_canvas_is_drawn_again_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = coral_status()
    args: dict[str, Any] = {"locked": {J: True, A: False}, "deadline_text": None, "locale": "en"}
    _likely, bound = status._heights(board)
    image, y = status._status_image(board, height=bound, **args)
    on_the_bound = style.to_png(image.crop((0, 0, image.width, y)))
    assert status.render_status_board(board, **args) == on_the_bound
    heights = _canvases(monkeypatch)
    monkeypatch.setattr(status, "_heights", lambda view: (600, bound))
    assert status.render_status_board(board, **args) == on_the_bound
    assert heights == [600, bound]


def test_an_order_panel_is_cut_without_an_rgb_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    crops: list[tuple[str, int]] = []
    real = Image.Image.crop

    def spy(self: Image.Image, box: Any = None) -> Image.Image:
        crops.append((self.mode, (box[2] - box[0]) * (box[3] - box[1])))
        return real(self, box)

    monkeypatch.setattr(Image.Image, "crop", spy)
    render_order_panel(coral_status(viewer=J), resource_names=RESOURCE_NAMES, locale="en")
    # (the bands mapped to the palette one at a time: ``style.MAP_ROWS`` rows each)
    assert not [size for mode, size in crops if mode == "RGB" and size > 800 * style.MAP_ROWS]
