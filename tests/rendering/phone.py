"""Watch what text an image draws, to check it can be read on a phone.

Discord shows an attachment about 400 px wide on a phone, whatever the file's width, and
the design note asks for no text below about 11 px there: a font of ``size`` pixels in a
file ``width`` pixels wide shows at ``size * 400 / width``. Every image Sortie posts is
encoded by ``rendering.style.to_png`` through ``Image.save``, and every word on it is drawn
by ``ImageDraw.text``, so recording both (per thread: the bot and the demo render in worker
threads) ties each text to the picture it ends up in, tiles pasted into it included.

The kind of a picture is the outermost ``rendering`` function on the stack when it is
saved (``rendering/rulesets/carrier/status.py:render_status_board``), so a failure names
what to fix.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

PHONE_WIDTH = 400  # px: how wide Discord shows an image on a phone
MIN_PHONE_TEXT = 11.0  # px at that width (design/ux.md, "Images")
_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class DrawnText:
    size: float  # the font's size in the file, pixels
    text: str


@dataclass
class DrawnImage:
    kind: str
    width: int
    height: int
    texts: list[DrawnText] = field(default_factory=list)

    def shown(self, text: DrawnText) -> float:
        """The text's size on a phone, pixels."""
        return text.size * PHONE_WIDTH / self.width

    def too_small(self) -> list[tuple[float, str]]:
        small = (t for t in self.texts if self.shown(t) < MIN_PHONE_TEXT)
        return sorted({(round(self.shown(t), 1), t.text) for t in small})

    def smallest(self) -> float:
        return min((self.shown(t) for t in self.texts), default=float("inf"))


def _kind() -> str:
    """The outermost rendering function on this thread's stack."""
    found = "unknown"
    frame = sys._getframe(2)
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        try:
            relative = path.resolve().relative_to(_ROOT)
        except ValueError:
            relative = None
        if relative is not None and relative.parts[0] == "rendering":
            found = f"{relative.as_posix()}:{frame.f_code.co_name}"
        frame = frame.f_back  # type: ignore[assignment]
    return found


@contextmanager
def recording() -> Iterator[list[DrawnImage]]:
    """Record every picture saved (and the text drawn on it) while the block runs."""
    pending = threading.local()
    images: list[DrawnImage] = []
    lock = threading.Lock()
    original_text = ImageDraw.ImageDraw.text
    original_save = Image.Image.save

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        fnt = kwargs.get("font") if "font" in kwargs else (args[1] if len(args) > 1 else None)
        size = getattr(fnt, "size", None)
        if size is not None and str(text).strip():
            buffer = getattr(pending, "texts", None)
            if buffer is None:
                buffer = pending.texts = []
            buffer.append(DrawnText(float(size), str(text)))
        return original_text(self, xy, text, *args, **kwargs)

    def save(self: Image.Image, fp: Any, format: Any = None, **params: Any) -> Any:
        drawn = DrawnImage(_kind(), self.width, self.height, getattr(pending, "texts", []))
        pending.texts = []
        with lock:
            images.append(drawn)
        return original_save(self, fp, format, **params)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    Image.Image.save = save  # type: ignore[method-assign]
    try:
        yield images
    finally:
        ImageDraw.ImageDraw.text = original_text  # type: ignore[method-assign]
        Image.Image.save = original_save  # type: ignore[method-assign]
