"""What each phase left on the table, kept for the record (issue 26).

A turn's public events tell what everyone saw; some of the table stays a side's until the
campaign ends (a plane in the clouds, the climb counters behind a card, the damage its
owner alone reads). After each maneuver every plane in the air is written down as its
side's sealed record: where it stood, its altitude and climb counters, its damage. Nobody
reads it during the campaign; the export opens it at the end, and ``verify`` replays it.
"""

from __future__ import annotations

from engine.rulesets.wings.work import Turn

PHASE_FLOWN = "phase-flown"


def phase_flown(work: Turn) -> None:
    """Write down every plane in the air as the phase left it."""
    for plane in work.aloft():
        work.event(
            PHASE_FLOWN,
            secret_for=plane.side,
            plane=plane.id,
            phase=work.phase,
            x=round(plane.x, 3),
            y=round(plane.y, 3),
            heading=round(plane.heading, 1),
            level=plane.level,
            counters=plane.counters,
            damage=plane.damage,
            in_cloud=plane.in_cloud,
        )
