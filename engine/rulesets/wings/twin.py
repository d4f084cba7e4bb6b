"""Twin guns (seed B.IV, a scenario switch): a plane dealing A damage has two coupled
guns. A red jam stops both (the usual jam); a green jam stops one, and a second green jam
stops the other too. With one gun jammed, each maneuver the player either fires the other
gun, which deals B damage, or works on the jam and takes a counter off.

Authored standing order: the working gun fires whenever it has a target; a maneuver with
nothing to fire at goes to clearing the jam.
"""

from __future__ import annotations

from engine.rulesets.wings.catalog import Gun
from engine.rulesets.wings.state import PlaneState
from engine.rulesets.wings.work import Turn

TWIN_DECK, SINGLE_DECK = "A", "B"
LASTING = 10**6  # counters that never run out within a mission (as turn.PERMANENT)


def _fresh(gun: str) -> str:
    return f"half:{gun}"


def one_gun(work: Turn, shooter: str, gun: Gun, special: str, counters: int) -> bool:
    """Apply a jam under B.IV; True when only one of the two guns jammed."""
    owner = work.planes[shooter]
    if not work.mission.rules.twin_guns or owner.status != "flying":
        return False
    real = next((g for g in work.catalog.planes[owner.type].guns if g.name == gun.name), gun)
    if real.deck != TWIN_DECK:
        return False
    half = dict(owner.half_jams)
    if special == "jam_green" and gun.name not in half:
        half[gun.name] = counters
        work.update(shooter, half_jams=half)
        work.fresh.add((shooter, _fresh(gun.name)))
        work.event("half-jammed", secret_for=owner.side, plane=shooter, gun=gun.name)
        return True
    half.pop(gun.name, None)  # both guns jammed now: the usual jam takes over
    work.update(shooter, half_jams=half)
    return False


def doubled_jam(work: Turn, shooter: str, gun: Gun, special: str) -> bool:
    """Seed B.IX: a plane whose fire draws the same jam twice keeps it: two red jams and it
    cannot fire again this mission; two green jams and one of its twin guns stays jammed
    (the other fires B damage), or its single gun fires at half damage. A Tinkerer shrugs
    off the double, not the third (D.VII.c). True when the jam was made lasting here."""
    owner = work.planes[shooter]
    taken = (*owner.jams_taken, special)
    work.update(shooter, jams_taken=taken)
    if not work.mission.rules.doubled_specials or taken.count(special) < 2:
        return False
    if "tinkerer" in owner.skills and taken.count(special) < 3:
        return False
    real = next((g for g in work.catalog.planes[owner.type].guns if g.name == gun.name), gun)
    if special == "jam_red":
        # Every gun of the plane: it cannot fire for the rest of the mission.
        guns = work.catalog.planes[owner.type].guns
        work.update(shooter, jams={**owner.jams, **{g.name: LASTING for g in guns}})
    elif work.mission.rules.twin_guns and real.deck == TWIN_DECK:
        work.update(shooter, half_jams={**owner.half_jams, gun.name: LASTING})
    elif real.deck != TWIN_DECK:
        # "Single-gun damage, or failing that halved": a single gun has no single-gun
        # damage to fall back on, so it keeps firing at half damage (``Turn.halved``).
        if gun.name not in owner.halved_guns:
            work.update(shooter, halved_guns=(*owner.halved_guns, gun.name))
    else:
        return False  # twin guns with B.IV off: the usual jam
    work.event("jammed", secret_for=owner.side, plane=shooter, gun=gun.name, lasting=True)
    return True


def working(plane: PlaneState, gun: Gun) -> Gun:
    """The gun still firing: single-gun damage while its twin is jammed."""
    if gun.name in plane.half_jams:
        return gun.model_copy(update={"deck": SINGLE_DECK})
    return gun


def tick(work: Turn) -> None:
    """After the fire step: a jammed twin whose partner did not fire loses a counter."""
    for pid in work.ids():
        plane = work.planes[pid]
        if not plane.half_jams or plane.status != "flying":
            continue
        half = {}
        for gun, left in plane.half_jams.items():
            busy = gun in plane.aim or (pid, _fresh(gun)) in work.fresh or left >= LASTING
            if busy or left > 1:
                half[gun] = left if busy else left - 1
        if half != plane.half_jams:
            work.update(pid, half_jams=half)
