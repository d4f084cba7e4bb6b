"""The carrier campaign's presenter: status board, order panel, strike reports, words.

The words for options come from the locale files (the engine's labels are English);
the strike report is the public ``StrikeReport`` of a resolved turn, read from the view's
history, so nothing here can see an unrevealed choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.ruleset import Decision, Option
from engine.rulesets.carrier.view import View
from engine.zero.catalog import Catalog
from engine.zero.report import StrikeReport
from engine.zero.types import AircraftState, FleetTactic, Side
from rendering import rulebook
from rendering.i18n import t
from rendering.place_words import place_in_text
from rendering.presenter import NO_DRAFTS, Presenter, Report, RevealLine
from rendering.rulesets.carrier.panel import render_order_panel
from rendering.rulesets.carrier.report import render_after_action
from rendering.rulesets.carrier.status import render_status_board
from rendering.rulesets.carrier.track import level_ladder
from rendering.text import (
    doctrine_name,
    flight_ops_text,
    place_label,
    place_name,
    repaired_aside,
    repaired_note,
    scenario_name,
    tactic_name,
    track_level_name,
)
from rendering.zero.log_words import ZeroLogWords
from rendering.zero.reveal import RevealSide, render_reveal
from rendering.zero.strike import render_strike_report


def side_text(side: str, locale: str) -> str:
    return t(f"service.side.{side}", locale)


class CarrierPresenter(ZeroLogWords, Presenter[View]):
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._place_names: dict[tuple[str, str], Mapping[str, str]] = {}

    # ------------------------------------------------------------------ words

    def place_names(self, scenario: str, locale: str) -> Mapping[str, str]:
        # Asked for every option of every flight-operations menu of every panel: made once
        # per scenario and language (the words are read at start-up and never change).
        names = self._place_names.get((scenario, locale))
        if names is None:
            names = {
                place.key: place_label(place.key, locale, place.name)
                for place in self.catalog.scenarios[scenario].places
            }
            self._place_names[(scenario, locale)] = names
        return names

    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: object = None
    ) -> str:
        try:
            if field == "fleet_tactic":
                return tactic_name(FleetTactic(value), locale)
            if field == "flight_ops":
                return flight_ops_text(value, locale, self.place_names(scenario, locale))
            if field == "doctrine":
                return doctrine_name(value, locale)
            if field == "resource":
                resource = self.catalog.resource(int(value))
                return f"#{resource.number} {self.resource_name(value, resource.name, locale)}"
        except (ValueError, KeyError):
            pass
        return value

    def _detail(self, field: str, option: Option, locale: str) -> str:
        """What an option gives now, in the reader's language (engine hints are English)."""
        if field == "fleet_tactic":
            try:
                cards = FleetTactic(option.id).recovery_cards
            except ValueError:
                return option.detail
            return t("service.detail.recovery", locale, cards=cards)
        return option.detail

    def option_description(self, field: str, option: Option, locale: str) -> str:
        """One line on what the option does (a select option's description)."""
        if field == "doctrine":
            described = t(f"orders.doctrine.{option.id}", locale)
            return option.detail if described == f"orders.doctrine.{option.id}" else described
        if field == "fleet_tactic":
            key = f"rules.option.fleet_tactic.{option.id}"
            described = t(key, locale)
            return self._detail(field, option, locale) if described == key else described
        if field == "flight_ops":
            # The engine's detail is "<strike force> — CAP <cap>" (aircraft names and counts,
            # the same in every language); only the words around them are ours.
            force, _, cap = option.detail.rpartition(" — CAP ")
            if not force and option.detail.startswith("CAP "):
                return t("rules.option.flight_ops.none", locale, cap=option.detail[4:])
            if force and cap:
                return t("rules.option.flight_ops.strike", locale, force=force, cap=cap)
            return option.detail
        if field == "resource":
            found = rulebook.entry("carrier", f"#{option.id}", locale)
            if found is not None and found.short:
                return found.short
        return self._detail(field, option, locale)

    @staticmethod
    def resource_name(number: str, name: str, locale: str) -> str:
        """The data's name in English, the digest's (without its "(Allied)") otherwise."""
        found = rulebook.entry("carrier", f"#{number}", locale)
        if locale == "en" or found is None:
            return name
        return found.title.split(" (")[0]

    def resource_effect(self, number: str, locale: str) -> str:
        """A resource's whole effect in the reader's language, from the rules digest."""
        found = rulebook.entry("carrier", f"#{number}", locale)
        if found is not None:
            return found.text
        try:
            return self.catalog.resource(int(number)).text
        except (ValueError, KeyError):
            return ""

    def _strike_label(self, scenario: str, size: str, targets: list[str], locale: str) -> str:
        label = self.option_text(scenario, "flight_ops", size, locale)
        return f"{label} → {' / '.join(targets)}" if targets else label

    @staticmethod
    def _force_words(detail: str, locale: str) -> str:
        """The engine's "<strike force> — CAP <cap>" with the CAP named in the reader's words
        (the aircraft and counts read the same in every language)."""
        force, _, cap = detail.rpartition(" — CAP ")
        if force and cap:
            return t("label.force-cap", locale, force=force, cap=cap)
        if detail.startswith("CAP "):
            return t("label.cap-only", locale, cap=detail.removeprefix("CAP "))
        return detail

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        if decision.field == "flight_ops":
            # One line per strike size: the force is the same whatever the target.
            places = self.place_names(scenario, locale)
            groups: dict[tuple[str, str], list[str]] = {}
            for option in decision.options:
                size, _, target = option.id.partition(":")
                targets = groups.setdefault((size, option.detail), [])
                if target:
                    targets.append(places.get(target, target))
            return [
                t(
                    "label.pair",
                    locale,
                    label=self._strike_label(scenario, size, targets, locale),
                    detail=self._force_words(detail, locale),
                )
                if detail
                else self._strike_label(scenario, size, targets, locale)
                for (size, detail), targets in groups.items()
            ]
        labels = []
        for option in decision.options:
            label = self.option_text(scenario, decision.field, option.id, locale)
            if option.detail and decision.field != "resource":
                label += f" ({self._detail(decision.field, option, locale)})"
            labels.append(label)
        if decision.field == "fleet_tactic":
            # "+1" alone means nothing to a newcomer: say what the cards are for.
            return [" · ".join(labels), t("rules.panel.tactic", locale)]
        return [" · ".join(labels)]

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]:
        if decision.field != "flight_ops":
            return [
                (
                    self.option_text(scenario, decision.field, e.id, locale),
                    t(f"service.reason.{e.reason}", locale),
                )
                for e in decision.excluded
            ]
        places = self.place_names(scenario, locale)
        groups: dict[tuple[str, str], list[str]] = {}
        for excluded in decision.excluded:
            size, _, target = excluded.id.partition(":")
            targets = groups.setdefault((size, excluded.reason), [])
            if target:
                targets.append(places.get(target, target))
        return [
            (
                self._strike_label(scenario, size, targets, locale),
                t(f"service.reason.{reason}", locale),
            )
            for (size, reason), targets in groups.items()
        ]

    def panel_notes(
        self, scenario: str, view: View, side: str, drafts: Mapping[str, str], locale: str
    ) -> tuple[list[str], list[str]]:
        before: list[str] = []
        own = view.sides.get(Side(side))
        if own is not None and own.last_tactic is not None:
            # Last turn's picks restrict this turn's (25.32, 25.42).
            size = own.last_size.value if own.last_size else "none"
            before.append(
                t(
                    "service.panel.last-turn",
                    locale,
                    tactic=self.option_text(scenario, "fleet_tactic", own.last_tactic, locale),
                    size=t(f"render.size.{size}", locale),
                )
            )
        after: list[str] = []
        resource = drafts.get("resource") if view.round.value == "resource" else None
        if resource is not None:
            effect = self.resource_effect(resource, locale)
            if effect:
                name = self.option_text(scenario, "resource", resource, locale)
                after.append(t("orders.resource-effect", locale, resource=name, effect=effect))
        if not view.finished:
            after.append("-# " + t("rules.panel.glossary", locale))
        return before, after

    def board_summary(self, view: View, locale: str) -> str:
        vp = " – ".join(
            f"{side_text(side, locale)} {view.sides[side].vp}"
            for side in Side
            if side in view.sides
        )
        tracks = ", ".join(
            f"{place_name(track.place, track.name, locale)} {track.boxes}/{track.max_boxes}"
            f"{repaired_aside(track.boxes, track.effective, locale)}"
            for track in view.tracks
        )
        return t("service.image.board", locale, vp=vp, tracks=tracks)

    def panel_summary(self, view: View, side: str, locale: str) -> str:
        own = view.sides.get(Side(side))
        fleet = next((tr for tr in view.tracks if tr.side == side and tr.carrier_fleet), None)
        if own is None or fleet is None:
            return self.board_summary(view, locale)
        return t(
            "orders.image",
            locale,
            fleet=place_name(fleet.place, fleet.name, locale),
            boxes=fleet.boxes,
            max=fleet.max_boxes,
            level=track_level_name(fleet.level, fleet.boxes, locale),
            repaired=repaired_note(fleet.boxes, fleet.effective, locale),
            vp=own.vp,
            resources=len(own.resources_available),
        )

    def turn_summary(self, view: View, turn: int, locale: str) -> list[str]:
        lines = [
            t(
                "service.summary.vp",
                locale,
                vp=" – ".join(
                    f"{side_text(s, locale)} {view.sides[s].vp if s in view.sides else 0}"
                    for s in Side
                ),
            )
        ]
        for track in view.tracks:
            lines.append(
                t(
                    "service.summary.track",
                    locale,
                    place=place_name(track.place, track.name, locale),
                    boxes=track.boxes,
                    max=track.max_boxes,
                    level=track_level_name(track.level, track.boxes, locale),
                    repaired=repaired_note(track.boxes, track.effective, locale),
                )
            )
        return lines

    def status_lines(self, view: View, locale: str) -> list[str]:
        lines = [
            t(
                "cogs.status.line",
                locale,
                scenario=scenario_name(view.scenario, view.scenario_name, locale),
                turn=view.turn,
                turns=view.turns,
                round=t(f"service.round.{view.round.value}", locale),
            ),
            t(
                "cogs.status.vp",
                locale,
                japanese=view.sides[Side.JAPANESE].vp,
                allied=view.sides[Side.ALLIED].vp,
            ),
        ]
        for track in view.tracks:
            lines.append(
                t(
                    "cogs.status.track",
                    locale,
                    name=place_name(track.place, track.name, locale),
                    boxes=track.boxes,
                    max=track.max_boxes,
                    level=track_level_name(track.level, track.boxes, locale),
                    repaired=repaired_note(track.boxes, track.effective, locale),
                )
            )
            ladder = level_ladder(track, locale)
            if ladder:
                lines.append("-# " + ladder)
        return lines

    # ------------------------------------------------------------------ images

    def status_board(
        self, view: View, locked: Mapping[str, bool], deadline: str | None, locale: str
    ) -> bytes:
        return render_status_board(
            view,
            locked={Side(side): bool(flag) for side, flag in locked.items()},
            deadline_text=deadline,
            locale=locale,
        )

    def panel_image(self, view: View, locale: str, drafts: Mapping[str, str] = NO_DRAFTS) -> bytes:
        names = {
            r.number: self.resource_name(str(r.number), r.name, locale)
            for r in self.catalog.resources
        }
        return render_order_panel(view, resource_names=names, locale=locale)

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
        items = [
            RevealSide(side=Side(line.side), lines=list(line.pairs), receipt=line.receipt)
            for line in sides
        ]
        return render_reveal(title, items, locale=locale)

    def after_action(self, scenario: str, view: View, locale: str) -> bytes:
        return render_after_action(
            view, place_names=self.place_names(scenario, locale), locale=locale
        )

    # ------------------------------------------------------------------ strike reports

    @staticmethod
    def _strikes(view: View, turn: int) -> tuple[StrikeReport, ...]:
        record = next((r for r in view.history if r.turn == turn), None)
        return record.strikes if record is not None else ()

    def report_count(self, view: View, turn: int) -> int:
        return len(self._strikes(view, turn))

    def report(self, scenario: str, view: View, turn: int, index: int, locale: str) -> Report:
        strikes = self._strikes(view, turn)
        if index >= len(strikes):
            return Report(t("service.strike.missing", locale, strike=f"{turn}.{index}"))
        strike = strikes[index]
        names = self.place_names(scenario, locale)
        png = render_strike_report(
            strike,
            place_names=names,
            cards={card.id: card for card in self.catalog.deck.cards},
            locale=locale,
        )
        return Report(strike_summary(strike, names, locale), f"strike-{strike.id}.png", png)

    def after_action_turn(
        self, scenario: str, view: View, turn: int, locale: str, images: Mapping[str, str]
    ) -> list[str]:
        record = next((r for r in view.history if r.turn == turn), None)
        if record is None:
            return []
        names = self.place_names(scenario, locale)
        lines: list[str] = []
        for strike in record.strikes:
            summary = strike_summary(strike, names, locale)
            lines.append("- " + summary.replace("\n", " — ").replace("**", ""))
            key = f"strike-{strike.id}"
            if key in images:
                lines.append(f"  ![{strike.id}]({images[key]})")
        vp = ", ".join(f"{side_text(s, locale)} {record.vp.get(s, 0)}" for s in Side)
        return [*lines, t("archive.report.vp-after", locale, vp=vp), ""]


def strike_summary(report: StrikeReport, names: Mapping[str, str], loc: str) -> str:
    """Three lines: who struck what, what it cost, what it did."""
    attackers = [a for a in report.aircraft if a.side is report.attacker]
    defenders = [a for a in report.aircraft if a.side is not report.attacker]
    lost = sum(1 for a in attackers if a.state is AircraftState.DESTROYED)
    on_recovery = sum(1 for a in attackers if a.lost_on_recovery)
    cap_lost = sum(1 for a in defenders if a.state is AircraftState.DESTROYED)
    target = place_in_text(report.target, names.get(report.target, report.target), loc)
    first = t(
        f"service.strike.kind.{report.kind}",
        loc,
        id=report.id,
        side=side_text(report.attacker, loc),
        target=target,
    )
    second = t(
        "service.strike.losses",
        loc,
        flew=len(attackers),
        lost=lost,
        recovery=on_recovery,
        cap=len(defenders),
        cap_lost=cap_lost,
    )
    if report.kind == "scout":
        third = t(
            "service.strike.scout-ok" if report.scout_success else "service.strike.scout-failed",
            loc,
        )
    elif report.hidden:
        third = t("service.strike.hidden", loc, target=target)
    else:
        third = t(
            "service.strike.damage",
            loc,
            runs=len(report.bomb_runs),
            points=report.target_points,
            target=target,
        )
    return f"**{first}**\n{second}\n{third}"
