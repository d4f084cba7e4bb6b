"""The ZERO! land campaigns (24.0: Malaya, Philippines, Burma) as a ruleset.

A turn is one mission and one secret round, ``mission``: each side picks one resource
(24.52, each at most once per campaign, 24.53) and a doctrine preset for how its aircraft
fight; both open together at the reveal, and resolving the round flies the mission. The
target of the coming mission is drawn in the open before the round (24.44), so players pick
their resources knowing it. A scenario is a theatre and a period ("burma-dec41-jan42"), or
every period in order ("burma-all").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    Excluded,
    FieldSpec,
    Held,
    HistorySplit,
    LogDetail,
    Option,
    Progress,
    RoundSpec,
    Rules,
    ScenarioSpec,
    SideSpec,
    StoredInRows,
)
from engine.rulesets.land.mission import fly_mission
from engine.rulesets.land.sheet import LandCampaign, LandResource, load_land_campaign, mission_key
from engine.rulesets.land.state import ROUND, LandState
from engine.rulesets.land.view import (
    NO_RESOURCE,
    NO_RESOURCE_ID,
    THEATRES,
    Draw,
    IllegalChoice,
    LandView,
    MissionRecord,
    public_sheet,
    resource_id,
    resource_number,
)
from engine.sight import Eyes, kinds
from engine.zero.cards import Deck
from engine.zero.catalog import Catalog
from engine.zero.orders import DOCTRINE_PRESETS
from engine.zero.report import StrikeReport
from engine.zero.strike_log import strike_detail
from engine.zero.types import Side

ALL_PERIODS = "all"
SIDES = (
    SideSpec("japanese", {"en": "Japanese", "fr": "Japonais"}, "#c0392b"),
    SideSpec("allied", {"en": "Allied", "fr": "Alliés"}, "#2e6db4"),
)
ROUNDS = (RoundSpec(ROUND, closes_turn=True),)
FIELDS = (FieldSpec("resource", ROUND), FieldSpec("doctrine", ROUND))
DOCTRINES = ("balanced", "aggressive", "cautious")
DOCTRINE_LABELS = {
    "balanced": "Balanced",
    "aggressive": "Aggressive",
    "cautious": "Cautious",
}


class LandRules(StoredInRows[LandState], Rules[LandState, LandView]):
    stored = HistorySplit(LandState, ("history",))
    key = "land"
    # 2: balance v2 of the authored sheets (docs/land-data.md, "Authored changes").
    version = "2"
    # Measured at rounds 1 to 18 (bench/caches.py): a side's view holds no mission record,
    # the public's holds the last mission's strike report. As the caches keep them, their
    # models sharing fields-sets (``engine.compact``; tests/test_held_bytes.py).
    held = Held(state=3.3, pending=(10 * 1024, 0.0), view=(3584, 0.0), public_view=(27 * 1024, 0.0))
    sides = SIDES
    rounds = ROUNDS
    fields = FIELDS

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.campaigns: dict[str, LandCampaign] = {key: load_land_campaign(key) for key in THEATRES}

    # ------------------------------------------------------------------ set-up

    def _split(self, scenario: str) -> tuple[LandCampaign, tuple[str, ...]]:
        theatre, _, period = scenario.partition("-")
        campaign = self.campaigns.get(theatre)
        if campaign is None:
            raise KeyError(f"unknown land scenario {scenario!r}")
        if period in (ALL_PERIODS, ""):  # "burma" alone is the whole theatre, as "burma-all"
            return campaign, campaign.period_keys
        if period not in campaign.period_keys:
            raise KeyError(f"unknown land scenario {scenario!r}")
        return campaign, (period,)

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        out: dict[str, ScenarioSpec] = {}
        for theatre in THEATRES:
            campaign = self.campaigns[theatre]
            for key, name in zip(campaign.period_keys, campaign.periods, strict=True):
                out[f"{theatre}-{key}"] = ScenarioSpec(
                    f"{theatre}-{key}", f"{campaign.name}, {name}", campaign.missions_per_period
                )
            if len(campaign.periods) > 1:
                # The whole theatre, every period in order: "<theatre>-all", or the theatre's
                # name alone (`--scenario burma`, as the issue and the README name it).
                for key in (f"{theatre}-{ALL_PERIODS}", theatre):
                    out[key] = ScenarioSpec(
                        key,
                        f"{campaign.name}, {campaign.periods[0]} – {campaign.periods[-1]}",
                        campaign.missions_per_period * len(campaign.periods),
                    )
        return out

    def campaign_of(self, state: LandState) -> LandCampaign:
        return self.campaigns[state.campaign]

    def _draw(self, campaign: LandCampaign, period: str, flown: set[int], rng_stream: Deck) -> Draw:
        """24.44: one Action card read in the period's column; a once-only target already
        flown sends the mission to its replacement (authored 3.8.2, 3.8.4)."""
        card = rng_stream.draw("target")
        key = mission_key(card)
        listed = campaign.target_number(campaign.period_name(period), key)
        number = listed
        while number in flown:
            replacement = campaign.target(number).replaced_by
            if replacement is None:
                break
            number = replacement
        return Draw(card=card.id, key=key, listed=listed, target=number, period=period)

    def new(self, scenario: str, seed: str) -> LandState:
        campaign, periods = self._split(scenario)
        # The first target is drawn now, in the open, from its own stream of the seed.
        deck = Deck(self.catalog.deck.cards, Rng(seed, 0, "setup").stream("first-target"))
        return LandState(
            scenario=scenario,
            campaign=campaign.key,
            periods=periods,
            missions=campaign.missions_per_period * len(periods),
            draw=self._draw(campaign, periods[0], set(), deck),
            used={side: () for side in Side},
            vp={side: 0 for side in Side},
            flown=(),
        )

    # ------------------------------------------------------------------ play

    def attacker(self, state: LandState) -> Side:
        return self.campaign_of(state).target(state.draw.target).attacker

    def resource_decision(self, state: LandState, side: Side) -> Decision:
        campaign = self.campaign_of(state)
        period = state.draw.period
        attacking = self.attacker(state) is side
        options = [Option(id=NO_RESOURCE_ID, label="No resource")]
        excluded: list[Excluded] = []
        offered: set[int] = set()
        for resource in campaign.resources_of(side, period):
            option_id = resource_id(side, resource.number)
            label = f"#{resource.number} {resource.name}"
            offered.add(resource.number)
            if resource.number in state.used.get(side, ()):
                excluded.append(Excluded(id=option_id, label=label, reason="used"))
            elif resource.use == "attack" and not attacking:
                excluded.append(Excluded(id=option_id, label=label, reason="land-attack-only"))
            elif resource.use == "defence" and attacking:
                excluded.append(Excluded(id=option_id, label=label, reason="land-defence-only"))
            else:
                options.append(Option(id=option_id, label=label, detail=resource.text))
        for number in campaign.numbers(side):
            if number not in offered:
                excluded.append(
                    Excluded(
                        id=resource_id(side, number),
                        label=f"#{number}",
                        reason="land-not-in-period",
                    )
                )
        return Decision(
            side=side.value,
            field="resource",
            options=tuple(options),
            excluded=tuple(excluded),
            default=NO_RESOURCE_ID,
        )

    @staticmethod
    def doctrine_decision(side: Side) -> Decision:
        options = tuple(
            Option(id=key, label=DOCTRINE_LABELS[key])
            for key in DOCTRINES
            if key in DOCTRINE_PRESETS
        )
        return Decision(side=side.value, field="doctrine", options=options, default="balanced")

    def pending(self, state: LandState) -> list[Decision]:
        if state.finished:
            return []
        out: list[Decision] = []
        for side in Side:
            out.append(self.resource_decision(state, side))
            out.append(self.doctrine_decision(side))
        return out

    def resource(self, state: LandState, side: Side, number: int) -> LandResource | None:
        if number == NO_RESOURCE:
            return None
        for resource in self.campaign_of(state).resources_of(side, state.draw.period):
            if resource.number == number:
                return resource
        raise IllegalChoice(f"{side.value} has no resource #{number} in this period")

    def resolve(
        self, state: LandState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[LandState, list[Event]]:
        if state.finished:
            raise IllegalChoice("the campaign is over")
        legal = {(d.side, d.field): d for d in self.pending(state)}
        picks: dict[Side, dict[str, str]] = {}
        for side in Side:
            picks[side] = {}
            for field in ("resource", "doctrine"):
                decision = legal[(side.value, field)]
                value = choices.get(side.value, {}).get(field, decision.default)
                if not decision.allows(value):
                    raise IllegalChoice(f"{side.value} {field}={value!r} is not a legal pick")
                picks[side][field] = value
        numbers = {side: resource_number(picks[side]["resource"])[1] for side in Side}
        resources = {side: self.resource(state, side, numbers[side]) for side in Side}
        doctrines = {side: picks[side]["doctrine"] for side in Side}
        campaign = self.campaign_of(state)
        target = campaign.target(state.draw.target)
        turn = state.turn

        def event(kind: str, **data: object) -> Event:
            return Event(kind=kind, turn=turn, data=dict(data))

        events = [
            event(
                "land-resources",
                # Words for the log: the sheet's number and name, "—" for no resource.
                **{
                    side.value: f"#{numbers[side]} {resource.name}" if resource else "—"
                    for side, resource in resources.items()
                },
                japanese_doctrine=doctrines[Side.JAPANESE],
                allied_doctrine=doctrines[Side.ALLIED],
            )
        ]
        flown, pilots = fly_mission(self.catalog, campaign, target, turn, resources, doctrines, rng)
        for side in Side:
            if pilots[side.value]:
                events.append(event("land-pilots", side=side.value, placed=pilots[side.value]))
        mission_vp = {
            side: sum(line.vp for line in flown.lines if line.side is side) for side in Side
        }
        totals = {side: state.vp.get(side, 0) + mission_vp[side] for side in Side}
        events.append(
            event(
                "land-mission-flown",
                mission=turn,
                target=target.number,
                location=target.location,
                attacker=target.attacker.value,
                points=flown.report.target_points,
                japanese=mission_vp[Side.JAPANESE],
                allied=mission_vp[Side.ALLIED],
            )
        )
        record = MissionRecord(
            mission=turn,
            draw=state.draw,
            resources=numbers,
            doctrines=doctrines,
            length=flown.length,
            clouds_card=flown.clouds_card,
            clouds=flown.clouds,
            dispersal_points=flown.dispersal_points,
            report=flown.report,
            lines=flown.lines,
            vp=mission_vp,
            totals=totals,
        )
        used = {
            side: (*state.used.get(side, ()), numbers[side])
            if numbers[side] != NO_RESOURCE
            else state.used.get(side, ())
            for side in Side
        }
        history = (*state.history, record)
        before = state.flown
        if before is None:  # stored before ``flown`` was kept
            before = tuple(r.draw.target for r in state.history)
        targets = (*before, state.draw.target)
        update: dict[str, object] = {
            "used": used,
            "vp": totals,
            "history": history,
            "flown": targets,
        }
        if turn >= state.missions:
            difference = totals[Side.JAPANESE] - totals[Side.ALLIED]
            row = campaign.performance_for(difference, len(state.periods))
            winner = (
                "draw"
                if difference == 0
                else (Side.JAPANESE.value if difference > 0 else Side.ALLIED.value)
            )
            performance = {Side.JAPANESE: row.japanese, Side.ALLIED: row.allied}
            update.update(finished=True, winner=winner, performance=performance)
            events.append(
                event(
                    "land-campaign-ended",
                    winner=winner,
                    japanese=totals[Side.JAPANESE],
                    allied=totals[Side.ALLIED],
                    japanese_performance=row.japanese,
                    allied_performance=row.allied,
                )
            )
        else:
            period = state.period(turn + 1)
            flown_numbers = set(targets)
            deck = Deck(self.catalog.deck.cards, rng.stream("next-target"))
            draw = self._draw(campaign, period, flown_numbers, deck)
            nxt = campaign.target(draw.target)
            update.update(turn=turn + 1, draw=draw)
            events.append(
                event(
                    "land-target-drawn",
                    mission=turn + 1,
                    card=draw.card,
                    row=draw.key,
                    target=draw.target,
                    location=nxt.location,
                    attacker=nxt.attacker.value,
                )
            )
        return state.model_copy(update=update), events

    def strike_reports(self, state: LandState, turn: int) -> Sequence[StrikeReport]:
        """The mission flown in ``turn`` (a land turn is one mission), as its strike report."""
        return tuple(r.report for r in state.history if r.mission == turn)

    def log_detail(self, state: LandState, turn: int) -> Sequence[LogDetail]:
        """The mission fought in full, under the ``land-mission-flown`` event of its number."""
        reports = self.strike_reports(state, turn)
        return [strike_detail(r, "land-mission-flown", "mission", r.turn) for r in reports]

    # A land campaign has no secret once a mission's picks are revealed: every event is
    # told to all.
    event_sights = kinds(
        public=(
            "land-resources", "land-pilots", "land-mission-flown", "land-target-drawn",
            "land-campaign-ended",
        )
    )  # fmt: skip

    def project(self, kept: Any, eyes: Eyes) -> LandView:
        # A side's view of a running campaign feeds its panel and its board, which read no
        # mission record (the map reads ``flown``); the mission's report and summary are
        # drawn from the public's view. Left out, a kept side view holds no strike report.
        records = kept["history"] if eyes.side is None or kept["finished"] else ()
        return LandView(
            viewer=Side(eyes.side) if eyes.side is not None else None,
            scenario=kept["scenario"],
            sheet=public_sheet(kept["campaign"]),
            periods=kept["periods"],
            turn=kept["turn"],
            missions=kept["missions"],
            draw=kept["draw"],
            used=kept["used"],
            vp=kept["vp"],
            history=records,
            flown=(
                kept["flown"]
                if kept["flown"] is not None
                else tuple(r.draw.target for r in kept["history"])
            ),
            finished=kept["finished"],
            winner=kept["winner"],
            performance=kept["performance"],
        )

    def progress(self, state: LandState) -> Progress:
        return Progress.of(state, ROUND, {side.value: state.vp.get(side, 0) for side in Side})

    # ------------------------------------------------------------------ storage

    def resolves_from_snapshot(self, state: LandState) -> bool:
        return state.flown is not None  # the next draw reads it, not the history

    def view_records(self, state: LandState) -> int | None:
        # The mission just flown's record (its report); the map reads ``flown``. The
        # after-action, which reads every record, is drawn from the whole state apart.
        return None if state.flown is None else 1

    def side_view_records(self, state: LandState) -> int | None:
        # A side's view of a running campaign keeps no mission record (``project``); a
        # finished campaign's reads what every view does.
        return self.view_records(state) if state.finished else 0
