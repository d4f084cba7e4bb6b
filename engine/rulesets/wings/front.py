"""The front a campaign is fought on, and when the sun plays (seed F.VI.e, K.1).

Seed K.1 lists the front among a campaign's fields ("Western / Eastern: swaps sun sides")
and F.VI.e says how: "On the Eastern Front the sides' positions are swapped (Empires in
the west, Allies in the east)". The A card's reading (2, 4, 5 the Allies, 1 and 3 the
Empires) is written for the Western Front, where the Entente holds the west; the card tells
where the sun stands against the lines, so with the lines swapped the same card favours the
other side. Two things follow in the engine:

- the side a card favours is swapped (2, 4, 5 the Central Powers, 1 and 3 the Entente);
- the table keeps each side's end (the Entente's zone on the left), so on the Eastern Front
  its left edge looks east: the board's compass is turned half round, and the sun side of a
  plane (east in the morning, south at noon, west in the afternoon) is the opposite one on
  the table.

Authored (the seed sets no height for the layer of F.VI.a's "medium cloudiness" and the
engine's only layer, B.V's cover, lies above every level a plane may fly on the table):
whether medium-cloudiness missions are flown above the layer is a campaign switch
(``MissionRules.sun_above_clouds``), like the time of day the seed leaves to the scenario;
with it on, the sun plays in medium cloudiness as in clear weather.
"""

from __future__ import annotations

from typing import Literal

from engine.rulesets.wings.catalog import SideName
from engine.rulesets.wings.state import Event, MissionState, other

Front = Literal["western", "eastern"]
FRONTS: tuple[Front, ...] = ("western", "eastern")
EASTERN: Front = "eastern"


def favoured(side: SideName, front: str) -> SideName:
    """The side a card read for the Western Front favours, on ``front``."""
    return other(side) if front == EASTERN else side


def bearing(western: float, front: str) -> float:
    """A bearing on the table (0 = +x) of something that stands ``western`` on the
    Western Front's table: turned half round on the Eastern Front."""
    return (western + 180.0) % 360.0 if front == EASTERN else western


def sun_plays(mission: MissionState) -> bool:
    """Seed F.VI.e: the sun only in clear weather, or in medium cloudiness above the layer."""
    if not mission.rules.sun:
        return False
    if mission.weather == "clear":
        return True
    return mission.weather == "medium" and mission.rules.sun_above_clouds


def announce(mission: MissionState) -> list[Event]:
    """Told to everyone with each mission of a campaign on the Eastern Front (nothing on
    the Western Front, the default, whose logs stay as they were)."""
    if mission.front != EASTERN:
        return []
    data: dict[str, object] = {"front": mission.front, "west": "central", "east": "entente"}
    return [Event(kind="front-eastern", turn=0, data=data)]
