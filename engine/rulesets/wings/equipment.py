"""Pilot equipment (seed D.VIII): bought with the pilot's own VP at the debrief, carried
aboard on his next sorties, and acting where the engine applies the rule it changes.

Buying. Only the VP above the last multiple of ten reached may be spent (23 VP: 3), so a
pilot never drops below a multiple of ten he has reached; spent VP are gone and no longer
count towards his status and skills (``Pilot.vp`` stays the VP earned, ``vp_spent`` what
equipment took). One item a pilot a debrief (authored: the panel's one choice each).

The items and where they act:

- fire extinguisher (1 VP, single use): a Fire special is cancelled, its card goes back
  under the damage deck, its points still count (``Turn.apply_special``);
- bulletproof vest (2 VP): cancels a "pilot wounded" card, and absorbs the points of direct
  wounds (Excellent shot, Killer, pistol) up to 5; it is destroyed once it has absorbed 5,
  and a cancelled wound card counts as the 5 points it would have cost (seed D.V);
- incendiary bullets (2 VP, one game): the shooter's damage cards 1 -> 0, 2 and 3 -> 4,
  4 and more +1; fire lasts 4 turns; an engine hit also smokes; against a balloon every
  special but a jam is fire;
- ammunition surplus (2 VP, one game, only with the ammunition rule B.II): half as many
  ammunition cards again (``ammunition.issue``);
- parachute (2 VP, single use): when the plane is shot down the pilot jumps instead of
  riding the wreck down (``Turn.crash``);
- pistol (1 VP, kept) and 6 bullets (1 VP a pack, one a shot): a shot at an enemy pilot
  within R/2, announced with the program (``pistol``); a second pistol is
  refused, packs stack.

Secrecy: what a pilot owns is his side's business (labelled so in ``state``).
The enemy learns of an item when it acts where he can see it: the extinguisher (fire is
public), the parachute and the incendiary bullets (their tracers) are announced to all; the
vest acts on secret things (a wound card, a direct wound) and is told to its side only; the
surplus (face-down ammunition) is told to nobody; the pistol shows from its first shot, its
bullets never.
"""

from __future__ import annotations

from engine.ruleset import Excluded, Option
from engine.rulesets.wings.catalog import SideName
from engine.rulesets.wings.pilots import spendable_vp
from engine.rulesets.wings.state import CampaignState, Decision, Event, Pilot
from engine.rulesets.wings.work import Turn

NOTHING = "none"
# Seed D.VIII prices, in VP.
COST = {
    "extinguisher": 1,
    "vest": 2,
    "incendiary": 2,
    "surplus": 2,
    "parachute": 2,
    "pistol": 1,
    "bullets": 1,
}
ONE_GAME = ("incendiary", "surplus")  # used up by the next mission flown
BULLETS_PER_PACK = 6  # seed D.VIII: "6 pistol bullets", one a shot
KNIGHT_REFUSES = ("pistol", "bullets", "incendiary")  # seed D.VI: the Knight of the Air
VEST_POINTS = 5
_UNITS = {"bullets": BULLETS_PER_PACK}  # what one purchase adds, when not one item
OUT_OF_SERVICE = ("dead", "captured", "missing")
# Where a pilot who jumped comes down: the event's kind names what becomes of him.
LANDINGS = {"friendly": "home", "enemy": "captured", "no_mans_land": "missing"}


# --- buying -------------------------------------------------------------------------------


def progression_vp(pilot: Pilot) -> int:
    """The VP that count towards status and skills: earned less spent (seed D.VIII)."""
    return pilot.vp - pilot.vp_spent


def refusal(state: CampaignState, pilot: Pilot, item: str) -> str | None:
    """Why this pilot may not buy this item now, or None."""
    if pilot.behaviour == "knight" and item in KNIGHT_REFUSES:
        return "knight-refuses"
    if item == "pistol" and pilot.equipment.get("pistol", 0) > 0:
        return "pistol-owned"  # authored: one pistol is all a pilot carries
    if item == "surplus" and not state.rules.ammunition:
        return "needs-ammunition-rule"
    if item in ONE_GAME and pilot.equipment.get(item, 0) > 0:
        return "one-game-aboard"  # authored: one game's worth waits for the next mission
    if item == "vest" and pilot.equipment.get("vest", 0) > 0:
        return "vest-worn"
    if COST[item] > spendable_vp(pilot):
        return "not-enough-vp"
    return None


def decisions(state: CampaignState) -> list[Decision]:
    """At the debrief, each pilot in service with VP to spend may buy one item."""
    result = []
    for pilot in sorted(state.pilots.values(), key=lambda p: p.id):
        if pilot.state in OUT_OF_SERVICE or spendable_vp(pilot) < min(COST.values()):
            continue
        options = [Option(id=NOTHING, label="nothing")]
        excluded = []
        for item, cost in COST.items():
            reason = refusal(state, pilot, item)
            if reason is None:
                options.append(Option(id=item, label=item, detail=f"{cost} VP"))
            else:
                excluded.append(Excluded(id=item, label=item, reason=reason))
        detail = f"{pilot.name}: {spendable_vp(pilot)} VP to spend"
        field = f"equip:{pilot.id}"
        result.append(
            Decision.of(pilot.side, field, "equipment", options, NOTHING, excluded, detail)
        )
    return result


def buy(
    state: CampaignState, asked: list[Decision], choices: dict[SideName, dict[str, str]]
) -> tuple[CampaignState, list[Event]]:
    """The items chosen (already checked against the options): VP spent, item owned; the
    purchase is the buyer's side's secret."""
    pilots = dict(state.pilots)
    events = []
    for decision in asked:
        if decision.kind != "equipment":
            continue
        item = choices[decision.side][decision.field]
        if item == NOTHING:
            continue
        pilot = pilots[decision.field.removeprefix("equip:")]
        owned = dict(pilot.equipment)
        owned[item] = VEST_POINTS if item == "vest" else owned.get(item, 0) + _UNITS.get(item, 1)
        pilots[pilot.id] = pilot.model_copy(
            update={"vp_spent": pilot.vp_spent + COST[item], "equipment": owned}
        )
        events.append(
            Event(
                kind="equipment-bought",
                turn=0,
                data={"pilot": pilot.id, "item": item, "cost": COST[item]},
                secret_for=pilot.side,
            )
        )
    return state.model_copy(update={"pilots": pilots}), events


def after_mission(pilot: Pilot, kit: dict[str, int]) -> Pilot:
    """What the pilot brings back: the one-game items are used, single-use ones spent,
    the vest as worn; a dead pilot's kit is lost with him."""
    if pilot.state == "dead":
        return pilot.model_copy(update={"equipment": {}})
    kept = {item: left for item, left in kit.items() if item not in ONE_GAME and left > 0}
    return pilot.model_copy(update={"equipment": kept})


# --- in play ------------------------------------------------------------------------------


def _used(
    work: Turn, pid: str, item: str, left: int, public: bool, kind: str = "", **data: object
) -> None:
    plane = work.planes[pid]
    shown = plane.kit_shown if item in plane.kit_shown or not public else (*plane.kit_shown, item)
    work.update(pid, kit={**plane.kit, item: left}, kit_shown=shown)
    work.event(kind or item, secret_for=None if public else plane.side, plane=pid, **data)


def extinguish(work: Turn, pid: str) -> bool:
    """A Fire special on a plane carrying an extinguisher: cancelled, the card back under
    its deck (its points still count: the caller adds them)."""
    plane = work.planes[pid]
    if plane.kit.get("extinguisher", 0) <= 0:
        return False
    for index in range(len(plane.cards) - 1, -1, -1):
        letter, card_id = plane.cards[index]
        deck = work.catalog.damage_decks[letter].expanded
        if deck[card_id % len(deck)].special == "fire":
            cards = plane.cards[:index] + plane.cards[index + 1 :]
            work.update(pid, cards=cards)
            work.piles[letter].append(card_id)
            break
    _used(work, pid, "extinguisher", plane.kit["extinguisher"] - 1, public=True)
    return True


def vest_stops_wound(work: Turn, pid: str) -> bool:
    """A "pilot wounded" card on a pilot wearing a vest: cancelled, the vest spent."""
    plane = work.planes[pid]
    if plane.kit.get("vest", 0) <= 0:
        return False
    _used(work, pid, "vest", 0, public=False, absorbed=plane.kit["vest"], wound=True)
    return True


def direct_wound(work: Turn, pid: str, points: int) -> int:
    """Points of a direct wound (Excellent shot, Killer, pistol) after the vest took its share."""
    plane = work.planes[pid]
    left = plane.kit.get("vest", 0)
    if left <= 0 or points <= 0:
        return points
    absorbed = min(left, points)
    _used(work, pid, "vest", left - absorbed, public=False, absorbed=absorbed, wound=False)
    return points - absorbed


def _incendiary(work: Turn, shooter: str | None) -> bool:
    plane = work.planes.get(shooter or "")
    return plane is not None and plane.kit.get("incendiary", 0) > 0


def bullets(work: Turn, shooter: str | None, value: int) -> int:
    """A damage card's points as the shooter's bullets make them: incendiaries turn 1 into
    0, 2 and 3 into 4 and add one to 4 and more. Their first effect is announced."""
    if not _incendiary(work, shooter):
        return value
    assert shooter is not None
    plane = work.planes[shooter]
    if "incendiary" not in plane.kit_shown:
        work.update(shooter, kit_shown=(*plane.kit_shown, "incendiary"))
        work.event("incendiary", plane=shooter)
    if value == 1:
        return 0
    if value in (2, 3):
        return 4
    return value + 1 if value >= 4 else value


def fire_counters(work: Turn, shooter: str | None, counters: int) -> int:
    """Incendiary fire lasts one turn more (4 counters instead of 3)."""
    return counters + 1 if _incendiary(work, shooter) else counters


def engine_smokes(work: Turn, shooter: str | None) -> bool:
    """An engine hit by incendiary bullets also smokes."""
    return _incendiary(work, shooter)


def balloon_special(work: Turn, shooter: str | None, special: str) -> str:
    """Against a balloon, every incendiary special but a jam is fire."""
    if special in ("none", "jam_red", "jam_green") or not _incendiary(work, shooter):
        return special
    return "fire"


def jump(work: Turn, pid: str) -> bool:
    """Seed D.VIII parachute, when the plane is shot down with the pilot alive: one A card's
    points to the pilot; a "pilot wounded" card means the chute fails, and two more A cards
    a level follow (points only). He lands under the point he jumped from: captured over the
    enemy's zone, missing in no-man's-land, home over his own (Wounded at best: at most 5 LP,
    the seed's "Wounded or Seriously wounded")."""
    plane = work.planes[pid]
    if plane.kit.get("parachute", 0) <= 0:
        return False
    lp = plane.pilot_lp
    _, card = work.draw("A", None)
    lp -= card.value
    failed = card.special == "pilot_wounded"
    if failed:
        for _ in range(2 * max(0, plane.level)):
            _, more = work.draw("A", None)
            lp -= more.value
    zone = work.zone(plane.side, plane.x)
    if zone == "friendly" and lp >= 0:
        lp = min(lp, work.catalog.rules.pilot.wounded_max_lp)
    work.update(pid, pilot_lp=lp, crash_zone=zone)
    outcome = "killed" if lp < 0 else LANDINGS[zone]
    left = plane.kit["parachute"] - 1
    _used(work, pid, "parachute", left, True, f"parachute-{outcome}", zone=zone, failed=failed)
    return True


def surplus(plane_kit: dict[str, int], cards: int) -> int:
    """Ammunition cards a gun gets beyond the others': half as many again with a surplus."""
    return cards // 2 if plane_kit.get("surplus", 0) > 0 else 0
