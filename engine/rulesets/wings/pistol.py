"""The pilot's pistol (seed D.VIII): once a turn, with a bullet left, a shot at the pilot of
an enemy plane within R/2; two B cards drawn, one given, its points and only a "pilot
wounded" special taken by the pilot himself.

Play-by-post has no moment inside the turn for the shooter to speak, so the shot is
announced with the program, as its last word: ``"S S S pistol@2"`` fires after the second
maneuver (after that maneuver's machine-gun fire). What the pilot owns is his side's
secret, and the orders open when the turn ends, so every plane may write the word: a plane
with no pistol, no bullet or nobody in reach simply does not fire, and only its own panel
says why before it is chosen. The enemy learns of the pistol from the first shot.

Authored choices (docs/wings-data.md, "The pistol"):

- the target: the nearest enemy plane in the open within R/2 (centre to centre) and at
  most one level apart (the reach the seed gives the Expert's eye across a level), never a
  Ghost (seed D.VII.d), ties by plane id;
- the card given: the one that costs the pilot more, a "pilot wounded" card first, then
  the most points (the Killer's rule); the other goes back under the B deck;
- a Knight never writes the word (seed D.VI); a pilot under a wound's fire ban does not
  fire the pistol either.
"""

from __future__ import annotations

import engine.rulesets.wings.equipment as equipment
import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.state import PlaneState, Program
from engine.rulesets.wings.work import Turn

WORD = "pistol@"  # the suffix's head; language-neutral, like the card codes
MANEUVERS = (1, 2, 3)
DECK = "B"  # seed D.VIII: two Type B cards
CARDS_DRAWN = 2
LEVELS_APART = 1
# The menu offers the shot while an enemy plane flies this close (in rulers) as the turn
# begins: public positions, so the menu's shape tells nothing of who carries a pistol.
OFFER_REACH = 2.0


def split(text: str) -> tuple[str, int | None]:
    """A program's text without its pistol word, and the maneuver it fires after (None:
    no shot). An unreadable word stays in the text for the card checks to refuse."""
    body = text.strip()
    head, _, last = body.rpartition(" ")
    if not last.lower().startswith(WORD):
        return body, None
    when = last[len(WORD) :]
    if when.isdigit() and int(when) in MANEUVERS:
        return head, int(when)
    return body, None


def word(after: int | None) -> str:
    """The suffix for a shot ("" for none)."""
    return "" if after is None else f" {WORD}{after}"


def refusals(plane: PlaneState, program: Program) -> list[str]:
    """Seed D.VI: the Knight of the Air never uses a pistol (his behaviour is public)."""
    if program.pistol is not None and plane.behaviour == "knight":
        return ["knight-refuses"]
    return []


def variants(program_text: str) -> list[str]:
    """A program's forms firing the pistol after each maneuver, for the menu."""
    return [f"{program_text}{word(after)}" for after in MANEUVERS]


def offered(plane: PlaneState, others: list[PlaneState], ruler: float) -> bool:
    """Whether the menu offers the shot: a plane in the open with an enemy in the open
    within ``OFFER_REACH`` rulers. Only public facts decide, never the kit."""
    if plane.status != "flying" or plane.in_cloud:
        return False
    return any(
        other.side != plane.side
        and other.status == "flying"
        and not other.in_cloud
        and geo.distance((plane.x, plane.y), (other.x, other.y)) <= OFFER_REACH * ruler
        for other in others
    )


def why_not(plane: PlaneState) -> str | None:
    """What keeps this plane's pistol silent whatever the table (its side's secret)."""
    if plane.behaviour == "knight":
        return "knight-refuses"
    if plane.kit.get("pistol", 0) <= 0:
        return "no-pistol"
    if plane.kit.get("bullets", 0) <= 0:
        return "no-bullets"
    return None


def target(work: Turn, shooter: PlaneState) -> PlaneState | None:
    """The nearest enemy pilot the shooter may aim at (never a Ghost's)."""
    reach = work.catalog.rules.units.ruler / 2
    best: tuple[float, str] | None = None
    for other in work.flying():
        if other.side == shooter.side or "ghost" in other.skills:
            continue  # seed D.VII.d: a Ghost is never personally targeted by a pistol
        if abs(other.level - shooter.level) > LEVELS_APART:
            continue
        apart = geo.distance((shooter.x, shooter.y), (other.x, other.y))
        if apart <= reach + geo.EPS and (best is None or (apart, other.id) < best):
            best = (apart, other.id)
    return None if best is None else work.planes[best[1]]


def act(work: Turn, programs: dict[str, Program]) -> None:
    """After a maneuver's fire: each plane that announced its pistol for this maneuver
    fires if it can. The shots are simultaneous, as the guns' are: every shooter aims
    before any shot lands, so a pilot hit by a pistol still fires his own."""
    aimed: list[tuple[str, str]] = []
    for shooter in work.flying():
        program = programs.get(shooter.id)
        if program is None or program.pistol != work.phase:
            continue
        reason = why_not(shooter)
        if reason is None and shooter.no_fire > 0:
            reason = "no-fire"  # seed A.II.b, J 17: a wounded pilot holds his fire
        aim = None if reason else target(work, shooter)
        if aim is None:
            work.event("pistol-silent", secret_for=shooter.side, plane=shooter.id,
                       reason=reason or "no-target")  # fmt: skip
            continue
        aimed.append((shooter.id, aim.id))
    for shooter_id, victim_id in aimed:
        victim = work.planes[victim_id]
        if victim.status != "flying":
            continue  # another pistol downed him first: the shot is not fired
        fire(work, work.planes[shooter_id], victim)


def fire(work: Turn, shooter: PlaneState, victim: PlaneState) -> None:
    """One bullet: two B cards drawn, the costlier given to the victim's pilot."""
    left = shooter.kit["bullets"] - 1
    shown = shooter.kit_shown if "pistol" in shooter.kit_shown else (*shooter.kit_shown, "pistol")
    work.update(shooter.id, kit={**shooter.kit, "bullets": left}, kit_shown=shown)
    work.event("pistol-shot", plane=shooter.id, at=victim.id)
    drawn = []
    for _ in range(CARDS_DRAWN):
        card_id, card = work.draw(DECK, None)
        drawn.append((card_id, card))
    given_id, given = max(
        drawn, key=lambda item: (item[1].special == "pilot_wounded", item[1].value)
    )
    for card_id, _card in drawn:
        if card_id != given_id:
            work.spent[DECK].remove(card_id)
            work.piles[DECK].append(card_id)  # the spare goes back under the deck
    work.event("pistol-card", secret_for=shooter.side, plane=shooter.id, at=victim.id,
               value=given.value, special=given.special, bullets=left)  # fmt: skip
    work.event("pistol-hit", secret_for=victim.side, plane=victim.id, by=shooter.id,
               value=given.value, special=given.special)  # fmt: skip
    points = equipment.direct_wound(work, victim.id, given.value)  # seed D.VIII vest
    lp = work.update(victim.id, pilot_lp=work.planes[victim.id].pilot_lp - points).pilot_lp
    if given.special == "pilot_wounded":
        # Face 0: the wound is the pilot's even on a two-seater (the pistol aims at him).
        work.apply_special(victim.id, "pilot_wounded", 0, shooter.id, None)
    elif lp < 0:
        work.shoot_down(victim.id, "crashed", shooter.id)  # seed D.V: the pilot is dead
