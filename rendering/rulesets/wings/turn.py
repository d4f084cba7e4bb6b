"""A Wings of War turn flown, as the channel shows it (issue 27, part 3): every plane's path
over the three maneuvers with numbered step marks, the fire lines (solid at short range,
dashed at long), the planes hit, smoking, on fire and down; as a still picture and as an
animation Discord plays inline.

Drawn from the public view after the turn and the turn's public events alone: each move
(its card, where it began and ended, its level) and each shot (who, at whom, at what range,
how many damage cards). Damage values never reach here: the cards drawn are counted, face
down, as at the table.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from rendering.i18n import t
from rendering.rulesets.wings.flight import Pose, card_path, dashed, fit_box, mark_spot, step_mark
from rendering.rulesets.wings.map import SIDE_INK, At, arrow, plane_label, shown_table, table_map
from rendering.style import font

FIRE = (200, 30, 30)
HIT = (230, 150, 0)
SMOKE = (120, 120, 120)
FLAME = (235, 110, 0)
PAPER = (246, 242, 232)
INK = (30, 30, 30)
START = {"entente": (160, 186, 220), "central": (196, 170, 140)}  # where the turn began
MARKS = ("smoke", "fire", "explosion")  # the specials everyone sees (seed A.II.b)
DOWN = ("shot-down", "exploded", "crashed")
GIF_WIDTH = 640
MOVE_FRAMES = 4  # frames along each maneuver
MOVE_MS, HOLD_MS, LAST_MS = 110, 900, 3000


@dataclass(frozen=True)
class Step:
    """One plane's maneuver: its card, where it began and ended, its level before and after."""

    phase: int
    card: str
    start: Pose
    end: Pose
    level: int
    level_before: int


@dataclass(frozen=True)
class Shot:
    phase: int
    shooter: str
    target: str  # a plane, or a balloon (``balloon``)
    short: bool
    cards: int
    balloon: bool = False


@dataclass
class Flown:
    """What the turn's public events say was flown, shot and suffered, maneuver by maneuver."""

    steps: dict[str, list[Step]] = field(default_factory=dict)
    shots: list[Shot] = field(default_factory=list)
    marks: list[tuple[int, str, str]] = field(default_factory=list)  # phase, plane, what
    turn: int | None = None  # the mission's turn flown

    def pose(self, pid: str, phase: int) -> Pose | None:
        """Where a plane stood once maneuver ``phase`` was flown (its last known pose)."""
        known = [s for s in self.steps.get(pid, ()) if s.phase <= phase]
        if known:
            return known[-1].end
        later = self.steps.get(pid)
        return later[0].start if later else None

    def cards(self, pid: str) -> tuple[str, ...]:
        return tuple(step.card for step in self.steps.get(pid, ()))


def flown(events: Sequence[tuple[str, Mapping[str, Any]]]) -> Flown:
    """The turn as drawn: moves, shots and public marks from its public events (a turn
    logged before the moves told where they began has no moves, so no picture)."""
    result = Flown()
    for kind, data in events:
        phase = int(data.get("phase") or 0)
        if result.turn is None and "mission_turn" in data:
            result.turn = int(data["mission_turn"])
        if kind == "moved" and "start" in data and phase:
            start = tuple(float(v) for v in data["start"])
            result.steps.setdefault(str(data["plane"]), []).append(
                Step(
                    phase=phase,
                    card=str(data.get("card", "")),
                    start=(start[0], start[1], start[2]),
                    end=(float(data["x"]), float(data["y"]), float(data["heading"])),
                    level=int(data.get("level", 0)),
                    level_before=int(data.get("level_before", data.get("level", 0))),
                )
            )
        elif kind == "fire":
            short = data.get("range") == "short"
            shot = Shot(phase, str(data["shooter"]), str(data["target"]), short, int(data["cards"]))
            result.shots.append(shot)
        elif kind == "fire-at-balloon":
            shot = Shot(phase, str(data["shooter"]), str(data["target"]), False, 0, balloon=True)
            result.shots.append(shot)
        elif kind == "special" and data.get("special") in MARKS:
            result.marks.append((phase, str(data["plane"]), str(data["special"])))
        elif kind == "flames":
            result.marks.append((max(phase, 1), str(data["plane"]), "fire"))
        elif kind in DOWN and "plane" in data:
            result.marks.append((max(phase, 1), str(data["plane"]), kind))
    return result


def turn_box(mission: Mapping[str, Any], turn: Flown) -> tuple[float, float, float, float] | None:
    """The part of the table the turn was flown over, with a margin."""
    points = [
        (x, y)
        for steps in turn.steps.values()
        for step in steps
        for x, y, _h in (step.start, step.end)
    ]
    return fit_box(points, 2.5, mission["table"])


class TurnPainter:
    """Draws a turn's paths, marks and shots onto a table picture."""

    def __init__(
        self,
        mission: Mapping[str, Any],
        flight: Mapping[str, Any],
        turn: Flown,
        slots: Mapping[str, str] | None = None,
        locale: str = "en",
    ) -> None:
        self.mission = mission
        self.flight = flight
        self.turn = turn
        self.slots = slots or {}
        self.locale = locale

    def label(self, pid: str) -> str:
        """The plane's mark on the table, as the boards write it ("E1")."""
        slot = self.slots.get(pid, pid).removeprefix("plane")
        initial = t(f"wings.map.initial.{self.side(pid)}", self.locale)
        return f"{initial}{slot}"

    def side(self, pid: str) -> str:
        plane = (self.mission.get("planes") or {}).get(pid) or {}
        return str(plane.get("side", "entente"))

    def path(self, pid: str, step: Step) -> list[Pose]:
        """The card's shape from the step's start, ending exactly where the plane ended."""
        plane = (self.mission.get("planes") or {}).get(pid) or {}
        kind = (self.flight.get("types") or {}).get(plane.get("type", ""), {})
        samples = (kind.get("cards") or {}).get(step.card)
        if not samples:
            return [step.start, step.end]
        poses = card_path(step.start, samples)
        poses[-1] = step.end
        return poses

    def trail(self, draw: ImageDraw.ImageDraw, at: At, scale: float, until: float = 3.0) -> None:
        """Each plane's path up to ``until`` (maneuvers flown, fractions included), a pale
        arrow where the turn began."""
        for pid, steps in sorted(self.turn.steps.items()):
            side = self.side(pid)
            first = steps[0].start
            arrow(draw, at(first[0], first[1]), first[2], scale, PAPER, START[side], 3)
            points: list[tuple[float, float]] = []
            for step in steps:
                if step.phase - 1 >= until:
                    break
                poses = self.path(pid, step)
                share = min(1.0, until - (step.phase - 1))
                count = max(1, round(share * (len(poses) - 1)))
                points += [at(x, y) for x, y, _h in poses[: count + 1]]
            if len(points) > 1:
                draw.line(points, fill=SIDE_INK.get(side, INK), width=4, joint="curve")

    def marks(self, draw: ImageDraw.ImageDraw, at: At, scale: float, until: int = 3) -> None:
        """The numbered step marks, with the level where it changed."""
        for pid, steps in sorted(self.turn.steps.items()):
            colour = SIDE_INK.get(self.side(pid), INK)
            for step in steps:
                if step.phase > until:
                    continue
                note = ""
                if step.level > step.level_before:
                    note = f"↑{step.level}"
                elif step.level < step.level_before:
                    note = f"↓{step.level}"
                step_mark(draw, mark_spot(step.end, at, scale), step.phase, colour, note)

    def shots(self, draw: ImageDraw.ImageDraw, at: At, scale: float, phases: Sequence[int]) -> None:
        """Fire lines of the given maneuvers, shooter to target, and the hits."""
        hits: dict[tuple[int, str], int] = {}
        for shot in self.turn.shots:
            if shot.phase not in phases:
                continue
            source = self.turn.pose(shot.shooter, shot.phase)
            if shot.balloon:
                site = (self.mission.get("objectives") or {}).get(shot.target)
                target = (float(site["x"]), float(site["y"]), 0.0) if site else None
            else:
                target = self.turn.pose(shot.target, shot.phase)
            if source is None or target is None:
                continue
            a, b = at(source[0], source[1]), at(target[0], target[1])
            if shot.short:
                draw.line((a, b), fill=FIRE, width=5)
            else:
                dashed(draw, [a, b], FIRE, 4, dash=14.0, gap=9.0)
            _arrowhead(draw, a, b, FIRE)
            if not shot.balloon:
                key = (shot.phase, shot.target)
                hits[key] = hits.get(key, 0) + shot.cards
        for (phase, victim), cards in sorted(hits.items()):
            pose = self.turn.pose(victim, phase)
            if pose is not None:
                _burst(draw, at(pose[0], pose[1]), scale, cards)

    def specials(self, draw: ImageDraw.ImageDraw, at: At, scale: float, until: int = 3) -> None:
        """Smoke, fire and a fall where they happened."""
        for phase, pid, what in self.turn.marks:
            if phase > until:
                continue
            pose = self.turn.pose(pid, phase)
            if pose is None:
                continue
            centre = at(pose[0], pose[1])
            if what == "smoke":
                _puffs(draw, centre, scale, SMOKE)
            elif what == "fire":
                _flame(draw, centre, scale)
            elif what == "explosion" or what in DOWN:
                _down(draw, centre, scale)


def still(
    mission: Mapping[str, Any],
    slots: Mapping[str, str],
    flight: Mapping[str, Any],
    turn: Flown,
    width: int,
    locale: str,
) -> Image.Image:
    """The whole turn on one picture: paths, step marks, every shot and mark."""
    painter = TurnPainter(mission, flight, turn, slots, locale)

    def draw_turn(image: Image.Image, draw: ImageDraw.ImageDraw, scale: float, at: At) -> None:
        painter.trail(draw, at, scale)
        painter.shots(draw, at, scale, (1, 2, 3))
        painter.specials(draw, at, scale)
        painter.marks(draw, at, scale)

    box = turn_box(mission, turn)
    return table_map(mission, slots, width, locale, box=box, overlay=draw_turn)


def animation(
    mission: Mapping[str, Any],
    slots: Mapping[str, str],
    flight: Mapping[str, Any],
    turn: Flown,
    locale: str,
    width: int = GIF_WIDTH,
) -> bytes:
    """The turn flown maneuver by maneuver (an animated GIF): the planes move along their
    cards, then each maneuver's shots show; the last frame is the whole turn, held."""
    box = turn_box(mission, turn)
    painter = TurnPainter(mission, flight, turn, slots, locale)
    holder: dict[str, Any] = {}

    def keep(image: Image.Image, draw: ImageDraw.ImageDraw, scale: float, at: At) -> None:
        holder.update(scale=scale, at=at)

    background = table_map(mission, slots, width, locale, box=box, overlay=keep, planes=False)
    scale, at = holder["scale"], holder["at"]
    frames: list[Image.Image] = []
    durations: list[int] = []
    for phase in (1, 2, 3):
        for k in range(1, MOVE_FRAMES + 1):
            t = phase - 1 + k / MOVE_FRAMES
            frame = background.copy()
            draw = ImageDraw.Draw(frame)
            painter.trail(draw, at, scale, until=t)
            painter.specials(draw, at, scale, until=phase - 1)
            painter.marks(draw, at, scale, until=phase - 1 if k < MOVE_FRAMES else phase)
            _planes_at(draw, at, scale, painter, t)
            if k == MOVE_FRAMES:
                painter.shots(draw, at, scale, (phase,))
                painter.specials(draw, at, scale, until=phase)
            frames.append(frame)
            durations.append(HOLD_MS if k == MOVE_FRAMES else MOVE_MS)
    last = still(mission, slots, flight, turn, width, locale)
    frames.append(last)
    durations.append(LAST_MS)
    palette = last.quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    paletted = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out = io.BytesIO()
    paletted[0].save(
        out, format="GIF", save_all=True, append_images=paletted[1:], duration=durations,
        loop=0, disposal=1, optimize=False,
    )  # fmt: skip
    return out.getvalue()


def _planes_at(
    draw: ImageDraw.ImageDraw, at: At, scale: float, painter: TurnPainter, t: float
) -> None:
    """Each plane where it is at time ``t`` (maneuvers, fractions included), with its label."""
    fnt = font(20, "bold")
    frame = shown_table(at, painter.mission, draw.im.size)
    for pid, steps in sorted(painter.turn.steps.items()):
        pose: Pose | None = None
        for step in steps:
            if step.phase - 1 < t:
                poses = painter.path(pid, step)
                share = min(1.0, t - (step.phase - 1))
                pose = poses[max(0, min(len(poses) - 1, round(share * (len(poses) - 1))))]
        if pose is None:
            pose = steps[0].start
        side = painter.side(pid)
        colour = SIDE_INK.get(side, INK)
        centre = at(pose[0], pose[1])
        arrow(draw, centre, pose[2], scale, colour)
        plane_label(draw, centre, painter.label(pid), colour, fnt, 0.75 * scale, frame)


def _arrowhead(
    draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Any
) -> None:
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    size = 16
    left = (b[0] - size * math.cos(angle - 0.4), b[1] - size * math.sin(angle - 0.4))
    right = (b[0] - size * math.cos(angle + 0.4), b[1] - size * math.sin(angle + 0.4))
    draw.polygon([b, left, right], fill=colour)


def _burst(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], scale: float, cards: int
) -> None:
    """A hit: an amber star with the damage cards drawn, face down."""
    cx, cy = centre
    r, inner = 0.55 * scale, 0.25 * scale
    points = []
    for i in range(16):
        radius = r if i % 2 == 0 else inner
        angle = math.pi * i / 8
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=HIT, outline=INK)
    if cards:
        draw.text(
            (cx - r - 2, cy), str(cards), font=font(22, "bold"), fill=INK,
            anchor="rm", stroke_width=3, stroke_fill=PAPER,
        )  # fmt: skip


def _puffs(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], scale: float, colour: Any
) -> None:
    cx, cy = centre
    r = 0.22 * scale
    for dx, dy in ((-0.5, -0.6), (-0.9, -0.2), (-1.2, -0.8)):
        x, y = cx + dx * scale * 0.6, cy + dy * scale * 0.6
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def _flame(draw: ImageDraw.ImageDraw, centre: tuple[float, float], scale: float) -> None:
    cx, cy = centre
    h, w = 0.7 * scale, 0.3 * scale
    base = cy - 0.35 * scale
    draw.polygon([(cx - w, base), (cx, base - h), (cx + w, base)], fill=FLAME, outline=INK)


def _down(draw: ImageDraw.ImageDraw, centre: tuple[float, float], scale: float) -> None:
    cx, cy = centre
    r = 0.45 * scale
    draw.line((cx - r, cy - r, cx + r, cy + r), fill=INK, width=6)
    draw.line((cx - r, cy + r, cx + r, cy - r), fill=INK, width=6)
