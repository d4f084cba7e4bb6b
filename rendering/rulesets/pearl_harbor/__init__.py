"""The Pearl Harbor presenter: the target map (assignments and damage), the reveal, one
wave report per wave and the after-action table. Images 800 px wide for a phone, text 24
px (22 px at the least: 11 px when Discord shows the image 400 px wide)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import ImageDraw

from engine.ruleset import Decision, Option
from engine.rulesets.pearl_harbor.view import NONE, PearlView, WaveRecord, load_pearl
from engine.zero.catalog import Catalog
from engine.zero.types import Side
from rendering import style
from rendering.i18n import t, word
from rendering.presenter import NO_DRAFTS, Presenter, Report, RevealLine
from rendering.text import scenario_name
from rendering.zero.log_words import ZeroLogWords
from rendering.zero.phone_cards import BAR, SMALL, TEXT, reveal_card, title_bar
from rendering.zero.reveal import RevealSide

WIDTH = 800
PAD = 24
LINE = 34  # one line of 24 px text
MAP_HEIGHT = 420
ACCENT_INK = (150, 90, 0)  # the amber of "now", dark enough for words on the sea


def _p(key: str, locale: str, **params: object) -> str:
    return t(f"pearl.{key}", locale, **params)


class PearlPresenter(ZeroLogWords, Presenter[PearlView]):
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.sheet = load_pearl()

    # ------------------------------------------------------------------ words

    def target_name(self, key: str, locale: str) -> str:
        if key == NONE:
            return _p("hold", locale)
        try:
            name = self.sheet.target(key).name
        except StopIteration:
            return key
        return word(f"pearl.target.{key}", name, locale)

    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: object = None
    ) -> str:
        return self.target_name(value, locale)

    def option_description(self, field: str, option: Option, locale: str) -> str:
        if option.id == NONE:
            return _p("hold-detail", locale)
        return _p(f"mode.{self.sheet.group(field).mode}", locale)

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        return [" · ".join(self.target_name(o.id, locale) for o in decision.options)]

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]:
        return []

    def panel_notes(
        self, scenario: str, view: PearlView, side: str, drafts: Mapping[str, str], locale: str
    ) -> tuple[list[str], list[str]]:
        before = [_p("wave-line", locale, wave=view.turn, waves=view.waves)]
        for group in self.sheet.groups:
            count = group.count[view.turn - 1] - view.lost.get(group.key, 0)
            if count > 0 and not view.finished:
                before.append(
                    _p(
                        "group-line",
                        locale,
                        group=t(f"service.field.{group.key}", locale),
                        count=count,
                        aircraft=group.aircraft,
                    )
                )
        return before, []

    def _vp(self, view: PearlView, locale: str) -> str:
        return _p(
            "vp", locale, japanese=view.vp.get("japanese", 0), allied=view.vp.get("allied", 0)
        )

    def board_summary(self, view: PearlView, locale: str) -> str:
        return _p("board", locale, wave=view.turn, waves=view.waves, vp=self._vp(view, locale))

    def panel_summary(self, view: PearlView, side: str, locale: str) -> str:
        return self.board_summary(view, locale)

    def _record(self, view: PearlView, turn: int) -> WaveRecord | None:
        return next((r for r in view.history if r.wave == turn), None)

    def _attack_lines(self, record: WaveRecord, locale: str) -> list[str]:
        return [
            _p(
                "attack",
                locale,
                group=t(f"service.field.{a.group}", locale),
                target=self.target_name(a.target, locale),
                defence=_p(f"defence.{a.defence.replace(' ', '-')}", locale),
                lost=a.lost,
                count=a.points,
                points=a.points,
            )
            for a in record.attacks
        ] or [_p("no-attack", locale)]

    def turn_summary(self, view: PearlView, turn: int, locale: str) -> list[str]:
        record = self._record(view, turn)
        return [*(self._attack_lines(record, locale) if record else []), self._vp(view, locale)]

    def _outcome(self, view: PearlView, locale: str) -> str:
        return _p("outcome", locale, level=_p(f"level.{view.performance}", locale))

    def status_lines(self, view: PearlView, locale: str) -> list[str]:
        lines = [_p("status", locale, wave=view.turn, waves=view.waves, vp=self._vp(view, locale))]
        if view.finished:
            lines.append(self._outcome(view, locale))
        return lines

    # ------------------------------------------------------------------ images

    def _map(
        self,
        draw: ImageDraw.ImageDraw,
        view: PearlView,
        top: int,
        locale: str,
        gained: Mapping[str, int] | None = None,
        damage: Mapping[str, int] | None = None,
    ) -> int:
        """The targets at their places, each an American square mark (the Allied marker's
        shape) holding its damage points, ringed once its damage level scores; a wave's
        report adds what that wave put on each target ("+4")."""
        style.panel(draw, (PAD, top, WIDTH - PAD, top + MAP_HEIGHT), style.SEA, style.RULE)
        title = _p("map", locale)
        title_font = style.fit_font(title, WIDTH - 2 * PAD - 28, (TEXT, SMALL), "bold")
        style.draw_text(
            draw, (PAD + 14, top + 10), title, title_font, style.INK, max_width=WIDTH - 2 * PAD - 28
        )
        look = style.side_style(Side.ALLIED)
        x0, y0, span_x, span_y = PAD + 50, top + 76, WIDTH - 2 * PAD - 320, MAP_HEIGHT - 116
        for target in self.sheet.targets:
            cx = x0 + span_x * target.map[0] // 100
            cy = y0 + span_y * target.map[1] // 100
            points = (view.damage if damage is None else damage).get(target.key, 0)
            level = self.catalog.targets[target.sheet].level(points)
            if level is not None and level.vp > 0:
                draw.ellipse((cx - 33, cy - 33, cx + 33, cy + 33), outline=style.ACCENT, width=6)
            draw.rounded_rectangle(
                (cx - 22, cy - 22, cx + 22, cy + 22),
                radius=5,
                fill=look.light,
                outline=look.dark,
                width=3,
            )
            style.draw_text(draw, (cx, cy), str(points), style.font(TEXT, "bold"), style.INK, "mm")
            x = cx + 40
            x += style.draw_text(
                draw, (x, cy), _p(f"short.{target.key}", locale), style.font(TEXT), style.INK, "lm"
            )
            added = (gained or {}).get(target.key, 0)
            if added:
                style.draw_text(
                    draw, (x + 10, cy), f"+{added}", style.font(TEXT, "bold"), ACCENT_INK, "lm"
                )
        return top + MAP_HEIGHT

    def _image(
        self,
        view: PearlView,
        text: Sequence[str],
        locale: str,
        wave: int | None = None,
        gained: Mapping[str, int] | None = None,
        damage: Mapping[str, int] | None = None,
    ) -> bytes:
        lines = [
            part
            for line in text
            for part in style.wrap(
                line.replace("**", ""), style.font(TEXT), WIDTH - 2 * PAD - 28, 3
            )
        ]
        height = BAR + 16 + MAP_HEIGHT + 16 + 28 + LINE * len(lines) + 16
        image, draw = style.canvas(height, WIDTH)
        shown = wave if wave is not None else view.turn  # a wave's report names its wave
        title_bar(
            image,
            draw,
            scenario_name("pearl-harbor", self.sheet.name, locale),
            _p("subtitle", locale, wave=shown, waves=view.waves),
            right=_p(
                "after-action.score",
                locale,
                japanese=view.vp.get("japanese", 0),
                allied=view.vp.get("allied", 0),
            ),
        )
        y = self._map(draw, view, BAR + 16, locale, gained, damage) + 16
        style.panel(draw, (PAD, y, WIDTH - PAD, height - 16), style.CARD_BG, style.RULE)
        y += 14
        for line in lines:
            style.draw_text(
                draw,
                (PAD + 14, y),
                line,
                style.font(TEXT),
                style.INK,
                max_width=WIDTH - 2 * PAD - 28,
            )
            y += LINE
        return style.to_png(image)

    def status_board(
        self, view: PearlView, locked: Mapping[str, bool], deadline: str | None, locale: str
    ) -> bytes:
        lines = self.status_lines(view, locale)
        if deadline:
            lines.append(_p("deadline", locale, deadline=deadline))
        return self._image(view, lines, locale)

    def panel_image(
        self, view: PearlView, locale: str, drafts: Mapping[str, str] = NO_DRAFTS
    ) -> bytes:
        return self._image(view, self.panel_notes("", view, "japanese", {}, locale)[0], locale)

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
        items = [
            RevealSide(side=Side(line.side), lines=list(line.pairs), receipt=line.receipt)
            for line in sides
        ]
        return reveal_card(title, items, locale)

    def after_action(self, scenario: str, view: PearlView, locale: str) -> bytes:
        lines = [
            _p(
                "after-action.line",
                locale,
                target=self.target_name(target.key, locale),
                points=view.damage.get(target.key, 0),
            )
            for target in self.sheet.targets
        ]
        lines.append(self._vp(view, locale))
        if view.finished:
            lines.append(self._outcome(view, locale))
        return self._image(view, lines, locale)

    # ------------------------------------------------------------------ reports

    def report_count(self, view: PearlView, turn: int) -> int:
        return 1 if self._record(view, turn) is not None else 0

    def report(self, scenario: str, view: PearlView, turn: int, index: int, locale: str) -> Report:
        record = self._record(view, turn)
        if record is None or index != 0:
            return Report(t("service.strike.missing", locale, strike=f"{turn}.{index}"))
        lines = self._attack_lines(record, locale)
        text = "\n".join([f"**{_p('wave-title', locale, wave=turn)}**", *lines])
        gained: dict[str, int] = {}
        for attack in record.attacks:
            gained[attack.target] = gained.get(attack.target, 0) + attack.points
        # The map as the wave left it, whatever came after.
        png = self._image(view, lines, locale, wave=turn, gained=gained, damage=record.damage)
        return Report(text, f"wave-{turn}.png", png)

    def after_action_turn(
        self, scenario: str, view: PearlView, turn: int, locale: str, images: Mapping[str, str]
    ) -> list[str]:
        record = self._record(view, turn)
        if record is None:
            return []
        lines = [f"- {line}" for line in self._attack_lines(record, locale)]
        if f"wave-{turn}" in images:
            lines.append(f"  ![wave-{turn}]({images[f'wave-{turn}']})")
        if view.finished and turn == view.waves:
            lines.append(f"- {self._outcome(view, locale)}")
        return [*lines, ""]
