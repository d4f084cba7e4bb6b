"""The land campaign's presenter: mission card, schematic campaign map, resource reveal,
mission report (the strike report of the flown mission) and after-action summary.

Everything shown comes from the public view (``engine.rulesets.land.view``: a land state
holds no secret, the sheet comes in words); the picks of a round reach this module only through the
reveal lines the application built after the reveal. Every image is 800 px wide with text of
22 px or more (11 px on a 400 px phone); the reveal and the mission report are the phone
versions of ``rendering.zero.phone_cards`` and ``rendering.rulesets.land.mission_report``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.ruleset import Decision, Option
from engine.rulesets.land.view import (
    NO_RESOURCE_ID,
    THEATRES,
    LandView,
    MissionRecord,
    PublicResource,
    PublicSheet,
    PublicTarget,
    public_sheet,
    resource_number,
    sheet_of,
)
from engine.zero.catalog import Catalog
from engine.zero.types import Side
from rendering import style
from rendering.i18n import t, word
from rendering.presenter import NO_DRAFTS, Presenter, Report, RevealLine
from rendering.rulesets.land.mission_report import render_mission_report
from rendering.rulesets.land.vp_words import vp_reason
from rendering.text import band_name, doctrine_name
from rendering.zero.log_words import ZeroLogWords
from rendering.zero.phone_cards import BAR, BAR_PLAIN, SMALL, TEXT, reveal_card, title_bar
from rendering.zero.reveal import RevealSide

WIDTH = 800
PAD = 24
LINE = 34  # one line of 24 px text
MAP_HEIGHT = 440
MAP_LEGEND_LINE = 40


def _target_mark(
    draw: ImageDraw.ImageDraw,
    centre: tuple[int, int],
    attacker: Side,
    *,
    flown: bool,
    size: int = 44,
) -> None:
    """A Mission Target on the map: a disc when the Japanese attack it, a square when the
    Allies do (the side markers' shapes), filled grey once flown."""
    look = style.side_style(attacker)
    x, y = centre
    half = size // 2
    box = (x - half, y - half, x + half, y + half)
    fill = style.FAINT if flown else look.light
    if look.marker == "circle":
        draw.ellipse(box, fill=fill, outline=look.dark, width=3)
    else:
        draw.rounded_rectangle(box, radius=4, fill=fill, outline=look.dark, width=3)


Box = tuple[int, int, int, int]
PLATE_LINE = 30  # a line of the coming target's name plate


def target_places(sheet: PublicSheet, top: int) -> list[tuple[int, int]]:
    """Each Mission Target's centre on the map drawn from ``top``, in the sheet's order."""
    x0, y0 = PAD + 40, top + 66
    span_x, span_y = WIDTH - 2 * PAD - 80, MAP_HEIGHT - 100
    places = []
    for index, target in enumerate(sheet.targets):
        gx, gy = target.map or ((index % 6) * 20, (index // 6) * 50)
        places.append((x0 + span_x * gx // 100, y0 + span_y * gy // 100))
    return places


def plate_frame(top: int) -> Box:
    """Where the coming target's name plate may go: inside the map, under its title."""
    return (PAD + 6, top + 50, WIDTH - PAD - 6, top + MAP_HEIGHT - 6)


def _label_box(
    at: tuple[int, int],
    label: str,
    frame: Box,
    others: Sequence[tuple[int, int]],
) -> tuple[Box, list[str]]:
    """Where the coming target's name goes, and in how many lines: inside the map, on as
    few other targets as can be, then on one line rather than two, then as near its mark
    as can be (beside it first, then above or below, then anywhere with a leader line)."""
    cx, cy = at
    left, top, right, bottom = frame
    name_font = style.font(TEXT, "bold")

    def covered(box: Box) -> int:
        x0, y0, x1, y1 = box
        hits = sum(1 for ox, oy in others if x0 - 24 < ox < x1 + 24 and y0 - 24 < oy < y1 + 24)
        own = x0 - 32 < cx < x1 + 32 and y0 - 32 < cy < y1 + 32
        return hits + (100 if own else 0)

    def away(box: Box) -> float:
        x0, y0, x1, y1 = box
        dx = max(x0 - cx, 0, cx - x1)
        dy = max(y0 - cy, 0, cy - y1)
        return math.hypot(dx, dy)

    choices: list[tuple[int, int, float, Box, list[str]]] = []
    one_line = style.text_width(label, name_font)
    layouts = [[label]]
    for room in (one_line // 2 + 40, one_line // 2 + 100, one_line * 2 // 3 + 40):
        halves = style.wrap(label, name_font, max(220, room), 2)
        if " ".join(halves) == label:  # two whole lines, nothing cut
            layouts.append(halves)
            break
    for lines in layouts:
        width = min(max(style.text_width(line, name_font) for line in lines) + 16, right - left)
        height = 8 + PLATE_LINE * len(lines)

        def placed(x: int, y: int, width: int = width, height: int = height) -> Box:
            x = max(left, min(x, right - width))
            y = max(top, min(y, bottom - height))
            return (x, y, x + width, y + height)

        boxes = [
            placed(x, cy - height // 2 + dy)
            for dy in (0, -48, 48, -96, 96, -144, 144)
            for x in (cx + 36, cx - 36 - width)
        ]
        boxes += [placed(cx - width // 2, cy + dy) for dy in (-36 - height, 36)]
        boxes += [  # a coarse grid keeps this cheap
            placed(x, y)
            for y in range(top, bottom - height + 1, 24)
            for x in range(left, right, 40)
        ]
        choices += [(covered(box), len(lines), away(box), box, lines) for box in boxes]
    best = min(choices, key=lambda choice: choice[:3])  # min keeps the first of equals
    return best[3], best[4]


def _leader(draw: ImageDraw.ImageDraw, at: tuple[int, int], box: Box) -> None:
    """A line from the coming target's ring to its name, when the name stands apart."""
    cx, cy = at
    x0, y0, x1, y1 = box
    px, py = min(max(cx, x0), x1), min(max(cy, y0), y1)  # the plate's point nearest the mark
    distance = math.hypot(px - cx, py - cy)
    if distance > 40:
        sx = cx + (px - cx) * 31 / distance
        sy = cy + (py - cy) * 31 / distance
        draw.line((sx, sy, px, py), fill=style.ACCENT, width=3)


def side_text(side: str | Side, locale: str) -> str:
    value = side.value if isinstance(side, Side) else side
    return t(f"service.side.{value}", locale)


def _l(key: str, locale: str, **params: object) -> str:
    return t(f"land.{key}", locale, **params)


# The sheets' words (names, places, resources) are English data; every one of them has an
# entry in rendering/locales/<lang>/land.toml, keyed by theatre and number. A sheet
# edited without its words falls back to the data's English rather than to a raw key.


def _resource_key(theatre: str, resource: PublicResource) -> str:
    periods = "@" + "+".join(resource.periods) if resource.periods else ""
    return f"land.resource.{theatre}.{resource.side.value}.{resource.number}{periods}"


def resource_title(theatre: str, resource: PublicResource, locale: str) -> str:
    """The resource's name in the reader's language."""
    return word(f"{_resource_key(theatre, resource)}.name", resource.name, locale)


def resource_text(theatre: str, resource: PublicResource, locale: str) -> str:
    """What the resource does, in the reader's language."""
    return word(f"{_resource_key(theatre, resource)}.text", resource.text, locale)


def theatre_name(sheet: PublicSheet, locale: str) -> str:
    return word(f"land.theatre.{sheet.key}", sheet.name, locale)


def period_text(sheet: PublicSheet, period_key: str, locale: str) -> str:
    return word(f"land.period.{sheet.key}.{period_key}", sheet.period_name(period_key), locale)


def location_text(sheet: PublicSheet, target: PublicTarget, locale: str) -> str:
    return word(f"land.location.{sheet.key}.{target.number}", target.location, locale)


def kind_text(kind: str, locale: str) -> str:
    """A target's kind ("Airfield", "Ground Forces"...): the Target Sheet's name."""
    key = kind.lower().replace(" / ", "-").replace(" ", "-")
    return word(f"land.kind.{key}", kind, locale)


def forces_text(forces: str, locale: str) -> str:
    """Aircraft in the seed's notation, with the reader's letters for an element (L/W)."""
    return forces.replace("L/W", t("land.notation.pair", locale))


class LandPresenter(ZeroLogWords, Presenter[LandView]):
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    # ------------------------------------------------------------------ data helpers

    @staticmethod
    def _resources(scenario: str, side: Side, number: int) -> list[PublicResource]:
        """The resource(s) a number names in a scenario: one, or one per period when the
        list changes with the period and the scenario plays several."""
        return sheet_of(scenario).resources_named(side, number, scenario.partition("-")[2])

    def resource_name(self, scenario: str, option_id: str, locale: str) -> str:
        try:
            side, number = resource_number(option_id)
        except ValueError:
            return option_id
        if side is None:
            return _l("no-resource", locale)
        found = self._resources(scenario, side, number)
        theatre = scenario.partition("-")[0]
        names = " / ".join(dict.fromkeys(resource_title(theatre, r, locale) for r in found))
        return f"#{number} {names}" if names else f"#{number}"

    @staticmethod
    def _target_line(sheet: PublicSheet, target: PublicTarget, locale: str) -> str:
        kind = kind_text(target.target, locale)
        if target.dogfight:
            kind = _l("dogfight", locale)
        elif target.evacuation:
            kind = _l("evacuation", locale)
        return f"#{target.number} {kind} — {location_text(sheet, target, locale)}"

    def _mission_lines(self, view: LandView, locale: str) -> list[str]:
        state = view
        campaign = view.sheet
        target = campaign.target(state.draw.target)
        card = next((c for c in self.catalog.deck.cards if c.id == state.draw.card), None)
        lines = [
            _l(
                "mission-line",
                locale,
                mission=state.turn,
                missions=state.missions,
                period=period_text(campaign, state.draw.period, locale),
            ),
            _l(
                "drawn",
                locale,
                card=card.label if card else state.draw.card,
                row=state.draw.key,
                number=state.draw.listed,
            ),
            self._target_line(campaign, target, locale),
        ]
        if state.draw.listed != state.draw.target:
            lines.append(_l("replaced", locale, listed=state.draw.listed, number=target.number))
        lines.append(
            _l(
                "attack",
                locale,
                side=side_text(target.attacker, locale),
                aircraft=forces_text(target.attackers, locale),
            )
        )
        if target.defenders:
            lines.append(
                _l(
                    "defend",
                    locale,
                    side=side_text(target.attacker.enemy, locale),
                    aircraft=forces_text(target.defenders, locale),
                )
            )
        lines.append(
            _l(
                "details",
                locale,
                sheet=(
                    f"{target.sheet} {kind_text(target.sheet_name or '', locale)}"
                    if target.sheet
                    else "—"
                ),
                band=band_name(target.band, locale),
                turns=target.turns,
            )
        )
        return lines

    # ------------------------------------------------------------------ words

    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: object = None
    ) -> str:
        if field == "resource":
            return self.resource_name(scenario, value, locale)
        if field == "doctrine":
            return doctrine_name(value, locale)
        return value

    def option_description(self, field: str, option: Option, locale: str) -> str:
        if field == "doctrine":
            described = t(f"orders.doctrine.{option.id}", locale)
            return option.detail if described == f"orders.doctrine.{option.id}" else described
        if field == "resource" and option.id == NO_RESOURCE_ID:
            return _l("no-resource-detail", locale)
        if field == "resource":
            # No scenario here: the sheet's English text identifies the resource.
            for key in THEATRES:
                for resource in public_sheet(key).resources:
                    if resource.text == option.detail:
                        return resource_text(key, resource, locale)
        return option.detail

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        labels = [
            self.option_text(scenario, decision.field, option.id, locale)
            for option in decision.options
        ]
        return [" · ".join(labels)]

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]:
        return [
            (
                self.option_text(scenario, decision.field, e.id, locale),
                t(f"service.reason.{e.reason}", locale),
            )
            for e in decision.excluded
        ]

    def panel_notes(
        self, scenario: str, view: LandView, side: str, drafts: Mapping[str, str], locale: str
    ) -> tuple[list[str], list[str]]:
        before = self._mission_lines(view, locale) if not view.finished else []
        used = view.used.get(Side(side), ())
        if used:
            before.append(_l("used", locale, used=", ".join(f"#{n}" for n in used)))
        after: list[str] = []
        draft = drafts.get("resource")
        if draft and draft != NO_RESOURCE_ID:
            try:
                owner, number = resource_number(draft)
            except ValueError:
                owner = None
            if owner is not None:
                for resource in self._resources(scenario, owner, number)[:1]:
                    after.append(
                        t(
                            "orders.resource-effect",
                            locale,
                            resource=self.resource_name(scenario, draft, locale),
                            effect=resource_text(scenario.partition("-")[0], resource, locale),
                        )
                    )
        return before, after

    def _vp(self, view: LandView, locale: str) -> str:
        return " – ".join(f"{side_text(side, locale)} {view.vp.get(side, 0)}" for side in Side)

    def board_summary(self, view: LandView, locale: str) -> str:
        state = view
        target = view.sheet.target(state.draw.target)
        return _l(
            "board",
            locale,
            vp=self._vp(view, locale),
            mission=state.turn,
            missions=state.missions,
            target=f"#{target.number} {location_text(view.sheet, target, locale)}",
        )

    def panel_summary(self, view: LandView, side: str, locale: str) -> str:
        return self.board_summary(view, locale)

    def _record(self, view: LandView, turn: int) -> MissionRecord | None:
        return next((r for r in view.history if r.mission == turn), None)

    def turn_summary(self, view: LandView, turn: int, locale: str) -> list[str]:
        record = self._record(view, turn)
        if record is None:
            return [t("service.summary.vp", locale, vp=self._vp(view, locale))]
        return [
            _l(
                "mission-vp",
                locale,
                mission=turn,
                japanese=record.vp.get(Side.JAPANESE, 0),
                allied=record.vp.get(Side.ALLIED, 0),
            ),
            _l(
                "totals",
                locale,
                japanese=record.totals.get(Side.JAPANESE, 0),
                allied=record.totals.get(Side.ALLIED, 0),
            ),
        ]

    def status_lines(self, view: LandView, locale: str) -> list[str]:
        state = view
        campaign = view.sheet
        lines = [
            _l(
                "status",
                locale,
                name=theatre_name(campaign, locale),
                mission=state.turn,
                missions=state.missions,
                vp=self._vp(view, locale),
            )
        ]
        if state.finished:
            lines.append(self._outcome(state, locale))
        else:
            lines.append(self._target_line(campaign, campaign.target(state.draw.target), locale))
        return lines

    @staticmethod
    def _outcome(state: LandView, locale: str) -> str:
        winner = state.winner or "draw"
        who = _l("draw", locale) if winner == "draw" else side_text(winner, locale)
        levels = {side: state.performance.get(side, "stalemate") for side in Side}
        perf = ", ".join(
            _l(
                "side-state",
                locale,
                side=side_text(side, locale),
                state=_l(f"level.{levels[side]}", locale),
            )
            for side in Side
        )
        return _l("outcome", locale, winner=who, performance=perf)

    # ------------------------------------------------------------------ images

    def _map(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, view: LandView, top: int, locale: str
    ) -> int:
        """The campaign map: each Mission Target's number (24.44) at its place on the sheet's
        schematic map, in the mark of the side that attacks it (a disc for a Japanese
        attack, a square for an Allied one, as the side markers); flown targets greyed, the
        coming one ringed and named. A legend under the map says so."""
        campaign = view.sheet
        flown = set(view.flown)
        height = MAP_HEIGHT
        style.panel(draw, (PAD, top, WIDTH - PAD, top + height), style.SEA, style.RULE)
        title = _l("phone.map-title", locale)
        title_font = style.fit_font(title, WIDTH - 2 * PAD - 28, (TEXT, SMALL), "bold")
        style.draw_text(
            draw, (PAD + 14, top + 10), title, title_font, style.INK, max_width=WIDTH - 2 * PAD - 28
        )
        current: tuple[int, int, PublicTarget] | None = None
        places = target_places(campaign, top)
        for target, (cx, cy) in zip(campaign.targets, places, strict=True):
            if target.number == view.draw.target and not view.finished:
                current = (cx, cy, target)
                draw.ellipse((cx - 31, cy - 31, cx + 31, cy + 31), outline=style.ACCENT, width=6)
            _target_mark(draw, (cx, cy), target.attacker, flown=target.number in flown)
            style.draw_text(
                draw, (cx, cy), str(target.number), style.font(TEXT, "bold"), style.INK, "mm"
            )
        if current is not None:
            cx, cy, target = current
            label = location_text(campaign, target, locale)
            others = [p for p in places if p != (cx, cy)]
            box, lines = _label_box((cx, cy), label, plate_frame(top), others)
            _leader(draw, (cx, cy), box)
            # A paper plate under the name, so a number behind it cannot garble it.
            draw.rounded_rectangle(box, radius=6, fill=style.CARD_BG, outline=style.ACCENT, width=2)
            for index, line in enumerate(lines):
                middle = box[1] + 4 + PLATE_LINE * index + PLATE_LINE // 2
                room = box[2] - box[0] - 14
                style.draw_text(
                    draw,
                    (box[0] + 8, middle),
                    line,
                    style.font(TEXT, "bold"),
                    style.INK,
                    "lm",
                    room,
                )
        return top + height

    @staticmethod
    def _map_legend_items(
        locale: str, ringed: bool
    ) -> list[tuple[str, Side | None, bool, int, int]]:
        """The map legend's items (words, side mark, flown) laid out in lines: each with
        its x and its line number."""
        items: list[tuple[str, Side | None, bool]] = [
            (_l("phone.map-japanese", locale), Side.JAPANESE, False),
            (_l("phone.map-allied", locale), Side.ALLIED, False),
            (_l("phone.map-flown", locale), Side.JAPANESE, True),
        ]
        if ringed:  # a finished campaign rings no target
            items.append((_l("phone.map-current", locale), None, False))
        placed: list[tuple[str, Side | None, bool, int, int]] = []
        x, line = PAD + 4, 0
        for text, side, flown in items:
            width = 44 + style.text_width(text, style.font(SMALL)) + 24
            if x + width > WIDTH - PAD and x > PAD + 4:
                x, line = PAD + 4, line + 1
            placed.append((text, side, flown, x, line))
            x += width
        return placed

    def _map_legend(self, draw: ImageDraw.ImageDraw, y: int, locale: str, ringed: bool) -> int:
        """What the map's marks mean, under the map: returns the height used."""
        items = self._map_legend_items(locale, ringed)
        for text, side, flown, x, line in items:
            cy = y + 20 + line * MAP_LEGEND_LINE
            if side is None:
                draw.ellipse((x + 4, cy - 16, x + 36, cy + 16), outline=style.ACCENT, width=5)
            else:
                _target_mark(draw, (x + 20, cy), side, flown=flown, size=30)
            style.draw_text(draw, (x + 44, cy), text, style.font(SMALL), style.INK, "lm")
        return (items[-1][4] + 1) * MAP_LEGEND_LINE

    def _card(
        self, view: LandView, top: int, locale: str, extra: Sequence[str] = ()
    ) -> tuple[list[tuple[str, bool]], int]:
        lines = [(line, i == 2) for i, line in enumerate(self._mission_lines(view, locale))]
        lines += [(line, False) for line in extra]
        wrapped: list[tuple[str, bool]] = []
        for text, bold in lines:
            for part in style.wrap(
                text, style.font(TEXT, "bold" if bold else "regular"), WIDTH - 2 * PAD - 28, 3
            ):
                wrapped.append((part, bold))
        return wrapped, top + 20 + len(wrapped) * LINE

    def _mission_image(self, view: LandView, locale: str, extra: Sequence[str] = ()) -> bytes:
        state = view
        campaign = view.sheet
        title = theatre_name(campaign, locale)
        subtitle = _l("subtitle", locale, mission=state.turn, missions=state.missions)
        lines: list[tuple[str, bool]] = []
        if state.finished:
            outcome = self._outcome(state, locale)
            width = WIDTH - 2 * PAD - 28
            lines = [
                (part, True) for part in style.wrap(outcome, style.font(TEXT, "bold"), width, 4)
            ]
        else:
            lines, _ = self._card(view, 0, locale, extra)
        legend_lines = self._map_legend_items(locale, not state.finished)[-1][4] + 1
        legend_height = legend_lines * MAP_LEGEND_LINE
        height = BAR + 16 + MAP_HEIGHT + 8 + legend_height + 12 + 20 + len(lines) * LINE + 20
        image, draw = style.canvas(height, WIDTH)
        title_bar(image, draw, title, subtitle, right=self._vp_short(view, locale))
        y = self._map(image, draw, view, BAR + 16, locale) + 8
        y += self._map_legend(draw, y, locale, not state.finished) + 12
        style.panel(draw, (PAD, y, WIDTH - PAD, height - 16), style.CARD_BG, style.RULE)
        y += 16
        for text, bold in lines:
            style.draw_text(
                draw,
                (PAD + 14, y),
                text,
                style.font(TEXT, "bold" if bold else "regular"),
                style.INK,
            )
            y += LINE
        return style.to_png(image)

    def _vp_short(self, view: LandView, locale: str) -> str:
        return _l(
            "vp-short",
            locale,
            japanese=view.vp.get(Side.JAPANESE, 0),
            allied=view.vp.get(Side.ALLIED, 0),
        )

    def status_board(
        self, view: LandView, locked: Mapping[str, bool], deadline: str | None, locale: str
    ) -> bytes:
        extra = [
            _l(
                "side-state",
                locale,
                side=side_text(side, locale),
                state=_l("locked", locale) if locked.get(side) else _l("waiting", locale),
            )
            for side in ("japanese", "allied")
            if side in locked
        ]
        if deadline:
            extra.append(_l("deadline", locale, deadline=deadline))
        return self._mission_image(view, locale, extra)

    def panel_image(
        self, view: LandView, locale: str, drafts: Mapping[str, str] = NO_DRAFTS
    ) -> bytes:
        return self._mission_image(view, locale)

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
        items = [
            RevealSide(side=Side(line.side), lines=list(line.pairs), receipt=line.receipt)
            for line in sides
        ]
        return reveal_card(title, items, locale)

    def after_action(self, scenario: str, view: LandView, locale: str) -> bytes:
        """One row per mission flown: the target on the left (wrapped, never cut), the
        mission's VP on the right; then the outcome."""
        state = view
        campaign = view.sheet
        score_width = 130
        text_room = WIDTH - 2 * PAD - 28 - score_width - 16
        rows: list[tuple[list[str], str]] = []
        for record in state.history:
            target = campaign.target(record.draw.target)
            row = f"{record.mission}. {self._target_line(campaign, target, locale)}"
            score = f"{record.vp.get(Side.JAPANESE, 0)} / {record.vp.get(Side.ALLIED, 0)}"
            rows.append((style.wrap(row, style.font(TEXT), text_room, 2), score))
        closing = (
            style.wrap(
                self._outcome(state, locale), style.font(TEXT, "bold"), WIDTH - 2 * PAD - 28, 4
            )
            if state.finished
            else [_l("unfinished", locale)]
        )
        head = style.wrap(
            _l("table-head", locale), style.font(SMALL, "bold"), WIDTH - 2 * PAD - 28, 2
        )
        body = sum(len(parts) * LINE + 8 for parts, _ in rows)
        height = BAR_PLAIN + 16 + 14 + len(head) * LINE + 8 + body + 20 + len(closing) * LINE + 30
        image, draw = style.canvas(height, WIDTH)
        title_bar(
            image,
            draw,
            _l("after-action", locale, name=theatre_name(campaign, locale)),
            right=self._vp_short(view, locale),
        )
        y = BAR_PLAIN + 16
        style.panel(draw, (PAD, y, WIDTH - PAD, height - 16), style.CARD_BG, style.RULE)
        y += 14
        for part in head:
            style.draw_text(draw, (PAD + 14, y), part, style.font(SMALL, "bold"), style.MUTED)
            y += LINE
        y += 8
        for parts, score in rows:
            style.draw_text(
                draw, (WIDTH - PAD - 14, y), score, style.font(TEXT, "bold"), style.INK, "ra"
            )
            for part in parts:
                style.draw_text(draw, (PAD + 14, y), part, style.font(TEXT), style.INK)
                y += LINE
            y += 8
        y += 12
        draw.line((PAD + 14, y - 8, WIDTH - PAD - 14, y - 8), fill=style.RULE, width=2)
        for part in closing:
            style.draw_text(
                draw,
                (PAD + 14, y),
                part,
                style.font(TEXT, "bold" if state.finished else "regular"),
                style.INK if state.finished else style.MUTED,
            )
            y += LINE
        return style.to_png(image)

    # ------------------------------------------------------------------ mission reports

    def report_count(self, view: LandView, turn: int) -> int:
        return 1 if self._record(view, turn) is not None else 0

    def _summary(self, scenario: str, record: MissionRecord, locale: str) -> str:
        sheet = sheet_of(scenario)
        target = sheet.target(record.draw.target)
        report = record.report
        # The sheet's attacker, whoever had the initiative in the strike engine (a dogfight
        # may fly the listed defenders as the raiders).
        attackers = [a for a in report.aircraft if a.side is target.attacker]
        defenders = [a for a in report.aircraft if a.side is not target.attacker]
        lost = sum(1 for a in attackers if a.state.value == "destroyed")
        lost_d = sum(1 for a in defenders if a.state.value == "destroyed")
        first = _l(
            "report-title",
            locale,
            mission=record.mission,
            side=side_text(target.attacker, locale),
            target=self._target_line(sheet, target, locale),
        )
        second = _l(
            "report-losses",
            locale,
            flew=len(attackers),
            lost=lost,
            defenders=len(defenders),
            defenders_lost=lost_d,
        )
        third = _l(
            "report-vp",
            locale,
            count=report.target_points,
            points=report.target_points,
            japanese=record.vp.get(Side.JAPANESE, 0),
            allied=record.vp.get(Side.ALLIED, 0),
        )
        extra = []
        if record.clouds_card is not None:
            extra.append(_l("clouds-on" if record.clouds else "clouds-off", locale))
        if record.dispersal_points:
            points = record.dispersal_points
            extra.append(_l("dispersal", locale, count=points, points=points))
        return "\n".join([f"**{first}**", second, third, *extra])

    def report(self, scenario: str, view: LandView, turn: int, index: int, locale: str) -> Report:
        record = self._record(view, turn)
        if record is None or index != 0:
            return Report(t("service.strike.missing", locale, strike=f"{turn}.{index}"))
        target = view.sheet.target(record.draw.target)
        names = {
            record.report.target: f"#{target.number} {location_text(view.sheet, target, locale)}",
            "land": theatre_name(view.sheet, locale),
        }
        png = render_mission_report(
            record.report,
            place_names=names,
            cards={card.id: card for card in self.catalog.deck.cards},
            locale=locale,
        )
        return Report(self._summary(scenario, record, locale), f"mission-{turn}.png", png)

    def after_action_turn(
        self, scenario: str, view: LandView, turn: int, locale: str, images: Mapping[str, str]
    ) -> list[str]:
        record = self._record(view, turn)
        if record is None:
            return []
        lines = [
            "- " + self._summary(scenario, record, locale).replace("\n", " — ").replace("**", "")
        ]
        key = f"mission-{turn}"
        if key in images:
            lines.append(f"  ![{key}]({images[key]})")
        for vp_line in record.lines:
            side, reason = side_text(vp_line.side, locale), vp_reason(vp_line.reason, locale)
            lines.append(t("land.vp-line.line", locale, side=side, vp=vp_line.vp, reason=reason))
        if view.finished and turn == view.missions:
            lines.append(f"- {self._outcome(view, locale)}")  # 24.7, after the last mission
        return [*lines, ""]
