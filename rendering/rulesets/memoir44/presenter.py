"""The Memoir '44 air war's presenter: words for panels, the channel and the log, and the
air picture for every image (status, DM panel, the turn report, the after-action report).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.ruleset import Decision, Option
from engine.rulesets.memoir44.view import AirView, TurnRecord, drafted_flight
from rendering.i18n import t
from rendering.presenter import NO_DRAFTS, Presenter, Report, RevealLine
from rendering.rulesets.memoir44.picture import air_picture, reveal_picture
from rendering.rulesets.memoir44.words import (
    card_effect,
    hand_lines,
    medals_line,
    option_words,
    record_models,
    side_line,
    side_word,
    turn_lines,
    w,
)


class Memoir44Presenter(Presenter[AirView]):
    # ------------------------------------------------------------------ words

    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: object = None
    ) -> str:
        return option_words(field, value, locale)

    def option_description(self, field: str, option: Option, locale: str) -> str:
        if field in ("card", "reaction") and option.id != "none":
            return card_effect(option.id.partition("@")[0], locale)[:100]
        if field == "command":
            return w(f"command-detail.{option.id}", locale)[:100]
        if field == "plane":
            return w(f"action-detail.{option.id}", locale)[:100]
        return ""

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        if decision.field in ("flight", "fire"):
            return [w(f"help.{decision.field}", locale)]
        return []

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]:
        return [
            (
                option_words(decision.field, e.id, locale),
                t(f"service.reason.{e.reason}", locale),
            )
            for e in decision.excluded
        ]

    def panel_notes(
        self, scenario: str, view: AirView, side: str, drafts: Mapping[str, str], locale: str
    ) -> tuple[list[str], list[str]]:
        before = [side_line(view, s, locale) for s in ("allies", "axis")]
        before += hand_lines(view, side, locale)
        plan = view.plan
        if view.phase == "reaction" and plan is not None and plan.side != side:
            before.append(w("asked-reaction", locale, side=side_word(plan.side, locale)))
            before += [f"› {line}" for line in _current(view, locale)]
        elif view.phase == "flight" and plan is not None:
            before.append(w("asked-flight", locale))
        after: list[str] = []
        card = drafts.get("card")
        if card and card != "none":
            after.append(w("draft-card", locale, effect=card_effect(card, locale)))
        if not view.finished:
            after.append("-# " + w("panel-help", locale))
        return before, after

    def board_summary(self, view: AirView, locale: str) -> str:
        return w(
            "alt.board",
            locale,
            turn=view.turn,
            side=side_word(view.active, locale),
            allies=side_line(view, "allies", locale),
            axis=side_line(view, "axis", locale),
        )

    def panel_summary(self, view: AirView, side: str, locale: str) -> str:
        hand = view.sides[side].hand if side in view.sides else None
        return w(
            "alt.panel",
            locale,
            board=self.board_summary(view, locale),
            hand=w("air-cards", locale, count=len(hand or ())),
        )

    def turn_summary(self, view: AirView, turn: int, locale: str) -> list[str]:
        # The turn's report, posted just before, tells it in full with its picture: the
        # summary only keeps the score, so the channel does not read the turn twice.
        return [medals_line(view, locale)]

    def status_lines(self, view: AirView, locale: str) -> list[str]:
        lines = [
            w(
                "status-line",
                locale,
                turn=view.turn,
                side=side_word(view.active, locale),
                round=w(f"phase.{view.phase}", locale),
            )
        ]
        if view.finished:
            winner = view.winner
            lines = [
                w("over-win", locale, side=side_word(winner, locale))
                if winner in ("allies", "axis")
                else w("over", locale)
            ]
        lines += [side_line(view, s, locale) for s in ("allies", "axis")]
        lines.append(medals_line(view, locale))
        return lines

    # ------------------------------------------------------------------ images

    def status_board(
        self, view: AirView, locked: Mapping[str, bool], deadline: str | None, locale: str
    ) -> bytes:
        lines = _current(view, locale)
        if deadline:
            lines.append(w("deadline", locale, deadline=deadline))
        return air_picture(view, lines, locale)

    def panel_image(
        self, view: AirView, locale: str, drafts: Mapping[str, str] = NO_DRAFTS
    ) -> bytes:
        drafted = drafts.get("flight")
        ghost = drafted_flight(view, drafted) if drafted else None
        return air_picture(view, _current(view, locale), locale, ghost=ghost)

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
        return reveal_picture(title, sides, locale)

    def after_action(self, scenario: str, view: AirView, locale: str) -> bytes:
        return air_picture(view, self.status_lines(view, locale)[:1], locale)

    # ------------------------------------------------------------------ reports

    def report_count(self, view: AirView, turn: int) -> int:
        return 1 if _record(view, turn) is not None else 0

    def report(self, scenario: str, view: AirView, turn: int, index: int, locale: str) -> Report:
        record = _record(view, turn)
        if record is None or index != 0:
            return Report(t("service.strike.missing", locale, strike=f"{turn}.{index}"))
        lines = turn_lines(record, locale, record_models(view, record))
        title = w("report-title", locale, turn=turn, side=side_word(record.plan.side, locale))
        text = "\n".join([f"**{title}**", *lines])
        picture = air_picture(view.model_copy(update={"plan": None}), lines, locale, title)
        return Report(text[:1900], f"air-turn-{turn}.png", picture)

    def after_action_turn(
        self, scenario: str, view: AirView, turn: int, locale: str, images: Mapping[str, str]
    ) -> list[str]:
        record = _record(view, turn)
        if record is None:
            return []
        lines = [f"- {line}" for line in turn_lines(record, locale, record_models(view, record))]
        name = f"air-turn-{turn}"
        if name in images:
            lines.append(f"  ![{name}]({images[name]})")
        return [*lines, ""]


def _record(view: AirView, turn: int) -> TurnRecord | None:
    return next((r for r in view.history if r.turn == turn), None)


def _current(view: AirView, locale: str) -> list[str]:
    """The turn in progress as far as it is public, else the last turn played."""
    if view.plan is not None:
        record = TurnRecord(turn=view.turn, plan=view.plan, rolls=view.rolled)
        return turn_lines(record, locale, record_models(view, record))
    if view.history:
        last = view.history[-1]
        return turn_lines(last, locale, record_models(view, last))
    hands = " – ".join(
        f"{side_word(side, locale)} {view.sides[side].hand_size}" for side in ("allies", "axis")
    )
    return [
        w(
            "first-turn",
            locale,
            side=side_word(view.active, locale),
            superiority=w(f"superiority.{view.superiority}", locale),
            hands=hands,
        )
    ]
