"""The strike report: one strike from Target-Bound to Home-Bound, readable on a phone.

Drawn 800 px wide with no word under 22 px (``rendering.zero.mobile``), one part under another:

- who struck what, in which slot of the turn;
- the phases flown: Target-Bound, Over Target, Home-Bound (skipped ones pale and named);
- where every aircraft ended, by altitude band (VH at the top): the strike on the left, the
  defending CAP on the right. Each aircraft is a chip: its side's pattern and marker, type,
  role (L leader, W wingman, F formation, R recon; numbered when a type flies in several
  elements), damage pips, and icons for its state, ordnance and disengagement. A Leader
  and its Wingman are joined by a bar;
- the damage on the target and each side's losses in icons;
- bombing runs with the cards drawn (cancelled ones struck through) and the results
  applied; flak per aircraft and phase, answered cards struck through;
- air combat summed per attacker and defender;
- a legend of the marks this picture uses, and the names of the cards it shows.

A phone holds only so many rows: bombing runs, flak rows and duels past a few are cut with
"... and n more in the log", where every card is kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.zero.catalog import ActionCard
from engine.zero.report import AircraftOutcome, BombRun, Exchange, FlakShot, StrikeReport
from engine.zero.types import AircraftState, Band, BombMode, BombResult, Ordnance, Side
from rendering import style
from rendering.text import band_short, place_label, result_name, side_name, tr, tr_or
from rendering.zero.mobile import (
    BODY,
    INNER,
    MARGIN,
    SECTION,
    TEXT,
    WIDTH,
    card_box,
    draw_header,
    draw_wrapped,
    header_height,
    legend,
    legend_height,
    paste_card,
    section,
    wrapped_height,
)

CHIP_W, CHIP_H = 214, 48
CHIP_GAP = 8
LINE_H = CHIP_H + 8
EMPTY_BAND = 34
GUTTER = 52  # the band labels' column
STRIKE_COLUMN = 2 * CHIP_W + CHIP_GAP + 20  # two chips a line; the CAP gets the rest
RIBBON = 46
CARD_LINE = card_box(None, "line")[1] + 8
MAX_BOMB_ROWS = 3
MAX_FLAK_ROWS = 4
MAX_DUELS = 6
DUEL_ROW = 44
MORE = 36
PHASES = ("target-bound", "ingress", "bomb", "egress", "home-bound")
ROLES = ("leader", "wingman", "formation")
PIP = (180, 30, 30)
GONE_FILL = (228, 226, 222)


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


def state_icons(aircraft: AircraftOutcome) -> list[style.Icon]:
    icons: list[style.Icon] = []
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
    look = style.side_style(aircraft.side)
    gone = aircraft.state is AircraftState.DESTROYED or aircraft.lost_on_recovery
    draw.rounded_rectangle(
        (x, y, x + CHIP_W, y + CHIP_H),
        radius=6,
        fill=GONE_FILL if gone else style.CARD_BG,
        outline=look.dark,
        width=2,
    )
    style.fill_side(image, (x + 2, y + 2, x + 28, y + CHIP_H - 2), aircraft.side)
    style.draw_marker(draw, (x + 15, y + CHIP_H // 2), 18, aircraft.side)
    right = x + CHIP_W - 4
    for icon in state_icons(aircraft):
        style.draw_icon(draw, icon, (right - 12, y + CHIP_H // 2 - 3), 22)
        right -= 26
    label = ctx.label(aircraft.uid)
    space = right - (x + 34)
    label_font = style.fit_font(label, space, (BODY, TEXT), "cond-bold")
    style.draw_text(
        draw,
        (x + 34, y + CHIP_H // 2 - 4),
        label,
        label_font,
        style.MUTED if gone else style.INK,
        "lm",
        space,
    )
    for pip in range(min(aircraft.damage, 8)):
        px = x + 34 + pip * 10
        draw.rectangle((px, y + CHIP_H - 9, px + 7, y + CHIP_H - 4), fill=PIP)


def mini_aircraft(
    draw: ImageDraw.ImageDraw, xy: tuple[int, int], uid: str, max_width: int, ctx: Ctx
) -> int:
    """A one-line mention: side marker and "B5N2 L"; returns the width used."""
    x, y = xy
    aircraft = ctx.by_uid.get(uid)
    if aircraft is None:
        return style.draw_text(
            draw, (x, y), uid, style.font(TEXT, "cond"), style.MUTED, "lm", max_width
        )
    style.draw_marker(draw, (x + 9, y), 16, aircraft.side)
    return 22 + style.draw_text(
        draw,
        (x + 22, y),
        ctx.label(uid),
        style.font(BODY, "cond-bold"),
        style.INK,
        "lm",
        max_width - 22,
    )


def mini_width(uid: str, ctx: Ctx, max_width: int = 170) -> int:
    if uid not in ctx.by_uid:
        return min(max_width, style.text_width(uid, style.font(TEXT, "cond")))
    return 22 + min(max_width - 22, style.text_width(ctx.label(uid), style.font(BODY, "cond-bold")))


# --- phases ribbon -------------------------------------------------------------------------


def _segments(report: StrikeReport, locale: str) -> list[tuple[str, bool]]:
    """The ribbon's segments: (words, skipped)."""
    skipped = {note.partition(":")[2] for note in report.notes if note.startswith("phase-skipped")}
    if report.kind == "scout":
        return [(tr("strike.phase.scout", locale), False)]
    if report.kind == "dogfight":
        # A land dogfight (24.47): n turns in open sky, no target, no phases.
        return [(f"{tr('strike.phase.dogfight', locale)} ×{report.target_bound}", False)]
    tb_off = report.target_bound <= 0 or "tb" in skipped
    hb_off = report.home_bound <= 0 or "hb" in skipped
    target_bound = tr("strike.phase.target-bound", locale)
    home_bound = tr("strike.phase.home-bound", locale)
    return [
        (target_bound if tb_off else f"{target_bound} ×{report.target_bound}", tb_off),
        (tr("strike.over_target", locale), report.hidden),
        (home_bound if hb_off else f"{home_bound} ×{report.home_bound}", hb_off),
    ]


def _skipped_line(report: StrikeReport, locale: str) -> str:
    names = [text.partition(" ×")[0] for text, off in _segments(report, locale) if off]
    return tr("strike.skipped_phases", locale, phases=", ".join(names)) if names else ""


def _ribbon_height(report: StrikeReport, locale: str) -> int:
    line = _skipped_line(report, locale)
    return RIBBON + (wrapped_height(line, TEXT, INNER, bold=False) + 6 if line else 0)


def _ribbon(draw: ImageDraw.ImageDraw, y: int, report: StrikeReport, locale: str) -> int:
    segments = _segments(report, locale)
    width = INNER / len(segments)
    tip = 14
    for index, (text, off) in enumerate(segments):
        x0 = MARGIN + index * width
        x1 = x0 + width - 4
        over_target = len(segments) == 3 and index == 1
        fill = (255, 255, 255) if off else (226, 232, 240) if over_target else (236, 232, 222)
        middle = y + RIBBON // 2 - 2
        points = [
            (x0, y),
            (x1 - tip, y),
            (x1, middle),
            (x1 - tip, y + RIBBON - 4),
            (x0, y + RIBBON - 4),
        ]
        if index:
            points.append((x0 + tip, middle))
        draw.polygon(points, fill=fill, outline=style.FAINT if off else style.MUTED)
        space = int(width - 2 * tip - 8)
        centre_x = x0 + (width + (tip if index else 0)) / 2 - 2
        label_font = style.fit_font(text, space, (BODY, TEXT), "bold")
        style.draw_text(
            draw,
            (centre_x, middle),
            text,
            label_font,
            style.FAINT if off else style.INK,
            "mm",
            space,
        )
    line = _skipped_line(report, locale)
    if line:
        draw_wrapped(draw, (MARGIN, y + RIBBON + 2), line, TEXT, INNER, style.MUTED, bold=False)
    return _ribbon_height(report, locale)


# --- the band grid -------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    rows: dict[Band, tuple[list[list[AircraftOutcome]], list[list[AircraftOutcome]]]]
    heights: dict[Band, int]

    @property
    def height(self) -> int:
        return sum(self.heights.values())


def _lines(aircraft: Sequence[AircraftOutcome], width: int) -> list[list[AircraftOutcome]]:
    per_line = max(1, (width - 12) // (CHIP_W + CHIP_GAP))
    return [list(aircraft[index : index + per_line]) for index in range(0, len(aircraft), per_line)]


def plan_grid(report: StrikeReport) -> Grid:
    cap_width = INNER - GUTTER - STRIKE_COLUMN
    rows: dict[Band, tuple[list[list[AircraftOutcome]], list[list[AircraftOutcome]]]] = {}
    heights: dict[Band, int] = {}
    for band in style.BANDS_TOP_DOWN:
        strike = [item for item in report.aircraft if item.band is band and item.group != "cap"]
        cap = [item for item in report.aircraft if item.band is band and item.group == "cap"]
        left, right = _lines(strike, STRIKE_COLUMN), _lines(cap, cap_width)
        rows[band] = (left, right)
        lines = max(len(left), len(right))
        heights[band] = lines * LINE_H + 6 if lines else EMPTY_BAND
    return Grid(rows, heights)


COLUMN_HEAD = 38


def _band_rows(draw: ImageDraw.ImageDraw, y0: int, grid: Grid, locale: str) -> dict[Band, int]:
    """Shade the band rows VH..VL with their labels in the gutter; returns each row's top."""
    x0, x1 = MARGIN, WIDTH - MARGIN
    tops: dict[Band, int] = {}
    y = y0
    for band in style.BANDS_TOP_DOWN:
        height = grid.heights[band]
        draw.rectangle((x0, y, x1, y + height), fill=style.BAND_SHADES[band])
        draw.line((x0, y, x1, y), fill=style.RULE, width=1)
        draw.text(
            (x0 + GUTTER // 2, y + height // 2),
            band_short(band, locale),
            font=style.font(TEXT, "bold"),
            fill=style.MUTED,
            anchor="mm",
        )
        tops[band] = y
        y += height
    draw.line((x0 + GUTTER, y0, x0 + GUTTER, y), fill=style.RULE, width=2)
    draw.rectangle((x0, y0, x1, y), outline=style.RULE, width=2)
    return tops


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
    strike_x = MARGIN + GUTTER
    cap_x = strike_x + STRIKE_COLUMN
    column = "strike.column_scout" if report.kind == "scout" else "strike.column_strike"
    heads = (
        (strike_x, report.attacker, tr(column, locale, side=side_name(report.attacker, locale))),
        (cap_x, defender, tr("strike.column_cap", locale, side=side_name(defender, locale))),
    )
    for x, side, text in heads:
        room = (cap_x if x == strike_x else WIDTH - MARGIN) - x - 34
        style.draw_marker(draw, (x + 12, y + COLUMN_HEAD // 2), 18, side)
        head_font = style.fit_font(text, room, (TEXT,), "bold")
        style.draw_text(
            draw,
            (x + 26, y + COLUMN_HEAD // 2),
            text,
            head_font,
            style.side_style(side).dark,
            "lm",
            room,
        )
    y += COLUMN_HEAD
    tops = _band_rows(draw, y, grid, locale)
    draw.line((cap_x - 4, y, cap_x - 4, y + grid.height), fill=style.MUTED, width=2)
    for band in style.BANDS_TOP_DOWN:
        left, right = grid.rows[band]
        for x0, lines in ((strike_x + 8, left), (cap_x + 6, right)):
            for line_no, line in enumerate(lines):
                for index, aircraft in enumerate(line):
                    cx = x0 + index * (CHIP_W + CHIP_GAP)
                    cy = tops[band] + 7 + line_no * LINE_H
                    if index and line[index - 1].element == aircraft.element:
                        bar = (cx - CHIP_GAP - 1, cy + CHIP_H // 2, cx + 1, cy + CHIP_H // 2)
                        draw.line(bar, fill=style.side_style(aircraft.side).dark, width=4)
                    draw_chip(image, draw, (cx, cy), aircraft, ctx)
    if not report.aircraft:
        style.draw_text(
            draw,
            (strike_x + 10, y + grid.height // 2),
            tr("strike.no_aircraft", locale),
            style.font(TEXT),
            style.MUTED,
            "lm",
        )
    return COLUMN_HEAD + grid.height


# --- outcome -------------------------------------------------------------------------------


def loss_counts(report: StrikeReport, side: Side) -> list[tuple[style.Icon, int]]:
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


def _headline(report: StrikeReport, place_names: Mapping[str, str], locale: str) -> str:
    target = place_names.get(report.target) or place_label(report.target, locale)
    if report.kind == "scout":
        return tr("strike.scout_success" if report.scout_success else "strike.scout_failed", locale)
    if report.kind == "dogfight":
        return tr("strike.open_sky", locale, target=target)
    if report.hidden:
        return tr("strike.not_found", locale, target=target)
    return tr("strike.points", locale, count=report.target_points, target=target)


HEADLINE = 28
LOSS_LINE = 40


def _loss_blocks(
    report: StrikeReport, locale: str
) -> list[tuple[Side, list[tuple[style.Icon, int]], int]]:
    """Each side that flew: its losses as (icon, count) and the width the block takes."""
    count_font = style.font(BODY, "bold")
    blocks: list[tuple[Side, list[tuple[style.Icon, int]], int]] = []
    for side in (report.attacker, report.attacker.enemy):
        if not any(item.side is side for item in report.aircraft):
            continue
        shown = [(icon, count) for icon, count in loss_counts(report, side) if count]
        if shown:
            width = 28 + sum(
                28 + style.text_width(f"×{count}", count_font) + 14 for _, count in shown
            )
        else:
            width = 28 + style.text_width(tr("strike.no_losses", locale), style.font(TEXT)) + 14
        blocks.append((side, shown, width))
    return blocks


def _loss_lines(report: StrikeReport, locale: str) -> int:
    lines, used = 0, INNER  # the first block always opens a line
    for _, _, width in _loss_blocks(report, locale):
        if used + width > INNER - 28:
            lines, used = lines + 1, 0
        used += width + 24
    return lines


def _outcome_height(report: StrikeReport, place_names: Mapping[str, str], locale: str) -> int:
    headline = _headline(report, place_names, locale)
    return (
        16
        + wrapped_height(headline, HEADLINE, INNER - 28)
        + _loss_lines(report, locale) * LOSS_LINE
        + 8
    )


def _outcome(
    draw: ImageDraw.ImageDraw,
    y: int,
    report: StrikeReport,
    place_names: Mapping[str, str],
    locale: str,
) -> int:
    """The damage done to the target, then each side's losses as icons and counts."""
    height = _outcome_height(report, place_names, locale)
    draw.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + height),
        radius=8,
        fill=style.CARD_BG,
        outline=style.RULE,
        width=2,
    )
    headline = _headline(report, place_names, locale)
    ly = y + 12 + draw_wrapped(draw, (MARGIN + 14, y + 12), headline, HEADLINE, INNER - 28)
    x = WIDTH  # the first block always opens a line
    ly -= LOSS_LINE
    count_font = style.font(BODY, "bold")
    for side, shown, width in _loss_blocks(report, locale):
        if x + width > WIDTH - MARGIN - 14:
            x, ly = MARGIN + 14, ly + LOSS_LINE
        middle = ly + LOSS_LINE // 2
        style.draw_marker(draw, (x + 10, middle), 20, side)
        x += 28
        for icon, count in shown:
            style.draw_icon(draw, icon, (x + 12, middle), 22)
            x += (
                28
                + style.draw_text(draw, (x + 26, middle), f"×{count}", count_font, style.INK, "lm")
                + 14
            )
        if not shown:
            none = tr("strike.no_losses", locale)
            x += style.draw_text(draw, (x, middle), none, style.font(TEXT), style.MUTED, "lm") + 14
        x += 24
    return height


# --- bombing -------------------------------------------------------------------------------

RUN_HEAD = 40
RUN_RESULTS = 34


def _run_height() -> int:
    return RUN_HEAD + RUN_RESULTS + card_box(None, "full")[1] + 16


def _bomb_run(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    y: int,
    run: BombRun,
    ctx: Ctx,
) -> None:
    """One run: who, how and where, and the points; the results applied; then the cards."""
    locale = ctx.locale
    x, width = MARGIN, INNER
    centre = y + RUN_HEAD // 2
    points = tr("strike.run_points", locale, count=run.points)
    points_width = style.draw_text(
        draw, (x + width, centre), points, style.font(26, "bold"), style.INK, "rm"
    )
    used = mini_aircraft(draw, (x, centre), run.uid, 200, ctx)
    mode_key = run.mode.value if isinstance(run.mode, BombMode) else run.mode
    mode = f"{tr(f'strike.mode.{mode_key}', locale)} · {band_short(run.band, locale)}"
    style.draw_text(
        draw,
        (x + used + 12, centre),
        mode,
        style.font(TEXT),
        style.MUTED,
        "lm",
        width - used - points_width - 30,
    )
    centre = y + RUN_HEAD + RUN_RESULTS // 2 - 2
    rx = x + 4
    word_font = style.font(TEXT, "bold")
    for result in list(run.results) or [BombResult.MISS]:
        word = result_name(result, locale)
        need = 40 + style.text_width(word, word_font)
        if rx + need > x + width:
            break
        pips = style.result_pips(draw, result, rx, centre, 11)
        colour = style.RESULT_COLOURS[result] if result else style.MUTED
        draw.text((rx + pips + 6, centre), word, font=word_font, fill=colour, anchor="lm")
        rx += pips + 6 + style.text_width(word, word_font) + 18
    cx, cy = x, y + RUN_HEAD + RUN_RESULTS
    card_width, card_height = card_box(None, "full")
    shown = _shown_cards(run)
    for card_id in shown:
        paste_card(
            image,
            ctx.cards.get(card_id),
            card_id,
            (cx, cy),
            locale=locale,
            struck=card_id in run.cancelled,
        )
        cx += card_width + 8
    if len(run.cards) > len(shown):
        more = f"+{len(run.cards) - len(shown)}"
        style.draw_text(
            draw, (cx, cy + card_height // 2), more, style.font(BODY, "bold"), style.MUTED, "lm"
        )


def _shown_cards(run: BombRun) -> list[int]:
    fits = (INNER - 40) // (card_box(None, "full")[0] + 8)
    return list(run.cards[: max(1, fits)])


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


ANSWER = 30  # the ↩ before an answering card


def _entry_width(entry: Entry, cards: Mapping[int, ActionCard]) -> int:
    return card_box(cards.get(entry.card), "line")[0] + (ANSWER if entry.answer else 0)


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
        used += width + 8
    return lines


RESULT_ROOM = 260  # the most the flak result may take at the right


def _plan_flak(row: FlakRow, ctx: Ctx) -> FlakPlan:
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
    result = min(RESULT_ROOM, style.text_width(text, style.font(TEXT, "bold")))
    room = max(80, INNER - who - 12 - result - 14)
    return FlakPlan(row, who, _wrap_entries(entries, ctx.cards, room), text, not parts)


def _draw_flak(
    image: Image.Image, draw: ImageDraw.ImageDraw, y: int, plan: FlakPlan, ctx: Ctx
) -> None:
    x = MARGIN
    centre = y + CARD_LINE // 2
    mini_aircraft(draw, (x, centre), plan.row.against, 170, ctx)
    for line_no, line in enumerate(plan.lines):
        cx, cy = x + plan.who_width + 12, y + 4 + line_no * CARD_LINE
        for entry in line:
            if entry.answer:
                style.draw_text(
                    draw,
                    (cx + 2, cy + CARD_LINE // 2 - 4),
                    "↩",
                    style.font(BODY, "bold"),
                    style.INK,
                    "lm",
                )
                cx += ANSWER
            card = ctx.cards.get(entry.card)
            cx += 8 + paste_card(
                image,
                card,
                entry.card,
                (cx, cy),
                locale=ctx.locale,
                variant="line",
                struck=entry.struck,
            )
    colour = style.MUTED if plan.quiet else style.INK
    style.draw_text(
        draw,
        (WIDTH - MARGIN, centre),
        plan.text,
        style.font(TEXT, "bold"),
        colour,
        "rm",
        RESULT_ROOM,
    )


Groups = list[tuple[str, list[FlakPlan]]]
GROUP_HEAD = 36


def _did_something(row: FlakRow) -> bool:
    return any(shot.damage or shot.spoils for shot in row.shots)


def plan_flak(
    shots: Sequence[FlakShot], ctx: Ctx, limit: int = MAX_FLAK_ROWS
) -> tuple[Groups, int, int]:
    """Flak rows grouped by phase and kind, at most ``limit`` of them.

    When they do not all fit, the rows that did damage or spoiled an attack are kept first
    (still in phase order); the quiet ones are left to the log. Returns (groups, rows left
    out, height).
    """
    rows = flak_rows(shots)
    if len(rows) > limit:
        ranked = sorted(range(len(rows)), key=lambda index: not _did_something(rows[index]))
        keep = set(ranked[:limit])
        shown = [row for index, row in enumerate(rows) if index in keep]
    else:
        shown = rows
    groups: Groups = []
    height = SECTION
    for row in shown:
        plan = _plan_flak(row, ctx)
        key = f"{row.phase}/{row.kind}"
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
            height += GROUP_HEAD
        groups[-1][1].append(plan)
        height += plan.height
    hidden = len(rows) - len(shown)
    return groups, hidden, height + (MORE if hidden else 0)


def _draw_flak_section(
    image: Image.Image, draw: ImageDraw.ImageDraw, y: int, groups: Groups, hidden: int, ctx: Ctx
) -> None:
    y += section(draw, (MARGIN, y), tr("strike.flak_title", ctx.locale), INNER)
    for key, plans in groups:
        phase, _, kind = key.partition("/")
        heading = (
            f"{tr(f'strike.phase.{phase}', ctx.locale)} · {tr(f'strike.flak.{kind}', ctx.locale)}"
        )
        style.draw_text(
            draw,
            (MARGIN, y + GROUP_HEAD // 2),
            heading,
            style.font(TEXT, "bold"),
            style.MUTED,
            "lm",
            INNER,
        )
        y += GROUP_HEAD
        for plan in plans:
            _draw_flak(image, draw, y, plan, ctx)
            y += plan.height
    if hidden:
        _more(draw, y, hidden, ctx.locale)


def _more(draw: ImageDraw.ImageDraw, y: int, n: int, locale: str) -> None:
    style.draw_text(
        draw,
        (MARGIN, y + MORE // 2),
        tr("strike.more", locale, n=n),
        style.font(TEXT),
        style.MUTED,
        "lm",
        INNER,
    )


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


def _draw_duel(draw: ImageDraw.ImageDraw, y: int, duel: Duel, ctx: Ctx) -> None:
    x, width = MARGIN, INNER
    centre = y + DUEL_ROW // 2
    parts: list[str] = []
    if duel.to_defender:
        parts.append(tr("strike.dmg", ctx.locale, n=duel.to_defender))
    if duel.to_attacker:
        parts.append(tr("strike.counter", ctx.locale, n=duel.to_attacker))
    text = " · ".join(parts) if parts else tr("strike.no_damage", ctx.locale)
    result_width = style.draw_text(
        draw,
        (x + width, centre),
        text,
        style.font(TEXT, "bold"),
        style.INK if parts else style.MUTED,
        "rm",
        240,
    )
    used = mini_aircraft(draw, (x, centre), duel.attacker, 170, ctx)
    style.draw_text(draw, (x + used + 6, centre), "→", style.font(BODY, "bold"), style.MUTED, "lm")
    used += 36
    used += mini_aircraft(draw, (x + used, centre), duel.defender, 170, ctx)
    count = tr("strike.attacks", ctx.locale, count=duel.attacks)
    room = width - used - 14 - result_width - 14
    if style.text_width(count, style.font(TEXT)) <= room:
        style.draw_text(draw, (x + used + 14, centre), count, style.font(TEXT), style.MUTED, "lm")


# --- legend --------------------------------------------------------------------------------


def _cards_shown(
    report: StrikeReport, ctx: Ctx, runs: Sequence[BombRun], flak: Groups
) -> list[ActionCard]:
    ids: list[int] = []
    for run in runs:
        ids += _shown_cards(run)
    for _, plans in flak:
        for plan in plans:
            ids += [entry.card for line in plan.lines for entry in line]
    return [ctx.cards[card_id] for card_id in ids if card_id in ctx.cards]


def strike_legend(
    report: StrikeReport,
    locale: str,
    shown: Sequence[ActionCard] = (),
    struck: bool = False,
    answered: bool = False,
) -> list[tuple[style.LegendMark, str]]:
    """The marks this picture uses, then the names of the cards it shows (once each)."""
    roles = " ".join(tr(f"role.{role}", locale) for role in ROLES)
    icons = {icon for aircraft in report.aircraft for icon in state_icons(aircraft)}
    items: list[tuple[style.LegendMark, str]] = [
        (("side", Side.JAPANESE), side_name(Side.JAPANESE, locale)),
        (("side", Side.ALLIED), side_name(Side.ALLIED, locale)),
        (("text", roles), tr("legend.roles", locale)),
        (("text", tr("strike.cap_short", locale)), tr("strike.cap_name", locale)),
    ]
    for icon in ("damaged", "destroyed", "lost", "disengaged", "bomb", "torpedo"):
        if icon in icons:
            items.append((("icon", icon), tr(f"legend.{icon}", locale)))
    if any(aircraft.damage for aircraft in report.aircraft):
        items.append((("box", PIP), tr("legend.damage_pip", locale)))
    if any(card.spoiled for card in shown):
        items.append((("icon", "spoiled"), tr("legend.spoiled", locale)))
    if struck:
        items.append((("text", "╱"), tr("legend.struck", locale)))
    if answered:
        items.append((("text", "↩"), tr("strike.answer_mark", locale)))
    titles: list[str] = []
    for card in shown:
        if card.title.value not in titles:
            titles.append(card.title.value)
    for title in titles:
        items.append((("text", title), tr_or(f"strike.card.{title}", locale, title)))
    return items


# --- the whole report ----------------------------------------------------------------------


MAX_HEIGHT = 2400  # px: three phone screens; a longer strike leaves rows to the log
GAP = 16


@dataclass(frozen=True)
class Parts:
    """The lower parts of a report for given row limits, and the height they take."""

    bombing: int
    flak: Groups
    hidden_flak: int
    flak_height: int
    combat: int
    legend: list[tuple[style.LegendMark, str]]

    @property
    def height(self) -> int:
        sections = sum(part + GAP for part in (self.bombing, self.flak_height, self.combat) if part)
        return sections + legend_height(INNER, self.legend) + 16


def _parts(
    report: StrikeReport,
    ctx: Ctx,
    runs: Sequence[BombRun],
    pairs: Sequence[Duel],
    limits: Sequence[int],
) -> Parts:
    max_runs, max_flak, max_duels = limits
    shown_runs = list(runs[:max_runs])
    bombing = (
        SECTION + len(shown_runs) * _run_height() + (MORE if len(runs) > max_runs else 0)
        if runs
        else 0
    )
    flak, hidden_flak, flak_height = plan_flak(report.flak, ctx, max_flak)
    if not report.flak:
        flak_height = 0
    combat = (
        SECTION + min(len(pairs), max_duels) * DUEL_ROW + (MORE if len(pairs) > max_duels else 0)
        if pairs
        else 0
    )
    shown_cards = _cards_shown(report, ctx, shown_runs, flak)
    struck = any(set(run.cancelled) & set(_shown_cards(run)) for run in shown_runs) or any(
        entry.struck for _, plans in flak for plan in plans for line in plan.lines for entry in line
    )
    # "↩" marks an answering flak card, and in a duel the damage done back to the attacker
    answered = any(
        entry.answer for _, plans in flak for plan in plans for line in plan.lines for entry in line
    ) or any(duel.to_attacker for duel in pairs[:max_duels])
    items = strike_legend(report, ctx.locale, shown_cards, struck, answered)
    return Parts(bombing, flak, hidden_flak, flak_height, combat, items)


def render_strike_report(
    report: StrikeReport,
    *,
    place_names: Mapping[str, str],
    cards: Mapping[int, ActionCard],
    locale: str,
) -> bytes:
    """One strike as PNG bytes (800 px wide)."""
    return style.to_png(strike_image(report, place_names=place_names, cards=cards, locale=locale))


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
    origin = place_names.get(report.origin) or place_label(report.origin, locale)
    target = place_names.get(report.target) or place_label(report.target, locale)
    kind = tr(f"strike.kind.{report.kind}", locale)
    title = tr(
        "strike.title", locale, kind=kind, side=side_name(report.attacker, locale), id=report.id
    )
    order_key = "strike.order_simultaneous" if report.simultaneous else "strike.order"
    if report.kind == "scout":
        order_key = "strike.order_scout"
    elif report.kind in ("land-mission", "dogfight"):
        order_key = "strike.order_mission"  # a land campaign's mission number
    lines = [
        tr("strike.route", locale, origin=origin, target=target, turn=report.turn),
        tr(order_key, locale, n=report.order),
    ]

    grid = plan_grid(report)
    runs = list(report.bomb_runs)
    pairs = duels(report.exchanges)
    top = header_height(title, lines, side=report.attacker) + 14
    fixed = top + _ribbon_height(report, locale) + 8 + COLUMN_HEAD + grid.height + GAP
    fixed += _outcome_height(report, place_names, locale) + GAP
    # A long strike gives up rows until the picture fits a few phone screens.
    limits = [MAX_BOMB_ROWS, MAX_FLAK_ROWS, MAX_DUELS]
    while True:
        parts = _parts(report, ctx, runs, pairs, limits)
        height = fixed + parts.height
        if height <= MAX_HEIGHT or limits == [1, 1, 1]:
            break
        # the longest list gives up a row; on a tie duels go first, bombing runs last
        shrink = max((2, 1, 0), key=lambda index: limits[index])
        limits[shrink] -= 1
    shown_runs = runs[: limits[0]]
    shown_pairs = pairs[: limits[2]]
    flak, hidden_flak = parts.flak, parts.hidden_flak
    items = parts.legend
    image, draw = style.canvas(height, WIDTH)

    gap = GAP
    draw_header(image, draw, title, lines, side=report.attacker)
    y = top
    y += _ribbon(draw, y, report, locale) + 8
    y += _band_grid(image, draw, y, report, grid, ctx) + gap
    y += _outcome(draw, y, report, place_names, locale) + gap
    if runs:
        by = y + section(draw, (MARGIN, y), tr("strike.bombing", locale), INNER)
        for run in shown_runs:
            _bomb_run(image, draw, by, run, ctx)
            by += _run_height()
        if len(runs) > len(shown_runs):
            _more(draw, by, len(runs) - len(shown_runs), locale)
        y += parts.bombing + gap
    if report.flak:
        _draw_flak_section(image, draw, y, flak, hidden_flak, ctx)
        y += parts.flak_height + gap
    if pairs:
        dy = y + section(draw, (MARGIN, y), tr("strike.combat", locale), INNER)
        for duel in shown_pairs:
            _draw_duel(draw, dy, duel, ctx)
            dy += DUEL_ROW
        if len(pairs) > len(shown_pairs):
            _more(draw, dy, len(pairs) - len(shown_pairs), locale)
        y += parts.combat + gap
    draw.line((MARGIN, y - gap // 2, WIDTH - MARGIN, y - gap // 2), fill=style.RULE, width=1)
    legend(image, draw, (MARGIN, y), INNER, items)
    return image
