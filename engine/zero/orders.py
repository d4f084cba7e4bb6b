"""What flies: doctrine presets and the set-up of one strike, handed to ``strike.fly_strike``.

Doctrine is how a commander wants combat played (escort or sweep, CAP band, disengage,
torpedoes, attack angle, jettison); the engine's card policy follows it deterministically.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.zero.types import Band, Ordnance, Side


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Doctrine(Model):
    escort: Literal["escort", "sweep"] = "escort"  # fighters guard the bombers / hunt the CAP
    cap_band: Band = Band.M  # where the CAP waits for a raid
    disengage_over_target: bool = False  # 23.51: escorts stay out of the flak
    torpedo: bool = True  # 17.14: torpedo bombers carry torpedoes against ships
    attack_angle: Literal["head-on", "side", "rear"] = "side"  # 20.31 (optional rule)
    jettison_when_engaged: bool = False  # 15.2 step 1: drop bombs to fight unloaded


DOCTRINE_PRESETS: dict[str, Doctrine] = {
    "balanced": Doctrine(),
    "aggressive": Doctrine(escort="sweep", cap_band=Band.H, attack_angle="rear"),
    "cautious": Doctrine(
        cap_band=Band.L,
        disengage_over_target=True,
        attack_angle="head-on",
        jettison_when_engaged=True,
    ),
    "bombs-only": Doctrine(torpedo=False),
}


class PilotFace(Model):
    """The face of a pilot counter that came up in the draft (19.24)."""

    name: str
    skills: tuple[str, ...] = ()  # A, BM, BU, CV, D, G, H, P, S


class FlightUnit(Model):
    uid: str
    aircraft: str  # type code in the catalog
    side: Side
    role: Literal["leader", "wingman", "formation", "recon"]
    group: Literal["strike", "cap", "scout"]
    element: str  # shared by a Leader and its Wingman, or by a formation
    band: Band
    ordnance: Ordnance = Ordnance.NONE
    pilot: PilotFace | None = None
    damage: int = 0  # damage carried in (a CAP that already fought a raid this turn)


class StrikeSetup(Model):
    id: str
    turn: int
    kind: Literal[
        "carrier", "airfield", "land-based", "scout", "submarine", "land-mission", "dogfight"
    ]
    attacker: Side
    origin: str  # place key
    target: str  # place key
    sheet: str  # target sheet id for flak and points
    carrier_fleet: bool  # 21.71 / 25.66: a carrier fleet is never strafed
    order: int
    simultaneous: bool = False
    strike: tuple[FlightUnit, ...]
    cap: tuple[FlightUnit, ...] = ()
    attacker_doctrine: Doctrine = Doctrine()
    defender_doctrine: Doctrine = Doctrine()
    target_bound: int = 2  # 25.62
    home_bound: int = 1
    area_flak_mod: int = 0
    target_flak_mod: int = 0
    damage_bonus: int = 0  # per Hit/Direct/Vital on a carrier fleet (#7 Loaded Flight Deck)
    result_shift: int = 0  # bombing results this many levels worse (Out of Sight, partly)
    hidden: bool = False  # Out of Sight, hidden: no Over-Target turns, no damage
