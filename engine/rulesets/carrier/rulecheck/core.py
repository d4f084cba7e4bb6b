"""What every check shares: the campaign read from the export, and the list of findings.

A check is a function taking a ``Campaign`` and a ``Findings``; it calls ``findings.check``
once for every fact it compares, which counts the comparison and, when it fails, records a
line citing the rule. Checks read the export and the data files only (``data.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.rulesets.carrier.rulecheck.data import GameData, Place

SIDES = ("japanese", "allied")


def enemy(side: str) -> str:
    return "allied" if side == "japanese" else "japanese"


@dataclass(frozen=True)
class Finding:
    check: str  # the check's name, e.g. "recovery-cards"
    rule: str  # the rule it enforces, e.g. "25.71"
    text: str

    def line(self) -> str:
        return f"rule {self.rule}: {self.text}"


@dataclass
class Findings:
    passed: int = 0
    problems: list[Finding] = field(default_factory=list)

    def check(self, ok: bool, check: str, rule: str, text: str) -> bool:
        if ok:
            self.passed += 1
        else:
            self.problems.append(Finding(check, rule, text))
        return ok


@dataclass
class Campaign:
    """The finished campaign as the export tells it, with the data it was played with."""

    data: GameData
    scenario: str
    sheet: dict[str, Any]
    places: dict[str, Place]
    turns: list[dict[str, Any]]  # the turn records of the final state, in order
    final: dict[str, Any]
    events: list[dict[str, Any]]  # engine events of live rounds, in log order
    committed: dict[tuple[int, str, str], dict[str, str]]  # (turn, round, side) -> choice
    # The carrier rules version the campaign was created under ("1" before versions were
    # recorded): from 6 on, a track ticks no box past its end (25.82).
    version: int = 1

    @classmethod
    def read(cls, export: Mapping[str, Any], data: GameData) -> Campaign:
        scenario = export["campaign"]["scenario"]
        final = export["final_state"]
        committed: dict[tuple[int, str, str], dict[str, str]] = {}
        for round_json in export["rounds"]:
            if round_json["status"] != "resolved":
                continue
            for lock in round_json["locks"]:
                if lock["withdrawn_at"] is None and lock.get("canonical"):
                    choice = json.loads(lock["canonical"])["choice"]
                    committed[(round_json["turn"], round_json["kind"], lock["side"])] = choice
        events = [e for e in export["events"] if e["source"] == "engine" and not e["void"]]
        created = next((e for e in export["events"] if e["kind"] == "campaign-created"), None)
        version = str((created or {}).get("data", {}).get("rules_version", "1"))
        return cls(
            data=data,
            scenario=scenario,
            sheet=data.scenarios[scenario],
            places=data.places(scenario),
            turns=list(final["history"]),
            final=final,
            events=events,
            committed=committed,
            version=int(version) if version.isdigit() else 1,
        )

    def fleet(self, side: str) -> Place:
        return next(p for p in self.places.values() if p.side == side and p.carrier_fleet)

    def airfield(self) -> Place | None:
        return next((p for p in self.places.values() if p.airfield), None)

    def events_of(self, turn: int, kind: str) -> list[dict[str, Any]]:
        return [e["data"] for e in self.events if e["turn"] == turn and e["kind"] == kind]

    def strikes(self) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        for record in self.turns:
            for strike in record["strikes"]:
                yield record, strike

    def previous(self, record: dict[str, Any]) -> dict[str, Any] | None:
        index = self.turns.index(record)
        return self.turns[index - 1] if index > 0 else None

    @property
    def capped(self) -> bool:
        """Whether the campaign was played under the rule that a track ticks no box past
        its end (carrier rules version 6)."""
        return self.version >= 6

    def length(self, place: str) -> int:
        return self.data.lengths[self.places[place].track]

    def ticked(self, record: dict[str, Any], place: str) -> int:
        """Every box ``place``'s track has ticked by the end of the turn, a box Damage
        Control restored and ticked again included: the sum of the ticks listed (25.82)."""
        index = self.turns.index(record)
        return sum(
            int(tick["boxes"])
            for turn in self.turns[: index + 1]
            for tick in turn.get("ticks", ())
            if tick["place"] == place
        )

    def ticked_before(self, record: dict[str, Any], place: str) -> int:
        before = self.previous(record)
        return self.ticked(before, place) if before is not None else 0

    def repaired_before(self, record: dict[str, Any], place: str) -> int:
        before = self.previous(record)
        return int(before.get("repaired", {}).get(place, 0)) if before else 0

    def effective_before(self, record: dict[str, Any], place: str) -> int:
        """Boxes that count for penalties at the start of the turn: ticked less repaired."""
        return self.ticked_before(record, place) - self.repaired_before(record, place)

    def tactic(self, record: dict[str, Any], side: str) -> str:
        return str(record["picks"][side]["tactic"])

    def resource(self, record: dict[str, Any], side: str) -> int:
        return int(record["picks"][side]["resource"])

    def effect(self, record: dict[str, Any], side: str) -> dict[str, Any]:
        return self.data.effect(self.resource(record, side), side)

    def pilot_skills(self, record: dict[str, Any], uid: str, purpose_side: str) -> set[str]:
        """Skills of the pilot the export says flew ``uid`` this turn (19.24, #14)."""
        skills: set[str] = set()
        for draw in record.get("pilots", ()):
            if draw["uid"] != uid or draw["side"] != purpose_side:
                continue
            if draw.get("ace"):
                # Authored #14: a fighter's ace has A and BU, a bomber's A and BM.
                kind = self.data.aircraft.get(draw["aircraft"])
                skills = {"A", "BU"} if kind and kind.cls == "fighter" else {"A", "BM"}
            elif draw.get("counter") and draw.get("skilled") and draw.get("face") is not None:
                faces = self.data.pilot_faces.get(draw["counter"], ())
                if draw["face"] < len(faces):
                    skills = set(faces[draw["face"]].get("skills", ()))
        return skills


def where(record: Mapping[str, Any], strike: Mapping[str, Any] | None = None) -> str:
    text = f"turn {record['turn']}"
    if strike is not None:
        text += (
            f", strike {strike['id']} ({strike['kind']},"
            f" {strike['attacker']} on {strike['target']})"
        )
    return text
