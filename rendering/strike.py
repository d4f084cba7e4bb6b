"""The strike report: one strike from Target-Bound to Home-Bound, readable without the rules.

Top to bottom:

- who struck what, in which slot of the turn;
- the phases flown (Target-Bound, the three Over-Target turns, Home-Bound; skipped ones pale);
- where every aircraft ended, by altitude band (VH at the top): the strike on the left, the
  defending CAP on the right. Each aircraft is a chip: its side's pattern and marker, type,
  role (L leader, W wingman, F formation, R recon; numbered when a type flies in several
  elements), damage pips, and icons for its state, ordnance and disengagement. A Leader
  and its Wingman are joined by a bar;
- the damage on the target and each side's losses in icons;
- bombing runs (left) with the cards drawn, cancelled ones struck through, and the results
  applied; flak (right) per aircraft and phase, answered cards struck through;
- air combat summed per attacker and defender (the log keeps every card);
- a legend.

Long reports are cut with "... and n more in the log" so the image stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.catalog import ActionCard
from engine.report import AircraftOutcome, BombRun, Exchange, FlakShot, StrikeReport
from engine.types import AircraftState, Band, BombMode, BombResult, Ordnance, Side
from rendering.card import card_size, paste_card, paste_unknown_card
from rendering.style import (
    BAND_GUTTER,
    BANDS_TOP_DOWN,
    CARD_BG,
    FAINT,
    INK,
    MARGIN,
    MUTED,
    RESULT_COLOURS,
    RULE,
    WIDTH,
    Icon,
    LegendMark,
    band_rows,
    canvas,
    draw_icon,
    draw_marker,
    draw_text,
    fill_side,
    fit_font,
    font,
    header,
    legend,
    legend_height,
    result_pips,
    section_title,
    side_style,
    text_width,
    to_png,
)
from rendering.text import band_short, place_label, result_name, side_name, tr

INNER = WIDTH - 2 * MARGIN
CHIP_W, CHIP_H = 178, 40
CHIP_GAP = 8
LINE_H = CHIP_H + 8
EMPTY_BAND = 30
STRIKE_COLUMN = 640  # the strike's part of the band grid; the CAP gets the rest
COLUMN_WIDTH = 565  # bombing on the left, flak on the right
BOMB_ROW = 100
CARD_LINE = 44
DUEL_ROW = 32
MAX_BOMB_ROWS = 4
MIN_FLAK_ROWS = 3
MIN_FLAK_HEIGHT = 420  # flak may use this much even beside a short bombing column
MAX_DUELS = 8
PHASES = ("target-bound", "ingress", "bomb", "egress", "home-bound")
ROLES = ("leader", "wingman", "formation")
PIP = (180, 30, 30)


@dataclass(frozen=True)
class Ctx:
    """What every part of the report needs: the aircraft by uid, their labels, card faces."""

    by_uid: Mapping[str, AircraftOutcome]
    labels: Mapping[str, str]
    cards: Mapping[int, ActionCard]
    locale: str

    def label(self, uid: str) -> str:
        return self.labels.get(uid, uid)


def aircraft_labels(aircraft: Sequence[AircraftOutcome], locale: str) -> dict[str, str]:
    """ "B5N2 L", or "A6M2 L2" when the strike has several A6M2 elements."""
    elements: dict[tuple[Side, str], list[str]] = {}
    for item in aircraft:
        seen = elements.setdefault((item.side, item.aircraft), [])
        if item.element not in seen:
            seen.append(item.element)
    labels: dict[str, str] = {}
    members: dict[str, int] = {}
    for item in aircraft:
        role = tr(f"role.{item.role}", locale)
        siblings = elements[(item.side, item.aircraft)]
        number = f"{siblings.index(item.element) + 1}" if len(siblings) > 1 else ""
        if item.role in ("formation", "recon"):
            members[item.element] = members.get(item.element, 0) + 1
            number = f"{number}.{members[item.element]}" if number else f"{members[item.element]}"
        labels[item.uid] = f"{item.aircraft} {role}{number}".strip()
    return labels


# --- aircraft ------------------------------------------------------------------------------


def state_icons(aircraft: AircraftOutcome) -> list[Icon]:
    icons: list[Icon] = []
    if aircraft.lost_on_recovery:
        icons.append("lost")
    elif aircraft.state is AircraftState.DESTROYED:
        icons.append("destroyed")
    elif aircraft.state is AircraftState.DAMAGED:
        icons.append("damaged")
    if aircraft.disengaged:
        icons.append("disengaged")
    if aircraft.ordnance is Ordnance.BOMB:
        icons.append("bomb")
    elif aircraft.ordnance is Ordnance.TORPEDO:
        icons.append("torpedo")
    return icons


def draw_chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    aircraft: AircraftOutcome,
    ctx: Ctx,
) -> None:
    """An aircraft: side band with marker, type and role, icons, damage pips."""
    x, y = xy
    style = side_style(aircraft.side)
    gone = aircraft.state is AircraftState.DESTROYED or aircraft.lost_on_recovery
    fill = (228, 226, 222) if gone else CARD_BG
    draw.rounded_rectangle(
        (x, y, x + CHIP_W, y + CHIP_H), radius=6, fill=fill, outline=style.dark, width=2
    )
    fill_side(image, (x + 2, y + 2, x + 26, y + CHIP_H - 2), aircraft.side)
    draw_marker(draw, (x + 14, y + CHIP_H // 2), 16, aircraft.side)
    right = x + CHIP_W - 4
    for icon in state_icons(aircraft):
        size = 18 if icon in ("bomb", "torpedo") else 20
        draw_icon(draw, icon, (right - 10, y + CHIP_H // 2 - 2), size)
        right -= 23
    label = ctx.label(aircraft.uid)
    space = right - (x + 32)
    label_font = fit_font(label, space, (20, 18), "cond-bold")
    draw_text(
        draw, (x + 32, y + CHIP_H // 2 - 3), label, label_font, MUTED if gone else INK, "lm", space
    )
    for pip in range(min(aircraft.damage, 8)):
        px = x + 32 + pip * 9
        draw.rectangle((px, y + CHIP_H - 8, px + 6, y + CHIP_H - 4), fill=PIP)


def mini_aircraft(
    draw: ImageDraw.ImageDraw, xy: tuple[int, int], uid: str, max_width: int, ctx: Ctx
) -> int:
    """A one-line mention: side marker and "B5N2 L"; returns the width used."""
    x, y = xy
    aircraft = ctx.by_uid.get(uid)
    if aircraft is None:
        return draw_text(draw, (x, y), uid, font(18, "cond"), MUTED, "lm", max_width)
    draw_marker(draw, (x + 8, y), 14, aircraft.side)
    return 20 + draw_text(
        draw, (x + 20, y), ctx.label(uid), font(20, "cond-bold"), INK, "lm", max_width - 20
    )


def mini_width(uid: str, ctx: Ctx, max_width: int = 130) -> int:
    if uid not in ctx.by_uid:
        return min(max_width, text_width(uid, font(18, "cond")))
    return 20 + min(max_width - 20, text_width(ctx.label(uid), font(20, "cond-bold")))


# --- phases ribbon -------------------------------------------------------------------------


def _ribbon(draw: ImageDraw.ImageDraw, y: int, report: StrikeReport, locale: str) -> int:
    skipped = {note.partition(":")[2] for note in report.notes if note.startswith("phase-skipped")}
    segments: list[tuple[str, bool]] = []
    if report.kind == "scout":
        segments = [(tr("strike.phase.scout", locale), False)]
    elif report.kind == "dogfight":
        # A land dogfight (24.47): n turns in open sky, no target, no phases.
        segments = [(f"{tr('strike.phase.dogfight', locale)} ×{report.target_bound}", False)]
    else:
        tb_off = report.target_bound <= 0 or "tb" in skipped
        target_bound = tr("strike.phase.target-bound", locale)
        segments.append(
            (target_bound if tb_off else f"{target_bound} ×{report.target_bound}", tb_off)
        )
        for phase in ("ingress", "bomb", "egress"):
            segments.append((tr(f"strike.phase.{phase}", locale), report.hidden))
        hb_off = report.home_bound <= 0 or "hb" in skipped
        home_bound = tr("strike.phase.home-bound", locale)
        segments.append((home_bound if hb_off else f"{home_bound} ×{report.home_bound}", hb_off))
    width = INNER / len(segments)
    tip = 14
    for index, (text, off) in enumerate(segments):
        x0 = MARGIN + index * width
        x1 = x0 + width - 4
        over_target = report.kind != "scout" and 1 <= index <= 3
        fill = (255, 255, 255) if off else (226, 232, 240) if over_target else (236, 232, 222)
        points = [(x0, y), (x1 - tip, y), (x1, y + 19), (x1 - tip, y + 38), (x0, y + 38)]
        if index:
            points.append((x0 + tip, y + 19))
        draw.polygon(points, fill=fill, outline=FAINT if off else MUTED)
        label = text if not off else f"{text} — {tr('strike.skipped', locale)}"
        space = int(width - 2 * tip - 8)
        centre_x = x0 + (width + (tip if index else 0)) / 2 - 2
        label_font = fit_font(label, space, (20, 18), "bold")
        draw_text(draw, (centre_x, y + 19), label, label_font, FAINT if off else INK, "mm", space)
    if report.kind in ("scout", "dogfight"):
        return 48
    left = MARGIN + width + tip
    right = MARGIN + 4 * width - tip
    draw.line((left, y + 44, right, y + 44), fill=MUTED, width=2)
    draw.line((left, y + 40, left, y + 44), fill=MUTED, width=2)
    draw.line((right, y + 40, right, y + 44), fill=MUTED, width=2)
    text = tr("strike.over_target", locale)
    draw.rectangle(
        (
            (left + right) / 2 - text_width(text, font(18, "bold")) / 2 - 8,
            y + 40,
            (left + right) / 2 + text_width(text, font(18, "bold")) / 2 + 8,
            y + 48,
        ),
        fill=(246, 243, 235),
    )
    draw_text(draw, ((left + right) / 2, y + 44), text, font(18, "bold"), MUTED, "mm")
    return 60


# --- the band grid -------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    rows: dict[Band, tuple[list[list[AircraftOutcome]], list[list[AircraftOutcome]]]]
    heights: dict[Band, int]

    @property
    def height(self) -> int:
        return sum(self.heights.values())


def _lines(aircraft: Sequence[AircraftOutcome], width: int) -> list[list[AircraftOutcome]]:
    per_line = max(1, (width - 10) // (CHIP_W + CHIP_GAP))
    return [list(aircraft[index : index + per_line]) for index in range(0, len(aircraft), per_line)]


def plan_grid(report: StrikeReport) -> Grid:
    cap_width = INNER - BAND_GUTTER - STRIKE_COLUMN
    rows: dict[Band, tuple[list[list[AircraftOutcome]], list[list[AircraftOutcome]]]] = {}
    heights: dict[Band, int] = {}
    for band in BANDS_TOP_DOWN:
        strike = [item for item in report.aircraft if item.band is band and item.group != "cap"]
        cap = [item for item in report.aircraft if item.band is band and item.group == "cap"]
        left, right = _lines(strike, STRIKE_COLUMN), _lines(cap, cap_width)
        rows[band] = (left, right)
        lines = max(len(left), len(right))
        heights[band] = lines * LINE_H + 6 if lines else EMPTY_BAND
    return Grid(rows, heights)


def _band_grid(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    y: int,
    report: StrikeReport,
    grid: Grid,
    ctx: Ctx,
) -> int:
    locale = ctx.locale
    defender = report.attacker.enemy
    strike_x = MARGIN + BAND_GUTTER
    cap_x = strike_x + STRIKE_COLUMN
    column = "strike.column_scout" if report.kind == "scout" else "strike.column_strike"
    heads = (
        (
            strike_x,
            report.attacker,
            tr(column, locale, side=side_name(report.attacker, locale)),
        ),
        (cap_x, defender, tr("strike.column_cap", locale, side=side_name(defender, locale))),
    )
    for x, side, text in heads:
        draw_marker(draw, (x + 12, y + 13), 16, side)
        draw_text(
            draw,
            (x + 26, y + 13),
            text,
            font(20, "bold"),
            side_style(side).dark,
            "lm",
            STRIKE_COLUMN - 40,
        )
    y += 30
    labels = {band: band_short(band, locale) for band in BANDS_TOP_DOWN}
    spans = band_rows(draw, (MARGIN, y, WIDTH - MARGIN, y + grid.height), grid.heights, labels)
    draw.line((cap_x - 4, y, cap_x - 4, y + grid.height), fill=MUTED, width=2)
    for band in BANDS_TOP_DOWN:
        top, _ = spans[band]
        left, right = grid.rows[band]
        for x0, lines in ((strike_x + 8, left), (cap_x + 6, right)):
            for line_no, line in enumerate(lines):
                for index, aircraft in enumerate(line):
                    cx = x0 + index * (CHIP_W + CHIP_GAP)
                    cy = top + 7 + line_no * LINE_H
                    if index and line[index - 1].element == aircraft.element:
                        bar = (cx - CHIP_GAP - 1, cy + CHIP_H // 2, cx + 1, cy + CHIP_H // 2)
                        draw.line(bar, fill=side_style(aircraft.side).dark, width=4)
                    draw_chip(image, draw, (cx, cy), aircraft, ctx)
    if not report.aircraft:
        draw_text(
            draw,
            (strike_x + 10, y + grid.height // 2),
            tr("strike.no_aircraft", locale),
            font(20),
            MUTED,
            "lm",
        )
    return 30 + grid.height


# --- outcome line --------------------------------------------------------------------------


def loss_counts(report: StrikeReport, side: Side) -> list[tuple[Icon, int]]:
    own = [item for item in report.aircraft if item.side is side]
    return [
        (
            "destroyed",
            sum(1 for a in own if a.state is AircraftState.DESTROYED and not a.lost_on_recovery),
        ),
        ("lost", sum(1 for a in own if a.lost_on_recovery)),
        (
            "damaged",
            sum(1 for a in own if a.state is AircraftState.DAMAGED and not a.lost_on_recovery),
        ),
        ("disengaged", sum(1 for a in own if a.disengaged)),
    ]


def _outcome(
    draw: ImageDraw.ImageDraw,
    y: int,
    report: StrikeReport,
    place_names: Mapping[str, str],
    locale: str,
) -> int:
    """The damage done to the target, then each side's losses as icons and counts."""
    target = place_names.get(report.target) or place_label(report.target, locale)
    if report.kind == "scout":
        headline = tr(
            "strike.scout_success" if report.scout_success else "strike.scout_failed", locale
        )
    elif report.kind == "dogfight":
        headline = tr("strike.open_sky", locale, target=target)
    elif report.hidden:
        headline = tr("strike.not_found", locale, target=target)
    else:
        # French counts 0 in the singular, English in the plural: each says it its way.
        key = {0: "strike.points_zero", 1: "strike.points_one"}.get(
            report.target_points, "strike.points"
        )
        headline = tr(key, locale, n=report.target_points, target=target)
    draw.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + 52), radius=8, fill=CARD_BG, outline=RULE, width=2
    )
    # The losses are laid out from the right edge; the headline gets what is left.
    blocks: list[tuple[Side, list[tuple[Icon, int]]]] = [
        (side, loss_counts(report, side))
        for side in (report.attacker, report.attacker.enemy)
        if any(item.side is side for item in report.aircraft)
    ]
    count_font = font(20, "bold")

    def block_width(counts: list[tuple[Icon, int]]) -> int:
        shown = [(icon, count) for icon, count in counts if count]
        if not shown:
            return 24 + text_width(tr("strike.no_losses", locale), font(18)) + 12
        return 24 + sum(24 + text_width(f"×{count}", count_font) + 12 for _, count in shown)

    losses_width = sum(block_width(counts) + 18 for _, counts in blocks)
    space = WIDTH - 2 * MARGIN - 28 - losses_width - 16
    head_font = fit_font(headline, space, (24, 22, 20, 18), "bold")
    draw_text(draw, (MARGIN + 14, y + 26), headline, head_font, INK, "lm", space)
    x = WIDTH - MARGIN - 14 - losses_width + 18
    for side, counts in blocks:
        draw_marker(draw, (x + 9, y + 26), 18, side)
        x += 24
        for icon, count in counts:
            if count:
                draw_icon(draw, icon, (x + 11, y + 26), 20)
                x += 24 + draw_text(draw, (x + 24, y + 26), f"×{count}", count_font, INK, "lm") + 12
        if all(count == 0 for _, count in counts):
            x += (
                draw_text(draw, (x, y + 26), tr("strike.no_losses", locale), font(18), MUTED, "lm")
                + 12
            )
        x += 18
    return 60


# --- bombing -------------------------------------------------------------------------------


def _bomb_run(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    run: BombRun,
    ctx: Ctx,
) -> None:
    """One run: who, how and where; the results applied and the points; then the cards."""
    locale = ctx.locale
    centre = y + 13
    used = mini_aircraft(draw, (x, centre), run.uid, 140, ctx)
    mode_key = run.mode.value if isinstance(run.mode, BombMode) else run.mode
    mode = f"{tr(f'strike.mode.{mode_key}', locale)} · {band_short(run.band, locale)}"
    points = tr("strike.run_points", locale, n=run.points)
    points_width = draw_text(draw, (x + width, centre), points, font(22, "bold"), INK, "rm")
    words = [
        (result, result_name(result, locale)) for result in (list(run.results) or [BombResult.MISS])
    ]
    word_font = font(20, "bold")
    results_width = sum(text_width(word, word_font) + 40 for _, word in words)
    free = width - used - points_width - 24
    mode_space = max(40, free - min(results_width, free // 2))
    mode_width = draw_text(
        draw, (x + used + 8, centre), mode, font(18, "cond"), MUTED, "lm", mode_space
    )
    rx = x + used + 8 + mode_width + 14
    limit = x + width - points_width - 12
    for result, word in words:
        if rx + 30 > limit:
            break
        pips = result_pips(draw, result, rx, centre, 9)
        if rx + pips + 5 + text_width(word, word_font) <= limit:
            colour = RESULT_COLOURS[result] if result else MUTED
            draw.text((rx + pips + 5, centre), word, font=word_font, fill=colour, anchor="lm")
            rx += pips + 5 + text_width(word, word_font) + 12
        else:
            rx += pips + 10
    cx = x
    card_width = card_size("full")[0]
    for index, card_id in enumerate(run.cards):
        if cx + card_width > x + width:
            draw_text(
                draw, (cx, y + 61), f"+{len(run.cards) - index}", font(20, "bold"), MUTED, "lm"
            )
            break
        card = ctx.cards.get(card_id)
        if card is None:
            paste_unknown_card(image, card_id, (cx, y + 28), "full")
        else:
            paste_card(image, card, (cx, y + 28), locale=locale, struck=card_id in run.cancelled)
        cx += card_width + 6


# --- flak ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlakRow:
    """Flak of one kind against one aircraft in one phase, every shot merged."""

    phase: str
    kind: str
    against: str
    shots: tuple[FlakShot, ...]


def flak_rows(shots: Sequence[FlakShot]) -> list[FlakRow]:
    rows: list[FlakRow] = []
    index: dict[tuple[str, str, str], int] = {}
    for shot in shots:
        key = (shot.phase, shot.kind, shot.against)
        if key in index:
            row = rows[index[key]]
            rows[index[key]] = FlakRow(row.phase, row.kind, row.against, (*row.shots, shot))
        else:
            index[key] = len(rows)
            rows.append(FlakRow(shot.phase, shot.kind, shot.against, (shot,)))
    rows.sort(
        key=lambda row: (PHASES.index(row.phase) if row.phase in PHASES else len(PHASES), row.kind)
    )
    return rows


@dataclass(frozen=True)
class Entry:
    """A flak card: struck when answered; or the answer itself, drawn after a ↩."""

    card: int
    struck: bool = False
    answer: bool = False


@dataclass(frozen=True)
class FlakPlan:
    row: FlakRow
    who_width: int
    lines: list[list[Entry]]
    text: str
    quiet: bool  # nothing happened: the result is drawn muted

    @property
    def height(self) -> int:
        return max(1, len(self.lines)) * CARD_LINE + 4


def _entry_width(entry: Entry, cards: Mapping[int, ActionCard]) -> int:
    return card_size("line", 1.0, cards.get(entry.card))[0] + (26 if entry.answer else 0)


def _wrap_entries(
    entries: Sequence[Entry], cards: Mapping[int, ActionCard], max_width: int
) -> list[list[Entry]]:
    lines: list[list[Entry]] = [[]]
    used = 0
    for entry in entries:
        width = _entry_width(entry, cards)
        if lines[-1] and used + width > max_width:
            lines.append([])
            used = 0
        lines[-1].append(entry)
        used += width + 6
    return lines


def _plan_flak(row: FlakRow, width: int, ctx: Ctx) -> FlakPlan:
    who = mini_width(row.against, ctx)
    entries: list[Entry] = []
    damage = spoils = 0
    for shot in row.shots:
        entries.extend(Entry(card, struck=card == shot.answered) for card in shot.cards)
        if shot.answer_card is not None:
            entries.append(Entry(shot.answer_card, answer=True))
        damage += shot.damage
        spoils += shot.spoils
    parts: list[str] = []
    if damage:
        parts.append(tr("strike.dmg", ctx.locale, n=damage))
    if spoils:
        parts.append(tr("strike.spoils", ctx.locale, n=spoils))
    text = " · ".join(parts) if parts else tr("strike.no_damage", ctx.locale)
    result_width = min(text_width(text, font(20, "bold")), 170) + 10
    room = max(60, width - who - 10 - result_width)
    return FlakPlan(row, who, _wrap_entries(entries, ctx.cards, room), text, not parts)


def _draw_flak(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    plan: FlakPlan,
    ctx: Ctx,
) -> None:
    centre = y + CARD_LINE // 2
    mini_aircraft(draw, (x, centre), plan.row.against, 130, ctx)
    for line_no, line in enumerate(plan.lines):
        cx, cy = x + plan.who_width + 10, y + 3 + line_no * CARD_LINE
        for entry in line:
            if entry.answer:
                draw_text(draw, (cx + 2, cy + 19), "↩", font(22, "bold"), INK, "lm")
                cx += 26
            card = ctx.cards.get(entry.card)
            if card is None:
                tile_width = paste_unknown_card(image, entry.card, (cx, cy))
            else:
                tile_width = paste_card(
                    image, card, (cx, cy), locale=ctx.locale, variant="line", struck=entry.struck
                )
            cx += tile_width + 6
    space = min(text_width(plan.text, font(20, "bold")), 170) + 2
    colour = MUTED if plan.quiet else INK
    draw_text(
        draw,
        (x + width, centre),
        plan.text,
        fit_font(plan.text, space, (20, 18), "bold"),
        colour,
        "rm",
        space,
    )


Groups = list[tuple[str, list[FlakPlan]]]


def plan_flak(
    shots: Sequence[FlakShot], width: int, ctx: Ctx, budget: int
) -> tuple[Groups, int, int]:
    """Flak rows grouped by phase and kind, as many as fit ``budget`` px (at least 3 rows).

    Returns (groups, rows left out, height).
    """
    rows = flak_rows(shots)
    groups: Groups = []
    height = 32
    shown = 0
    for row in rows:
        plan = _plan_flak(row, width, ctx)
        key = f"{row.phase}/{row.kind}"
        extra = plan.height + (26 if not groups or groups[-1][0] != key else 0)
        if shown >= MIN_FLAK_ROWS and height + extra + 28 > max(budget, MIN_FLAK_HEIGHT):
            break
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(plan)
        height += extra
        shown += 1
    hidden = len(rows) - shown
    return groups, hidden, height + (28 if hidden else 0)


def _draw_flak_column(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    groups: Groups,
    hidden: int,
    ctx: Ctx,
) -> None:
    y += section_title(draw, (x, y), tr("strike.flak_title", ctx.locale), width)
    for key, plans in groups:
        phase, _, kind = key.partition("/")
        heading = (
            f"{tr(f'strike.phase.{phase}', ctx.locale)} · {tr(f'strike.flak.{kind}', ctx.locale)}"
        )
        draw_text(draw, (x, y + 12), heading, font(18, "bold"), MUTED, "lm", width)
        y += 26
        for plan in plans:
            _draw_flak(image, draw, x, y, width, plan, ctx)
            y += plan.height
    if hidden:
        draw_text(draw, (x, y + 12), tr("strike.more", ctx.locale, n=hidden), font(18), MUTED, "lm")


# --- air combat ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Duel:
    """Every exchange between one attacker and one defender, summed."""

    attacker: str
    defender: str
    attacks: int
    to_defender: int
    to_attacker: int


def duels(exchanges: Sequence[Exchange]) -> list[Duel]:
    order: list[tuple[str, str]] = []
    sums: dict[tuple[str, str], list[int]] = {}
    for item in exchanges:
        key = (item.attacker, item.defender)
        if key not in sums:
            order.append(key)
            sums[key] = [0, 0, 0]
        sums[key][0] += 1
        sums[key][1] += item.damage_to_defender
        sums[key][2] += item.damage_to_attacker
    return [Duel(a, d, *sums[(a, d)]) for a, d in order]


def _draw_duel(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, duel: Duel, ctx: Ctx) -> None:
    centre = y + DUEL_ROW // 2
    used = mini_aircraft(draw, (x, centre), duel.attacker, 130, ctx)
    draw_text(draw, (x + used + 4, centre), "→", font(20, "bold"), MUTED, "lm")
    used += 26 + mini_aircraft(draw, (x + used + 26, centre), duel.defender, 130, ctx)
    key = "strike.attack_one" if duel.attacks == 1 else "strike.attacks"
    count = tr(key, ctx.locale, n=duel.attacks)
    count_width = draw_text(draw, (x + used + 12, centre), count, font(18), MUTED, "lm")
    parts: list[str] = []
    if duel.to_defender:
        parts.append(tr("strike.dmg", ctx.locale, n=duel.to_defender))
    if duel.to_attacker:
        parts.append(tr("strike.counter", ctx.locale, n=duel.to_attacker))
    text = " · ".join(parts) if parts else tr("strike.no_damage", ctx.locale)
    space = max(40, width - used - 24 - count_width)
    draw_text(
        draw,
        (x + width, centre),
        text,
        fit_font(text, space, (20, 18), "bold"),
        INK if parts else MUTED,
        "rm",
        space,
    )


# --- the whole report ----------------------------------------------------------------------


def strike_legend(locale: str) -> list[tuple[LegendMark, str]]:
    roles = " ".join(tr(f"role.{role}", locale) for role in ROLES)
    return [
        (("side", Side.JAPANESE), side_name(Side.JAPANESE, locale)),
        (("side", Side.ALLIED), side_name(Side.ALLIED, locale)),
        (("text", roles), tr("legend.roles", locale)),
        (("icon", "damaged"), tr("legend.damaged", locale)),
        (("icon", "destroyed"), tr("legend.destroyed", locale)),
        (("icon", "lost"), tr("legend.lost", locale)),
        (("icon", "disengaged"), tr("legend.disengaged", locale)),
        (("icon", "bomb"), tr("legend.bomb", locale)),
        (("icon", "torpedo"), tr("legend.torpedo", locale)),
        (("box", PIP), tr("legend.damage_pip", locale)),
        (("icon", "spoiled"), tr("legend.spoiled", locale)),
        (("text", "╱"), tr("legend.struck", locale)),
    ]


def render_strike_report(
    report: StrikeReport,
    *,
    place_names: Mapping[str, str],
    cards: Mapping[int, ActionCard],
    locale: str,
) -> bytes:
    """One strike as PNG bytes (1200 px wide)."""
    return to_png(strike_image(report, place_names=place_names, cards=cards, locale=locale))


def strike_image(
    report: StrikeReport,
    *,
    place_names: Mapping[str, str],
    cards: Mapping[int, ActionCard],
    locale: str,
) -> Image.Image:
    ctx = Ctx(
        {item.uid: item for item in report.aircraft},
        aircraft_labels(report.aircraft, locale),
        cards,
        locale,
    )
    grid = plan_grid(report)
    runs = list(report.bomb_runs)
    both = bool(runs) and bool(report.flak)
    bomb_width = COLUMN_WIDTH if both else INNER
    flak_width = INNER - 30 - COLUMN_WIDTH if both else INNER
    shown_runs = runs[:MAX_BOMB_ROWS]
    bomb_height = (
        32 + len(shown_runs) * BOMB_ROW + (28 if len(runs) > MAX_BOMB_ROWS else 0) if runs else 0
    )
    flak, hidden_flak, flak_height = plan_flak(report.flak, flak_width, ctx, bomb_height)
    columns = max(bomb_height, flak_height if report.flak else 0)
    pairs = duels(report.exchanges)
    duel_lines = (min(len(pairs), MAX_DUELS) + 1) // 2
    combat = 32 + duel_lines * DUEL_ROW + (28 if len(pairs) > MAX_DUELS else 0) if pairs else 0
    items = strike_legend(locale)
    ribbon = 48 if report.kind in ("scout", "dogfight") else 60
    height = 76 + 12 + ribbon + 30 + grid.height + 10 + 60 + 8
    height += (columns + 10 if columns else 0) + (combat + 10 if combat else 0)
    height += legend_height(INNER, items) + 14
    image, draw = canvas(height)

    origin = place_names.get(report.origin) or place_label(report.origin, locale)
    target = place_names.get(report.target) or place_label(report.target, locale)
    kind = tr(f"strike.kind.{report.kind}", locale)
    title = tr(
        "strike.title", locale, kind=kind, side=side_name(report.attacker, locale), id=report.id
    )
    subtitle = tr("strike.route", locale, origin=origin, target=target, turn=report.turn)
    order_key = "strike.order_simultaneous" if report.simultaneous else "strike.order"
    if report.kind == "scout":
        order_key = "strike.order_scout"
    elif report.kind in ("land-mission", "dogfight"):
        order_key = "strike.order_mission"  # a land campaign's mission number
    header(
        image, draw, title, subtitle, tr(order_key, locale, n=report.order), side=report.attacker
    )
    y = 76 + 12
    y += _ribbon(draw, y, report, locale)
    y += _band_grid(image, draw, y, report, grid, ctx) + 10
    y += _outcome(draw, y, report, place_names, locale) + 8
    if columns:
        if runs:
            by = y + section_title(draw, (MARGIN, y), tr("strike.bombing", locale), bomb_width)
            for run in shown_runs:
                _bomb_run(image, draw, MARGIN, by, bomb_width, run, ctx)
                by += BOMB_ROW
            if len(runs) > MAX_BOMB_ROWS:
                more = tr("strike.more", locale, n=len(runs) - MAX_BOMB_ROWS)
                draw_text(draw, (MARGIN, by + 12), more, font(18), MUTED, "lm")
        if report.flak:
            flak_x = MARGIN + COLUMN_WIDTH + 30 if both else MARGIN
            _draw_flak_column(image, draw, flak_x, y, flak_width, flak, hidden_flak, ctx)
        y += columns + 10
    if pairs:
        y += section_title(draw, (MARGIN, y), tr("strike.combat", locale), INNER)
        half = (INNER - 30) // 2
        for index, duel in enumerate(pairs[:MAX_DUELS]):
            _draw_duel(
                draw,
                MARGIN + (index % 2) * (half + 30),
                y + (index // 2) * DUEL_ROW,
                half,
                duel,
                ctx,
            )
        y += duel_lines * DUEL_ROW
        if len(pairs) > MAX_DUELS:
            draw_text(
                draw,
                (MARGIN, y + 12),
                tr("strike.more", locale, n=len(pairs) - MAX_DUELS),
                font(18),
                MUTED,
                "lm",
            )
            y += 28
        y += 10
    legend(image, draw, (MARGIN, y), INNER, items)
    return image
