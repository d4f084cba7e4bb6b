"""A flown strike told in full for the log: every duel, every flak row, every bombing run.

A strike image shows what fits and sends the reader to the log for the rest ("… and 5 more
in the log"); these events are that rest, made from the report the state keeps once the
turn that flew it is over (when its report and image go public): they publish nothing the
report does not. Their data holds the facts (type codes, roles, numbers), not words, so
the ZERO! presenters say them in the reader's language (``rendering.zero.log_words``).

The service writes them as its own events (``engine.ruleset.LogDetail``): verify replays
and compares the engine's events only, so exports made before these existed and after
verify alike, and a database written before them has no detail lines under its strikes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ruleset import Event, LogDetail
from engine.zero.report import AircraftOutcome, StrikeReport
from engine.zero.types import AircraftState, BombMode

DUEL = "strike-duel"
FLAK = "strike-flak"
BOMB_RUN = "strike-bomb-run"
KINDS = frozenset({DUEL, FLAK, BOMB_RUN})
PHASES = ("scout", "target-bound", "ingress", "bomb", "egress", "home-bound")


def _numbers(aircraft: Sequence[AircraftOutcome]) -> dict[str, str]:
    """The number an aircraft carries in the image's label: its element's rank among the
    side's elements of that type when there are several, a formation member's place."""
    elements: dict[tuple[str, str], list[str]] = {}
    for item in aircraft:
        seen = elements.setdefault((item.side.value, item.aircraft), [])
        if item.element not in seen:
            seen.append(item.element)
    members: dict[str, int] = {}
    numbers: dict[str, str] = {}
    for item in aircraft:
        siblings = elements[(item.side.value, item.aircraft)]
        number = f"{siblings.index(item.element) + 1}" if len(siblings) > 1 else ""
        if item.role in ("formation", "recon"):
            members[item.element] = members.get(item.element, 0) + 1
            place = members[item.element]
            number = f"{number}.{place}" if number else f"{place}"
        numbers[item.uid] = number
    return numbers


def _fate(item: AircraftOutcome) -> str:
    if item.lost_on_recovery:
        return "lost"
    if item.state is AircraftState.DESTROYED:
        return "destroyed"
    if item.state is AircraftState.DAMAGED:
        return "damaged"
    return "ok"


class _Crew:
    """Who an aircraft of the report is, as the event data keeps it."""

    def __init__(self, report: StrikeReport) -> None:
        self.by_uid = {item.uid: item for item in report.aircraft}
        self.numbers = _numbers(report.aircraft)

    def __call__(self, uid: str) -> dict[str, Any]:
        item = self.by_uid.get(uid)
        if item is None:  # not in the report: keep the id rather than lose the line
            return {"uid": uid}
        return {
            "side": item.side.value,
            "aircraft": item.aircraft,
            "role": item.role,
            "number": self.numbers.get(uid, ""),
            "pilot": item.pilot,
            "fate": _fate(item),
        }


def _phase_rank(phase: str) -> int:
    return PHASES.index(phase) if phase in PHASES else len(PHASES)


def strike_events(report: StrikeReport) -> list[Event]:
    """The report's duels, flak and bombing runs as log events, in the order they were fought.

    Duels and flak are summed per pair (and per phase and kind for flak) exactly as the
    image groups them, so the image's rows and the log's lines match one for one.
    """
    crew = _Crew(report)
    events: list[Event] = []
    duels: dict[tuple[str, str], dict[str, Any]] = {}
    for exchange in report.exchanges:
        key = (exchange.attacker, exchange.defender)
        duel = duels.get(key)
        if duel is None:
            duel = duels[key] = {
                "strike": report.id,
                "phases": [],
                "attacking": crew(exchange.attacker),
                "defending": crew(exchange.defender),
                "attacks": 0,
                "to_defender": 0,
                "to_attacker": 0,
            }
        if exchange.phase not in duel["phases"]:
            duel["phases"].append(exchange.phase)
        duel["attacks"] += 1
        duel["to_defender"] += exchange.damage_to_defender
        duel["to_attacker"] += exchange.damage_to_attacker
    events.extend(Event(kind=DUEL, turn=report.turn, data=duel) for duel in duels.values())

    flak: dict[tuple[str, str, str], dict[str, Any]] = {}
    for shot in report.flak:
        row = flak.get((shot.phase, shot.kind, shot.against))
        if row is None:
            row = flak[(shot.phase, shot.kind, shot.against)] = {
                "strike": report.id,
                "phase": shot.phase,
                "flak": shot.kind,
                "against": crew(shot.against),
                "cards": 0,
                "answered": 0,
                "damage": 0,
                "spoils": 0,
            }
        row["cards"] += len(shot.cards)
        row["answered"] += 1 if shot.answered is not None else 0
        row["damage"] += shot.damage
        row["spoils"] += shot.spoils
    ordered = sorted(flak.values(), key=lambda row: (_phase_rank(row["phase"]), row["flak"]))
    events.extend(Event(kind=FLAK, turn=report.turn, data=row) for row in ordered)

    for run in report.bomb_runs:
        mode = run.mode.value if isinstance(run.mode, BombMode) else run.mode
        data = {
            "strike": report.id,
            "bomber": crew(run.uid),
            "mode": mode,
            "band": run.band.name.lower(),
            "results": [result.name.lower() for result in run.results],
            "cancelled": len(run.cancelled),
            "points": run.points,
        }
        events.append(Event(kind=BOMB_RUN, turn=report.turn, data=data))
    return events


def strike_detail(report: StrikeReport, under: str, key: str, value: Any) -> LogDetail:
    """The report's detail, told under the event of kind ``under`` whose ``key`` is ``value``
    (the carrier's ``strike-flown`` of its id, a land mission's ``land-mission-flown``)."""
    return LogDetail(under=under, key=key, value=value, events=tuple(strike_events(report)))
