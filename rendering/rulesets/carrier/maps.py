"""Authored theatre maps: coastlines as simplified polygons in degrees, a grid, labels, and
where each fleet stands for each range band (Close, Medium, Long).

The art is ours and deliberately rough (a few dozen points per coast), enough to orient a
player: the Coral Sea between New Guinea, the Solomons and Queensland; the open ocean around
Midway with the Hawaiian chain. Longitudes run 0-360 east so the Midway map can cross the
date line. An unknown scenario gets an empty ocean with the same stations.

Drawn for a phone (the board is 800 px wide): few labels, all 22 px or more, none cut; the
fleet and place labels keep off the sea and land names and off each other. Grid lines stay
for the eye, without their coordinates; a place's damage level is on its track, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from PIL import Image, ImageDraw

from engine.rulesets.carrier.view import TrackView, View
from engine.zero.types import FleetTactic, Side
from rendering import style
from rendering.text import place_name, side_name, tactic_name, tr

Point = tuple[float, float]


@dataclass(frozen=True)
class MapArt:
    west: float
    east: float
    north: float
    south: float
    grid: float = 5.0
    land: tuple[tuple[Point, ...], ...] = ()
    islands: tuple[tuple[float, float, float, float], ...] = ()  # lon, lat, rx, ry (degrees)
    labels: tuple[tuple[str, float, float, bool], ...] = ()  # key, lon, lat, is_sea
    stations: dict[Side, dict[FleetTactic, Point]] = field(default_factory=dict)
    unknown: dict[Side, Point] = field(default_factory=dict)
    places: dict[str, Point] = field(default_factory=dict)


CORAL_SEA = MapArt(
    west=141.0,
    east=166.0,
    north=-5.5,
    south=-22.0,
    land=(
        # New Guinea, the Papuan peninsula and the Huon Gulf
        (
            (140.5, -9.2),
            (141.8, -9.2),
            (142.6, -9.35),
            (143.4, -8.9),
            (143.6, -8.3),
            (144.3, -7.7),
            (145.2, -7.8),
            (145.9, -8.1),
            (146.5, -8.8),
            (147.0, -9.3),
            (147.5, -9.9),
            (148.2, -10.2),
            (149.0, -10.3),
            (149.8, -10.4),
            (150.5, -10.6),
            (150.9, -10.4),
            (150.2, -10.1),
            (149.9, -9.7),
            (149.3, -9.5),
            (149.2, -9.1),
            (148.6, -8.7),
            (148.1, -8.2),
            (147.9, -7.7),
            (147.4, -7.2),
            (147.0, -6.8),
            (147.6, -6.5),
            (147.8, -6.2),
            (147.4, -5.9),
            (146.5, -5.6),
            (146.0, -5.3),
            (145.5, -4.5),
            (144.0, -3.8),
            (140.5, -3.0),
        ),
        # New Britain
        (
            (148.3, -5.5),
            (149.0, -5.8),
            (149.6, -6.2),
            (150.6, -6.2),
            (151.3, -5.9),
            (151.8, -5.6),
            (152.1, -5.1),
            (152.3, -4.6),
            (151.6, -4.8),
            (151.0, -5.2),
            (150.2, -5.5),
            (149.3, -5.5),
            (148.6, -5.4),
        ),
        # Bougainville, Choiseul, Santa Isabel, New Georgia
        (
            (154.6, -5.0),
            (155.3, -5.4),
            (155.9, -6.3),
            (155.9, -6.8),
            (155.4, -6.6),
            (154.9, -6.1),
            (154.6, -5.6),
        ),
        ((156.5, -6.6), (157.4, -7.1), (157.3, -7.4), (156.6, -7.0)),
        ((158.2, -7.6), (159.1, -8.0), (159.8, -8.5), (159.6, -8.6), (158.8, -8.3), (158.1, -7.8)),
        ((156.9, -8.1), (157.9, -8.3), (158.2, -8.7), (157.4, -8.6), (156.9, -8.4)),
        # Guadalcanal, Malaita, San Cristobal
        ((159.6, -9.3), (160.3, -9.3), (160.8, -9.6), (160.7, -9.9), (159.9, -9.8), (159.6, -9.6)),
        ((160.6, -8.3), (161.1, -8.6), (161.5, -9.4), (161.2, -9.5), (160.8, -9.0), (160.6, -8.6)),
        (
            (161.3, -10.2),
            (161.9, -10.3),
            (162.4, -10.7),
            (162.2, -10.8),
            (161.6, -10.7),
            (161.3, -10.4),
        ),
        # Queensland from Cape York down the coast
        (
            (142.5, -10.7),
            (143.0, -11.3),
            (143.5, -12.6),
            (143.6, -13.6),
            (144.3, -14.2),
            (145.3, -14.9),
            (145.4, -16.0),
            (145.9, -16.9),
            (146.1, -18.3),
            (146.4, -19.0),
            (147.4, -19.4),
            (148.4, -20.1),
            (148.9, -20.6),
            (149.3, -21.1),
            (150.1, -22.1),
            (150.8, -22.5),
            (151.0, -23.5),
            (140.5, -23.5),
            (140.5, -17.5),
            (141.5, -15.5),
            (141.5, -13.5),
            (142.2, -11.3),
        ),
        # New Caledonia
        (
            (163.6, -19.9),
            (164.6, -20.4),
            (165.6, -21.1),
            (166.6, -21.9),
            (167.1, -22.5),
            (166.5, -22.5),
            (165.3, -21.8),
            (164.3, -21.0),
            (163.7, -20.4),
        ),
    ),
    islands=(
        (152.7, -10.65, 0.35, 0.12),  # Misima
        (153.6, -11.45, 0.45, 0.15),  # Tagula
        (154.2, -11.35, 0.15, 0.1),  # Rossel
        (150.7, -9.5, 0.3, 0.2),  # D'Entrecasteaux
        (151.1, -8.6, 0.18, 0.1),  # Trobriand
        (152.8, -9.1, 0.35, 0.1),  # Woodlark
        (160.2, -11.65, 0.25, 0.08),  # Rennell
    ),
    labels=(
        ("coral_sea", 156.6, -18.6, True),
        ("solomon_sea", 152.8, -7.4, True),
        ("new_guinea", 144.9, -6.4, False),
        ("australia", 143.4, -17.4, False),
        ("solomon_islands", 162.8, -8.0, False),
    ),
    stations={
        Side.ALLIED: {
            FleetTactic.CLOSE: (154.2, -14.6),
            FleetTactic.MEDIUM: (152.2, -16.4),
            FleetTactic.LONG: (150.2, -18.2),
        },
        Side.JAPANESE: {
            FleetTactic.CLOSE: (157.2, -13.0),
            FleetTactic.MEDIUM: (159.3, -13.6),
            FleetTactic.LONG: (161.4, -14.2),
        },
    },
    unknown={Side.ALLIED: (156.0, -21.0), Side.JAPANESE: (163.8, -16.8)},
    places={"port-moresby": (147.15, -9.45), "invasion-force": (151.3, -11.5)},
)

MIDWAY = MapArt(
    west=170.5,
    east=195.5,
    north=37.5,
    south=21.0,
    islands=(
        (182.63, 28.21, 0.22, 0.16),  # Midway atoll
        (181.67, 28.42, 0.1, 0.08),  # Kure
        (184.13, 27.83, 0.14, 0.08),  # Pearl and Hermes
        (185.94, 26.07, 0.1, 0.08),  # Lisianski
        (188.26, 25.77, 0.1, 0.08),  # Laysan
        (189.5, 25.42, 0.08, 0.06),  # Maro Reef
        (192.0, 25.0, 0.06, 0.05),  # Gardner Pinnacles
        (193.8, 23.77, 0.12, 0.08),  # French Frigate Shoals
        (195.3, 23.58, 0.08, 0.06),  # Necker
    ),
    labels=(
        ("north_pacific", 182.5, 36.3, True),
        ("to_hawaii", 191.0, 22.9, True),
    ),
    stations={
        Side.JAPANESE: {
            FleetTactic.CLOSE: (180.2, 30.2),
            FleetTactic.MEDIUM: (178.4, 31.5),
            FleetTactic.LONG: (176.4, 32.8),
        },
        Side.ALLIED: {
            FleetTactic.CLOSE: (185.0, 30.4),
            FleetTactic.MEDIUM: (186.8, 31.7),
            FleetTactic.LONG: (188.8, 33.0),
        },
    },
    unknown={Side.JAPANESE: (173.2, 35.2), Side.ALLIED: (192.6, 35.2)},
    places={
        "midway-airfield": (182.63, 28.21),
        "midway": (182.63, 28.21),
        "midway-ground": (182.63, 28.21),
        "midway-transports": (177.6, 25.6),
        "invasion-force": (177.6, 25.6),
    },
)

OPEN_OCEAN = MapArt(
    west=0.0,
    east=25.0,
    north=16.5,
    south=0.0,
    stations={
        Side.JAPANESE: {
            FleetTactic.CLOSE: (14.5, 8.0),
            FleetTactic.MEDIUM: (17.0, 9.5),
            FleetTactic.LONG: (19.5, 11.0),
        },
        Side.ALLIED: {
            FleetTactic.CLOSE: (10.5, 8.0),
            FleetTactic.MEDIUM: (8.0, 6.5),
            FleetTactic.LONG: (5.5, 5.0),
        },
    },
    unknown={Side.JAPANESE: (22.0, 14.5), Side.ALLIED: (3.0, 2.0)},
)

MAPS: dict[str, MapArt] = {"coral-sea": CORAL_SEA, "midway": MIDWAY}


def _art(scenario: str) -> MapArt:
    # A sheet's optional-rule twin ("midway-historical", 3.7.4's historical opening; the
    # suffix is engine.zero.catalog.HISTORICAL, which rendering may not import) is the same sea.
    return MAPS.get(scenario.removesuffix("-historical"), OPEN_OCEAN)


class Projection:
    def __init__(self, art: MapArt, box: style.Box) -> None:
        self.art = art
        self.box = box
        x0, y0, x1, y1 = box
        self.sx = (x1 - x0) / (art.east - art.west)
        self.sy = (y1 - y0) / (art.north - art.south)

    def __call__(self, point: Point) -> tuple[float, float]:
        lon, lat = point
        x0, y0, _, _ = self.box
        return x0 + (lon - self.art.west) * self.sx, y0 + (self.art.north - lat) * self.sy


def short_name(name: str) -> str:
    """A name without its bracketed detail ("TF 17 (Lexington, Yorktown)" is "TF 17" on
    the map; the track under it gives the whole name)."""
    head, bracket, _ = name.partition(" (")
    return head if bracket and head else name


FLATTEN = 0.8  # the art is rough on purpose; a fifth less height costs it nothing


def map_height(view: View, width: int) -> int:
    """The map's height at ``width``: the theatre's proportions (degrees drawn square),
    flattened a little so the board stays short enough for a phone."""
    art = _art(view.scenario)
    return round(width * FLATTEN * (art.north - art.south) / (art.east - art.west))


def _coordinate(value: float, positive: str, negative: str, wrap: bool) -> str:
    if wrap and value > 180:
        return f"{360 - value:g}°{negative}"
    if value < 0:
        return f"{-value:g}°{negative}"
    return f"{value:g}°{positive}"


def fleet_position(view: View, side: Side) -> tuple[FleetTactic | None, bool]:
    """The range band shown for a side: this turn's if revealed, else last turn's."""
    own = view.sides.get(side)
    if own is None:
        return None, False
    if own.tactic is not None:
        return own.tactic, True
    return own.last_tactic, False


def draw_map(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: style.Box, view: View, locale: str
) -> None:
    art = _art(view.scenario)
    project = Projection(art, box)
    x0, y0, x1, y1 = box
    layer = Image.new("RGB", (x1 - x0, y1 - y0), style.SEA)
    ldraw = ImageDraw.Draw(layer)
    local = Projection(art, (0, 0, x1 - x0, y1 - y0))
    # grid
    step = art.grid
    lon = (int(art.west // step) + 1) * step
    while lon < art.east:
        x, _ = local((lon, art.north))
        ldraw.line((x, 0, x, layer.height), fill=style.SEA_GRID, width=1)
        lon += step
    lat = (int(art.south // step) + 1) * step
    while lat < art.north:
        _, y = local((art.west, lat))
        ldraw.line((0, y, layer.width, y), fill=style.SEA_GRID, width=1)
        lat += step
    # land and islands
    for polygon in art.land:
        ldraw.polygon(
            [local(point) for point in polygon], fill=style.LAND, outline=style.LAND_EDGE, width=2
        )
    for ilon, ilat, rx, ry in art.islands:
        cx, cy = local((ilon, ilat))
        w = max(3.0, rx * local.sx)
        h = max(3.0, ry * local.sy)
        ldraw.ellipse(
            (cx - w, cy - h, cx + w, cy + h), fill=style.LAND, outline=style.LAND_EDGE, width=2
        )
    image.paste(layer, (x0, y0))
    placer = Placer(box)
    for key, llon, llat, is_sea in art.labels:
        x, y = project((llon, llat))
        text = tr(f"map.{key}", locale)
        fnt = style.font(22, "cond") if is_sea else style.font(24, "cond-bold")
        half = style.text_width(text, fnt) / 2
        x = min(max(x, x0 + half + 6), x1 - half - 6)  # never cut by the frame
        draw.text(
            (x, y),
            text,
            font=fnt,
            fill=style.SEA_LABEL if is_sea else style.LAND_LABEL,
            anchor="mm",
        )
        placer.block((x - half - 2, y - 12, x + half + 2, y + 12), 3.0)

    # Where everything stands: places that are not fleets, then the fleets.
    fleets = {track.side: track for track in view.tracks if track.carrier_fleet}
    others = [track for track in view.tracks if not track.carrier_fleet]
    place_xy: dict[str, tuple[float, float]] = {}
    spare = 0
    for track in others:
        if track.place in art.places:
            place_xy[track.place] = project(art.places[track.place])
        else:
            # a target this map does not know: along the bottom edge
            place_xy[track.place] = (x0 + 40 + spare * 60, y1 - 40)
            spare += 1
    fleet_xy: dict[Side, tuple[float, float]] = {}
    for side in (Side.JAPANESE, Side.ALLIED):
        tactic, _ = fleet_position(view, side)
        if tactic is not None and side in art.stations:
            fleet_xy[side] = project(art.stations[side][tactic])
        elif side in art.unknown:
            fleet_xy[side] = project(art.unknown[side])
    for side, track in fleets.items():
        place_xy[track.place] = fleet_xy.get(side, place_xy.get(track.place, (x0 + 60, y0 + 60)))

    # Strike arrows once Flight Ops are revealed: thick for Large, dashed for Small.
    for side in (Side.JAPANESE, Side.ALLIED):
        own = view.sides.get(side)
        if own is None or not own.flight_ops or side not in fleet_xy:
            continue
        size, _, target = own.flight_ops.partition(":")
        if size == "none" or target not in place_xy:
            continue
        # Both arrows shift to their own right, so two fleets striking each other stay apart.
        _strike_arrow(draw, fleet_xy[side], place_xy[target], side, size == "large", 1)
        # Labels keep off the arrow where they can: it says who strikes whom.
        (ax, ay), (bx, by) = fleet_xy[side], place_xy[target]
        steps = max(1, int(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 // 24))
        for step in range(1, steps):
            px, py = ax + (bx - ax) * step / steps, ay + (by - ay) * step / steps
            placer.block((px - 6, py - 6, px + 6, py + 6), 0.02)

    seen: dict[tuple[int, int], int] = {}
    for track in others:
        x, y = place_xy[track.place]
        spot = (round(x), round(y))
        if spot in seen:
            continue
        seen[spot] = 1
        placer.block((x - 16, y - 16, x + 16, y + 16), 5.0)
    for point in fleet_xy.values():
        placer.block((point[0] - 22, point[1] - 22, point[0] + 22, point[1] + 22), 5.0)

    # Places on the same spot (Midway's airfield and its ground defences) share one label.
    # Places first: their labels have fewer good spots than the fleets' out at sea.
    spots: dict[tuple[int, int], list[TrackView]] = {}
    for track in others:
        x, y = place_xy[track.place]
        spots.setdefault((round(x), round(y)), []).append(track)
    for (x, y), group in spots.items():
        lines = [short_name(place_name(t.place, t.name, locale)) for t in group]
        _draw_place(draw, placer, (x, y), group[0].side, lines)
    for side in (Side.JAPANESE, Side.ALLIED):
        if side not in fleet_xy:
            continue
        tactic, this_turn = fleet_position(view, side)
        fleet = fleets.get(side)
        name = (
            short_name(place_name(fleet.place, fleet.name, locale))
            if fleet
            else side_name(side, locale)
        )
        if tactic is None:
            detail = tr("map.range_unknown", locale)
        elif this_turn:
            detail = tr("map.range_now", locale, tactic=tactic_name(tactic, locale))
        else:
            detail = tr("map.range_last", locale, tactic=tactic_name(tactic, locale))
        _draw_fleet(image, draw, placer, fleet_xy[side], side, name, detail, tactic is None)
    draw.rectangle(box, outline=style.MUTED, width=2)


class Placer:
    """Keeps labels off each other and off the markers: first free spot among candidates."""

    def __init__(self, box: style.Box) -> None:
        self.box = box
        self.taken: list[tuple[tuple[float, float, float, float], float]] = []

    def block(self, rect: tuple[float, float, float, float], weight: float = 1.0) -> None:
        """Keep labels off ``rect``; a lighter ``weight`` (an arrow) yields sooner."""
        self.taken.append((rect, weight))

    def _overlap(
        self, rect: tuple[float, float, float, float], enough: float = float("inf")
    ) -> float:
        """The weighted area of ``rect`` already taken (counting stops past ``enough``)."""
        total = 0.0
        x0, y0, x1, y1 = rect
        for (ox0, oy0, ox1, oy1), weight in self.taken:
            if ox0 >= x1 or ox1 <= x0 or oy0 >= y1 or oy1 <= y0:
                continue
            total += (min(x1, ox1) - max(x0, ox0)) * (min(y1, oy1) - max(y0, oy0)) * weight
            if total > enough:
                break
        return total

    def place(
        self, anchor: tuple[float, float], width: float, height: float, reach: float
    ) -> tuple[float, float]:
        x, y = anchor
        bx0, by0, bx1, by1 = self.box
        candidates = [
            (x + reach, y - height / 2),
            (x - reach - width, y - height / 2),
            (x - width / 2, y + reach),
            (x - width / 2, y - reach - height),
            (x + reach, y + reach / 2),
            (x - reach - width, y + reach / 2),
            (x + reach, y - reach / 2 - height),
            (x - reach - width, y - reach / 2 - height),
            (x - width / 2, y + reach + height + 4),
            (x - width / 2, y - reach - 2 * height - 4),
            (x + reach, y + reach + height / 2),
            (x - reach - width, y + reach + height / 2),
            (x + reach, y - reach - height * 1.5),
            (x - reach - width, y - reach - height * 1.5),
        ]
        # Farther out, with a leader line, when everything near is taken.
        far = 3 * reach
        candidates += [
            (x - width / 2, y + far),
            (x - width / 2, y - far - height),
            (x + far, y - height / 2),
            (x - far - width, y - height / 2),
            (x + far, y + far),
            (x - far - width, y + far),
            (x + far, y - far - height),
            (x - far - width, y - far - height),
        ]
        best: tuple[float, float] | None = None
        best_cost = float("inf")
        for order, (lx, ly) in enumerate(candidates):
            lx = min(max(lx, bx0 + 6), bx1 - 6 - width)
            ly = min(max(ly, by0 + 6), by1 - 6 - height)
            cost = self._overlap((lx - 3, ly - 3, lx + width + 3, ly + height + 3)) * 100 + order
            if cost < best_cost:
                best, best_cost = (lx, ly), cost
        if best_cost >= 100:
            # Every spot near is taken: look over the whole map for a free one, nearest
            # first (a leader line joins it to its marker).
            for gy in range(int(by0) + 6, int(by1 - height) - 5, 20):
                for gx in range(int(bx0) + 6, int(bx1 - width) - 5, 20):
                    # How far the leader line would run: marker to the label's nearest edge.
                    gap_x = max(gx - x, 0.0, x - gx - width)
                    gap_y = max(gy - y, 0.0, y - gy - height)
                    far = (gap_x**2 + gap_y**2) ** 0.5
                    rect = (gx - 3, gy - 3, gx + width + 3, gy + height + 3)
                    cost = self._overlap(rect, best_cost / 100) * 100 + 40 + far * 30
                    if cost < best_cost:
                        best, best_cost = (gx, gy), cost
        assert best is not None
        # A label placed is the last thing another label may cover.
        self.block((best[0], best[1], best[0] + width, best[1] + height), 10.0)
        return best

    @staticmethod
    def leader(
        draw: ImageDraw.ImageDraw,
        anchor: tuple[float, float],
        rect: tuple[float, float, float, float],
        reach: float,
        colour: tuple[int, int, int],
    ) -> None:
        """A thin line from a marker to its label when the label had to move away."""
        x, y = anchor
        nx = min(max(x, rect[0]), rect[2])
        ny = min(max(y, rect[1]), rect[3])
        distance = ((nx - x) ** 2 + (ny - y) ** 2) ** 0.5
        if distance > reach + 8:
            start = (x + (nx - x) * 16 / distance, y + (ny - y) * 16 / distance)
            draw.line((*start, nx, ny), fill=colour, width=2)


def _strike_arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    side: Side,
    large: bool,
    offset_sign: int,
) -> None:
    sx, sy = start
    ex, ey = end
    length = max(1.0, ((ex - sx) ** 2 + (ey - sy) ** 2) ** 0.5)
    dx, dy = (ex - sx) / length, (ey - sy) / length
    px, py = -dy * 9 * offset_sign, dx * 9 * offset_sign
    shrink = 26.0
    if length <= 2 * shrink:
        return
    a = (sx + dx * shrink + px, sy + dy * shrink + py)
    b = (ex - dx * shrink + px, ey - dy * shrink + py)
    look = style.side_style(side)
    style.arrow(
        draw, a, b, look.dark, width=6 if large else 3, head=20 if large else 15, dashed=not large
    )


def _draw_fleet(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    placer: Placer,
    point: tuple[float, float],
    side: Side,
    name: str,
    detail: str,
    unknown: bool,
) -> None:
    x, y = point
    look = style.side_style(side)
    if unknown:
        corners = [
            (x - 17, y - 17),
            (x + 17, y - 17),
            (x + 17, y + 17),
            (x - 17, y + 17),
            (x - 17, y - 17),
        ]
        for a, b in pairwise(corners):
            style.dashed_line(draw, a, b, look.dark, 2, 6, 4)
        draw.text((x, y), "?", font=style.font(30, "bold"), fill=look.dark, anchor="mm")
    else:
        style.fill_side(
            image, (int(x - 21), int(y - 21), int(x + 21), int(y + 21)), side, radius=21
        )
        style.draw_marker(draw, (x, y), 30, side)
    limit = min(400, (placer.box[2] - placer.box[0]) // 2)
    name_font, lines = style.phone_lines(name, limit - 12, (24, 22), "bold", max_lines=2)
    # One line, condensed if need be; two only when even that is too long.
    detail_font, details = style.phone_lines(detail, limit - 12, (22,), max_lines=1)
    if details[0].endswith("…"):
        detail_font, details = style.phone_lines(detail, limit - 12, (22,), max_lines=2)
    width = max(style.text_width(line, name_font) for line in lines)
    width = max(width, *(style.text_width(line, detail_font) for line in details)) + 14
    height = 10 + 28 * (len(lines) + len(details))
    lx, ly = placer.place((x, y), width, height, 28)
    Placer.leader(draw, (x, y), (lx, ly, lx + width, ly + height), 28, look.dark)
    draw.rounded_rectangle(
        (lx, ly, lx + width, ly + height),
        radius=6,
        fill=(255, 255, 255),
        outline=look.dark,
        width=2,
    )
    for index, line in enumerate(lines):
        draw.text((lx + 7, ly + 5 + 28 * index), line, font=name_font, fill=look.dark)
    for index, line in enumerate(details, start=len(lines)):
        draw.text((lx + 7, ly + 5 + 28 * index), line, font=detail_font, fill=style.INK)


def _draw_place(
    draw: ImageDraw.ImageDraw,
    placer: Placer,
    point: tuple[float, float],
    side: Side,
    texts: list[str],
) -> None:
    x, y = point
    style.draw_marker(draw, (x, y), 20, side)
    draw.ellipse((x - 15, y - 15, x + 15, y + 15), outline=style.side_style(side).dark, width=2)
    limit = min(360, (placer.box[2] - placer.box[0]) // 2)
    fnt = style.font(22, "cond-bold")
    lines: list[str] = []
    for text in texts:
        _, wrapped = style.phone_lines(text, limit, (22,), "cond-bold", max_lines=2)
        lines += wrapped
    width = max(style.text_width(line, fnt) for line in lines) + 12
    height = 6 + 28 * len(lines)
    lx, ly = placer.place((x, y), width, height, 20)
    outline = style.side_style(side).main
    Placer.leader(draw, (x, y), (lx, ly, lx + width, ly + height), 20, style.side_style(side).dark)
    draw.rectangle(
        (lx, ly, lx + width, ly + height), fill=(255, 255, 255), outline=outline, width=2
    )
    for index, line in enumerate(lines):
        draw.text((lx + 6, ly + 17 + 28 * index), line, font=fnt, fill=style.INK, anchor="lm")
