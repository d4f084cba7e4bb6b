"""The Dambuster as a game of its own (issue 27, part 5): one player, RAF Bomber Command,
against the dams' defences, which the bot plays (their AA guns fire by standing order, DB 9:
they have nothing to decide), as Pearl Harbor is solitaire.

The raid engine (``engine.rulesets.wings.dambuster``) and its seam helpers (``dam``) are the Wings
ruleset's; this ruleset gives them their own seat and words. A turn is one round: the crew
orders the Lancaster on the table (one card a turn, and its bomb), the turn flies at once;
at night a gun may stop it for the crew's pick of two C cards (DB 6), in a round of the same
turn. Campaigns created as Wings scenarios before this ruleset keep playing as they began
(``WingsRules`` still knows the raids).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine.rulesets.wings.dam as dam_rules
from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    FieldSpec,
    Progress,
    RoundSpec,
    Rules,
    ScenarioSpec,
    SideSpec,
    Stored,
)
from engine.rulesets.wings.campaign import IllegalChoice
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.events import SIGHTS
from engine.rulesets.wings.rules import WingsRules
from engine.rulesets.wings.seen import WingsView
from engine.rulesets.wings.stored import WingsState
from engine.sight import Derived, Eyes

KEY = "dambuster"
RAF = "raf"
DEFENCES = "defences"  # the bot's: it wins a failed raid, never a seat
CREW = "entente"  # the side the raid engine knows the crew by
PROGRAM = "program"
SIDES = (SideSpec(RAF, {"en": "RAF Bomber Command", "fr": "Bomber Command de la RAF"}, "#2e6db4"),)
# The crew's orders open when the turn flies, with its receipt; the night pick is played,
# and both cards told, when it resolves.
FIELDS = (
    *(
        FieldSpec(name, PROGRAM, opens="turn-end")
        for name in (
            dam_rules.FIELD,
            dam_rules.ESCORT_FIELD,
            dam_rules.START_FIELD,
            dam_rules.LIGHTS_FIELD,
        )
    ),
    FieldSpec(dam_rules.NIGHT, dam_rules.NIGHT),
)


class DambusterRules(Rules[WingsState, WingsView]):
    key = KEY
    sides = SIDES
    rounds = (
        RoundSpec(PROGRAM, closes_turn=True),
        RoundSpec(dam_rules.NIGHT, closes_turn=True, optional=True),
    )
    fields = FIELDS
    version = "1"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.wings = WingsRules(catalog)  # the raid's view, storage and words

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        return {
            key: ScenarioSpec(key, name, dam_rules.turns(key))
            for key, (name, _kind) in dam_rules.DAM_SCENARIOS.items()
        }

    def new(self, scenario: str, seed: str) -> WingsState:
        if scenario not in dam_rules.DAM_SCENARIOS:
            raise KeyError(scenario)
        return WingsState(scenario=scenario, dam=dam_rules.new_raid(scenario))

    def _stage(self, state: WingsState) -> str:
        dam = state.dam
        assert dam is not None, "a Dambuster campaign is a raid"
        if dam.finished:
            return "ended"
        return dam_rules.NIGHT if dam.night_pick is not None else PROGRAM

    def pending(self, state: WingsState) -> list[Decision]:
        stage = self._stage(state)
        if stage == "ended":
            return []
        assert state.dam is not None
        decisions = dam_rules.pending(self.catalog, state.dam, stage)
        return [d.model_copy(update={"side": RAF}) for d in decisions if d.side == CREW]

    def resolve(
        self, state: WingsState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[WingsState, list[Event]]:
        stage = self._stage(state)
        if stage == "ended":
            raise IllegalChoice("entente", "phase", "", "campaign-over")
        orders = choices.get(RAF, {})
        for decision in self.pending(state):
            value = orders.get(decision.field)
            if value is None or not decision.allows(value):
                reason = next(
                    (e.reason for e in decision.excluded if e.id == value), "unknown-option"
                )
                raise IllegalChoice("entente", decision.field, str(value), reason)
        dam = state.dam
        assert dam is not None
        if stage == dam_rules.NIGHT:
            dam, events = dam_rules.pick(self.catalog, dam, orders, rng, state.turn)
        else:
            # One card a turn, flown as soon as the crew locks it: nobody else orders.
            held = dam_rules.sealed(orders)
            dam, events = dam_rules.fly_held(self.catalog, dam, held, rng, state.turn)
        going_on = dam.night_pick is not None and not dam.finished
        turn = state.turn if going_on else state.turn + 1
        return state.model_copy(update={"dam": dam, "held": {}, "turn": turn}), events

    # The raid's labels are the Wings ruleset's: its crew's own fields are the Entente's
    # there, so the gate looks with the Entente's eyes for RAF Bomber Command's player.
    event_sights = SIGHTS

    def derived(self) -> Sequence[Derived]:
        return self.wings.derived()

    def seen(self, state: WingsState, eyes: Eyes) -> Any:
        return self.wings.seen(state, _crew(eyes))

    def project(self, kept: Any, eyes: Eyes) -> WingsView:
        view = self.wings.project(kept, _crew(eyes))
        return view.model_copy(update={"viewer": eyes.side})

    def progress(self, state: WingsState) -> Progress:
        stage = self._stage(state)
        assert state.dam is not None
        wings = dam_rules.progress(state.dam, state.turn, stage)
        winner = {"entente": RAF, "central": DEFENCES}.get(wings.winner or "", wings.winner)
        return Progress(
            turn=wings.turn,
            round=PROGRAM if wings.round == "debrief" else wings.round,
            finished=wings.finished,
            winner=winner,
            vp={RAF: wings.vp.get("entente", 0)},
        )

    def load(self, text: str) -> WingsState:
        return self.wings.load(text)

    def dump(self, state: WingsState) -> str:
        return self.wings.dump(state)

    def dump_stored(self, state: WingsState, since: int = 0) -> Stored:
        return self.wings.dump_stored(state, since)

    def load_stored(self, current: str, records: Sequence[str]) -> WingsState:
        return self.wings.load_stored(current, records)

    def load_records(self, bare: WingsState, records: Sequence[str]) -> WingsState:
        return self.wings.load_records(bare, records)

    # Stored as a Wings state is: a round reads no history, a view the latest record at most.
    def resolves_from_snapshot(self, state: WingsState) -> bool:
        return self.wings.resolves_from_snapshot(state)

    def view_records(self, state: WingsState) -> int | None:
        return self.wings.view_records(state)


def _crew(eyes: Eyes) -> Eyes:
    """RAF Bomber Command's eyes as the raid engine knows its crew (the Entente)."""
    return Eyes(side=CREW, peek=eyes.peek) if eyes.side == RAF else eyes
