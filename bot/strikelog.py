"""A flown strike told in full for the log: every duel, every flak row, every bombing run.

A strike image shows what fits and sends the reader to the log for the rest ("… and 5 more
in the log"); these events are that rest. The service writes them when the round that flew
the strike resolves, which is when its report and image go public, from the report the
state keeps: they publish nothing the report does not. Their data holds the facts (type
codes, roles, numbers), not words, so ``bot.logtext`` says them in the reader's language.

They are ``service`` events: verify replays and compares the engine's events only, so
exports made before these existed and after verify alike. A database written before them
simply has no detail lines under its strikes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from bot.i18n import t, word
from db.repository import NewEvent
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


def strike_detail(report: StrikeReport) -> list[NewEvent]:
    """The report's duels, flak and bombing runs as log events, in the order they were fought.

    Duels and flak are summed per pair (and per phase and kind for flak) exactly as the
    image groups them, so the image's rows and the log's lines match one for one.
    """
    crew = _Crew(report)
    events: list[NewEvent] = []
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
    events.extend(NewEvent(DUEL, report.turn, duel) for duel in duels.values())

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
    events.extend(NewEvent(FLAK, report.turn, row) for row in ordered)

    for run in report.bomb_runs:
        mode = run.mode.value if isinstance(run.mode, BombMode) else run.mode
        events.append(
            NewEvent(
                BOMB_RUN,
                report.turn,
                {
                    "strike": report.id,
                    "bomber": crew(run.uid),
                    "mode": mode,
                    "band": run.band.name.lower(),
                    "results": [result.name.lower() for result in run.results],
                    "cancelled": len(run.cancelled),
                    "points": run.points,
                },
            )
        )
    return events


def with_strike_detail(
    engine_events: Sequence[NewEvent], reports: Sequence[StrikeReport]
) -> list[NewEvent]:
    """The round's engine events with each strike's detail right after the event that
    announced it (its id in ``strike``, or a land mission's number), the rest at the end."""
    pending = list(reports)
    out: list[NewEvent] = []
    for event in engine_events:
        out.append(event)
        for report in list(pending):
            if _announces(event, report):
                out.extend(strike_detail(report))
                pending.remove(report)
    for report in pending:
        out.extend(strike_detail(report))
    return out


def _announces(event: NewEvent, report: StrikeReport) -> bool:
    if event.kind == "strike-flown":
        return event.data.get("strike") == report.id
    if event.kind == "land-mission-flown":
        return event.data.get("mission") == report.turn
    return False


# --- the events as sentences (``bot.logtext`` hands these kinds over) -----------------------


@cache
def _aircraft_names() -> dict[str, str]:
    from engine.zero.loader import default_catalog

    return {code: kind.name for code, kind in default_catalog().aircraft.items()}


def _count(key: str, n: int, lang: str) -> str:
    return t(key, lang, count=n)


def _aircraft(crew: Any, lang: str) -> str:
    """ "A6M2 Zero (leader 2, Honda, destroyed)"; an aircraft kept by id shows its id."""
    if not isinstance(crew, Mapping) or "aircraft" not in crew:
        return str(crew.get("uid", "?") if isinstance(crew, Mapping) else crew)
    code = str(crew["aircraft"])
    role = word(f"log.detail.role.{crew.get('role')}", str(crew.get("role", "")), lang)
    what = [f"{role} {crew.get('number') or ''}".strip()]
    if crew.get("pilot"):
        what.append(str(crew["pilot"]))
    if crew.get("fate") not in (None, "ok"):
        what.append(word(f"log.detail.fate.{crew['fate']}", str(crew["fate"]), lang))
    return t("log.detail.aircraft", lang, name=aircraft_name(code, lang), what=", ".join(what))


def aircraft_name(code: str, lang: str) -> str:
    """The type's name from the game's data: "D3A1 \"Val\"", in French D3A1 « Val »."""
    name = _aircraft_names().get(code, code)
    if lang == "fr":
        name = re.sub(r'"([^"]*)"', "«\u00a0\\1\u00a0»", name)
    return name


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _damage(n: int, lang: str) -> str:
    return _count("log.unit.point", n, lang)


def sentence(kind: str, data: Mapping[str, Any], lang: str) -> str:
    """One detail event in words; the caller has checked ``kind`` is one of ``KINDS``."""
    strike = str(data.get("strike", "?"))
    if kind == DUEL:
        parts = []
        if _int(data.get("to_defender")):
            parts.append(t("log.detail.dealt", lang, damage=_damage(data["to_defender"], lang)))
        if _int(data.get("to_attacker")):
            parts.append(t("log.detail.back", lang, damage=_damage(data["to_attacker"], lang)))
        phases = [word(f"render.strike.phase.{p}", str(p), lang) for p in data.get("phases", ())]
        return t(
            "log.strike-duel",
            lang,
            strike=strike,
            phases=", ".join(phases) or "?",
            attacking=_aircraft(data.get("attacking"), lang),
            defending=_aircraft(data.get("defending"), lang),
            attacks=_count("log.detail.attack", _int(data.get("attacks")), lang),
            result=", ".join(parts) or t("log.detail.no-damage", lang),
        )
    if kind == FLAK:
        parts = []
        if _int(data.get("damage")):
            parts.append(t("log.detail.dealt", lang, damage=_damage(data["damage"], lang)))
        if _int(data.get("spoils")):
            parts.append(_count("log.detail.spoil", data["spoils"], lang))
        phase = str(data.get("phase"))
        return t(
            "log.strike-flak",
            lang,
            strike=strike,
            flak=word(f"render.strike.flak.{data.get('flak')}", str(data.get("flak")), lang),
            phase=word(f"render.strike.phase.{phase}", phase, lang),
            attacked=_aircraft(data.get("against"), lang),
            cards=_count("log.detail.flak-card", _int(data.get("cards")), lang),
            result=", ".join(parts) or t("log.detail.no-damage", lang),
        )
    results = [word(f"render.result.{r}", str(r), lang) for r in data.get("results") or ("miss",)]
    cancelled = _int(data.get("cancelled"))
    band = str(data.get("band"))
    return t(
        "log.strike-bomb-run",
        lang,
        strike=strike,
        mode=word(f"log.detail.mode.{data.get('mode')}", str(data.get("mode")), lang),
        band=word(f"render.band_name.{band}", band, lang).lower(),
        bomber=_aircraft(data.get("bomber"), lang),
        results=", ".join(results),
        points=_damage(_int(data.get("points")), lang),
        cancelled=_count("log.detail.cancelled", cancelled, lang) if cancelled else "",
    )
