"""Hand-built game data for the strike tests: the authored 110-card deck (3.3), the response
table (3.2.6), a few aircraft (3.5, damaged side by the 3.2.7 rule) and Target Sheets (3.6).

Built in code so the strike tests do not depend on the data files.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.zero.cards import Card, Deck, face_of
from engine.zero.catalog import ActionCard, AircraftType, Catalog, DeckData, Ratings, TargetSheet
from engine.zero.orders import Doctrine, FlightUnit, PilotFace, StrikeSetup
from engine.zero.types import AircraftClass, Band, BombMode, BombResult, CardTitle, Ordnance, Side
from tests.engine.deck_listing import DECK_LISTING

T = CardTitle
R = BombResult
VL, L, M, H, VH = Band.VL, Band.L, Band.M, Band.H, Band.VH


_RESULT = {"M": R.MISS, "H": R.HIT, "D": R.DIRECT, "V": R.VITAL}


def _parse_deck() -> tuple[ActionCard, ...]:
    cards = []
    for entry in DECK_LISTING.replace("\n", "|").split("|"):
        parts = entry.split()
        if not parts:
            continue
        ident, title = int(parts[0]), T(parts[1])
        rest = parts[2:]
        burst = damage = None
        if "/" in rest[0]:
            b, d = rest.pop(0).split("/")
            burst, damage = int(b[:-1]), int(d[:-1])
        spoiled = rest[0] == "*"
        if spoiled:
            rest.pop(0)
        code = rest[0]
        cards.append(
            ActionCard(
                id=ident,
                title=title,
                burst=burst,
                damage=damage,
                spoiled=spoiled,
                bombing=_RESULT[code[0]],
                strafe_hit=code[1] == "s",
                border="blue" if code[2] == "b" else "tan",
            )
        )
    return tuple(cards)


DECK_CARDS = _parse_deck()

ANSWERS: dict[CardTitle, tuple[CardTitle, ...]] = {
    T.BR: (T.IMS,),
    T.SC: (T.MAN, T.HL),
    T.TT: (T.MAN,),
    T.VR: (T.OTS,),
    T.SS: (T.IMS,),
    T.IMM: (T.HL,),
    T.FT: (T.MAN,),
}

_ids = itertools.count(1000)


def card(
    title: CardTitle,
    burst: int | None = None,
    damage: int | None = None,
    *,
    spoiled: bool = False,
    bombing: BombResult = R.MISS,
    strafe: bool = False,
) -> Card:
    """A hand-made card (ids from 1000 up, never clashing with the deck), as a strike holds
    it: the ``Card`` of a catalog model (``.card``, for stacked decks). The strike's
    compiled functions (scripts/build_native.py) accept nothing else."""
    return face_of(
        ActionCard(
            id=next(_ids),
            title=title,
            burst=burst,
            damage=damage,
            spoiled=spoiled,
            bombing=bombing,
            strafe_hit=strafe,
            border="tan",
        )
    )


def stacked(cards: Sequence[Card]) -> Deck:
    """A deck dealing ``cards`` in this order."""
    return Deck.stacked([c.card for c in cards])


def _hp(profile: Sequence[int | None]) -> dict[Band, int | None]:
    """Horsepower written VH/H/M/L/VL as in 3.5."""
    return dict(zip((VH, H, M, L, VL), profile, strict=True))


def _damaged(r: Ratings, bomb: dict[BombMode, int] | None = None) -> Ratings:
    """3.2.7: Performance, Horsepower, Burst, Offensive, Defensive, TD and Speed one worse."""
    return Ratings(
        performance=max(0, r.performance - 1),
        horsepower={b: (None if v is None else max(1, v - 1)) for b, v in r.horsepower.items()},
        burst=max(0, r.burst - 1),
        offensive=max(0, r.offensive - 1),
        defensive=max(1, r.defensive - 1),
        gunner=r.gunner,
        turret_defense=max(0, r.turret_defense - 1),
        turret_support=r.turret_support,
        speed=max(1, r.speed - 1),
        bomb=dict(r.bomb) if bomb is None else bomb,
    )


def fighter(
    code: str,
    nation: Side,
    perf: int,
    hp: Sequence[int | None],
    burst: int,
    off: int,
    dfn: int,
    u: int,
    d: int,
    *,
    cls: AircraftClass = AircraftClass.FIGHTER,
    bomb: dict[BombMode, int] | None = None,
    gunner: int = 0,
    mk13: bool = False,
    max_band: Band = VH,
) -> AircraftType:
    undamaged = Ratings(
        performance=perf,
        horsepower=_hp(hp),
        burst=burst,
        offensive=off,
        defensive=dfn,
        gunner=gunner,
        bomb=bomb or {},
    )
    return AircraftType(
        code=code,
        name=code,
        nation=nation,
        service="navy",
        cls=cls,
        undamaged=undamaged,
        damaged=_damaged(undamaged),
        flip_at=u,
        destroy_extra=d,
        mk13=mk13,
        max_band=max_band,
        vp=5,
        box=8,
    )


def formation(
    code: str,
    nation: Side,
    cls: AircraftClass,
    td: int,
    ts: int,
    u: int,
    d: int,
    bomb: dict[BombMode, int],
    bomb_damaged: dict[BombMode, int],
    *,
    norden: bool = False,
    mk13: bool = False,
    max_band: Band = H,
) -> AircraftType:
    undamaged = Ratings(turret_defense=td, turret_support=ts, speed=5, bomb=bomb)
    return AircraftType(
        code=code,
        name=code,
        nation=nation,
        service="army",
        cls=cls,
        undamaged=undamaged,
        damaged=_damaged(undamaged, bomb_damaged),
        flip_at=u,
        destroy_extra=d,
        norden=norden,
        mk13=mk13,
        max_band=max_band,
        vp=8,
        box=6,
    )


J, A = Side.JAPANESE, Side.ALLIED
FB = AircraftClass.FIGHTER_BOMBER
SAT, LEVEL, DIVE, TORP = BombMode.SATURATION, BombMode.LEVEL, BombMode.DIVE, BombMode.TORPEDO

AIRCRAFT: dict[str, AircraftType] = {
    a.code: a
    for a in (
        fighter("A6M2", J, 6, (2, 2, 3, 3, 2), 2, 2, 2, 3, 1),
        fighter("Ki-43", J, 6, (1, 2, 3, 3, 2), 1, 2, 2, 3, 1),
        fighter("P-40B", A, 5, (1, 2, 2, 3, 3), 3, 1, 2, 4, 3),
        fighter("P-40E", A, 5, (1, 2, 2, 3, 3), 3, 2, 1, 4, 3, bomb={LEVEL: 1}),
        fighter("Buffalo-I", A, 4, (1, 1, 2, 2, 2), 2, 1, 2, 5, 3),
        fighter("Hurricane-IIB", A, 5, (2, 2, 3, 3, 2), 3, 2, 2, 4, 2, bomb={LEVEL: 1}),
        fighter("F4F", A, 5, (1, 2, 2, 2, 2), 3, 2, 2, 5, 2),
        fighter("D3A1", J, 4, (None, 1, 2, 2, 2), 0, 1, 1, 3, 2, cls=FB, bomb={DIVE: 1}, gunner=1),
        fighter("B5N2", J, 3, (None, 1, 2, 2, 2), 0, 0, 1, 3, 1, cls=FB, bomb={TORP: 1, LEVEL: 1}),
        fighter("Ki-30", J, 4, (None, 2, 2, 2, 2), 1, 1, 2, 3, 2, cls=FB, bomb={LEVEL: 1}),
        fighter("SBD-3", A, 4, (None, 1, 2, 2, 2), 1, 1, 1, 4, 2, cls=FB, bomb={DIVE: 2}),
        fighter(
            "TBD-1",
            A,
            3,
            (None, None, 1, 2, 2),
            0,
            0,
            1,
            3,
            2,
            cls=FB,
            bomb={TORP: 1, LEVEL: 1},
            mk13=True,
            max_band=M,
        ),
        formation("Ki-21", J, AircraftClass.MEDIUM, 1, 1, 6, 4, {SAT: 1}, {SAT: 0}),
        formation("G4M1", J, AircraftClass.MEDIUM, 1, 1, 4, 2, {SAT: 1, TORP: 1}, {SAT: 0}),
        formation(
            "B-17E",
            A,
            AircraftClass.HEAVY,
            2,
            1,
            10,
            6,
            {SAT: 6},
            {SAT: 4},
            norden=True,
            max_band=VH,
        ),
        formation(
            "B-26", A, AircraftClass.MEDIUM, 2, 1, 7, 4, {SAT: 2, TORP: 1}, {SAT: 1}, mk13=True
        ),
    )
}


def sheet(
    ident: str,
    name: str,
    naval: bool,
    area: int,
    target: int,
    hit: int,
    direct: int,
    vital: int,
    strafe: int | None,
) -> TargetSheet:
    return TargetSheet(
        id=ident,
        name=name,
        naval=naval,
        area_flak=area,
        target_flak=target,
        points={R.MISS: 0, R.HIT: hit, R.DIRECT: direct, R.VITAL: vital},
        strafe=strafe,
    )


TARGETS: dict[str, TargetSheet] = {
    s.id: s
    for s in (
        sheet("1A", "Airfield", False, 1, 2, 1, 2, 4, 1),
        sheet("3B", "Rail Yard", False, 1, 3, 1, 3, 5, 1),
        sheet("4A", "Freighter", True, 1, 2, 1, 3, 5, 1),
        sheet("4C", "Destroyer", True, 1, 3, 2, 4, 6, 1),
        sheet("4E", "Battleship", True, 3, 4, 1, 2, 4, 1),
        sheet("5A", "Carrier Fleet", True, 2, 3, 1, 3, 5, None),
    )
}


def catalog(deck: Sequence[ActionCard] = DECK_CARDS) -> Catalog:
    return Catalog(
        deck=DeckData(provenance="authored-default", cards=tuple(deck), answers=ANSWERS),
        aircraft=AIRCRAFT,
        targets=TARGETS,
        tracks={},
        resources=(),
        scenarios={},
    )


CATALOG = catalog()


def element(
    code: str,
    side: Side,
    group: str,
    key: str,
    band: Band = M,
    *,
    wingman: bool = True,
    ordnance: Ordnance = Ordnance.NONE,
    pilot: PilotFace | None = None,
) -> list[FlightUnit]:
    """A Leader (and Wingman) in seed notation "1 L/W"."""
    roles = ("leader", "wingman") if wingman else ("leader",)
    return [
        FlightUnit(
            uid=f"{key}-{code}-{role[0].upper()}",
            aircraft=code,
            side=side,
            role=role,  # type: ignore[arg-type]
            group=group,  # type: ignore[arg-type]
            element=key,
            band=band,
            ordnance=ordnance,
            pilot=pilot if role == "leader" else None,
        )
        for role in roles
    ]


def bombers(
    code: str, side: Side, key: str, count: int = 2, band: Band = M, *, damage: int = 0
) -> list[FlightUnit]:
    """A formation of ``count`` bombers (17.22)."""
    ordnance = Ordnance.BOMB
    return [
        FlightUnit(
            uid=f"{key}-{code}-{i + 1}",
            aircraft=code,
            side=side,
            role="formation",
            group="strike",
            element=key,
            band=band,
            ordnance=ordnance,
            damage=damage,
        )
        for i in range(count)
    ]


def make_setup(
    strike: Sequence[FlightUnit],
    cap: Sequence[FlightUnit] = (),
    *,
    sheet_id: str = "3B",
    attacker: Side = J,
    carrier_fleet: bool = False,
    attacker_doctrine: Doctrine | None = None,
    defender_doctrine: Doctrine | None = None,
    **extra: object,
) -> StrikeSetup:
    data: dict[str, object] = {
        "id": "T1-S1",
        "turn": 1,
        "kind": "carrier",
        "attacker": attacker,
        "origin": "origin",
        "target": "target",
        "sheet": sheet_id,
        "carrier_fleet": carrier_fleet,
        "order": 1,
        "strike": tuple(strike),
        "cap": tuple(cap),
        "attacker_doctrine": attacker_doctrine or Doctrine(),
        "defender_doctrine": defender_doctrine or Doctrine(),
    }
    data.update(extra)
    return StrikeSetup.model_validate(data)
