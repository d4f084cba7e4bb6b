"""The ZERO! carrier campaign (25.0: Coral Sea, Midway) as a ruleset.

A turn is two secret rounds: ``orders`` (Fleet Tactic, Flight Ops and the strike doctrine)
then ``resource``, whose resolution flies the turn. The doctrine is committed with the
orders but stays secret until the strikes are flown, so it opens at the turn's end.
The loop itself is this package's ``campaign`` / ``turn`` / ``view``; this class only
presents it through the common interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine.rulesets.carrier.campaign as loop
from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    FieldSpec,
    Held,
    HistorySplit,
    LogDetail,
    Odds,
    Progress,
    RoundSpec,
    Rules,
    RulesCheck,
    ScenarioSpec,
    SideSpec,
    Spread,
    StoredInRows,
)
from engine.rulesets.carrier.odds import Question, preview
from engine.rulesets.carrier.state import State
from engine.rulesets.carrier.view import View, project
from engine.sight import Eyes, kinds
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from engine.zero.report import StrikeReport
from engine.zero.strike_log import strike_detail
from engine.zero.types import RoundKind, Side

SIDES = (
    SideSpec("japanese", {"en": "Japanese", "fr": "Japonais"}, "#c0392b"),
    SideSpec("allied", {"en": "Allied", "fr": "Alliés"}, "#2e6db4"),
)
ROUNDS = (RoundSpec(RoundKind.ORDERS.value), RoundSpec(RoundKind.RESOURCE.value, closes_turn=True))
FIELDS = (
    FieldSpec("fleet_tactic", RoundKind.ORDERS.value),
    FieldSpec("flight_ops", RoundKind.ORDERS.value),
    FieldSpec("doctrine", RoundKind.ORDERS.value, opens="turn-end"),
    FieldSpec("resource", RoundKind.RESOURCE.value),
)


class CarrierRules(StoredInRows[State], Rules[State, View]):
    stored = HistorySplit(State, ("history",))
    key = "carrier"
    # 2: the issue 11 fidelity fixes (recovery against bases, scouts, box limits...).
    # 3: one pilot draw per Leader of Midway's CAP (19.24), found by verify --rules.
    # 4: Coral Sea's objective bonuses (authored 3.7.3) score at the campaign's end.
    # 5: a CAP sent after the bombers no longer ignores torpedo bombers at Very Low.
    # 6: a track ticks no box past its end (25.82): the points and losses beyond it are not
    #    recorded (no VP, level or winner changes; the records and a track's counts do).
    version = "6"
    # Measured at rounds 1 to 20 (bench/caches.py): a round's decisions are shared by
    # every campaign at that point of the scenario (``campaign._orders_made``); a side's
    # view holds no turn record, the public's the last turn's strike reports (11 to 504
    # KiB as built, 200 the median). States and public views as the caches keep them, their
    # models sharing fields-sets (``engine.compact``; tests/test_held_bytes.py): a third.
    held = Held(state=3.2, pending=(512, 0.0), view=(6 * 1024, 0.0), public_view=(68 * 1024, 0.0))
    sides = SIDES
    rounds = ROUNDS
    fields = FIELDS

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        return {
            key: ScenarioSpec(key, scenario.name, scenario.turns)
            for key, scenario in sorted(self.catalog.scenarios.items())
        }

    def new(self, scenario: str, seed: str) -> State:
        return loop.new_campaign(self.catalog, scenario, seed)

    def pending(self, state: State) -> list[Decision]:
        return loop.pending(self.catalog, state)

    def resolve(
        self, state: State, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[State, list[Event]]:
        by_side = {Side(side): dict(choice) for side, choice in choices.items()}
        return loop.resolve(self.catalog, state, by_side, rng)

    def odds(
        self,
        state: State,
        side: str,
        picks: Mapping[str, str],
        hidden: Sequence[str],
        *,
        samples: int,
        seed: str,
        spread: Spread | None = None,
        parts: int = 1,
    ) -> Odds | None:
        if self.catalog is not default_catalog():
            spread = None  # a worker process knows the packaged catalog only
        question = Question(state, side, picks, hidden, samples, seed)
        return preview(self.catalog, self.resolve, question, spread, parts)

    def strike_reports(self, state: State, turn: int) -> Sequence[StrikeReport]:
        """Every strike report of ``turn`` that ``state`` holds, in the order flown."""
        return next((r.strikes for r in state.history if r.turn == turn), ())

    def rules_check(self, export: Mapping[str, Any]) -> RulesCheck:
        """The campaign checked by ``rulecheck``, written from the rules text (25.x)."""
        from engine.rulesets.carrier.rulecheck import check_export

        found = check_export(export)
        lines = tuple(problem.line() for problem in found.problems)
        return RulesCheck(passed=found.passed, problems=lines, refused=found.refused)

    def log_detail(self, state: State, turn: int) -> Sequence[LogDetail]:
        """Each strike fought in full, under the ``strike-flown`` event of its id."""
        reports = self.strike_reports(state, turn)
        return [strike_detail(report, "strike-flown", "strike", report.id) for report in reports]

    # Every carrier event is told to all as it happens (the doctrine, the one secret, is
    # never in an event before the strikes it shaped are flown).
    event_sights = kinds(
        public=(
            "orders-revealed", "resources-revealed", "cap-drawn", "pilots-drafted",
            "scout-mission", "scout-bonus", "out-of-sight", "strike-cut", "strike-recalled",
            "strike-flown", "objective-met", "submarine", "recovery", "damage-control",
            "losses-ticked", "vp", "campaign-ended",
        )
    )  # fmt: skip

    def project(self, kept: Any, eyes: Eyes) -> View:
        return project(self.catalog, kept, Side(eyes.side) if eyes.side is not None else None)

    def progress(self, state: State) -> Progress:
        winner = state.winner.value if isinstance(state.winner, Side) else state.winner
        return Progress(
            turn=state.turn,
            round=state.round.value,
            finished=state.finished,
            winner=winner,
            vp={side.value: points for side, points in state.vp.items()},
        )

    def resolves_from_snapshot(self, state: State) -> bool:
        return True  # a round appends to the history, and reads none of it

    def view_records(self, state: State) -> int | None:
        # The turn just played's record (its reports), finished or not: the after-action,
        # which reads them all, is drawn from the whole state apart.
        return 1

    def side_view_records(self, state: State) -> int | None:
        # A side's view of a running campaign keeps no turn record (``view.project``); a
        # finished campaign's reads what every view does.
        return self.view_records(state) if self.progress(state).finished else 0
