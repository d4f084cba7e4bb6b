"""Bombing (21.x), strafing (21.7) and the authored Bombing Display (authored-data 3.4).

Card counts and Target Flak modifiers come from one table per mode and band. Seed values:
Level at Very Low +1 card and +1 flak (21.32), Low plain (22.3 Ki-30); Dive ending Low +1
card, ending Very Low +2 cards and +1 flak (21.43-21.44); Torpedo one card (21.55);
Saturation at Medium plain (22.3 Ki-21); a fighter at Medium not bombing -1 flak (22.3).
Authored: the other cells of 3.4; Level at High -2 and Very High -3 (cards and flak) extend
the authored Medium row, and Saturation at Very Low reads like Low. Norden +2 (18.32) and
the pilot's BM +1 (19.25) are added to any count that is not zero.

Scoring: each bomb card that no flak spoil cancelled (22.23: a spoil takes the best card
left) gives its printed result, read one level lower for Saturation against a ship
(21.63), as a Miss for a Hit of the US Mk 13 torpedo (authored 3.4), then
``result_shift`` levels lower (Out of Sight). Points come from the Target Sheet (21.15),
doubled for a torpedo (21.55), plus the Loaded Flight Deck bonus for every Hit, Direct
or Vital on a carrier fleet, added after the doubling.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final, Literal

from engine.zero.cards import Card, ids_of
from engine.zero.catalog import AircraftType, TargetSheet
from engine.zero.dogfight import (
    DIVE,
    FIGHTER_BOMBER,
    FORMATION_CLASSES,
    LEVEL,
    NO_LOAD,
    SATURATION,
    TORPEDO,
    VH,
    VL,
    H,
    L,
    M,
    Plane,
    Sky,
)
from engine.zero.flak import area_flak, target_flak
from engine.zero.types import Band, BombMode, BombResult, Ordnance

RECON: Final = BombMode.RECON
HIT: Final = BombResult.HIT
MISS: Final = BombResult.MISS

# (card modifier, Target Flak modifier) by band, authored 3.4 with the seed's cells.
_LEVEL: Final = {VL: (1, 1), L: (0, 0), M: (-1, -1), H: (-2, -2), VH: (-3, -3)}
_DIVE: Final = {L: (1, 0), VL: (2, 1)}  # keyed by the band the dive ends in (21.42)
_SATURATION: Final = {VH: (-1, -2), H: (0, -1), M: (0, 0), L: (1, 1), VL: (1, 1)}
_IDLE: Final = {VH: -2, H: -2, M: -1, L: 0, VL: 0}  # over the target, not bombing or strafing
# Each result one level worse, looked up: compiled, the enum's own method runs interpreted.
_WORSE: Final = {result: result.shifted_down() for result in BombResult}


def choose_mode(kind: AircraftType, ordnance: Ordnance, naval: bool) -> BombMode | None:
    """21.22 and 17.14: the one mode an aircraft uses this strike, from what it carries."""
    if ordnance is NO_LOAD:
        return None
    bomb = kind.undamaged.bomb
    if ordnance is Ordnance.TORPEDO and TORPEDO in bomb and naval:
        return TORPEDO  # 21.51-21.52
    if kind.cls is FIGHTER_BOMBER:
        order: tuple[BombMode, ...] = (DIVE, LEVEL, SATURATION)
    elif kind.cls in FORMATION_CLASSES:
        order = (SATURATION, LEVEL)
    else:
        order = (LEVEL,)
    return next((mode for mode in order if mode in bomb), None)


def bomb_card_count(
    mode: BombMode, band: Band, rating: int, *, norden: bool = False, extra: int = 0
) -> int:
    """Bomb cards for ``mode`` at ``band`` (the band a dive ends in), authored 3.4.

    Torpedo is always one card and only at Very Low (21.53, 21.55). A rating of 0 (a
    Damaged Ki-21, 22.3) draws nothing whatever the modifiers.
    """
    if mode is TORPEDO:
        return 1 if band == VL else 0
    if rating <= 0:
        return 0
    if mode is LEVEL:
        base = rating + _LEVEL[band][0]
    elif mode is DIVE:
        if band not in _DIVE:
            return 0  # 21.41: a dive starts at Medium or Low only
        base = rating + _DIVE[band][0]
    elif mode is SATURATION:
        base = rating + _SATURATION[band][0]
    else:
        base = rating
    return max(0, base) + (2 if norden else 0) + extra


def target_flak_count(
    target_flak: int,
    mode: BombMode | None,
    band: Band,
    *,
    strafe: bool = False,
    mod: int = 0,
) -> int:
    """Target Flak cards against one aircraft (22.23, authored 3.4); ``mode`` None = not
    bombing. Strafing draws the value again, +1 at Very Low (22.27, 21.74 example)."""
    if strafe:
        delta = 1 if band == VL else 0
    elif mode is None or mode is RECON:
        delta = _IDLE[band]
    elif mode is LEVEL:
        delta = _LEVEL[band][1]
    elif mode is DIVE:
        delta = _DIVE[band][1] if band in _DIVE else 0
    elif mode is TORPEDO:
        delta = 1
    else:
        delta = _SATURATION[band][1]
    return max(0, target_flak + delta + mod)


def strafe_card_count(leader_burst: int, skill_s: bool = False) -> int:
    """21.73: the Leader's Burst, at least 1 (a Wingman uses its Leader's); S adds one."""
    return max(1, leader_burst) + (1 if skill_s else 0)


def applied_result(
    printed: BombResult, mode: BombMode, *, naval: bool, mk13: bool, shift: int = 0
) -> BombResult:
    """Mk 13 Hit -> Miss (authored 3.4), Saturation vs a ship -1 (21.63), then ``shift``."""
    result = printed
    if mode is TORPEDO and mk13 and result is HIT:
        result = MISS
    if mode is SATURATION and naval:
        result = _WORSE[result]
    for _ in range(max(0, shift)):
        result = _WORSE[result]
    return result


def result_points(
    result: BombResult,
    mode: BombMode,
    sheet: TargetSheet,
    *,
    carrier_fleet: bool = False,
    damage_bonus: int = 0,
) -> int:
    """21.15 sheet points; torpedo x2 (21.55); the carrier-fleet bonus after doubling."""
    if result is MISS:
        return 0
    points = max(0, sheet.points.get(result, 0))
    if mode is TORPEDO:
        points *= 2
    if carrier_fleet:
        points += max(0, damage_bonus)
    return points


def cancel_best(cards: Sequence[Card], spoils: int, *, strafe: bool = False) -> set[int]:
    """22.23: each spoil cancels the best card still standing (the first on a tie).

    Returns positions in ``cards``. For a strafe the best card is a strafe Hit.
    """
    cancelled: set[int] = set()
    for _ in range(max(0, spoils)):
        best = -1
        best_value = -1
        for index, card in enumerate(cards):
            if index in cancelled:
                continue
            value = int(card.strafe_hit) if strafe else int(card.bombing)  # an IntEnum
            if value > best_value:
                best, best_value = index, value
        if best < 0:
            break
        cancelled.add(best)
    return cancelled


class Target:
    """What the bombing needs to know about the target and the strike's modifiers."""

    __slots__ = ("carrier_fleet", "damage_bonus", "flak_mod", "sheet", "shift")

    def __init__(
        self,
        sheet: TargetSheet,
        *,
        carrier_fleet: bool = False,
        flak_mod: int = 0,
        shift: int = 0,
        damage_bonus: int = 0,
    ) -> None:
        self.sheet = sheet
        self.carrier_fleet = carrier_fleet
        self.flak_mod = flak_mod
        self.shift = shift
        self.damage_bonus = damage_bonus

    @property
    def strafable(self) -> bool:
        """21.71 / 25.66: never a carrier fleet, never a sheet marked "no"."""
        return self.sheet.strafe is not None and not self.carrier_fleet


def bomb_run(sky: Sky, p: Plane, target: Target) -> dict[str, Any]:
    """21.13-21.14 / 22.22: draw the bomb cards, take Target Flak, apply what survives.

    The results apply even if that flak damages or destroys the bomber (21.14).
    Formation aircraft cannot answer the flak (22.24); fighters answer once (22.25).
    """
    mode = p.mode or LEVEL
    rating = p.rat.bomb.get(mode, 0)
    count = bomb_card_count(
        mode, p.band, rating, norden=p.kind.norden, extra=1 if "BM" in p.skills else 0
    )
    cards = sky.draw(count, "bomb", p.uid)
    sky.events.append(("bomb", p.uid))
    p.unload()  # 18.23
    flak_count = target_flak_count(target.sheet.target_flak, mode, p.band, mod=target.flak_mod)
    shot = target_flak(sky, p, flak_count)
    gone = cancel_best(cards, shot["spoils"])
    results = tuple(
        applied_result(
            c.bombing, mode, naval=target.sheet.naval, mk13=p.kind.mk13, shift=target.shift
        )
        for i, c in enumerate(cards)
        if i not in gone
    )
    points = sum(
        result_points(
            r,
            mode,
            target.sheet,
            carrier_fleet=target.carrier_fleet,
            damage_bonus=target.damage_bonus,
        )
        for r in results
    )
    sky.discards.extend(cards)
    return _run(sky, p, mode, cards, gone, results, points, "no-cards" if not cards else "")


def _run(
    sky: Sky,
    p: Plane,
    mode: BombMode | Literal["strafe"],
    cards: list[Card],
    gone: Collection[int],
    results: tuple[BombResult, ...],
    points: int,
    note: str = "",
) -> dict[str, Any]:
    """The run recorded (the fields of its ``BombRun``): ``cards`` drawn, those at the
    indexes ``gone`` cancelled."""
    run = {
        "uid": p.uid,
        "mode": mode,
        "band": p.band,
        "cards": ids_of(cards),
        "cancelled": tuple(c.id for i, c in enumerate(cards) if i in gone),
        "results": results,
        "points": points,
        "note": note,
    }
    sky.runs.append(run)
    return run


def strafe_worthwhile(p: Plane, target: Target, band: Band | None = None) -> bool:
    """21.71 eligibility plus the policy: strafing brings the Target Flak back at +1 for
    little gain (21.74 example), so an undamaged aircraft strafes only when it draws at
    least as many strafe cards as flak cards. ``band``: where it will be (after a dive)."""
    at = p.band if band is None else band
    if p.destroyed or p.is_formation or at != VL or not target.strafable or p.damaged:
        return False
    cards = strafe_card_count(_strafe_burst(p), "S" in p.skills)
    flak = target_flak_count(target.sheet.target_flak, None, VL, strafe=True, mod=target.flak_mod)
    return cards >= flak


def _strafe_burst(p: Plane) -> int:
    mate = p.mate
    if not p.lead and mate is not None and not mate.destroyed:
        return mate.burst()
    return p.burst()


def strafe_run(sky: Sky, p: Plane, target: Target) -> dict[str, Any]:
    """21.72-21.74 / 22.27: strafe cards, Target Flak again (one answer), Hit/Miss only."""
    count = strafe_card_count(_strafe_burst(p), "S" in p.skills)
    cards = sky.draw(count, "strafe", p.uid)
    flak_count = target_flak_count(
        target.sheet.target_flak, None, p.band, strafe=True, mod=target.flak_mod
    )
    shot = target_flak(sky, p, flak_count, kind="strafe")
    gone = cancel_best(cards, shot["spoils"], strafe=True)
    results = tuple(HIT if c.strafe_hit else MISS for i, c in enumerate(cards) if i not in gone)
    per_hit = (target.sheet.strafe or 0) if target.strafable else 0
    points = sum(per_hit for r in results if r is HIT)
    sky.discards.extend(cards)
    return _run(sky, p, "strafe", cards, gone, results, points)


def recon_run(sky: Sky, p: Plane, target: Target, area_flak_count: int) -> dict[str, Any]:
    """23.64 with authored 3.4 step 3: a scout's report is found like a bomb run.

    It draws its Recon rating in cards, read by their bombing section, and meets the
    target's Area Flak: IMS/OTS damage the scout, each spoil cancels the best card left
    (22.23). Nothing is scored on the target; the mission succeeds if any Hit, Direct or
    Vital remains. As for bombs (21.14), the cards stand even if that flak downs the scout.
    """
    rating = p.rat.bomb.get(RECON, 0)
    cards = sky.draw(max(0, rating), "recon", p.uid)
    shot = area_flak(sky, p, area_flak_count, with_spoils=True)
    gone = cancel_best(cards, shot["spoils"])
    results = tuple(c.bombing for i, c in enumerate(cards) if i not in gone)
    sky.discards.extend(cards)
    return _run(sky, p, RECON, cards, gone, results, 0, "scout-report" if cards else "no-cards")
