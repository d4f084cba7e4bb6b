"""A land mission's report, drawn for a phone: one 800 px column read top to bottom.

The carrier strike report puts a band grid, bombing and flak side by side on 1200 px; on
a phone that halves its words to 6 px. Here the same facts are stacked instead, each at 22
px or more (11 px on a 400 px phone), with the shared marks (side patterns and markers,
state icons, card badges) so the two reports read alike:

- who flew the mission, where, and its phases;
- the damage put on the target, and each side's losses as icons and counts;
- every aircraft, one row each: side mark, type and role, band, damage, state icons;
- every bombing run with its results, points and the cards drawn (cancelled ones struck);
- every flak row (per phase, kind and aircraft) with its cards and result;
- air combat summed per attacker and defender;
- a legend of the marks actually shown and the names of the cards drawn.

Nothing is cut for room ("... more in the log"): the image grows taller instead, so it says
everything the old one did and more. The log keeps every card play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.zero.catalog import ActionCard
from engine.zero.report import AircraftOutcome, BombRun, StrikeReport
from engine.zero.types import AircraftState, BombMode, BombResult, Side
from rendering import style
from rendering.text import band_short, place_label, result_name, side_name, tr
from rendering.zero.card import PHONE_SCALE, Variant, card_size, card_tile
from rendering.zero.phone_cards import (
    BAR,
    INNER,
    PAD,
    SMALL,
    TEXT,
    WIDTH,
    LegendItem,
    legend,
    section,
    title_bar,
)
from rendering.zero.strike import (
    ROLES,
    Duel,
    FlakRow,
    aircraft_labels,
    duels,
    flak_rows,
    loss_counts,
    state_icons,
)

CARD_SCALE = PHONE_SCALE  # the smallest words on a card badge (18 px) become 22 px
ROW = 48  # an aircraft row
PIP = (180, 30, 30)  # a damage pip, as on the carrier report's chips
ICON_NAMES = frozenset({"damaged", "destroyed", "lost", "disengaged", "bomb", "torpedo", "spoiled"})


class _Sheet:
    """The report being drawn: the canvas, the aircraft's names and the cards' faces."""

    def __init__(
        self,
        report: StrikeReport,
        cards: Mapping[int, ActionCard],
        locale: str,
        height: int,
    ) -> None:
        self.report = report
        self.cards = cards
        self.locale = locale
        self.by_uid = {item.uid: item for item in report.aircraft}
        self.labels = aircraft_labels(report.aircraft, locale)
        self.image, self.draw = style.canvas(height, WIDTH)
        self.icons: set[str] = set()  # the icons drawn, for the legend
        self.struck = False
        self.titles: list[str] = []  # the cards shown, for the legend's names

    def label(self, uid: str) -> str:
        return self.labels.get(uid, uid)

    def icon(self, kind: style.Icon, centre: tuple[float, float], size: int = 26) -> None:
        self.icons.add(kind)
        style.draw_icon(self.draw, kind, centre, size)

    def who(self, x: int, middle: int, uid: str, room: int) -> int:
        """An aircraft named in a line: its side marker and "Ki-21 F1"; returns the width."""
        aircraft = self.by_uid.get(uid)
        if aircraft is None:
            return style.draw_text(
                self.draw, (x, middle), uid, style.font(TEXT), style.MUTED, "lm", room
            )
        style.draw_marker(self.draw, (x + 11, middle), 20, aircraft.side)
        label = self.label(uid)
        label_font = style.fit_font(label, room - 28, (TEXT, SMALL), "bold")
        return 28 + style.draw_text(
            self.draw, (x + 28, middle), label, label_font, style.INK, "lm", room - 28
        )

    def card(self, card_id: int, xy: tuple[int, int], *, line: bool, struck: bool = False) -> int:
        """Paste a card badge (or its number when the deck does not know it)."""
        found = self.cards.get(card_id)
        if found is None:
            text = f"#{card_id}"
            style.draw_text(
                self.draw, (xy[0], xy[1] + 24), text, style.font(TEXT, "bold"), style.MUTED, "lm"
            )
            return style.text_width(text, style.font(TEXT, "bold"))
        variant: Variant = "line" if line else "full"
        tile = card_tile(
            found, locale=self.locale, scale=CARD_SCALE, variant=variant, struck=struck
        )
        self.image.paste(tile, xy, tile)
        if found.title.value not in self.titles:
            self.titles.append(found.title.value)
        if found.spoiled:
            self.icons.add("spoiled")
        self.struck = self.struck or struck
        return tile.width

    def card_width(self, card_id: int, *, line: bool) -> int:
        found = self.cards.get(card_id)
        if found is None:
            return style.text_width(f"#{card_id}", style.font(TEXT, "bold"))
        return card_size("line" if line else "full", CARD_SCALE, found)[0]


# --- the top: title, phases, outcome ----------------------------------------------------------


def _phases(report: StrikeReport, locale: str) -> str:
    """The phases flown, in words: "Target-Bound ×2 → Ingress · Bomb · Egress → ..."."""
    if report.kind == "dogfight":
        return f"{tr('strike.phase.dogfight', locale)} ×{report.target_bound}"
    skipped = {note.partition(":")[2] for note in report.notes if note.startswith("phase-skipped")}

    def leg(phase: str, turns: int, off: bool) -> str:
        name = tr(f"strike.phase.{phase}", locale)
        return f"{name} ({tr('strike.skipped', locale)})" if off else f"{name} ×{turns}"

    over = tr("strike.over_target", locale)  # Ingress, Bomb, Egress: named in the flak rows
    if report.hidden:
        over = f"{tr('strike.over_target', locale)} ({tr('strike.skipped', locale)})"
    return " → ".join(
        (
            leg("target-bound", report.target_bound, report.target_bound <= 0 or "tb" in skipped),
            over,
            leg("home-bound", report.home_bound, report.home_bound <= 0 or "hb" in skipped),
        )
    )


def _headline(report: StrikeReport, place_names: Mapping[str, str], locale: str) -> str:
    target = place_names.get(report.target) or place_label(report.target, locale)
    if report.kind == "dogfight":
        return tr("strike.open_sky", locale, target=target)
    if report.hidden:
        return tr("strike.not_found", locale, target=target)
    return tr("strike.points", locale, count=report.target_points, target=target)


def _outcome(sheet: _Sheet, y: int, headline: list[str]) -> int:
    """The damage on the target, then one line per side: its losses in icons and counts."""
    report, draw, locale = sheet.report, sheet.draw, sheet.locale
    sides = [
        side
        for side in (report.attacker, report.attacker.enemy)
        if any(item.side is side for item in report.aircraft)
    ]
    height = 16 + 36 * len(headline) + 8 + 40 * len(sides) + 12
    draw.rounded_rectangle(
        (PAD, y, WIDTH - PAD, y + height), radius=8, fill=style.CARD_BG, outline=style.RULE, width=2
    )
    line_y = y + 16
    for part in headline:
        style.draw_text(draw, (PAD + 16, line_y), part, style.font(26, "bold"), style.INK)
        line_y += 36
    line_y += 8
    for side in sides:
        middle = line_y + 20
        style.draw_marker(draw, (PAD + 28, middle), 22, side)
        x = (
            PAD
            + 48
            + style.draw_text(
                draw,
                (PAD + 48, middle),
                side_name(side, locale),
                style.font(TEXT, "bold"),
                style.side_style(side).dark,
                "lm",
            )
        )
        x += 20
        shown = [(icon, count) for icon, count in loss_counts(report, side) if count]
        for icon, count in shown:
            sheet.icon(icon, (x + 13, middle))
            x += 32 + style.draw_text(
                draw, (x + 30, middle), f"×{count}", style.font(TEXT, "bold"), style.INK, "lm"
            )
            x += 16
        if not shown:
            none = tr("strike.no_losses", locale)
            style.draw_text(draw, (x, middle), none, style.font(TEXT), style.MUTED, "lm")
        line_y += 40
    return height


def _outcome_height(report: StrikeReport, headline: list[str]) -> int:
    sides = {item.side for item in report.aircraft}
    return 16 + 36 * len(headline) + 8 + 40 * len(sides) + 12


# --- aircraft ----------------------------------------------------------------------------------


def _aircraft_groups(
    report: StrikeReport, locale: str
) -> list[tuple[Side, str, list[AircraftOutcome]]]:
    """The flying side's aircraft, then the defenders', each top band first."""
    order = {band: index for index, band in enumerate(style.BANDS_TOP_DOWN)}
    groups: list[tuple[Side, str, list[AircraftOutcome]]] = []
    for side, key in (
        (report.attacker, "strike.column_strike"),
        (report.attacker.enemy, "strike.column_cap"),
    ):
        own = [item for item in report.aircraft if item.side is side]
        if report.kind != "dogfight":
            attacking = side is report.attacker
            own = [item for item in own if (item.group != "cap") == attacking] or own
        own.sort(key=lambda item: order[item.band])
        if own:
            groups.append((side, tr(key, locale, side=side_name(side, locale)), own))
    listed = {item.uid for _, _, items in groups for item in items}
    rest = [item for item in report.aircraft if item.uid not in listed]
    if rest:  # a CAP flying with the raid, or the reverse: listed under its side all the same
        for side, _, items in groups:
            items.extend(item for item in rest if item.side is side)
    return groups


def _aircraft_row(sheet: _Sheet, y: int, aircraft: AircraftOutcome) -> None:
    draw, image = sheet.draw, sheet.image
    look = style.side_style(aircraft.side)
    gone = aircraft.state is AircraftState.DESTROYED or aircraft.lost_on_recovery
    box = (PAD, y, WIDTH - PAD, y + ROW - 6)
    draw.rounded_rectangle(
        box, radius=6, fill=(228, 226, 222) if gone else style.CARD_BG, outline=look.dark, width=2
    )
    style.fill_side(image, (PAD + 2, y + 2, PAD + 34, y + ROW - 8), aircraft.side)
    middle = y + (ROW - 6) // 2
    style.draw_marker(draw, (PAD + 18, middle), 20, aircraft.side)
    label = sheet.label(aircraft.uid)
    style.draw_text(
        draw,
        (PAD + 46, middle),
        label,
        style.font(TEXT, "bold"),
        style.MUTED if gone else style.INK,
        "lm",
        250,
    )
    # The band in its grid shade, as the carrier report's rows.
    band = band_short(aircraft.band, sheet.locale)
    bx = PAD + 310
    draw.rectangle(
        (bx, y + 6, bx + 56, y + ROW - 12),
        fill=style.BAND_SHADES[aircraft.band],
        outline=style.RULE,
    )
    style.draw_text(draw, (bx + 28, middle), band, style.font(SMALL, "bold"), style.MUTED, "mm")
    x = bx + 74
    if aircraft.damage:
        for pip in range(min(aircraft.damage, 6)):
            draw.rectangle((x + pip * 11, middle - 5, x + pip * 11 + 7, middle + 5), fill=PIP)
        dmg = tr("strike.dmg", sheet.locale, n=aircraft.damage)
        style.draw_text(
            draw,
            (x + min(aircraft.damage, 6) * 11 + 6, middle),
            dmg,
            style.font(SMALL, "bold"),
            style.INK,
            "lm",
        )
    right = WIDTH - PAD - 22
    for icon in reversed(state_icons(aircraft)):
        sheet.icon(icon, (right, middle), 26)
        right -= 34


# --- bombing -----------------------------------------------------------------------------------

BADGE_GAP = 8


def _card_lines(sheet: _Sheet, cards: Sequence[int], room: int, *, line: bool) -> list[list[int]]:
    lines: list[list[int]] = [[]]
    used = 0
    for card_id in cards:
        width = sheet.card_width(card_id, line=line)
        if lines[-1] and used + width > room:
            lines.append([])
            used = 0
        lines[-1].append(card_id)
        used += width + BADGE_GAP
    return lines if lines[0] else []


def _bomb_height(sheet: _Sheet, run: BombRun) -> int:
    full_height = card_size("full", CARD_SCALE)[1]
    return (
        40
        + 36
        + len(_card_lines(sheet, run.cards, INNER - 20, line=False)) * (full_height + 8)
        + 14
    )


def _bomb_run(sheet: _Sheet, y: int, run: BombRun) -> int:
    draw, locale = sheet.draw, sheet.locale
    middle = y + 20
    points = tr("strike.run_points", locale, count=run.points)
    points_width = style.draw_text(
        draw, (WIDTH - PAD, middle), points, style.font(TEXT, "bold"), style.INK, "rm"
    )
    sheet.who(PAD, middle, run.uid, INNER - points_width - 20)
    middle += 36
    mode_key = run.mode.value if isinstance(run.mode, BombMode) else run.mode
    mode = f"{tr(f'strike.mode.{mode_key}', locale)} · {band_short(run.band, locale)}"
    x = (
        PAD
        + 28
        + style.draw_text(draw, (PAD + 28, middle), mode, style.font(SMALL), style.MUTED, "lm")
        + 20
    )
    for result in list(run.results) or [BombResult.MISS]:
        word = result_name(result, locale)
        x += style.result_pips(draw, result, x, middle, 10) + 6
        colour = style.RESULT_COLOURS[result] if result else style.MUTED
        x += style.draw_text(draw, (x, middle), word, style.font(SMALL, "bold"), colour, "lm") + 18
    card_y = y + 76
    full_height = card_size("full", CARD_SCALE)[1]
    for line in _card_lines(sheet, run.cards, INNER - 20, line=False):
        cx = PAD + 20
        for card_id in line:
            cx += sheet.card(card_id, (cx, card_y), line=False, struck=card_id in run.cancelled)
            cx += BADGE_GAP
        card_y += full_height + 8
    return card_y - y + 14


# --- flak ----------------------------------------------------------------------------------------

WHO = 220  # the most the aircraft's column of a flak row takes
RESULT = 280  # the most a flak row's result takes beside its cards


Entry = tuple[int, bool, bool]  # a card id, struck (answered), drawn as the answer


def _flak_entries(row: FlakRow) -> list[Entry]:
    """The row's cards in play order: each shot's cards, then the card that answered it."""
    entries: list[Entry] = []
    for shot in row.shots:
        entries.extend((card, card == shot.answered, False) for card in shot.cards)
        if shot.answer_card is not None:
            entries.append((shot.answer_card, False, True))
    return entries


def _flak_result(row: FlakRow, locale: str) -> tuple[str, bool]:
    damage = sum(shot.damage for shot in row.shots)
    spoils = sum(shot.spoils for shot in row.shots)
    parts = []
    if damage:
        parts.append(tr("strike.dmg", locale, n=damage))
    if spoils:
        parts.append(tr("strike.spoils", locale, n=spoils))
    return (" · ".join(parts), False) if parts else (tr("strike.no_damage", locale), True)


def _who_column(sheet: _Sheet) -> int:
    """The flak rows' name column: as wide as the widest name in the report, no wider."""
    widest = max(
        (style.text_width(label, style.font(TEXT, "bold")) for label in sheet.labels.values()),
        default=0,
    )
    return min(WHO, 28 + widest + 14)


def _result_width(sheet: _Sheet, row: FlakRow) -> int:
    text, _ = _flak_result(row, sheet.locale)
    return (
        min(RESULT, style.text_width(text, style.fit_font(text, RESULT, (TEXT, SMALL), "bold")))
        + 14
    )


def _flak_layout(sheet: _Sheet, row: FlakRow) -> tuple[list[list[Entry]], bool]:
    """The row's badges in lines; ``True`` when they fit beside the name on one line."""
    entries = _flak_entries(row)
    beside = INNER - _who_column(sheet) - _result_width(sheet, row)

    def width(entry: Entry) -> int:
        return sheet.card_width(entry[0], line=True) + (30 if entry[2] else 0)

    if sum(width(entry) + BADGE_GAP for entry in entries) <= beside:
        return [entries], True
    lines: list[list[Entry]] = [[]]
    used = 0
    for entry in entries:
        if lines[-1] and used + width(entry) > INNER - 40:
            lines.append([])
            used = 0
        lines[-1].append(entry)
        used += width(entry) + BADGE_GAP
    return lines, False


FLAK_LINE = card_size("line", CARD_SCALE)[1] + 8


def _flak_height(sheet: _Sheet, row: FlakRow) -> int:
    lines, beside = _flak_layout(sheet, row)
    return FLAK_LINE + 6 if beside else 40 + len(lines) * FLAK_LINE + 6


def _flak_row(sheet: _Sheet, y: int, row: FlakRow) -> int:
    draw = sheet.draw
    lines, beside = _flak_layout(sheet, row)
    text, quiet = _flak_result(row, sheet.locale)
    middle = y + FLAK_LINE // 2 - 2 if beside else y + 20
    column = _who_column(sheet)
    sheet.who(PAD, middle, row.against, column - 8)
    # Beside its cards the result keeps to its column; above them it has the whole line.
    room = RESULT if beside else INNER - column - 10
    result_font = style.fit_font(text, room, (TEXT, SMALL), "bold")
    style.draw_text(
        draw,
        (WIDTH - PAD, middle),
        text,
        result_font,
        style.MUTED if quiet else style.INK,
        "rm",
        room,
    )
    card_y = y if beside else y + 40
    for line in lines:
        cx = PAD + column if beside else PAD + 28
        for card_id, struck, answer in line:
            if answer:
                style.draw_text(
                    draw,
                    (cx + 2, card_y + FLAK_LINE // 2 - 4),
                    "↩",
                    style.font(TEXT, "bold"),
                    style.INK,
                    "lm",
                )
                cx += 30
            cx += sheet.card(card_id, (cx, card_y), line=True, struck=struck) + BADGE_GAP
        card_y += FLAK_LINE
    return (card_y - y) + 6


# --- air combat --------------------------------------------------------------------------------

DUEL_LINE = 40


def _duel_words(duel: Duel, locale: str) -> tuple[str, str, bool]:
    """The duel's count of attacks, its result, and whether anything was hit."""
    key = "strike.attack_one" if duel.attacks == 1 else "strike.attacks"
    parts: list[str] = []
    if duel.to_defender:
        parts.append(tr("strike.dmg", locale, n=duel.to_defender))
    if duel.to_attacker:
        parts.append(tr("strike.counter", locale, n=duel.to_attacker))
    result = " · ".join(parts) if parts else tr("strike.no_damage", locale)
    return tr(key, locale, n=duel.attacks), result, bool(parts)


def _duel_fits(sheet: _Sheet, duel: Duel) -> bool:
    """Whether the duel reads on one line: both names, the count and the result."""
    count, result, _ = _duel_words(duel, sheet.locale)
    names = sum(
        28 + style.text_width(sheet.label(uid), style.font(TEXT, "bold"))
        for uid in (duel.attacker, duel.defender)
    )
    words = style.text_width(count, style.font(SMALL)) + style.text_width(
        result, style.font(TEXT, "bold")
    )
    return names + 44 + 16 + words + 24 <= INNER


def _duel_height(sheet: _Sheet, duel: Duel) -> int:
    return DUEL_LINE + (0 if _duel_fits(sheet, duel) else 36)


def _duel(sheet: _Sheet, y: int, duel: Duel) -> int:
    """One attacker against one defender: names, then the count and the result, on the
    same line when they fit, else the count and result on a line of their own."""
    draw = sheet.draw
    count, result, hit = _duel_words(duel, sheet.locale)
    one_line = _duel_fits(sheet, duel)
    middle = y + DUEL_LINE // 2
    used = sheet.who(PAD, middle, duel.attacker, 300)
    style.draw_text(
        draw, (PAD + used + 10, middle), "→", style.font(TEXT, "bold"), style.MUTED, "lm"
    )
    used += 44
    used += sheet.who(PAD + used, middle, duel.defender, INNER - used)
    if one_line:
        x = PAD + used + 16
    else:
        middle += 36
        x = PAD + 28
    width = style.draw_text(draw, (x, middle), count, style.font(SMALL), style.MUTED, "lm")
    room = WIDTH - PAD - (x + width + 16)
    colour = style.INK if hit else style.MUTED
    style.draw_text(
        draw, (WIDTH - PAD, middle), result, style.font(TEXT, "bold"), colour, "rm", room
    )
    return _duel_height(sheet, duel)


# --- the legend ---------------------------------------------------------------------------------


def _legend_items(sheet: _Sheet) -> list[LegendItem]:
    locale = sheet.locale
    roles = " ".join(tr(f"role.{role}", locale) for role in ROLES)
    items: list[LegendItem] = [
        (Side.JAPANESE, side_name(Side.JAPANESE, locale)),
        (Side.ALLIED, side_name(Side.ALLIED, locale)),
        (roles, tr("legend.roles", locale)),
    ]
    for icon, key in (
        ("damaged", "legend.damaged"),
        ("destroyed", "legend.destroyed"),
        ("lost", "legend.lost"),
        ("disengaged", "legend.disengaged"),
        ("bomb", "legend.bomb"),
        ("torpedo", "legend.torpedo"),
        ("spoiled", "legend.spoiled"),
    ):
        if icon in sheet.icons:
            items.append((icon, tr(key, locale)))
    if sheet.struck:
        items.append(("╱", tr("legend.struck", locale)))
    # The cards' names, so "TT" or "OTS" need no rulebook (issue 16: a glossary on legends).
    items += [(title, tr(f"strike.card.{title}", locale)) for title in sheet.titles]
    return items


# --- the whole report -----------------------------------------------------------------------------


def render_mission_report(
    report: StrikeReport,
    *,
    place_names: Mapping[str, str],
    cards: Mapping[int, ActionCard],
    locale: str,
) -> bytes:
    """One land mission (or dogfight) as PNG bytes, 800 px wide."""
    headline = style.wrap(
        _headline(report, place_names, locale), style.font(26, "bold"), INNER - 32, 3
    )
    phases = style.wrap(_phases(report, locale), style.font(TEXT), INNER, 3)
    groups = _aircraft_groups(report, locale)
    rows = flak_rows(report.flak)
    pairs = duels(report.exchanges)
    probe = _Sheet(report, cards, locale, 1)  # measures badges before the real canvas
    height = BAR + 16 + 34 * len(phases) + 12 + _outcome_height(report, headline) + 20
    height += sum(42 + ROW * len(items) + 10 for _, _, items in groups)
    if report.bomb_runs:
        height += 42 + sum(_bomb_height(probe, run) for run in report.bomb_runs) + 10
    if rows:
        headings = len({(row.phase, row.kind) for row in rows})
        height += 42 + 40 * headings + sum(_flak_height(probe, row) for row in rows) + 10
    if pairs:
        height += 42 + sum(_duel_height(probe, duel) for duel in pairs) + 10
    height += 40 * 12 + 20  # the legend's lines, at most; cropped to what it uses

    sheet = _Sheet(report, cards, locale, height)
    image, draw = sheet.image, sheet.draw
    origin = place_names.get(report.origin) or place_label(report.origin, locale)
    target = place_names.get(report.target) or place_label(report.target, locale)
    title = tr(
        "strike.title",
        locale,
        kind=tr(f"strike.kind.{report.kind}", locale),
        side=side_name(report.attacker, locale),
        id=report.id,
    )
    subtitle = tr("strike.route", locale, origin=origin, target=target, turn=report.turn)
    right = tr("strike.order_mission", locale, n=report.order)
    y = title_bar(image, draw, title, subtitle, right, side=report.attacker) + 16
    for part in phases:
        style.draw_text(draw, (PAD, y), part, style.font(TEXT), style.INK)
        y += 34
    y += 12
    y += _outcome(sheet, y, headline) + 20
    for side, heading, items in groups:
        style.draw_marker(draw, (PAD + 11, y + 12), 20, side)
        style.draw_text(
            draw,
            (PAD + 30, y + 12),
            heading,
            style.font(TEXT, "bold"),
            style.side_style(side).dark,
            "lm",
        )
        draw.line((PAD, y + 30, WIDTH - PAD, y + 30), fill=style.RULE, width=2)
        y += 42
        for aircraft in items:
            _aircraft_row(sheet, y, aircraft)
            y += ROW
        y += 10
    if report.bomb_runs:
        y += section(draw, y, tr("strike.bombing", locale))
        for run in report.bomb_runs:
            y += _bomb_run(sheet, y, run)
        y += 10
    if rows:
        y += section(draw, y, tr("strike.flak_title", locale))
        heading = ""
        for row in rows:
            key = f"{row.phase}/{row.kind}"
            if key != heading:
                heading = key
                text = (
                    f"{tr(f'strike.phase.{row.phase}', locale)} · "
                    f"{tr(f'strike.flak.{row.kind}', locale)}"
                )
                style.draw_text(
                    draw, (PAD, y + 20), text, style.font(SMALL, "bold"), style.MUTED, "lm", INNER
                )
                y += 40
            y += _flak_row(sheet, y, row)
        y += 10
    if pairs:
        y += section(draw, y, tr("strike.combat", locale))
        for duel in pairs:
            y += _duel(sheet, y, duel)
        y += 10
    draw.line((PAD, y, WIDTH - PAD, y), fill=style.FAINT, width=1)
    y = legend(image, draw, y + 8, _legend_items(sheet), ICON_NAMES) + 16
    return style.to_png(image.crop((0, 0, WIDTH, min(y, image.height))))
