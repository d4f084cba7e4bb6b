"""Wings of War flights drawn on the table: the shapes the order panel's preview and the
channel's turn picture share (issue 27).

A view's ``flight`` (``engine.rulesets.wings.flight``) holds, for each plane type on the
table, every card's path as poses in the plane's own frame; flying a program is composing
those poses from where the plane stands. Nothing here knows a rule: the preview shows what
the cards do to a plane flying alone (the engine decides collisions, fire and altitude
limits when the turn flies), and the turn picture draws what the public events say.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw

from rendering.i18n import t
from rendering.rulesets.wings.map import SIDE_INK, At, Overlay, arrow
from rendering.style import font

Pose = tuple[float, float, float]  # x, y (bw), heading (degrees)
MARK_SIZE = 22  # step numbers: 11 px on a 400 px phone (design/ux.md)
PAPER = (246, 242, 232)
INK = (30, 30, 30)
# The ghost of a program not yet flown: its side's colour, paler, and its arcs paler still.
GHOST_INK = {"entente": (92, 148, 212), "central": (168, 118, 70)}
ARC_FILL = {"entente": (46, 109, 180, 20), "central": (122, 74, 30, 20)}
ARC_EDGE = {"entente": (46, 109, 180, 90), "central": (122, 74, 30, 90)}
CLIMB, DIVE = "↑", "↓"
NOTES = {"climb": CLIMB, "dive": DIVE}  # a card's kind -> the mark beside its step number
SMALLEST_BOX = 14.0  # bw: the least of the table a zoomed picture shows


def cards_in(program: str, known: Collection[str]) -> tuple[str, ...]:
    """The cards a program option flies, in order: the words that are card codes of the
    plane's deck (a declared maneuver's name, a bomb or pistol mark, a seal are not)."""
    body = program.split(" #", 1)[0]
    words = body.replace(":", " ").replace(",", " ").split()
    return tuple(w.upper() for w in words if "@" not in w and w.upper() in known)


def along(start: Pose, local: Sequence[float]) -> Pose:
    """A pose given in the plane's frame at ``start``, on the table."""
    x, y, heading = start
    rad = math.radians(heading)
    cos, sin = math.cos(rad), math.sin(rad)
    lx, ly, lh = local
    return (x + lx * cos - ly * sin, y + lx * sin + ly * cos, heading + lh)


def card_path(start: Pose, samples: Sequence[Sequence[float]]) -> list[Pose]:
    """The poses along one card flown from ``start``, ending where the card ends."""
    return [along(start, sample) for sample in samples]


def program_path(kind: Mapping[str, Any], start: Pose, codes: Sequence[str]) -> list[list[Pose]]:
    """Each card's poses, one list a step, each step beginning where the last one ended."""
    steps: list[list[Pose]] = []
    here = start
    for code in codes:
        poses = card_path(here, kind["cards"][code])
        steps.append(poses)
        here = poses[-1]
    return steps


def altitude(level: int, counters: int) -> str:
    """Seed A.III's "2+1": a level and the climb counters towards the next."""
    return f"{level}+{counters}" if counters else str(level)


def levels(plane: Mapping[str, Any], kind: Mapping[str, Any], codes: Sequence[str]) -> list[str]:
    """The altitude before and after each card for a plane flying alone (seed A.III: a
    climb card gains a counter once a turn, ``climb`` counters a level; a dive loses a level
    and its counters). The ceiling, the clouds and complex maneuvers are the engine's to
    apply when the turn flies."""
    level, counters, climbed = int(plane["level"]), int(plane.get("counters") or 0), False
    result = [altitude(level, counters)]
    for code in codes:
        what = kind["kinds"].get(code)
        if what == "climb" and not climbed:
            climbed, counters = True, counters + 1
            if counters >= int(kind["climb"]):
                level, counters = level + 1, 0
        elif what == "dive":
            level, counters = level - 1, (1 if level == 1 else 0)
        result.append(altitude(max(0, level), counters))
    return result


# ------------------------------------------------------------------ drawing


def dashed(
    draw: ImageDraw.ImageDraw,
    points: Sequence[tuple[float, float]],
    colour: Any,
    width: int,
    dash: float = 12.0,
    gap: float = 8.0,
) -> None:
    """A dashed polyline: a path still to fly, or a long-range shot."""
    drawing, left = True, dash
    for (x0, y0), (x1, y1) in pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while done < length - 1e-6:
            step = min(left, length - done)
            a = (x0 + (x1 - x0) * done / length, y0 + (y1 - y0) * done / length)
            b = (x0 + (x1 - x0) * (done + step) / length, y0 + (y1 - y0) * (done + step) / length)
            if drawing:
                draw.line((a, b), fill=colour, width=width)
            done += step
            left -= step
            if left <= 1e-6:
                drawing = not drawing
                left = dash if drawing else gap


def step_mark(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    number: int,
    colour: Any,
    note: str = "",
    filled: bool = True,
) -> None:
    """A numbered disc where a maneuver ended; ``note`` beside it (an altitude arrow)."""
    fnt = font(MARK_SIZE, "bold")
    r = MARK_SIZE * 0.62
    cx, cy = centre
    fill, ink = (colour, PAPER) if filled else (PAPER, colour)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=colour, width=2)
    draw.text((cx, cy + 1), str(number), font=fnt, fill=ink, anchor="mm")
    if note:
        draw.text(
            (cx + r + 2, cy), note, font=fnt, fill=colour, anchor="lm",
            stroke_width=3, stroke_fill=PAPER,
        )  # fmt: skip


def mark_spot(pose: Pose, at: At, scale: float) -> tuple[float, float]:
    """Where a step's number goes: beside the plane, off its path, on the side lower on the
    picture (a plane's label stands above it)."""
    spots = []
    for turn in (-90.0, 90.0):
        rad = math.radians(pose[2] + turn)
        spots.append(at(pose[0] + math.cos(rad) * 0.95, pose[1] + math.sin(rad) * 0.95))
    return max(spots, key=lambda spot: spot[1])


def arcs(
    layer: ImageDraw.ImageDraw,
    pose: Pose,
    kind: Mapping[str, Any],
    ruler: float,
    at: At,
    scale: float,
    side: str,
) -> None:
    """The guns' arcs from a pose, to the ruler's end (long range), with the half ruler
    (short range) marked: the shots the plane could take there. A turret reaches all round."""
    cx, cy = at(pose[0], pose[1])
    reach = (ruler + kind["base"][1] / 2) * scale
    short = (ruler / 2 + kind["base"][1] / 2) * scale
    for gun in kind["guns"]:
        if gun.get("turret"):
            start, end = 0.0, 360.0
        else:
            # Pillow's angles turn clockwise on the picture: the table's, mirrored.
            axis = -(pose[2] + float(gun["axis"]))
            start, end = axis - float(gun["half_angle"]), axis + float(gun["half_angle"])
        box = (cx - reach, cy - reach, cx + reach, cy + reach)
        layer.pieslice(box, start, end, fill=ARC_FILL[side], outline=ARC_EDGE[side], width=2)
        inner = (cx - short, cy - short, cx + short, cy + short)
        layer.arc(inner, start, end, fill=ARC_EDGE[side], width=2)


def ghost_overlay(
    mission: Mapping[str, Any],
    flight: Mapping[str, Any],
    programs: Mapping[str, Sequence[str]],
) -> Overlay:
    """Each drafted program (plane id -> its three cards) flown from where its plane stands,
    as a dashed path, a pale arrow where each card ends with its number (and ↑/↓ for a climb
    or a dive), and the guns' arcs at each step."""

    def draw_on(image: Image.Image, draw: ImageDraw.ImageDraw, scale: float, at: At) -> None:
        layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
        pen = ImageDraw.Draw(layer)
        flown: list[tuple[str, list[list[Pose]], list[str]]] = []
        for pid, codes in sorted(programs.items()):
            plane = mission["planes"][pid]
            kind = flight["types"].get(plane["type"])
            if kind is None or any(code not in kind["cards"] for code in codes):
                continue
            start = (float(plane["x"]), float(plane["y"]), float(plane["heading"]))
            steps = program_path(kind, start, codes)
            notes = [NOTES.get(kind["kinds"].get(code, ""), "") for code in codes]
            for poses in steps:
                arcs(pen, poses[-1], kind, float(flight["ruler"]), at, scale, plane["side"])
            flown.append((plane["side"], steps, notes))
        image.paste(Image.alpha_composite(image.convert("RGBA"), layer).convert("RGB"))
        for side, steps, _notes in flown:
            points = [at(x, y) for poses in steps for x, y, _h in poses]
            dashed(draw, points, GHOST_INK[side], 4)
            for poses in steps:
                x, y, heading = poses[-1]
                arrow(draw, at(x, y), heading, scale, PAPER, GHOST_INK[side], 3)
        for side, steps, notes in flown:  # numbers over every path
            for number, (poses, note) in enumerate(zip(steps, notes, strict=True), start=1):
                step_mark(draw, mark_spot(poses[-1], at, scale), number, GHOST_INK[side], note)

    return draw_on


def preview_box(
    mission: Mapping[str, Any],
    flight: Mapping[str, Any],
    paths: Sequence[Sequence[Pose]],
) -> tuple[float, float, float, float] | None:
    """The part of the table worth showing: the ghost paths with a ruler round them (their
    arcs) and every plane still flying (the enemy where last seen); None for the whole
    table when that is most of it anyway."""
    ruler = float(flight.get("ruler", 5.0))
    points = [(x, y) for path in paths for x, y, _h in path]
    points += [
        (float(p["x"]), float(p["y"]))
        for p in mission["planes"].values()
        if p["status"] == "flying" and not p.get("in_cloud")
    ]
    return fit_box(points, ruler * 0.8, mission["table"])


def fit_box(
    points: Sequence[tuple[float, float]], margin: float, table: Sequence[float]
) -> tuple[float, float, float, float] | None:
    """A square round ``points`` with ``margin``, at least ``SMALLEST_BOX`` a side (a zoom of
    about 1.6 at most: the planes' marks stay the size of a board's), inside the table;
    None when it would cover most of the table."""
    if not points:
        return None
    table_w, table_h = float(table[0]), float(table[1])
    x0 = min(x for x, _ in points) - margin
    x1 = max(x for x, _ in points) + margin
    y0 = min(y for _, y in points) - margin
    y1 = max(y for _, y in points) + margin
    side = max(x1 - x0, y1 - y0, SMALLEST_BOX)
    if side >= 0.8 * min(table_w, table_h):
        return None
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = min(max(0.0, cx - side / 2), table_w - side)
    top = min(max(0.0, cy - side / 2), table_h - side)
    return (left, top, left + side, top + side)


def key_lines(locale: str) -> list[str]:
    """What a preview's marks mean."""
    return [
        t("wings.preview.key", locale, climb=CLIMB, dive=DIVE),
        t("wings.preview.key-enemy", locale),
    ]


def side_ink(side: str) -> Any:
    return SIDE_INK.get(side, INK)
