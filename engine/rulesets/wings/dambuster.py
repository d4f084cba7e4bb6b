"""The Dambuster mission (seed 004, "DB"): Lancasters attack a dam with the bouncing bomb,
one bombing run after another, against the Möhne's light AA guns at night or the
undefended Eder.

One Lancaster is on the table at a time and flies one card a turn (authored 3.8: the bomb
timeline "turn -1 ... 3" counts one card as one turn). Each turn its player gives the card
and a bomb order: ``aim`` (turn -1: a straight at altitude 1, the release template laid and
the marker placed at an offset along it), ``release`` (turn 0: a second straight, the bomb
goes) or nothing. The bomb then bounces on rulers 1, 2, 3 and explodes in the fire phase of
its third turn; it damages the dam only when the dam's red line lies under one band of the
marker (DB 5). AA guns, searchlights and the night draw follow DB 6 and 8.c-e. With the
first card of a run the player also turns the plane off the start's heading (DB 8.d's "any
angle"), and at night he works the searchlight switch himself (DB 6), its default being the
bomb's own timing. The industrial-complex raid (``industrial``) flies on the
same machinery with the standard Lancaster and its bomb cards.

The dam's geometry is lost with the seed's map; the layout here is authored (docs/wings-data.md).
Every random draw comes from a named stream of the ``Rng`` handed in.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

import engine.rulesets.wings.geometry as geo
import engine.rulesets.wings.industrial as industrial
import engine.rulesets.wings.night_pick as crew_pick
from engine.rng import Rng
from engine.rulesets.wings.catalog import Catalog, DamageCard
from engine.rulesets.wings.fire import check_at_ground
from engine.rulesets.wings.state import PlaneState
from engine.sight import Sight, public_record

DamKind = Literal["eder", "mohne", "industrial"]
GIBSON = "AJ-G"  # DB 8.e: Wing Commander Gibson's Lancaster, the first over the Möhne
STAYS_OUT = "-"  # Gibson's order while he keeps away
# DB 6: the player's searchlight switch, each turn at night.
LIGHTS_AUTO = "auto"  # the bomb's timing: on for the aim, kept for the release, off after
LIGHTS_ON = "on"  # the plane on the table lit from this turn's start and kept lit
LIGHTS_GIBSON = "gibson"  # Gibson's Lancaster lit, to draw the flak (DB 8.e)
LIGHTS_BOTH = "both"
ESCORT_BEHIND = 2.5  # authored: he comes back half a ruler behind the run's start
Stage = Literal["aboard", "aimed", "released", "exploded", "kept"]
Outcome = Literal["hit", "dam-contact", "overshot", "ground", "missed"]
STRAIGHTS = ("SF", "SS")
CREW = ("pilot", "front", "rear")  # DB 11.b: I pilot, II front gunner / bomb aimer, III rear
# DB 11.b: the standard Lancaster's crew, the dorsal gunner third.
CREWS = {"lancaster": CREW, industrial.PLANE: ("pilot", "front", "dorsal", "rear")}
DROP = "drop"  # the industrial raid's bomb order: a bomb card falls after the card (DB 12)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


@public_record
class DamLayout(_Model):
    """The table and the dam, in base-widths (authored: the seed's map is lost)."""

    table: tuple[float, float] = (21.8, 15.1)  # DB 8.d: 98 x 68 cm, the Allied edge at x = 0
    water: tuple[float, float, float, float] = (1.5, 3.0, 19.5, 12.1)  # x0, y0, x1, y1
    dam: tuple[float, float, float, float] = (19.5, 5.5, 20.1, 9.6)  # the red line is x = x0
    start: tuple[float, float, float] = (5.0, 7.55, 0.0)  # DB 8.d: one ruler from mid-edge
    rulers: tuple[float, float, float] = (4.0, 3.0, 2.0)  # bounce rulers 1-3 (see docs)
    marker: tuple[float, float] = (1.2, 0.8)  # authored 3.8: length x width, 4 bands
    template: float = 2.5  # release template edge length, from the base's front (authored)
    offsets: tuple[int, ...] = (0, 25, 50, 75, 100)  # marker stops along the template, %
    # DB 8.d: the plane starts "at any angle" to the Allied edge; the panel offers these
    # turns off the start's heading, in degrees, positive to the left as a TL card turns
    # (authored: a handful of steps keeps the menu short).
    headings: tuple[int, ...] = (-60, -45, -30, -15, 0, 15, 30, 45, 60)


@public_record
class AAGun(_Model):
    """A light AA gun (DB 8.c, 8.e): fires one C card a turn at a plane in reach."""

    id: str
    x: float
    y: float
    structure: int  # 8 for the dam's guns, 5 for the shore cards
    reach: dict[int, float]  # altitude -> reach in bw from the gun's dot
    damage: int = 0

    @property
    def eliminated(self) -> bool:
        return self.damage >= self.structure


@public_record
class Bomb(_Model):
    stage: Stage = "aboard"
    x: float = 0.0  # the marker's centre and heading once placed
    y: float = 0.0
    heading: float = 0.0
    bounce: int = 0  # bounce rulers already used
    outcome: Outcome | None = None


@public_record
class Lancaster(_Model):
    id: str  # the registration, e.g. "AJ-G"
    x: float
    y: float
    heading: float
    level: int = 1
    counters: int = 0
    damage: int = 0
    fire: bool = False
    hurt: tuple[str, ...] = ()  # crew stations hit (DB 11.b; authored 3.8 draw)
    searchlights: bool = False
    fired: bool = False  # its guns fired this turn ("distinctly visible", DB 6)
    reattempt_used: bool = False
    status: Literal["waiting", "flying", "shot_down", "left", "done"] = "waiting"
    bomb: Bomb = Bomb()
    placed: bool = True  # its heading at the start chosen (DB 8.d); False until it flies
    bombs: int = 0  # standard bomb cards aboard (the industrial raid, DB 10)


@public_record
class DamState(_Model):
    kind: DamKind
    night: bool
    layout: DamLayout = DamLayout()
    roster: tuple[str, ...]
    planes: dict[str, Lancaster]
    run: int = 0  # index in the roster of the plane on the table
    turn: int = 1  # turns of the current run
    max_turns: int = 14  # authored: a run that has not released by then goes home
    guns: dict[str, AAGun] = Field(default_factory=dict)
    hits: int = 0  # 1 = damaged, 2 = destroyed (DB 8.d-e)
    finished: bool = False
    escort: str | None = None  # Gibson's Lancaster back over the lake beside a run (DB 8.e)
    plane_type: str = "lancaster"  # the Dambuster; the industrial raid's standard Lancaster
    target: industrial.IndustrialTarget | None = None  # the industrial complex (DB 12)
    # DB 6: a gun's two night cards waiting for the crew's pick; the turn stops there.
    # DB 6: the crew's (the Entente's) pick waiting, its cards theirs alone until played.
    night_pick: Annotated[crew_pick.NightPick | None, Sight("public", side="entente")] = None


def new_dam(kind: DamKind, *, full: bool = True) -> DamState:
    """DB 8.d-e: Eder, undefended, AJ-L, AJ-Z, AJ-N (the short scenario: one plane);
    Möhne at night, AJ-G, AJ-M, AJ-P, AJ-A, AJ-J, two guns on the dam and two on the shores."""
    layout = DamLayout()
    if kind == "industrial":
        return _new_industrial(layout)
    if kind == "eder":
        roster: tuple[str, ...] = ("AJ-L", "AJ-Z", "AJ-N") if full else ("AJ-L",)
        guns: dict[str, AAGun] = {}
    else:
        roster = ("AJ-G", "AJ-M", "AJ-P", "AJ-A", "AJ-J")
        x0, y0, _x1, y1 = layout.dam
        _wx0, wy0, wx1, wy1 = layout.water
        ruler = 5.0
        dam_reach = {1: ruler, 2: ruler / 2}
        shore_reach = {1: ruler, 2: ruler}
        guns = {
            "dam-1": AAGun(id="dam-1", x=x0, y=y0, structure=8, reach=dam_reach),
            "dam-2": AAGun(id="dam-2", x=x0, y=y1, structure=8, reach=dam_reach),
            # DB 8.e: one AA card on each side of the lake (authored reading), 5 points.
            "shore-1": AAGun(
                id="shore-1", x=wx1 - 6.0, y=wy0 - 1.0, structure=5, reach=shore_reach
            ),
            "shore-2": AAGun(
                id="shore-2", x=wx1 - 6.0, y=wy1 + 1.0, structure=5, reach=shore_reach
            ),
        }
    x, y, heading = layout.start
    planes = {
        reg: Lancaster(
            id=reg,
            x=x,
            y=y,
            heading=heading,
            status="flying" if i == 0 else "waiting",
            placed=False,
        )
        for i, reg in enumerate(roster)
    }
    return DamState(kind=kind, night=kind == "mohne", roster=roster, planes=planes, guns=guns)


def _new_industrial(layout: DamLayout) -> DamState:
    """DB 10, 12 (authored scenario): one standard Lancaster with three bomb cards, by day,
    against the complex and the box's two AA gun cards on either side of it."""
    target = industrial.IndustrialTarget()
    reach = {1: 5.0, 2: 5.0, 3: 2.5}  # authored: a light gun's ruler, half of it at level 3
    guns = {
        f"aa-{n}": AAGun(id=f"aa-{n}", x=target.x, y=target.y + dy, structure=5, reach=reach)
        for n, dy in ((1, -3.0), (2, 3.0))
    }
    x, y, heading = layout.start
    (reg,) = industrial.ROSTER
    plane = Lancaster(
        id=reg,
        x=x,
        y=y,
        heading=heading,
        level=industrial.START_LEVEL,
        status="flying",
        placed=False,
        bombs=industrial.BOMBS,
    )
    return DamState(
        kind="industrial",
        night=False,
        roster=industrial.ROSTER,
        planes={reg: plane},
        guns=guns,
        plane_type=industrial.PLANE,
        target=target,
    )


# --- geometry -------------------------------------------------------------------------------


def _rect(box: tuple[float, float, float, float]) -> geo.Polygon:
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def marker_polygon(layout: DamLayout, x: float, y: float, heading: float) -> geo.Polygon:
    length, width = layout.marker
    return geo.rectangle(x, y, heading, width, length)


def _samples(poly: geo.Polygon, per_edge: int = 4) -> list[geo.Point]:
    points = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        points += [
            (a[0] + (b[0] - a[0]) * k / per_edge, a[1] + (b[1] - a[1]) * k / per_edge)
            for k in range(per_edge)
        ]
    return points


def on_water(layout: DamLayout, poly: geo.Polygon, dam_allowed: bool = False) -> bool:
    """Every sampled point of the shape over the lake (or the dam, when allowed)."""
    water, dam = _rect(layout.water), _rect(layout.dam)
    return all(
        geo.point_in_convex(p, water) or (dam_allowed and geo.point_in_convex(p, dam))
        for p in _samples(poly)
    )


def release_point(
    catalog: Catalog, layout: DamLayout, plane: Lancaster, offset: int
) -> tuple[float, float, float]:
    """DB 2: the marker against the release template, which runs forward from the base's
    front-right corner; ``offset`` is the stop along the template edge in % (authored)."""
    _width, length = catalog.base_size(catalog.planes["lancaster"])
    marker_length, marker_width = layout.marker
    ahead = length / 2 + marker_length / 2 + layout.template * offset / 100
    side = -(catalog.base_size(catalog.planes["lancaster"])[0] / 2 - marker_width / 2)
    x, y = geo.to_world(plane.x, plane.y, plane.heading, (ahead, side))
    return x, y, plane.heading


def sight(catalog: Catalog, layout: DamLayout, plane: Lancaster) -> int | None:
    """DB 3, as a query: the template stop whose release point would put the marker's
    middle on the dam's red line after the three bounces, flying straight; None when no
    stop lines up within a quarter of the marker (authored reading of the Y sight)."""
    travel = sum(layout.rulers)
    best: tuple[float, int] | None = None
    for offset in layout.offsets:
        x, y, heading = release_point(catalog, layout, plane, offset)
        end = geo.to_world(x, y, heading, (travel, 0.0))
        miss = _red_line_miss(layout, end, heading)
        if miss is not None and (best is None or miss < best[0]):
            best = (miss, offset)
    if best is None or best[0] > layout.marker[0] / 4:
        return None
    return best[1]


def _red_line_miss(layout: DamLayout, point: geo.Point, heading: float) -> float | None:
    """Distance along the heading from ``point`` to the red line, if the line is ahead or
    behind within the dam's span."""
    x0, y0, _x1, y1 = layout.dam
    cos = math.cos(math.radians(heading))
    if abs(cos) < 1e-6:
        return None
    t = (x0 - point[0]) / cos
    cross_y = point[1] + t * math.sin(math.radians(heading))
    if not y0 <= cross_y <= y1:
        return None
    return abs(t)


def bands_over_red_line(layout: DamLayout, x: float, y: float, heading: float) -> set[int]:
    """DB 5: which of the marker's four bands (numbered along its length) cover the part of
    the red line under it; empty when the marker misses the line."""
    x0, y0, _x1, y1 = layout.dam
    length, width = layout.marker
    steps = 64
    bands: set[int] = set()
    rad = math.radians(heading)
    for k in range(steps + 1):
        px, py = x0, y0 + (y1 - y0) * k / steps
        # The point in the marker's own frame: u along its length, v across.
        dx, dy = px - x, py - y
        u = dx * math.cos(rad) + dy * math.sin(rad)
        v = -dx * math.sin(rad) + dy * math.cos(rad)
        if abs(u) <= length / 2 and abs(v) <= width / 2:
            bands.add(min(3, int((u + length / 2) / (length / 4))))
    return bands


# --- damage ---------------------------------------------------------------------------------


def draw(catalog: Catalog, rng: Rng, letter: str, what: str) -> DamageCard:
    """One card from a full, freshly shuffled deck (authored: every draw stands alone)."""
    return rng.stream(f"dam:{what}").choice(catalog.damage_decks[letter].expanded)


def visible(plane: Lancaster) -> bool:
    """DB 6: firing its guns, searchlights on or on fire makes it distinctly visible."""
    return plane.fired or plane.searchlights or plane.fire


class Run:
    """The working copy of a dam mission for one turn."""

    def __init__(self, catalog: Catalog, state: DamState, rng: Rng) -> None:
        self.catalog = catalog
        self.state = state
        self.rng = rng
        self.planes = dict(state.planes)
        self.guns = dict(state.guns)
        self.hits = state.hits
        self.escort = state.escort
        self.target = state.target
        self.events: list[dict[str, object]] = []
        self.ruler = catalog.rules.units.ruler
        self.asks = False  # the crew picks its night card itself (the turn stops for it)

    def event(self, kind: str, **data: object) -> None:
        self.events.append({"kind": kind, "turn": self.state.turn, "run": self.state.run, **data})

    def where(self, label: str) -> str:
        return f"{self.state.run}.{self.state.turn}:{label}"

    def update(self, pid: str, **changes: object) -> Lancaster:
        self.planes[pid] = self.planes[pid].model_copy(update=changes)
        return self.planes[pid]

    # -- damage to the Lancaster

    def take(self, pid: str, card: DamageCard, source: str) -> None:
        plane = self.planes[pid]
        if plane.status != "flying":
            return
        self.event("damage-card", plane=pid, value=card.value, special=card.special, by=source)
        if card.special == "explosion":
            self.down(pid)
            return
        if card.special == "fire":
            plane = self.update(pid, fire=True)
        elif card.special == "pilot_wounded":
            # Authored 3.8: a crew hit falls on a station drawn among the unhurt crew.
            crew = CREWS[self.state.plane_type]
            unhurt = [station for station in crew if station not in plane.hurt]
            if unhurt:
                station = self.rng.stream(self.where(f"crew:{pid}")).choice(unhurt)
                plane = self.update(pid, hurt=(*plane.hurt, station))
                self.event("crew-hit", plane=pid, station=station)
        plane = self.update(pid, damage=plane.damage + card.value)
        if plane.damage >= self.catalog.planes[self.state.plane_type].damage_points:
            self.down(pid)

    def down(self, pid: str) -> None:
        self.update(pid, status="shot_down")
        self.event("shot-down", plane=pid)

    # -- the bomb

    def move_bomb(self, pid: str) -> None:
        """DB 4: the marker moves the length of the next ruler; it explodes on land, on
        the dam before the third bounce, or past the dam; else it bounces on."""
        plane = self.planes[pid]
        bomb = plane.bomb
        if bomb.stage != "released" or bomb.bounce >= 3:
            return
        layout = self.state.layout
        ruler = layout.rulers[bomb.bounce]
        x, y = geo.to_world(bomb.x, bomb.y, bomb.heading, (ruler, 0.0))
        bounce = bomb.bounce + 1
        marker = marker_polygon(layout, x, y, bomb.heading)
        path = geo.rectangle(
            (bomb.x + x) / 2, (bomb.y + y) / 2, bomb.heading, layout.marker[1], ruler
        )
        dam = _rect(layout.dam)
        on_dam = geo.overlaps(marker, dam)
        beyond = geo.to_world(x, y, bomb.heading, (-layout.marker[0] / 2, 0.0))[0] > layout.dam[2]
        moved = bomb.model_copy(update={"x": x, "y": y, "bounce": bounce})
        self.update(pid, bomb=moved)
        self.event("bomb-bounce", plane=pid, bounce=bounce, x=round(x, 3), y=round(y, 3))
        if beyond:
            # Past the dam's rear edge: one more ruler, then it explodes, harmless.
            far = geo.to_world(x, y, bomb.heading, (ruler, 0.0))
            self.explode(pid, "overshot", far)
        elif on_dam and bounce < 3:
            self.explode(pid, "dam-contact", (x, y))
        elif on_dam:
            pass  # the third bounce reaches the dam: the band test decides (fire phase)
        elif not (on_water(layout, marker) and on_water(layout, path, dam_allowed=True)):
            self.explode(pid, "ground", (x, y))

    def bomb_last_explosion(self, pid: str) -> None:
        """DB 4-5: in the fire phase of the third bounce the bomb explodes where it is; the
        dam is hit when one band alone covers the red line."""
        bomb = self.planes[pid].bomb
        if bomb.stage != "released" or bomb.bounce < 3:
            return
        bands = bands_over_red_line(self.state.layout, bomb.x, bomb.y, bomb.heading)
        self.explode(pid, "hit" if len(bands) == 1 else "missed", (bomb.x, bomb.y))

    def explode(self, pid: str, outcome: Outcome, where: tuple[float, float]) -> None:
        plane = self.planes[pid]
        bomb = plane.bomb.model_copy(
            update={"stage": "exploded", "outcome": outcome, "x": where[0], "y": where[1]}
        )
        self.update(pid, bomb=bomb)
        if outcome == "hit":
            self.hits = min(2, self.hits + 1)
        self.event("bomb-exploded", plane=pid, outcome=outcome, dam_hits=self.hits)
        # DB 4: every plane at altitude 1 within half a ruler of the marker (edge to edge)
        # takes a D card.
        layout = self.state.layout
        marker = marker_polygon(layout, where[0], where[1], bomb.heading)
        for other in sorted(self.planes.values(), key=lambda p: p.id):
            if other.status != "flying" or other.level != 1:
                continue
            base = _lancaster_base(self.catalog, other)
            if _gap(marker, base) <= self.ruler / 2:
                self.take(
                    other.id,
                    draw(self.catalog, self.rng, "D", self.where(f"blast:{other.id}")),
                    "bomb",
                )

    # -- guns

    def plane_fire(self, pid: str, locked_front: bool) -> None:
        """Standing order (authored): each turret not locked and with its gunner unhurt
        fires at the nearest AA gun it can reach. At night a gun takes half of each card,
        rounded down (DB 6, chosen over 8.e's "rounded up"); specials are ignored."""
        plane = self.planes[pid]
        plane_type = self.catalog.planes[self.state.plane_type]
        state = _as_plane_state(plane, plane_type.key)
        fired = False
        for gun in plane_type.guns:
            station = gun.name.split("_")[0]  # front_turret -> front (DB 11.b's stations)
            if station in plane.hurt or (station == "front" and locked_front):
                continue
            best: tuple[float, str, bool] | None = None
            for target in sorted(self.guns.values(), key=lambda g: g.id):
                if target.eliminated:
                    continue
                check = check_at_ground(self.catalog, state, gun, target.x, target.y, [state])
                if check.ok and (best is None or check.distance < best[0]):
                    best = (check.distance, target.id, check.short)
            if best is None:
                continue
            fired = True
            fire = self.catalog.rules.fire
            cards = (fire.short_cards + gun.short_bonus) if best[2] else fire.long_cards
            total = 0
            for index in range(cards):
                card = draw(self.catalog, self.rng, gun.deck, self.where(f"mg:{gun.name}:{index}"))
                total += card.value // 2 if self.state.night else card.value
            target = self.guns[best[1]]
            self.guns[target.id] = target.model_copy(update={"damage": target.damage + total})
            self.event("fire-at-aa", plane=pid, gun=gun.name, target=target.id, damage=total)
            if self.guns[target.id].eliminated:
                self.event("aa-eliminated", gun=target.id)
        self.update(pid, fired=fired)

    def aa_fire(self, pid: str, escort: str | None = None, after: str = "") -> None:
        """DB 8.c: each gun fires once at a plane whose base is in reach of its dot and does
        not cover it: one C card; at night a plane not distinctly visible draws two and
        keeps one: the crew's pick when it is asked (``asks``; the turn stops here), else
        the one it would keep (never an explosion, else the lower). DB 8.e: with Gibson's
        plane also in play, a gun takes the nearest distinctly visible plane in reach, else
        the nearest in reach. ``after``: the guns up to this one have fired already."""
        for gun in sorted(self.guns.values(), key=lambda g: g.id):
            if gun.eliminated or gun.id <= after:
                continue
            in_reach: list[tuple[bool, float, str]] = []
            for candidate in (pid, escort):
                if candidate is None or self.planes[candidate].status != "flying":
                    continue
                target = self.planes[candidate]
                base = _lancaster_base(self.catalog, target)
                reach = gun.reach.get(target.level)
                if reach is None or geo.point_in_convex((gun.x, gun.y), base):
                    continue
                gap = _point_gap((gun.x, gun.y), base)
                if gap <= reach:
                    in_reach.append((not visible(target), gap, candidate))
            if not in_reach:
                continue
            plane = self.planes[min(in_reach)[2]]
            card = draw(self.catalog, self.rng, "C", self.where(f"aa:{gun.id}:1"))
            self.event("aa-fire", gun=gun.id, plane=plane.id)
            if self.state.night and not visible(plane):
                pair = (card, draw(self.catalog, self.rng, "C", self.where(f"aa:{gun.id}:2")))
                if self.asks and not crew_pick.same(*pair):
                    self.event("night-pick-asked", gun=gun.id, plane=plane.id)
                    raise crew_pick.PickNeeded(gun.id, plane.id, pair)
                kept = crew_pick.kept_for_him(*pair)
                if self.asks:  # both cards told, as a pick would tell them
                    self.night_cards(gun.id, plane.id, pair, kept)
                card = pair[kept]
            self.take(plane.id, card, gun.id)

    def night_cards(
        self, gun: str, pid: str, cards: tuple[DamageCard, DamageCard], kept: int
    ) -> None:
        self.event("night-pick", gun=gun, plane=pid, **crew_pick.told(cards, kept))


def _lancaster_base(catalog: Catalog, plane: Lancaster) -> geo.Polygon:
    width, length = catalog.base_size(catalog.planes["lancaster"])
    return geo.rectangle(plane.x, plane.y, plane.heading, width, length)


def _point_gap(point: geo.Point, poly: geo.Polygon) -> float:
    if geo.point_in_convex(point, poly):
        return 0.0
    return min(
        geo.distance(point, geo.nearest_on_segment(point, poly[i], poly[(i + 1) % len(poly)]))
        for i in range(len(poly))
    )


def _gap(first: geo.Polygon, second: geo.Polygon) -> float:
    if geo.overlaps(first, second):
        return 0.0
    return min(min(_point_gap(p, second) for p in first), min(_point_gap(p, first) for p in second))


def _as_plane_state(plane: Lancaster, plane_type: str = "lancaster") -> PlaneState:
    """The Lancaster as the fire rules see a plane (its gunners fit, see ``hurt``)."""
    return PlaneState(
        id=plane.id,
        type=plane_type,
        side="entente",
        x=plane.x,
        y=plane.y,
        heading=plane.heading,
        level=plane.level,
        observer_lp=10,
    )


# --- orders ---------------------------------------------------------------------------------


class Order(_Model):
    """One turn of the Lancaster on the table: its card and its bomb order."""

    card: str
    bomb: Literal["", "aim", "release", "drop"] = ""
    offset: int = 50  # the marker's stop along the template, for "aim"

    @property
    def text(self) -> str:
        if self.bomb == "aim":
            return f"{self.card} aim:{self.offset}"
        return f"{self.card} {self.bomb}".strip()


def parse_order(text: str) -> Order:
    """``"SS"``, ``"SS aim:50"``, ``"SF release"``; raises ValueError on anything else."""
    parts = text.split()
    if not parts or len(parts) > 2:
        raise ValueError("one card and at most one bomb order")
    if len(parts) == 1:
        return Order(card=parts[0])
    action = parts[1]
    if action == "release":
        return Order(card=parts[0], bomb="release")
    if action == DROP:
        return Order(card=parts[0], bomb="drop")
    if action.startswith("aim:") and action[4:].isdigit():
        return Order(card=parts[0], bomb="aim", offset=int(action[4:]))
    raise ValueError(f"unknown bomb order {action!r}")


def on_table(state: DamState) -> Lancaster | None:
    if state.finished:
        return None
    return state.planes[state.roster[state.run]]


def _moved(catalog: Catalog, plane: Lancaster, card: str) -> Lancaster:
    move = catalog.move(catalog.planes["lancaster"], card)
    x, y, heading = geo.apply_move(plane.x, plane.y, plane.heading, move)
    return plane.model_copy(update={"x": x, "y": y, "heading": heading})


def check_order(catalog: Catalog, state: DamState, order: Order) -> str | None:
    """Why this order is refused (a short key), or None when it is legal (DB 2)."""
    plane = on_table(state)
    if plane is None or plane.status != "flying":
        return None if order.card == "-" else "no-plane"
    deck = catalog.maneuver_decks[catalog.planes["lancaster"].deck]
    if deck.card(order.card) is None:
        return "not-in-deck"
    if order.card == "DV" and plane.level <= 1:
        return "dive-into-ground"  # authored: altitude 1 is the lowest flying level
    if order.bomb == "":
        return None
    if order.card not in STRAIGHTS:
        return "bomb-needs-straight"
    if state.kind == "industrial" or order.bomb == "drop":
        return _check_drop(state, plane, order)
    if plane.level != 1:
        return "bomb-needs-altitude-1"
    if "front" in plane.hurt:
        return "bomb-aimer-hurt"
    if order.bomb == "release":
        return None if plane.bomb.stage == "aimed" else "not-aimed"
    if plane.bomb.stage != "aboard":
        return "no-bomb"
    if order.offset not in state.layout.offsets:
        return "bad-offset"
    moved = _moved(catalog, plane, order.card)
    point = release_point(catalog, state.layout, moved, order.offset)
    if not on_water(state.layout, marker_polygon(state.layout, *point)):
        return "release-point-off-water"
    return None


def _check_drop(state: DamState, plane: Lancaster, order: Order) -> str | None:
    """The industrial raid's bomb cards (authored): dropped after a straight, the bomb aimer
    (crew II, DB 2) unhurt, while any is left; no bouncing bomb aboard."""
    if state.kind != "industrial" or order.bomb != "drop":
        return "no-bomb"
    if plane.bombs <= 0:
        return "no-bomb"
    if "front" in plane.hurt:
        return "bomb-aimer-hurt"
    return None


def legal_orders(catalog: Catalog, state: DamState) -> tuple[list[str], list[tuple[str, str]]]:
    """Every legal order for the plane on the table (a few dozen at most), and the refused
    ones with their reasons."""
    plane = on_table(state)
    if plane is None or plane.status != "flying":
        return ["-"], []
    deck = catalog.maneuver_decks[catalog.planes["lancaster"].deck]
    candidates = [Order(card=card.code) for card in deck.cards]
    for card in STRAIGHTS:
        if state.kind == "industrial":
            candidates.append(Order(card=card, bomb="drop"))
            continue
        candidates.append(Order(card=card, bomb="release"))
        candidates += [Order(card=card, bomb="aim", offset=o) for o in state.layout.offsets]
    legal, refused = [], []
    for order in candidates:
        reason = check_order(catalog, state, order)
        if reason is None:
            legal.append(order.text)
        elif reason not in ("not-aimed", "no-bomb") or order.bomb == "":
            refused.append((order.text, reason))
    return legal, refused


# --- the turn -------------------------------------------------------------------------------


def play(
    catalog: Catalog,
    state: DamState,
    text: str,
    rng: Rng,
    escort_order: str = STAYS_OUT,
    *,
    start: int | None = None,
    lights: str = LIGHTS_AUTO,
    asks: bool = False,
) -> tuple[DamState, list[dict[str, object]]]:
    """One turn of the current run with its (already checked) order, and Gibson's;
    ``start`` turns a plane not yet flown from the start (DB 8.d), ``lights`` is the
    player's searchlight switch (DB 6). With ``asks`` the turn stops at a night draw the
    crew must pick from (``night_pick`` set, ``resume`` goes on)."""
    placing = bool(start_headings(state))
    start_reason = check_start(state, start)
    if start_reason is not None:
        raise ValueError(start_reason)
    lit = lights_for(state, lights)
    if lit is None:
        raise ValueError("bad-lights")
    if placing:
        state = _place(state, start or 0)
    order = parse_order(text)
    reason = check_order(catalog, state, order)
    # The menu was drawn before the heading was known: a marker the turn now puts on land
    # is not laid, and the card flies alone (as at the table, where the template shows it).
    off_water = placing and reason == "release-point-off-water"
    if off_water:
        order, reason = Order(card=order.card), None
    if reason is not None:
        raise ValueError(reason)
    escort_reason = check_escort(catalog, state, escort_order)
    if escort_reason is not None:
        raise ValueError(escort_reason)
    work = Run(catalog, state, rng)
    work.asks = asks
    pid = state.roster[state.run]
    plane = work.planes[pid]
    work.event("turn-started", plane=pid)
    if placing:
        work.event("start-heading", plane=pid, heading=start or 0)
    if off_water:
        work.event("aim-off-water", plane=pid)
    if plane.status == "flying":
        _fly(work, pid, order)
    escort = _escort_flies(work, escort_order)
    _switch_on(work, lit)
    work.move_bomb(pid)
    plane = work.planes[pid]
    if plane.status == "flying" and order.bomb:
        _bomb_order(work, pid, order)
    plane = work.planes[pid]
    if escort is not None and work.planes[escort].status == "flying":
        work.plane_fire(escort, locked_front=False)
    if plane.status == "flying":
        work.plane_fire(pid, locked_front=order.bomb != "")
    rest = crew_pick.NightPick(
        plane=pid,
        gun="",
        cards=(_NO_CARD, _NO_CARD),
        bomb=order.bomb,
        lit=lit,
        escort=escort,
        rng_turn=rng.turn,
        rng_round=rng.round_name,
    )
    if plane.status == "flying" or escort is not None:
        try:
            work.aa_fire(pid, escort)
        except crew_pick.PickNeeded as wait:
            return _paused(state, work, rest, wait)
    return _turn_end(catalog, state, work, rest)


# A placeholder for the pair while no gun has asked: replaced when one does.
_NO_CARD = DamageCard(value=0, special="none", count=1)


def _paused(
    state: DamState, work: Run, rest: crew_pick.NightPick, wait: crew_pick.PickNeeded
) -> tuple[DamState, list[dict[str, object]]]:
    """The turn stopped at a gun's night draw: the raid as it stands, the pair held."""
    pick = rest.model_copy(update={"plane": wait.plane, "gun": wait.gun, "cards": wait.cards})
    new = state.model_copy(
        update={
            "planes": work.planes,
            "guns": work.guns,
            "hits": work.hits,
            "target": work.target,
            "escort": work.escort,
            "night_pick": pick,
        }
    )
    return new, work.events


def resume(
    catalog: Catalog, state: DamState, option: str, rng: Rng
) -> tuple[DamState, list[dict[str, object]]]:
    """The crew keeps the card ``option`` names (``night_pick.options``) and the turn goes
    on from the gun that stopped it, with the streams of the round it was flown in (only
    ``rng``'s seed is used); it may stop again at a later gun."""
    pick = state.night_pick
    if pick is None:
        raise ValueError("no-night-pick")
    kept = crew_pick.chosen(pick, option)
    base = state.model_copy(update={"night_pick": None})
    work = Run(catalog, base, Rng(rng.seed, pick.rng_turn, pick.rng_round))
    work.asks = True
    work.night_cards(pick.gun, pick.plane, pick.cards, kept)
    work.take(pick.plane, pick.cards[kept], pick.gun)
    pid = base.roster[base.run]
    try:
        work.aa_fire(pid, pick.escort, after=pick.gun)
    except crew_pick.PickNeeded as wait:
        return _paused(base, work, pick, wait)
    return _turn_end(catalog, base, work, pick)


def _turn_end(
    catalog: Catalog, state: DamState, work: Run, rest: crew_pick.NightPick
) -> tuple[DamState, list[dict[str, object]]]:
    """What follows the guns: the bomb's last explosion, the searchlights, the next turn."""
    pid, escort, lit = state.roster[state.run], rest.escort, rest.lit
    work.bomb_last_explosion(pid)
    plane = work.planes[pid]
    if plane.searchlights and rest.bomb != "aim" and pid not in lit:
        # Authored: the searchlights go off once the release turn's combat is over, unless
        # the player keeps them on (DB 6: off only at a turn's end).
        work.update(pid, searchlights=False)
    if escort is not None and work.planes[escort].searchlights and escort not in lit:
        work.update(escort, searchlights=False)
    return _next(catalog, state, work)


# --- the start at any angle (DB 8.d) ----------------------------------------------------------


def start_headings(state: DamState) -> tuple[int, ...]:
    """The turns off the start's heading the plane on the table may be laid at: before its
    first card, and again when it comes back for its second pass; none once it flies."""
    plane = on_table(state)
    if plane is None or plane.status != "flying" or plane.placed:
        return ()
    return state.layout.headings


def check_start(state: DamState, start: int | None) -> str | None:
    headings = start_headings(state)
    if not headings:
        return None if start is None else "already-placed"
    if start is not None and start not in headings:
        return "bad-heading"
    return None


def _place(state: DamState, start: int) -> DamState:
    plane = on_table(state)
    assert plane is not None
    # Off the heading it stands at: the start's, at a first entry or a second pass.
    turned = plane.model_copy(update={"heading": plane.heading + start, "placed": True})
    return state.model_copy(update={"planes": {**state.planes, plane.id: turned}})


# --- the searchlight switch (DB 6) ------------------------------------------------------------


def lights_options(state: DamState) -> tuple[str, ...]:
    """The switch on the panel: only at night (DB 6), Gibson's choices while he may fly."""
    plane = on_table(state)
    if not state.night or plane is None or plane.status != "flying":
        return ()
    if gibson_free(state):
        return (LIGHTS_AUTO, LIGHTS_ON, LIGHTS_GIBSON, LIGHTS_BOTH)
    return (LIGHTS_AUTO, LIGHTS_ON)


def lights_for(state: DamState, lights: str) -> tuple[str, ...] | None:
    """The planes the switch keeps lit this turn, or None for a switch not on offer."""
    if lights == LIGHTS_AUTO:
        return ()
    if lights not in lights_options(state):
        return None
    run = state.roster[state.run]
    return {LIGHTS_ON: (run,), LIGHTS_GIBSON: (GIBSON,), LIGHTS_BOTH: (run, GIBSON)}[lights]


def _switch_on(work: Run, lit: tuple[str, ...]) -> None:
    for pid in lit:
        plane = work.planes[pid]
        if plane.status == "flying" and not plane.searchlights:
            work.update(pid, searchlights=True)
            work.event("searchlights-on", plane=pid)


def _fly(work: Run, pid: str, order: Order) -> None:
    plane = work.planes[pid]
    if plane.bomb.stage == "aimed" and order.bomb != "release":
        plane = work.update(pid, bomb=plane.bomb.model_copy(update={"stage": "aboard"}))
        work.event("aim-lapsed", plane=pid)
    if order.bomb == "aim" and work.state.night:
        plane = work.update(pid, searchlights=True)  # DB 6: on for the template turn
        work.event("searchlights-on", plane=pid)
    moved = _moved(work.catalog, plane, order.card)
    level, counters = plane.level, plane.counters
    if order.card == "CL":
        # Authored 3.8: climb 5, one more with the bomb aboard.
        climb = work.catalog.planes["lancaster"].climb + (plane.bomb.stage in ("aboard", "aimed"))
        counters += 1
        if counters >= climb:
            level, counters = level + 1, 0
    elif order.card == "DV":
        level, counters = level - 1, 0
    plane = work.update(
        pid, x=moved.x, y=moved.y, heading=moved.heading, level=level, counters=counters
    )
    work.event("moved", plane=pid, card=order.card, x=round(plane.x, 3), y=round(plane.y, 3))
    width, height = work.state.layout.table
    if 0 <= plane.x <= width and 0 <= plane.y <= height:
        return
    if plane.bomb.stage in ("aboard", "aimed") and not plane.reattempt_used:
        # DB 8.d: once a game a plane may leave and start its approach again.
        x, y, heading = work.state.layout.start
        work.update(pid, x=x, y=y, heading=heading, reattempt_used=True, placed=False,
                    bomb=plane.bomb.model_copy(update={"stage": "aboard"}))  # fmt: skip
        work.event("second-pass", plane=pid)
    else:
        work.update(pid, status="left")
        work.event("left-table", plane=pid)


# --- Gibson's re-engagement (DB 8.e) ---------------------------------------------------------


def gibson_free(state: DamState) -> bool:
    """DB 8.e: AJ-G, not destroyed after dropping its bomb, may come back beside a later
    plane to draw the AA fire and silence the guns."""
    gibson = state.planes.get(GIBSON)
    return (
        state.kind == "mohne"
        and not state.finished
        and gibson is not None
        and state.roster[state.run] != GIBSON
        and gibson.bomb.stage == "exploded"
        and (gibson.status == "done" or state.escort == GIBSON)
        and gibson.status not in ("shot_down", "left")
    )


def escort_orders(catalog: Catalog, state: DamState) -> list[str]:
    """Gibson's legal orders: a card (no bomb left), or staying out while not yet back."""
    if not gibson_free(state):
        return []
    orders = [] if state.escort else [STAYS_OUT]
    return orders + [o for o in _cards(catalog) if check_escort(catalog, state, o) is None]


def _cards(catalog: Catalog) -> list[str]:
    deck = catalog.maneuver_decks[catalog.planes["lancaster"].deck]
    return [card.code for card in deck.cards]


def check_escort(catalog: Catalog, state: DamState, text: str) -> str | None:
    if text == STAYS_OUT:
        return "escort-on-table" if state.escort and gibson_free(state) else None
    if not gibson_free(state):
        return "no-escort"
    if text not in _cards(catalog):
        return "not-in-deck"
    gibson = state.planes[GIBSON]
    level = gibson.level if state.escort else 1
    if text == "DV" and level <= 1:
        return "dive-into-ground"
    return None


def _escort_flies(work: Run, text: str) -> str | None:
    if text == STAYS_OUT or not gibson_free(work.state):
        return None
    if work.state.escort is None:
        x, y, heading = work.state.layout.start
        work.update(GIBSON, x=x - ESCORT_BEHIND, y=y, heading=heading, level=1,
                    counters=0, status="flying", searchlights=False)  # fmt: skip
        work.event("gibson-rejoins", plane=GIBSON)
    work.escort = GIBSON
    _fly(work, GIBSON, Order(card=text))
    if work.planes[GIBSON].status != "flying":
        work.escort = None
    return GIBSON


def _bomb_order(work: Run, pid: str, order: Order) -> None:
    plane = work.planes[pid]
    if order.bomb == "aim":
        x, y, heading = release_point(work.catalog, work.state.layout, plane, order.offset)
        bomb = plane.bomb.model_copy(update={"stage": "aimed", "x": x, "y": y, "heading": heading})
        work.update(pid, bomb=bomb)
        work.event("bomb-aimed", plane=pid, offset=order.offset)
    elif order.bomb == "drop":
        _drop(work, pid)
    elif plane.bomb.stage == "aimed":
        work.update(pid, bomb=plane.bomb.model_copy(update={"stage": "released", "bounce": 0}))
        work.event("bomb-released", plane=pid)


def _drop(work: Run, pid: str) -> None:
    """DB 12: a bomb card falls ahead of the Lancaster and is graded on the complex's card."""
    plane = work.planes[pid]
    target = work.target
    assert target is not None
    pose = industrial.fall(work.catalog, _as_plane_state(plane, work.state.plane_type))
    tier = industrial.coverage(work.catalog, target, pose)
    won = industrial.points(target, tier)
    work.target = target.model_copy(update={"won": target.won + won})
    work.update(pid, bombs=plane.bombs - 1)
    work.event(
        "bomb-dropped", plane=pid, x=round(pose[0], 3), y=round(pose[1], 3), tier=tier, vp=won
    )
    if work.target.destroyed:
        work.event("complex-destroyed", plane=pid)


def _next(catalog: Catalog, state: DamState, work: Run) -> tuple[DamState, list[dict[str, object]]]:
    planes = work.planes
    pid = state.roster[state.run]
    plane = planes[pid]
    bomb = plane.bomb
    bomb_busy = bomb.stage == "released"
    over = (
        bomb.stage == "exploded"
        or (
            state.kind == "industrial"
            and (plane.bombs == 0 or bool(work.target and work.target.destroyed))
        )
        or (plane.status != "flying" and not bomb_busy)
        or (state.turn >= state.max_turns and not bomb_busy)
    )
    run, turn, finished = state.run, state.turn + 1, False
    if over:
        if plane.status == "flying":
            planes[pid] = plane.model_copy(update={"status": "done"})
        run, turn = state.run + 1, 1
        if work.hits >= 2 or run >= len(state.roster):
            finished = True
            for waiting in state.roster[run:]:
                # DB 8.e: once the dam is gone the others keep their bombs.
                planes[waiting] = planes[waiting].model_copy(
                    update={"bomb": planes[waiting].bomb.model_copy(update={"stage": "kept"})}
                )
            run = min(run, len(state.roster) - 1)
            if work.escort is not None and planes[work.escort].status == "flying":
                planes[work.escort] = planes[work.escort].model_copy(update={"status": "done"})
            work.event("mission-over", dam_hits=work.hits)
        else:
            planes[state.roster[run]] = planes[state.roster[run]].model_copy(
                update={"status": "flying"}
            )
            work.event("run-started", plane=state.roster[run])
    new = state.model_copy(
        update={
            "planes": planes,
            "guns": work.guns,
            "hits": work.hits,
            "target": work.target,
            "run": run,
            "turn": turn,
            "finished": finished,
            "escort": (
                work.escort
                if not finished and work.escort and planes[work.escort].status == "flying"
                else None
            ),
        }
    )
    return new, work.events


# --- results --------------------------------------------------------------------------------


def result(state: DamState) -> dict[str, object]:
    """DB 8.d (Eder ladder) and 8.e (Möhne VP ladder); the industrial raid's own."""
    if state.target is not None:
        plane = state.planes[state.roster[0]]
        return industrial.result(state.target, plane.status == "shot_down", plane.damage)
    if state.kind == "eder":
        destroyed_by = None
        hits = 0
        for index, reg in enumerate(state.roster):
            if state.planes[reg].bomb.outcome == "hit":
                hits += 1
                if hits == 2:
                    destroyed_by = index
        if len(state.roster) == 1:
            level = "victory" if hits else "defeat"  # DB 8.d short scenario: the dam hit
        elif hits >= 2:
            level = "decisive" if destroyed_by is not None and destroyed_by <= 1 else "partial"
        else:
            level = "minor" if hits == 1 else "defeat"
        return {"dam_hits": state.hits, "result": level}
    vp = 25 if state.hits >= 2 else 10 if state.hits == 1 else 0
    lines: list[tuple[str, str, int]] = [("dam", "", vp)]  # (what, registration, VP)
    for reg in state.roster:
        plane = state.planes[reg]
        if plane.bomb.stage == "kept":
            lines.append(("kept", reg, 4))
        if plane.status == "shot_down":
            lines.append(("shot_down", reg, -12))
        elif plane.damage >= 20:
            lines.append(("damaged", reg, -5))
    total = sum(value for _, _, value in lines)
    if total >= 20:
        level = "decisive"
    elif total >= 11:
        level = "partial"
    elif total >= 1:
        level = "minor"
    else:
        level = "defeat"
    return {"dam_hits": state.hits, "vp": total, "lines": lines, "result": level}
