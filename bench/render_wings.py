"""Wings of War's turn pictures (issue 27), timed against their blank-canvas floors.

A seeded 1917 campaign is played until a turn with shots in it; then, alternating with a
floor of the same size encoded the same way (a blank PNG; for the animation, as many blank
frames through the same palette and GIF writer), each is timed in CPU time:

- the turn's still picture (paths, step marks, fire lines, the key),
- the order panel's preview (a side's drafted programs as ghost paths),
- the animation of the three maneuvers (its size too).

Targets: each <= 4x its floor; the animation made in <= 1.5 s and <= 8 MB.
"""

from __future__ import annotations

import io
import random
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.catalog import default_catalog
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.turn import Flown, flown
from rendering.style import PAPER, to_png

TARGET_RATIO = 4.0
ANIMATION_SECONDS = 1.5
ANIMATION_BYTES = 8 * 1024 * 1024


def a_turn_with_shots(seed: str = "bench") -> tuple[Any, Flown, Any, dict[str, str]]:
    """The public view after the first turn with a shot in it, that turn as flown, and the
    Entente's view and drafts at the next turn's programs (for the preview)."""
    rules = WingsRules(default_catalog())
    state = rules.new("wings-1917", seed)
    picks = random.Random(seed)
    events: dict[int, list[tuple[str, Any]]] = {}
    for _ in range(200):
        progress = rules.progress(state)
        choices = rules.drawn(rules.pending(state), picks)
        state, happened = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
        public = rules.public_events(happened)  # what the log and the channel get
        events.setdefault(progress.turn, []).extend((e.kind, e.data) for e in public)
        after = rules.progress(state)
        shots = any(kind == "fire" for kind, _ in events[progress.turn])
        if rules.ends_turn(progress.round, progress.turn, after) and shots:
            if after.round != "program":
                continue
            drafts = {
                d.field: d.options[-1].id
                for d in rules.pending(state)
                if d.side == "entente" and d.field.startswith("plane")
            }
            return (
                rules.view(state, None),
                flown(events[progress.turn]),
                rules.view(state, "entente"),
                drafts,
            )
    raise SystemExit("no turn with a shot in 200 rounds")


def blank_gif(width: int, height: int, frames: int) -> bytes:
    """The animation's floor: blank frames of its size through the same palette and writer."""
    blank = Image.new("RGB", (width, height), PAPER)
    palette = blank.quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    images = [blank.quantize(palette=palette, dither=Image.Dither.NONE) for _ in range(frames)]
    out = io.BytesIO()
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:], duration=100, loop=0,
        disposal=1, optimize=False,
    )  # fmt: skip
    return out.getvalue()


def cpu_ms(call: Callable[[], Any]) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def cases() -> dict[str, tuple[Callable[[], bytes], Callable[[], bytes]]]:
    """Name -> (the render, its floor)."""
    presenter = WingsPresenter()
    public, turn, own, drafts = a_turn_with_shots()

    def still() -> bytes:
        return presenter.turn_picture(public, turn, "en")

    def preview() -> bytes:
        return presenter.panel_image(own, "en", drafts)

    def animation() -> bytes:
        return presenter.turn_animation(public, turn, "en")

    floors: dict[str, Callable[[], bytes]] = {}
    for name, render in (("turn_still", still), ("preview", preview)):
        size = Image.open(io.BytesIO(render())).size
        blank = Image.new("RGB", size, PAPER)
        floors[name] = lambda image=blank: to_png(image)
    gif = Image.open(io.BytesIO(animation()))
    frames, gif_size = gif.n_frames, gif.size
    floors["animation"] = lambda: blank_gif(*gif_size, frames)
    return {
        "turn_still": (still, floors["turn_still"]),
        "preview": (preview, floors["preview"]),
        "animation": (animation, floors["animation"]),
    }
