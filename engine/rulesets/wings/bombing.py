"""The bomb release the player announces with his program (seed A.IV.e, B.X).

The seed has the bomber announce, before a maneuver, that he releases after it. Here the
announcement rides on the program, as a last word: ``"S S S bomb@2"`` releases after the
second maneuver, ``"S S S bomb@hold"`` keeps the bomb all turn, and a program without it
leaves the bomb to the standing order (released after the first maneuver whose fall lands
on an enemy target, never at level 0), which is also what a missed deadline flies.

An announced release is carried out whatever the fall: at level 0 the bomber blows up with
its own bomb (seed A.IV.e), and a bomb landing on no target is spent all the same. The
word is part of the sealed program, so the enemy learns of it when the bomb falls.
"""

from __future__ import annotations

from engine.rulesets.wings.state import PlaneState, Program
from engine.rulesets.wings.work import Turn

WORD = "bomb@"  # the suffix's head; language-neutral, like the card codes
HOLD = "hold"
HOLD_RELEASE = 0
MANEUVERS = (1, 2, 3)


def split(text: str) -> tuple[str, int | None]:
    """A program's text without its release word, and the release it announces (None for
    the standing order). An unreadable word is left in the text for the card checks to
    refuse."""
    body = text.strip()
    head, _, last = body.rpartition(" ")
    if not last.lower().startswith(WORD):
        return body, None
    when = last[len(WORD) :].lower()
    if when == HOLD:
        return head, HOLD_RELEASE
    if when.isdigit() and int(when) in MANEUVERS:
        return head, int(when)
    return body, None


def word(release: int | None) -> str:
    """The suffix for a release ("" for the standing order)."""
    if release is None:
        return ""
    return f" {WORD}{HOLD if release == HOLD_RELEASE else release}"


def refusals(plane: PlaneState, program: Program) -> list[str]:
    """Only a plane with a bomb aboard announces a release."""
    if program.release is not None and plane.bombs <= 0:
        return ["no-bombs"]
    return []


def variants(program_text: str) -> list[str]:
    """A program's announced forms for the menu: released after each maneuver, then held."""
    return [f"{program_text}{word(when)}" for when in (*MANEUVERS, HOLD_RELEASE)]


def act(work: Turn, plane: PlaneState, last_kind: str, program: Program | None) -> None:
    """After the maneuver, before fire (seed A.IV.e): the standing order, or the player's
    announced release on its maneuver."""
    if plane.bombs <= 0:
        return
    release = program.release if program is not None else None
    if release is None:
        if plane.level >= 1:
            work.release_bomb(plane, last_kind)
        return
    if release != work.phase:
        return
    if plane.level < 1:
        # Seed A.IV.e: released at level 0, the bomb blows the aircraft up.
        work.update(plane.id, bombs=plane.bombs - 1)
        work.event("bomb-blew-up", plane=plane.id)
        work.shoot_down(plane.id, "exploded", None)
        return
    work.release_bomb(plane, last_kind, announced=True)
