"""The game's vocabulary as enums: sides, bands, tactics, flight ops, card titles, results."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Side(StrEnum):
    JAPANESE = "japanese"
    ALLIED = "allied"

    @property
    def enemy(self) -> Side:
        return Side.ALLIED if self is Side.JAPANESE else Side.JAPANESE


class Band(IntEnum):
    """Altitude bands, lowest first (16.0)."""

    VL = 0
    L = 1
    M = 2
    H = 3
    VH = 4


class FleetTactic(StrEnum):
    """25.3: the range a carrier fleet keeps this turn; its value feeds recovery (25.71)."""

    CLOSE = "close"
    MEDIUM = "medium"
    LONG = "long"

    @property
    def recovery_cards(self) -> int:
        return {"close": 0, "medium": 1, "long": 2}[self.value]


class StrikeSize(StrEnum):
    """25.4: the size part of a Flight Ops choice."""

    LARGE = "large"
    SMALL = "small"
    NONE = "none"


class RoundKind(StrEnum):
    """The two secret rounds of a carrier turn (25.1 III A and B)."""

    ORDERS = "orders"
    RESOURCE = "resource"


class CardTitle(StrEnum):
    IMS = "IMS"
    OTS = "OTS"
    MAN = "MAN"
    HL = "HL"
    BR = "BR"
    SC = "SC"
    TT = "TT"
    VR = "VR"
    SS = "SS"
    IMM = "IMM"
    FT = "FT"
    AP = "AP"


CARD_NAMES: dict[CardTitle, str] = {
    CardTitle.IMS: "IN MY SIGHTS",
    CardTitle.OTS: "OUT OF THE SUN",
    CardTitle.MAN: "MANEUVERING",
    CardTitle.HL: "HALF LOOP",
    CardTitle.BR: "BARREL ROLL",
    CardTitle.SC: "SCISSORS",
    CardTitle.TT: "TIGHT TURN",
    CardTitle.VR: "VERTICAL ROLL",
    CardTitle.SS: "SPLIT S",
    CardTitle.IMM: "IMMELMANN",
    CardTitle.FT: "FULL THROTTLE",
    CardTitle.AP: "ACE PILOT",
}


class BombResult(IntEnum):
    """21.13: bombing results, worst to best."""

    MISS = 0
    HIT = 1
    DIRECT = 2
    VITAL = 3

    def shifted_down(self) -> BombResult:
        """One level worse (21.63 saturation against ships, 24.53 clouds)."""
        return BombResult(max(0, self.value - 1))


class AircraftClass(StrEnum):
    FIGHTER = "fighter"
    FIGHTER_BOMBER = "fighter-bomber"
    MEDIUM = "medium"
    HEAVY = "heavy"
    RECON = "recon"

    @property
    def is_formation(self) -> bool:
        """17.22e / 20.0: bombers and recon aircraft fly in formations and hold no hand."""
        return self in (AircraftClass.MEDIUM, AircraftClass.HEAVY, AircraftClass.RECON)


class BombMode(StrEnum):
    LEVEL = "level"
    DIVE = "dive"
    TORPEDO = "torpedo"
    SATURATION = "saturation"
    RECON = "recon"


class Ordnance(StrEnum):
    NONE = "none"
    BOMB = "bomb"
    TORPEDO = "torpedo"


class AircraftState(StrEnum):
    OK = "ok"
    DAMAGED = "damaged"
    DESTROYED = "destroyed"
