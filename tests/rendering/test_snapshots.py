"""Every image from fixed fixtures against its reference PNG, with a small tolerance.

A missing reference fails, unless ``SORTIE_UPDATE_SNAPSHOTS=1`` is set: then the image is
written (also for a mismatch), so references change only when someone asks for it. Look at
an updated PNG before committing it.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.rendering.fixtures import image_cases

SNAPSHOTS = Path(__file__).parent / "snapshots"
TOLERANCE = 1.5  # mean absolute difference per channel, on a 0-255 scale
CASES = image_cases()


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    data = CASES[name]()
    image = Image.open(io.BytesIO(data))
    path = SNAPSHOTS / f"{name}.png"
    update = os.environ.get("SORTIE_UPDATE_SNAPSHOTS") == "1"
    if not path.exists():
        if update:
            path.write_bytes(data)
            return
        pytest.fail(
            f"no reference image {path.name}; run with SORTIE_UPDATE_SNAPSHOTS=1 to write it"
        )
    reference = Image.open(path)
    if reference.size != image.size:
        if update:
            path.write_bytes(data)
            return
        pytest.fail(f"{name}: size {image.size} differs from the reference {reference.size}")
    difference = mean_difference(reference, image)
    if difference > TOLERANCE and update:
        path.write_bytes(data)
        return
    assert difference <= TOLERANCE, f"{name}: mean difference {difference:.2f} > {TOLERANCE}"


def test_same_input_same_bytes() -> None:
    for name in ("status_orders_en", "strike_en", "after_action_fr"):
        assert CASES[name]() == CASES[name](), name


def test_no_text_under_18_px(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every font the renderers open at scale 1 is at least 18 px."""
    from PIL import ImageFont

    from rendering import style

    sizes: list[int] = []
    real = ImageFont.truetype

    def spy(path: object, size: float = 10, *args: object, **kwargs: object) -> object:
        sizes.append(int(size))
        return real(path, size, *args, **kwargs)  # type: ignore[arg-type]

    style.clear_font_cache()
    monkeypatch.setattr(ImageFont, "truetype", spy)
    try:
        for name, render in CASES.items():
            if name.startswith("badges"):
                continue  # the badge sheet also shows other scales on purpose
            render()
    finally:
        style.clear_font_cache()
    assert sizes, "no font was opened"
    assert min(sizes) >= 18


def test_threads_render_the_same_bytes() -> None:
    """The bot renders in worker threads; fonts are per thread, output does not change."""
    from concurrent.futures import ThreadPoolExecutor

    names = ["status_orders_en", "strike_en", "panel_allied_fr", "after_action_en"] * 2
    serial = [CASES[name]() for name in names]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda name: CASES[name](), names))
    assert parallel == serial
