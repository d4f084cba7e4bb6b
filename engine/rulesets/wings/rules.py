"""``WingsRules``: Wings of War (issue 15) behind the common seam. Each part of the mapping
lives in a module of its own (see the package note); this class ties them to the seam."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine.rulesets.wings.asked as asked
import engine.rulesets.wings.campaign as wings
import engine.rulesets.wings.card_by_card as card_by_card
import engine.rulesets.wings.choices as choices_
import engine.rulesets.wings.dam as dam_rules
import engine.rulesets.wings.legacy as legacy
import engine.rulesets.wings.resolution as resolution
import engine.rulesets.wings.scenarios as scenarios
import engine.rulesets.wings.seen as seen
from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    Held,
    HistorySplit,
    Progress,
    Refusal,
    Rules,
    ScenarioSpec,
    Step,
    StoredInRows,
    SwitchSpec,
)
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.events import SIGHTS
from engine.rulesets.wings.picks import program_of
from engine.rulesets.wings.rounds import DEBRIEF, FIELDS, ROUNDS, SIDES
from engine.rulesets.wings.seen import WingsView
from engine.rulesets.wings.state import SIDES as WINGS_SIDES
from engine.rulesets.wings.state import MissionState
from engine.rulesets.wings.stored import WingsState, stage_of
from engine.sight import Derived, Eyes


class WingsRules(StoredInRows[WingsState], Rules[WingsState, WingsView]):
    stored = HistorySplit(WingsState, ("campaign", "history"))
    key = "wings"
    # 2: mission types beyond the patrol (the scenarios open with one; the debrief chooses
    # the next), objectives in the mission record.
    # 3: balanced mission generator: a recon mission has four sites, a photo site lies on
    # the no-man's-land side of the border, a recon site half a ruler inside (authored).
    # 4: Sharpshooter, Killer and Expert's eye played (they spend tokens other skills used);
    # optional rules B.II, B.IV, B.V (floor) and B.IX jams on by default; rockets and balloon
    # cables; the number of objectives and the rescue mission chosen at the debrief.
    # 5: ground element ids as short codes (c-I1); B.IX halves a single gun after two green
    # jams (it used to jam); a plane and a balloon collide (A.IV.i); a plane may land on its
    # own airfield in any mission (B.I.a); two balloons or more hang a barrage net (A.IV.i.2).
    # 6: a mission against objectives goes on while the aggressor flies (the defenders gone,
    # it ends once every objective is achieved); its winner is the aggressor who achieved
    # them, the defender who held both them and the air, else a draw (E.I.a, E.III.a); a
    # reconnaissance pass is measured to the site's card, as every range; the flak battery,
    # trenches and CAA posts keep within R/2 of the border and R/2 clear of each other and
    # of the objectives (E.I.b, E.II.c).
    # 7: a seriously wounded pilot must land within two full turns or go down (D.V, B.VIII,
    # J 3); a plane taking off away from a strip takes 2 B cards (B.I.b); cloud cover (B.V)
    # agreed in wings-1917 and wings-1918, programs at the clouds' edge and in them sealed;
    # a pilot killed by an Excellent shot's point goes down (he flew on).
    # 8: an Ace of Aces may change his last card after the second maneuver (D.VII.a): the
    # turn then flies its third maneuver in a round of its own (``swap``), with its stream.
    # 9: the accidental exit's come-back, reinforcements, behaviour powers, equipment, major
    # objectives, the sun, the announced bomb release and the flak gunner (docs/wings-data.md).
    # 10: the first briefing's events (and the period bonus, the first sun) are told when the
    # campaign is created, not with its first turn; the rules of docs/wings-data.md played
    # since wings rules 9.
    # 11: the Dambuster crew's own night pick (a ``night`` round), an order that may begin a
    # two-turn maneuver opened as its cards and a seal, a plane coming back over relief set
    # above its floor, GM switches changed before the start, sealed picks opened at the end.
    # 12: a flight briefed on a balloon net comes in over it, its reinforcements too
    # (``net_entry``); enemy-zone defences placed by that zone's rule; a pilot
    # whose plane type is lost flies a spare of the same seating (``hangar``);
    # debrief purchases sealed until the campaign ends (``purchase_seal``); the strafing
    # mission offered at the briefing (``strafing``); victories confirmed at
    # the debrief (``confirmation``: the record only, no outcome changes).
    # 13: no digest seals: the flak gunner's orders, equipment and purchases are the items
    # themselves, their fields opening with the campaign's end (the receipts of their rounds
    # with them); each phase's planes written down as their side's sealed record.
    # 14: a patrol succeeds only if one of its planes came home, flying or off the table
    # over its own edge (seed E.I.a, F.III.a); one gone over the enemy's edge fled.
    # 15: a campaign decided at a mission's end ends there, without a debrief nobody needs
    # (the winner and the scores are those the debrief led to before).
    version = "15"
    # Measured at missions 1 to 6: a state is nearly all snapshot (the campaign, its planes
    # and pilots); a view holds parts of it. Between what a view holds alone
    # (tests/test_held_bytes.py: 4.2 to 4.7 bytes a character) and its share when the
    # other views and the state of the same snapshot are kept too (bench/caches.py: 2.2
    # to 2.5). A state as the caches keep it, its models sharing fields-sets
    # (``engine.compact``): 2.6 bytes a character (it was 5.6 as parsed).
    held = Held(state=2.6, pending=(0, 1.3), view=(0, 3.5), public_view=(0, 3.2))
    sides = SIDES
    rounds = ROUNDS
    fields = FIELDS

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._derived: tuple[Derived, ...] | None = None

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        # The seam counts turns; a Wings campaign's length is in missions, each at most
        # ``max_turns`` flying turns and a debrief, so the spec gives that upper bound.
        per_mission = MissionState.model_fields["max_turns"].default + 1
        specs = {
            key: ScenarioSpec(key, name, missions * per_mission)
            for key, (name, _date, missions, _setup) in scenarios.SCENARIOS.items()
        }
        for key, (name, _kind) in dam_rules.DAM_SCENARIOS.items():
            # The raids are a game of their own now (``raid.DambusterRules``, one player
            # against the bot's defences); those begun as Wings campaigns play on here.
            specs[key] = ScenarioSpec(key, name, dam_rules.turns(key), offered=False)
        return specs

    def switches(self, scenario: str) -> Sequence[SwitchSpec]:
        if scenario in dam_rules.DAM_SCENARIOS:
            return ()  # a Dambuster raid has no squadron campaign to switch
        return scenarios.switches(scenario)

    def new(self, scenario: str, seed: str) -> WingsState:
        return self.new_switched(scenario, seed, {})

    def new_switched(self, scenario: str, seed: str, switches: Mapping[str, str]) -> WingsState:
        if scenario in dam_rules.DAM_SCENARIOS:
            if switches:
                raise ValueError("a Dambuster raid declares no switches")
            return WingsState(scenario=scenario, dam=dam_rules.new_raid(scenario))
        _name, date, missions, setup = scenarios.SCENARIOS[scenario]
        rules, flags, front = scenarios.switched(scenario, switches)
        state = wings.new_campaign(
            self.catalog, seed, dict(setup), date=date, missions=missions, rules=rules, **flags
        )
        # Seed K.1: the front, before the first briefing so its mission is fought there.
        state = state.model_copy(update={"front": front})
        # The first briefing has no real choice (see the package note); its stream is one
        # no round uses, since seam turns start at 1.
        first = scenarios.FIRST_MISSION.get(scenario, "patrol")
        state, events = resolution.brief(self.catalog, state, Rng(seed, 0, "briefing"), first)
        bonus = state.period_bonus  # seed F.I: drawn before the first briefing
        told = [] if bonus is None else [Event(kind="period-bonus", turn=1, data=dict(bonus))]
        opening = [*told, *resolution.public(1, events)]
        return WingsState(scenario=scenario, campaign=state, opening=opening)

    def opening(self, state: WingsState) -> list[Event]:
        return list(state.opening)

    def pending(self, state: WingsState) -> list[Decision]:
        return asked.pending(self.catalog, state)

    def side_pending(self, state: WingsState, side: str) -> list[Decision]:
        # Only the side's planes judged: their programs are most of a round's decisions.
        return asked.pending(self.catalog, state, side)

    # -- inputs (issue 27): a program written as players write them

    def next_step(
        self, state: WingsState, decision: Decision, picks: tuple[str, ...]
    ) -> Step | None:
        found = choices_.plane_of(state, decision) if decision.input == "steps" else None
        if found is None:
            return None
        mission, plane = found
        return card_by_card.next_card(self.catalog, plane, mission.rules, mission.turn, picks)

    def read_text(self, state: WingsState, decision: Decision, text: str) -> str | Refusal:
        found = choices_.plane_of(state, decision)
        if found is None:
            return super().read_text(state, decision, text)
        return choices_.read_program(self.catalog, *found, text)

    def text_of(self, state: WingsState, decision: Decision, value: str) -> str:
        found = choices_.plane_of(state, decision)
        if found is None:
            return value
        return program_of(self.catalog, *found, value) or value

    def resolve(
        self, state: WingsState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[WingsState, list[Event]]:
        return resolution.resolve(self, self.catalog, state, choices, rng)

    # -- view

    event_sights = SIGHTS

    def derived(self) -> tuple[Derived, ...]:
        # Made once per rules object: its flight paths (``seen.derived``'s memo, a few
        # milliseconds per set of plane types) then outlive one view, as they were meant to.
        if self._derived is None:
            self._derived = seen.derived(self.catalog, WingsState, stage_of, legacy.plane_slots)
        return self._derived

    def project(self, kept: Any, eyes: Eyes) -> WingsView:
        return seen.project(self.catalog, kept, eyes)

    def progress(self, state: WingsState) -> Progress:
        stage = stage_of(state)
        if state.dam is not None:
            return dam_rules.progress(state.dam, state.turn, stage)
        campaign = state.camp
        return Progress(
            turn=state.turn,
            round=DEBRIEF if stage in ("debrief", "ended") else stage,
            finished=stage == "ended",
            winner=campaign.winner,
            vp={side: campaign.squadrons[side].score for side in WINGS_SIDES},
        )

    def resolves_from_snapshot(self, state: WingsState) -> bool:
        return True  # a round appends to the history, and reads none of it

    def view_records(self, state: WingsState) -> int | None:
        # Every record: the board and /status say how long each flown mission lasted, and a
        # campaign holds one record a mission (six at most), so reading them all stays flat.
        return None
