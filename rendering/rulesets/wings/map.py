"""The Wings of War table seen from above, for the status board and the order panel.

Programs are written from where each plane stands and which way it points; a list of
coordinates makes a player do the geometry in his head, so the boards open with the table
drawn to scale: the three zones, a grid one ruler apart (5 bw, the range of a shot) with
its coordinates on the edges, each plane as an arrow along its heading with its slot and
altitude, the objectives, the ground defences, the barrage net and the relief (seed F.V:
hills and ridges shaded by their floor's level, with their marker).

Only what the view holds is drawn (``rendering.rulesets.wings`` hands over the viewer's
mission): a plane in the clouds stands where it went in, drawn as a cloud; planes off the
table are not drawn; downed ones are a cross where they fell. Plane bases are not to
scale for every type (the view does not carry base sizes): an arrow is a small base long.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rendering.i18n import t
from rendering.style import font

RULER = 5.0  # authored 3.2: a ruler is 5 base widths, the grid's step
ARROW = (1.4, 1.0)  # authored 3.2's small base, length and width in bw
LABEL_SIZE = 22  # 11 px on a 400 px phone, the smallest readable (design/ux.md)
TICK_SIZE = 22
PAPER = (246, 242, 232)
GRID = (214, 206, 188)
EDGE = (120, 110, 95)
INK = (30, 30, 30)
MUTED = (130, 125, 115)
SIDE_INK = {"entente": (46, 109, 180), "central": (122, 74, 30)}
ZONE_TINT = {"entente": (226, 234, 244), "central": (238, 228, 214)}
DOWN = (170, 40, 40)
NET = (90, 90, 90)
# Seed F.V's relief, darker the higher its floor (a third tint for floor 3 and above).
RELIEF_TINT = ((206, 216, 178), (178, 194, 146), (150, 170, 118))
RELIEF_INK = (70, 86, 44)


Box = tuple[float, float, float, float]  # a part of the table: x0, y0, x1, y1 in bw
At = Callable[[float, float], tuple[float, float]]
# Drawn on the table before its planes (a program's ghost path, a turn's flown paths).
Overlay = Callable[[Image.Image, ImageDraw.ImageDraw, float, At], None]


def table_map(
    mission: Mapping[str, Any],
    slots: Mapping[str, str],
    width: int,
    locale: str,
    *,
    box: Box | None = None,
    overlay: Overlay | None = None,
    planes: bool = True,
) -> Image.Image:
    """The mission's table, ``width`` pixels wide, with a band for the coordinates; ``box``
    shows only that part of it, larger; ``overlay`` draws over the table under its planes;
    without ``planes`` the planes are left for the caller to draw (an animation's frames)."""
    table_w, table_h = (float(v) for v in mission["table"])
    box = box or (0.0, 0.0, table_w, table_h)
    image, draw, scale, at = canvas(box[2] - box[0], box[3] - box[1], width, origin=box[:2])
    _zones(draw, at, table_w, table_h, locale, mission.get("zones"), box)
    relief = sorted(mission.get("relief") or (), key=lambda zone: zone["floor"])
    for zone in relief:
        _relief_ground(draw, at, zone)
    grid(draw, at, table_w, table_h, box)
    for zone in relief:
        _relief_marker(draw, at, zone, locale)
    _net(draw, at, mission, table_h)
    for element in sorted((mission.get("ground") or {}).values(), key=lambda g: g["id"]):
        _ground(draw, at, scale, element)
    for site in sorted((mission.get("objectives") or {}).values(), key=lambda o: o["id"]):
        _objective(draw, at, scale, site)
    # Where the table's markers stand, in pixels: a plane's label goes under it when one of
    # them sits where the label would (a flak battery beside a plane's start, say).
    ground, sites = mission.get("ground") or {}, mission.get("objectives") or {}
    standing = [*ground.values(), *sites.values()]
    markers = [at(float(m["x"]), float(m["y"])) for m in standing]
    if overlay is not None:
        overlay(image, draw, scale, at)
    if planes:
        frame = shown_table(at, mission, image.size)
        for plane in sorted((mission.get("planes") or {}).values(), key=lambda p: p["id"]):
            _plane(draw, at, scale, plane, slots, locale, markers, frame)
    return image


Frame = tuple[float, float, float, float]  # left, top, right, bottom, in pixels


def shown_table(at: At, mission: Mapping[str, Any], size: tuple[int, int]) -> Frame:
    """The part of the table a picture shows, in pixels: inside its frame line and the
    coordinate bands (a zoomed picture shows the table to its own edges)."""
    table_w, table_h = (float(v) for v in mission["table"])
    x0, y0, x1, y1 = pixels(at, 0, 0, table_w, table_h)
    return (max(x0, BAND), max(y0, BAND), min(x1, size[0] - 8), min(y1, size[1] - 8))


def plane_label(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    label: str,
    colour: Any,
    fnt: ImageFont.FreeTypeFont,
    gap: float,
    frame: Frame,
    below: bool = False,
) -> None:
    """A plane's label over it (``below``: under it), inside ``frame``: a plane near the
    table's top edge has it under, one near the bottom over, one by a side edge has it
    moved in, so the frame line never crosses it. A paper halo keeps it readable over a
    neighbour's symbol."""
    cx, cy = centre
    left, top, right, bottom = frame
    tall = fnt.size * 1.2
    if not below and cy - gap - tall < top + 2:
        below = True
    if below and cy + gap + tall > bottom - 2 and cy - gap - tall >= top + 2:
        below = False
    half = fnt.getlength(label) / 2 + 3  # the halo
    x = min(max(cx, left + half + 2), right - half - 2) if right - left > 2 * half else cx
    draw.text(
        (x, cy + gap) if below else (x, cy - gap), label, font=fnt, fill=colour,
        anchor="ma" if below else "md", stroke_width=3, stroke_fill=PAPER,
    )  # fmt: skip


def _zones(
    draw: ImageDraw.ImageDraw,
    at: Any,
    table_w: float,
    table_h: float,
    locale: str,
    borders: Any = None,
    box: Box | None = None,
) -> None:
    """Seed E.I.b: each end of the table is a side's own (the Entente's on the left), the
    middle no-man's land: quarters, or the borders the mission carries (a mission in the
    enemy zone gives the defender most of the table). The zone's name sits at the bottom
    of what is shown of it."""
    entente, central = borders if borders else (table_w / 4, table_w * 3 / 4)
    x_lo, y_lo, x_hi, _ = box or (0.0, 0.0, table_w, table_h)
    for side, (left, right) in (
        ("entente", (0.0, float(entente))),
        ("central", (float(central), table_w)),
    ):
        draw.rectangle(pixels(at, left, 0, right, table_h), fill=ZONE_TINT[side])
        shown = (max(left, x_lo), min(right, x_hi))
        if shown[1] - shown[0] < 1.0:
            continue  # hardly any of this zone in the picture: no room for its name
        label = t(f"service.side.{side}", locale)
        x0, y0 = at(shown[0], max(0.0, y_lo))
        x1, _ = at(shown[1], max(0.0, y_lo))
        fnt = font(LABEL_SIZE, "bold")
        if fnt.getlength(label) > x1 - x0 - 8:  # "Empires centraux" in a quarter
            label = label.split()[0]
        draw.text(((x0 + x1) / 2, y0 - 6), label, font=fnt, fill=SIDE_INK[side], anchor="md")
    draw.rectangle(pixels(at, 0, 0, table_w, table_h), outline=EDGE, width=2)


def pixels(at: At, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """A table rectangle as a picture box, corners in the order Pillow wants (the table's
    y grows upwards, the picture's down)."""
    (ax, ay), (bx, by) = at(x0, y0), at(x1, y1)
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def _relief_ground(draw: ImageDraw.ImageDraw, at: Any, zone: Mapping[str, Any]) -> None:
    """Seed F.V: a hill or a ridge, shaded by its floor's level (the grid stays on top)."""
    tint = RELIEF_TINT[min(int(zone["floor"]), len(RELIEF_TINT)) - 1]
    draw.polygon([at(float(x), float(y)) for x, y in zone["corners"]], fill=tint)


def _relief_marker(
    draw: ImageDraw.ImageDraw, at: Any, zone: Mapping[str, Any], locale: str
) -> None:
    """The relief's edge and its marker: the floor a plane must fly above to cross it."""
    corners = [at(float(x), float(y)) for x, y in zone["corners"]]
    draw.polygon(corners, outline=RELIEF_INK, width=3)
    cx = sum(x for x, _ in corners) / len(corners)
    cy = sum(y for _, y in corners) / len(corners)
    # Two lines, its id (as the log names it) over its floor: a hill is often narrow.
    fnt = font(LABEL_SIZE, "bold")
    floor = t("wings.relief.floor", locale, floor=zone["floor"])
    for text, anchor in ((zone["id"], "md"), (floor, "ma")):
        draw.text(
            (cx, cy), text, font=fnt, fill=RELIEF_INK, anchor=anchor,
            stroke_width=3, stroke_fill=PAPER,
        )  # fmt: skip


BAND = 36  # the coordinate ticks, left and top


def canvas(
    table_w: float, table_h: float, width: int, origin: tuple[float, float] = (0.0, 0.0)
) -> tuple[Image.Image, ImageDraw.ImageDraw, float, At]:
    """A blank page ``width`` pixels wide for ``table_w`` × ``table_h`` bw of the table from
    ``origin``, with a band left and top for the coordinates: the image, its pen, pixels
    per bw, and where a table point lands on it (what falls outside is clipped)."""
    scale = (width - BAND - 8) / table_w
    height = BAND + int(table_h * scale) + 8
    image = Image.new("RGB", (width, height), PAPER)
    ox, oy = origin
    top = oy + table_h  # the table's y grows upwards (authored 3.1), the picture's down

    def at(x: float, y: float) -> tuple[float, float]:
        return (BAND + (x - ox) * scale, BAND + (top - y) * scale)

    return image, ImageDraw.Draw(image), scale, at


def grid(
    draw: ImageDraw.ImageDraw, at: Any, table_w: float, table_h: float, box: Box | None = None
) -> None:
    """One line a ruler, its coordinate on the top and left edges of what is shown."""
    fnt = font(TICK_SIZE)
    x0, y0, x1, y1 = box or (0.0, 0.0, table_w, table_h)
    left, top = at(x0, y1)  # the picture's top left corner: the table's y grows upwards
    for i in range(int(table_w // RULER) + 1):
        x = i * RULER
        if not x0 - 1e-9 <= x <= x1 + 1e-9:
            continue
        draw.line((*at(x, max(0.0, y0)), *at(x, min(table_h, y1))), fill=GRID, width=1)
        tx, _ = at(x, 0)
        draw.text((tx, top - 4), f"{x:g}", font=fnt, fill=MUTED, anchor="md")
    for i in range(int(table_h // RULER) + 1):
        y = i * RULER
        if not y0 - 1e-9 <= y <= y1 + 1e-9:
            continue
        draw.line((*at(max(0.0, x0), y), *at(min(table_w, x1), y)), fill=GRID, width=1)
        _, ty = at(0, y)
        draw.text((left - 4, ty), f"{y:g}", font=fnt, fill=MUTED, anchor="rm")


def _net(draw: ImageDraw.ImageDraw, at: Any, mission: Mapping[str, Any], table_h: float) -> None:
    """Seed A.IV.i.2: the barrage net hangs along the balloons' line, edge to edge."""
    balloons = [o for o in (mission.get("objectives") or {}).values() if o["kind"] == "balloon"]
    if not mission.get("nets") or len(balloons) < 2:
        return
    if mission.get("ring"):
        _ring(draw, at, mission)
        return
    x = sum(b["x"] for b in balloons) / len(balloons)
    y = 0.0
    while y < table_h:  # dashed: a net, not a wall
        draw.line((*at(x, y), *at(x, min(table_h, y + 0.6))), fill=NET, width=3)
        y += 1.0


def _ring(draw: ImageDraw.ImageDraw, at: Any, mission: Mapping[str, Any]) -> None:
    """Seed A.IV.i.2: the protective ring, dashed from balloon to balloon; a section whose
    balloon is down (destroyed or winched to the ground) no longer hangs."""
    objectives = mission["objectives"]
    for first, second in mission["ring"]:
        a, b = objectives[first], objectives[second]
        if any(o.get("destroyed") or o.get("hauled_down") for o in (a, b)):
            continue
        length = math.hypot(b["x"] - a["x"], b["y"] - a["y"])
        steps = max(1, int(length))
        for i in range(steps):  # dashed: a net, not a wall
            t0, t1 = i / steps, min(1.0, (i + 0.6) / steps)
            start = (a["x"] + (b["x"] - a["x"]) * t0, a["y"] + (b["y"] - a["y"]) * t0)
            end = (a["x"] + (b["x"] - a["x"]) * t1, a["y"] + (b["y"] - a["y"]) * t1)
            draw.line((*at(*start), *at(*end)), fill=NET, width=3)


def arrow(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    heading: float,
    scale: float,
    fill: Any,
    outline: Any = INK,
    width: int = 2,
) -> None:
    """A plane as an arrow along its heading, a small base long (``centre`` in pixels; the
    heading counter-clockwise on the table, whose y grows upwards, the picture's down)."""
    cx, cy = centre
    rad = math.radians(heading)
    ux, uy = math.cos(rad), -math.sin(rad)
    half_l, half_w = ARROW[0] / 2 * scale, ARROW[1] / 2 * scale
    nose = (cx + ux * half_l, cy + uy * half_l)
    left = (cx - ux * half_l - uy * half_w, cy - uy * half_l + ux * half_w)
    right = (cx - ux * half_l + uy * half_w, cy - uy * half_l - ux * half_w)
    tail = (cx - ux * half_l * 0.4, cy - uy * half_l * 0.4)
    draw.polygon([nose, left, tail, right], fill=fill, outline=outline, width=width)


def _cross(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, colour: Any) -> None:
    cx, cy = centre
    draw.line((cx - r, cy - r, cx + r, cy + r), fill=colour, width=4)
    draw.line((cx - r, cy + r, cx + r, cy - r), fill=colour, width=4)


def _ground(draw: ImageDraw.ImageDraw, at: Any, scale: float, element: Mapping[str, Any]) -> None:
    """A trench, an AA machine-gun post (A) or a flak battery (F), in its owner's colour."""
    cx, cy = at(element["x"], element["y"])
    r = 0.45 * scale
    colour = SIDE_INK.get(element["side"], INK)
    if element["kind"] == "trench":
        draw.rectangle((cx - 1.2 * r, cy - r / 3, cx + 1.2 * r, cy + r / 3), fill=colour)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=3, fill=PAPER)
        letter = "A" if element["kind"] == "caa" else "F"
        draw.text((cx, cy), letter, font=font(LABEL_SIZE, "bold"), fill=colour, anchor="mm")
    if element.get("destroyed"):
        _cross(draw, (cx, cy), r, DOWN)


def _objective(draw: ImageDraw.ImageDraw, at: Any, scale: float, site: Mapping[str, Any]) -> None:
    """A balloon (a circle with its altitude), a target to bomb (a square), a post to strafe
    (a ring round its trench), a site to
    reconnoitre, photograph or rescue (a diamond), labelled with its id; a deep one ringed
    and marked ×2."""
    cx, cy = at(site["x"], site["y"])
    r = 0.55 * scale
    colour = SIDE_INK.get(site["side"], INK)
    if site["kind"] == "balloon":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
        if not site.get("destroyed"):
            text = str(site.get("level", ""))
            draw.text((cx, cy), text, font=font(LABEL_SIZE, "bold"), fill=PAPER, anchor="mm")
    elif site["kind"] == "target":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), outline=colour, width=4, fill=PAPER)
    elif site["kind"] == "post":
        # A post to strafe rings the trench it stands for, drawn beneath it (seed E.I.a).
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=3)
    else:
        diamond = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
        draw.polygon(diamond, outline=colour, fill=PAPER, width=3)
    if site.get("deep"):
        # Seed E.I.b: deep in enemy territory the award doubles; a second ring says so on
        # the table, where the bomber plans his run, as the label's "×2" does.
        ring = r + 0.25 * scale
        draw.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=colour, width=3)
    if site.get("destroyed"):
        _cross(draw, (cx, cy), r, DOWN)
    label = f"{site['id']} ×2" if site.get("deep") else site["id"]
    below = r + 0.25 * scale if site.get("deep") else r
    draw.text(
        (cx, cy + below + 2), label, font=font(TICK_SIZE), fill=colour, anchor="ma",
        stroke_width=2, stroke_fill=PAPER,
    )  # fmt: skip


def _plane(
    draw: ImageDraw.ImageDraw,
    at: Any,
    scale: float,
    plane: Mapping[str, Any],
    slots: Mapping[str, str],
    locale: str,
    markers: Sequence[tuple[float, float]] = (),
    frame: Frame = (0.0, 0.0, float("inf"), float("inf")),
) -> None:
    status = plane["status"]
    if status in ("left", "waiting"):
        return  # off the table (waiting: to enter out of the sun, seed F.VI.e)
    cx, cy = at(plane["x"], plane["y"])
    colour = SIDE_INK.get(plane["side"], INK)
    if status in ("shot_down", "crashed", "exploded"):
        _cross(draw, (cx, cy), 0.35 * scale, MUTED)
        return
    slot = slots.get(plane["id"], plane["id"]).removeprefix("plane")
    label = t(
        "wings.map.plane",
        locale,
        side=t(f"wings.map.initial.{plane['side']}", locale),
        slot=slot,
        # Seed A.III's "L2 +1": over relief (F.V) a climb counter is the difference.
        level=f"{plane['level']}+{plane['counters']}" if plane.get("counters") else plane["level"],
    )
    if plane.get("in_cloud"):
        # Where it went into the clouds: which way it flies since is its side's secret.
        r = 0.6 * scale
        for dx, dy in ((-0.5, 0.1), (0.5, 0.1), (0.0, -0.35)):
            draw.ellipse(
                (cx + dx * r - r, cy + dy * r - r, cx + dx * r + r, cy + dy * r + r),
                fill=(236, 236, 240),
                outline=colour,
                width=2,
            )
    else:
        fill = colour if status == "flying" else PAPER  # landed: an outline on the ground
        arrow(draw, (cx, cy), float(plane["heading"]), scale, fill)
    fnt = font(LABEL_SIZE, "bold")
    half, tall, gap = fnt.getlength(label) / 2, LABEL_SIZE * 1.2, 0.75 * scale
    reach = 0.55 * scale  # a marker's radius (objectives are the widest)
    covered = any(
        abs(mx - cx) < half + reach and cy - gap - tall - reach < my < cy - gap + reach
        for mx, my in markers
    )
    plane_label(draw, (cx, cy), label, colour, fnt, gap, frame, below=covered)
