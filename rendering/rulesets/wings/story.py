"""A Wings of War turn told in words for the channel (issue 27, part 3): one line a plane,
by pilot name, "Albert Ball (Nieuport 17) flew BL BL S and fired twice at Kurt Wolff, short
range; took 2 damage cards, is smoking."

From the public view and the turn's public events only: the cards flown, the shots, the
damage cards drawn (counted, face down: their values stay the target's), the specials the
rules make public (smoke, fire, an explosion) and the falls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rendering.i18n import t, word
from rendering.rulesets.wings.turn import Flown

# The marks a line tells, in this order; an exploded plane's explosion is told once.
FATES = ("smoke", "fire", "shot-down", "crashed", "exploded")


def _order(pid: str) -> tuple[int, str]:
    digits = pid.lstrip("P")
    return (int(digits) if digits.isdigit() else 0, pid)


class Names:
    """Who flies what, as the public view names them."""

    def __init__(self, view: Any) -> None:
        self.mission = view.data.get("mission") or {}
        self.pilots = view.data.get("pilots") or {}
        self.types = view.plane_types

    def pilot(self, pid: str) -> str:
        plane = (self.mission.get("planes") or {}).get(pid) or {}
        pilot = self.pilots.get(plane.get("pilot") or pid) or {}
        return str(pilot.get("name", pid))

    def plane(self, pid: str) -> str:
        plane = (self.mission.get("planes") or {}).get(pid) or {}
        known = self.types.get(plane.get("type", ""))
        return str(known[0]) if known else str(plane.get("type", "?"))

    def target(self, target: str, balloon: bool, locale: str) -> str:
        if balloon:
            return t("wings.story.balloon", locale, id=target)
        return self.pilot(target)


def story(
    view: Any, turn: Flown, events: Sequence[tuple[str, Mapping[str, Any]]], locale: str
) -> list[str]:
    """One line a plane that flew, shot or suffered this turn, in the mission's plane order."""
    names = Names(view)
    fates: dict[str, list[str]] = {}
    for _phase, pid, what in turn.marks:
        what = "exploded" if what == "explosion" else what
        if what in FATES and what not in fates.setdefault(pid, []):
            fates[pid].append(what)
    for told in fates.values():
        told.sort(key=FATES.index)
    others: dict[str, list[str]] = {}
    for kind, data in events:
        if kind == "left-table" and "plane" in data:
            others.setdefault(str(data["plane"]), []).append(t("wings.story.left", locale))
        elif kind == "collision" and len(data.get("planes") or ()) == 2:
            first, second = (str(p) for p in data["planes"])
            for me, them in ((first, second), (second, first)):
                words = t("wings.story.collided", locale, other=names.pilot(them))
                others.setdefault(me, []).append(words)
    taken: dict[str, int] = {}
    for shot in turn.shots:
        if not shot.balloon:
            taken[shot.target] = taken.get(shot.target, 0) + shot.cards
    shooters = {shot.shooter for shot in turn.shots}
    planes = set(turn.steps) | shooters | set(fates) | set(others) | set(taken)
    planes &= set((names.mission.get("planes") or {}).keys())
    sides = {"entente": 0, "central": 1}

    def order(pid: str) -> tuple[int, str, tuple[int, str]]:  # as the table marks them
        side = ((names.mission.get("planes") or {}).get(pid) or {}).get("side", "")
        return (sides.get(side, 2), view.slots.get(pid, ""), _order(pid))

    lines = []
    for pid in sorted(planes, key=order):
        lines.append(_line(pid, names, turn, taken, fates, others, locale))
    return lines


def _line(
    pid: str,
    names: Names,
    turn: Flown,
    taken: Mapping[str, int],
    fates: Mapping[str, list[str]],
    others: Mapping[str, list[str]],
    locale: str,
) -> str:
    cards = turn.cards(pid)
    who = {"pilot": names.pilot(pid), "plane": names.plane(pid)}
    if cards:
        head = t("wings.story.flew", locale, cards=" ".join(cards), **who)
    else:
        head = t("wings.story.who", locale, **who)
    fired = _fired(pid, names, turn, locale)
    if fired:
        head = t("wings.story.and", locale, first=head, second=fired)
    after: list[str] = list(others.get(pid, []))
    if taken.get(pid):
        after.append(_cards_taken(taken[pid], locale))
    after += [t(f"wings.story.fate.{what}", locale) for what in fates.get(pid, ())]
    if not after:
        return t("wings.story.line", locale, what=head)
    joined = t("wings.story.list", locale).join(after)
    return t("wings.story.line-then", locale, what=head, then=joined)


def _fired(pid: str, names: Names, turn: Flown, locale: str) -> str:
    """ "fired twice at Kurt Wolff, short range, and once at balloon c-B1"."""
    groups: dict[tuple[str, bool], list[bool]] = {}
    for shot in turn.shots:
        if shot.shooter == pid:
            groups.setdefault((shot.target, shot.balloon), []).append(shot.short)
    parts = []
    for (target, balloon), ranges in groups.items():
        times = len(ranges)
        key = {1: "once", 2: "twice"}.get(times, "times")
        reach = "both" if len(set(ranges)) > 1 else ("short" if ranges[0] else "long")
        parts.append(
            t(
                "wings.story.fired-balloon" if balloon else "wings.story.fired",
                locale,
                times=t(f"wings.story.{key}", locale, n=times),
                target=names.target(target, balloon, locale),
                range=t(f"wings.story.range.{reach}", locale),
            )
        )
    if not parts:
        return ""
    return t("wings.story.and-then", locale).join(parts)


def _cards_taken(count: int, locale: str) -> str:
    one = count in (0, 1) if locale == "fr" else count == 1
    return t(f"wings.story.took-{'one' if one else 'other'}", locale, n=count)


# A raid's turn (the Dambuster): what its public events say, in the log's own sentences,
# each kind the turn's story tells; the rest (a turn started, a heading) is the log's.
RAID_TOLD = (
    "run-started",
    "moved",
    "bomb-aimed",
    "aim-lapsed",
    "aim-off-water",
    "bomb-released",
    "bomb-bounce",
    "bomb-exploded",
    "searchlights-on",
    "aa-fire",
    "fire-at-aa",
    "aa-eliminated",
    "crew-hit",
    "night-pick",
    "shot-down",
    "second-pass",
    "gibson-rejoins",
    "left-table",
    "complex-destroyed",
    "raid-over",
)


def raid_story(events: Sequence[tuple[str, Mapping[str, Any]]], locale: str) -> list[str]:
    """One line a thing that happened in a raid's turn, in order: the Lancaster's card, its
    bomb, the guns' fire and what they hit."""
    lines: list[str] = []
    for kind, data in events:
        if kind not in RAID_TOLD:
            continue
        # Values in the log's own words ("pilot_wounded" reads "pilot wounded").
        params = {
            key: word(f"log.value.{value}", value, locale) if isinstance(value, str) else value
            for key, value in data.items()
            if not isinstance(value, dict)
        }
        if kind == "moved":
            line = t("dambuster.raid.flew", locale, plane=data.get("plane"), card=data.get("card"))
        elif kind == "bomb-exploded":
            outcome = str(data.get("outcome", ""))
            words = t(f"log.outcome.{outcome}", locale) if outcome else "?"
            line = t("log.bomb-exploded", locale, plane=data.get("plane"), outcome=words)
        elif kind == "crew-hit":
            station = str(data.get("station", ""))
            words = word(f"log.station.{station}", station, locale)
            line = t("log.crew-hit", locale, plane=data.get("plane"), station=words)
        elif kind == "shot-down":
            line = t("log.shot-down-unaided", locale, **params)
        elif kind == "raid-over":
            result = t(f"dambuster.raid.result.{data.get('result')}", locale)
            line = t("dambuster.raid.over", locale, result=result)
        else:
            line = t(f"log.{kind}", locale, **params)
        lines.append(line if line.endswith((".", "**")) else line + ".")
    return lines
