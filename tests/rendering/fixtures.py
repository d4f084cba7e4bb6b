"""Hand-built views, reports and card faces for the rendering tests and the benchmark.

Plausible Coral Sea and Midway data (authored defaults of zero-authored-data.md 3.7), built
directly as the engine's pydantic models so the images do not depend on the engine's
progress or on its data files.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rulesets.carrier.state import RecoveryDraw, SidePicks, TurnRecord
from engine.rulesets.carrier.view import ForcePreview, LevelView, SideView, TrackView, View
from engine.zero.catalog import ActionCard
from engine.zero.report import AircraftOutcome, BombRun, Exchange, FlakShot, StrikeReport
from engine.zero.types import (
    AircraftState,
    Band,
    BombMode,
    BombResult,
    CardTitle,
    FleetTactic,
    Ordnance,
    RoundKind,
    Side,
    StrikeSize,
)
from rendering.zero.reveal import RevealSide

J, A = Side.JAPANESE, Side.ALLIED

# --- card faces (a subset of the authored deck) --------------------------------------------

_R = {"m": BombResult.MISS, "h": BombResult.HIT, "d": BombResult.DIRECT, "v": BombResult.VITAL}
_CARD_ROWS: tuple[tuple[int, str, int | None, int | None, bool, str, bool, str], ...] = (
    # id, title, burst, damage, spoiled, bombing, strafe hit, border
    (1, "IMS", 1, 1, False, "m", False, "tan"),
    (2, "IMS", 1, 1, False, "h", False, "tan"),
    (3, "IMS", 1, 1, False, "d", True, "tan"),
    (4, "IMS", 1, 1, False, "m", False, "blue"),
    (7, "IMS", 1, 2, False, "v", True, "tan"),
    (8, "IMS", 1, 2, False, "m", False, "blue"),
    (12, "IMS", 2, 2, False, "h", False, "blue"),
    (14, "IMS", 2, 2, True, "h", True, "tan"),
    (16, "IMS", 2, 3, False, "d", True, "blue"),
    (20, "IMS", 3, 4, False, "h", True, "blue"),
    (23, "OTS", 2, 3, False, "v", False, "blue"),
    (27, "OTS", 3, 4, False, "h", True, "blue"),
    (29, "MAN", None, None, False, "d", True, "tan"),
    (30, "MAN", None, None, False, "m", False, "tan"),
    (40, "MAN", None, None, True, "h", True, "tan"),
    (45, "HL", None, None, False, "m", False, "tan"),
    (48, "HL", None, None, True, "m", False, "tan"),
    (51, "BR", None, None, False, "d", True, "blue"),
    (56, "BR", None, None, False, "v", False, "tan"),
    (64, "SC", None, None, False, "d", True, "tan"),
    (71, "TT", None, None, False, "d", True, "blue"),
    (75, "TT", None, None, False, "h", True, "blue"),
    (82, "VR", None, None, False, "d", True, "blue"),
    (86, "VR", None, None, False, "v", True, "blue"),
    (91, "SS", None, None, False, "h", True, "tan"),
    (95, "IMM", None, None, False, "d", True, "tan"),
    (102, "FT", None, None, False, "v", True, "blue"),
    (107, "AP", None, None, False, "m", False, "tan"),
)


def cards() -> dict[int, ActionCard]:
    return {
        row[0]: ActionCard(
            id=row[0],
            title=CardTitle(row[1]),
            burst=row[2],
            damage=row[3],
            spoiled=row[4],
            bombing=_R[row[5]],
            strafe_hit=row[6],
            border="blue" if row[7] == "blue" else "tan",
        )
        for row in _CARD_ROWS
    }


# --- damage tracks -------------------------------------------------------------------------

CARRIER_LEVELS = (
    LevelView(name="Untouched", min_boxes=0, vp=0, effects=()),
    LevelView(name="Light", min_boxes=5, vp=3, effects=("strike-1",)),
    LevelView(name="Damaged", min_boxes=10, vp=6, effects=("strike-1", "cap-1")),
    LevelView(name="Heavy", min_boxes=15, vp=10, effects=("strike-2", "cap-1", "no-large")),
    LevelView(name="Crippled", min_boxes=20, vp=15, effects=("strike-3", "cap-2", "no-large")),
    LevelView(name="Sinking", min_boxes=25, vp=20, effects=("no-strike-only", "cap-2")),
    LevelView(name="Out of Action", min_boxes=30, vp=30, effects=("out-of-action",)),
)
MIDWAY_JAPANESE_LEVELS = (
    LevelView(name="Untouched", min_boxes=0, vp=0, effects=()),
    LevelView(name="Light", min_boxes=6, vp=3, effects=("strike-1",)),
    LevelView(name="Damaged", min_boxes=12, vp=6, effects=("strike-1", "cap-1")),
    LevelView(name="Heavy", min_boxes=18, vp=10, effects=("strike-2", "cap-1", "no-large")),
    LevelView(name="Crippled", min_boxes=24, vp=15, effects=("strike-3", "cap-2", "no-large")),
    LevelView(name="Sinking", min_boxes=30, vp=22, effects=("no-strike-only", "cap-2")),
    LevelView(name="Out of Action", min_boxes=40, vp=35, effects=("out-of-action",)),
)
INVASION_LEVELS = (
    LevelView(name="Untouched", min_boxes=0, vp=0, effects=()),
    LevelView(name="Delayed", min_boxes=5, vp=3, effects=("cap-shift-1",)),
    LevelView(name="Turned Back", min_boxes=10, vp=7, effects=("no-cap",)),
    LevelView(name="Scattered", min_boxes=15, vp=12, effects=("no-cap",)),
)
MORESBY_LEVELS = (
    LevelView(name="Untouched", min_boxes=0, vp=0, effects=()),
    LevelView(name="Damaged", min_boxes=5, vp=2, effects=()),
    LevelView(name="Neutralized", min_boxes=10, vp=5, effects=("cap-shift-1",)),
    LevelView(name="Destroyed", min_boxes=15, vp=8, effects=("no-cap",)),
)
MIDWAY_AIRFIELD_LEVELS = (
    LevelView(name="Untouched", min_boxes=0, vp=0, effects=()),
    LevelView(name="Damaged", min_boxes=5, vp=2, effects=()),
    LevelView(name="Heavy", min_boxes=10, vp=5, effects=()),
    LevelView(name="Crippled", min_boxes=15, vp=8, effects=()),
    LevelView(name="Out of Action", min_boxes=20, vp=12, effects=()),
)


def _level(levels: tuple[LevelView, ...], boxes: int) -> str:
    name = levels[0].name
    for level in levels:
        if boxes >= level.min_boxes:
            name = level.name
    return name


def track(
    place: str,
    name: str,
    side: Side,
    levels: tuple[LevelView, ...],
    max_boxes: int,
    *,
    damage: int = 0,
    losses: int = 0,
    repaired: int = 0,
    fleet: bool = False,
) -> TrackView:
    boxes = damage + losses
    effective = max(0, boxes - repaired)
    return TrackView(
        place=place,
        name=name,
        side=side,
        carrier_fleet=fleet,
        boxes=boxes,
        effective=effective,
        damage_points=damage,
        losses=losses,
        max_boxes=max_boxes,
        level=_level(levels, effective),
        levels=levels,
    )


CORAL_PLACES = {
    "japanese-fleet": "Japanese carrier fleet",
    "allied-fleet": "Allied carrier fleet",
    "invasion-force": "Invasion Force",
    "port-moresby": "Port Moresby",
}
MIDWAY_PLACES = {
    "japanese-fleet": "Japanese carrier fleet",
    "allied-fleet": "Allied carrier fleet",
    "midway-airfield": "Midway airfield",
}


def french_resource_names() -> dict[int, str]:
    """The resources as a French panel names them (the rules digest's titles)."""
    from rendering.rulesets.carrier import CarrierPresenter

    return {
        n: CarrierPresenter.resource_name(str(n), name, "fr") for n, name in RESOURCE_NAMES.items()
    }


RESOURCE_NAMES = {
    1: "Scout Mission",
    2: "Codebreakers",
    3: "Radar",
    4: "Extra CAP",
    5: "Escort Fighters",
    6: "Veteran Aircrew",
    7: "Loaded Flight Deck",
    8: "Land-Based Air",
    9: "Out of Sight",
    10: "Early Launch",
    11: "Damage Control",
    12: "Deck-Load Strike",
    13: "AA Screen",
    14: "Ace Leader",
    15: "No Resource",
}


def coral_tracks(
    japanese: int = 12, allied: int = 7, invasion: int = 5, moresby: int = 3
) -> tuple[TrackView, ...]:
    return (
        track(
            "japanese-fleet",
            CORAL_PLACES["japanese-fleet"],
            J,
            CARRIER_LEVELS,
            30,
            damage=max(0, japanese - 3),
            losses=min(3, japanese),
            fleet=True,
        ),
        track(
            "allied-fleet",
            CORAL_PLACES["allied-fleet"],
            A,
            CARRIER_LEVELS,
            30,
            damage=max(0, allied - 2),
            losses=min(2, allied),
            repaired=2 if allied >= 7 else 0,
            fleet=True,
        ),
        track(
            "invasion-force",
            CORAL_PLACES["invasion-force"],
            J,
            INVASION_LEVELS,
            15,
            damage=invasion,
        ),
        track("port-moresby", CORAL_PLACES["port-moresby"], A, MORESBY_LEVELS, 15, damage=moresby),
    )


def side_view(
    side: Side,
    vp: int,
    *,
    tactic: FleetTactic | None = None,
    flight_ops: str | None = None,
    last_tactic: FleetTactic | None = None,
    last_size: StrikeSize | None = None,
    used: tuple[int, ...] = (),
    doctrine: str | None = None,
    strike_minus: int = 0,
    cap_minus: int = 0,
) -> SideView:
    reserved = {A: (6,), J: (2, 3)}[side]  # the other side's entries
    available = tuple(
        number
        for number in range(1, 16)
        if number not in reserved and (number == 15 or number not in used)
    )
    return SideView(
        side=side,
        vp=vp,
        tactic=tactic,
        flight_ops=flight_ops,
        last_tactic=last_tactic,
        last_size=last_size,
        resources_used=used,
        resources_available=available,
        doctrine=doctrine,
        strike_minus=strike_minus,
        cap_minus=cap_minus,
    )


def coral_history() -> tuple[TurnRecord, ...]:
    return (
        TurnRecord(
            turn=1,
            picks={
                J: SidePicks(tactic=FleetTactic.LONG, flight_ops="none", resource=1),
                A: SidePicks(
                    tactic=FleetTactic.MEDIUM, flight_ops="small:invasion-force", resource=15
                ),
            },
            strikes=(
                simple_strike("T1-A1", 1, A, "allied-fleet", "invasion-force", 5, destroyed=0),
            ),
            vp={J: 0, A: 3},
            boxes={"invasion-force": 5},
        ),
        TurnRecord(
            turn=2,
            picks={
                J: SidePicks(
                    tactic=FleetTactic.MEDIUM, flight_ops="large:allied-fleet", resource=7
                ),
                A: SidePicks(
                    tactic=FleetTactic.MEDIUM, flight_ops="large:japanese-fleet", resource=3
                ),
            },
            strikes=(
                simple_strike("T2-A1", 2, A, "allied-fleet", "japanese-fleet", 9, destroyed=2),
                simple_strike("T2-J1", 2, J, "japanese-fleet", "allied-fleet", 5, destroyed=3),
            ),
            recovery=(RecoveryDraw(uid="J-S-D3A1-1L", strike="T2-J1", cards=(12, 30), lost=True),),
            vp={J: 3, A: 9},
            boxes={"japanese-fleet": 12, "allied-fleet": 7, "invasion-force": 5},
        ),
    )


def coral_status(
    *,
    round_kind: RoundKind = RoundKind.ORDERS,
    revealed: bool = False,
    viewer: Side | None = None,
    japanese_doctrine: str | None = None,
    allied_doctrine: str | None = None,
) -> View:
    """Coral Sea, turn 3 of 6: the orders round (or the resource round once revealed)."""
    japanese = side_view(
        J,
        3,
        tactic=FleetTactic.CLOSE if revealed else None,
        flight_ops="small:allied-fleet" if revealed else None,
        last_tactic=FleetTactic.MEDIUM,
        last_size=StrikeSize.LARGE,
        used=(1, 7),
        doctrine=japanese_doctrine,
        strike_minus=1,
        cap_minus=1,
    )
    allied = side_view(
        A,
        9,
        tactic=FleetTactic.LONG if revealed else None,
        flight_ops="large:invasion-force" if revealed else None,
        last_tactic=FleetTactic.MEDIUM,
        last_size=StrikeSize.LARGE,
        used=(3,),
        doctrine=allied_doctrine,
        strike_minus=1,
    )
    previews: tuple[ForcePreview, ...] = ()
    if viewer is J:
        previews = (
            ForcePreview(size=StrikeSize.LARGE, strike="1 L/W A6M2, 1 L/W B5N2", cap="—"),
            ForcePreview(size=StrikeSize.SMALL, strike="1 L/W D3A1", cap="1 L A6M2"),
            ForcePreview(size=StrikeSize.NONE, strike="—", cap="1 L/W A6M2, 1 L A6M2"),
        )
    elif viewer is A:
        previews = (
            ForcePreview(size=StrikeSize.LARGE, strike="1 L/W SBD-3, 1 L/W TBD-1", cap="1 L/W F4F"),
            ForcePreview(size=StrikeSize.SMALL, strike="1 L/W SBD-3", cap="1 L/W F4F"),
            ForcePreview(size=StrikeSize.NONE, strike="—", cap="2 L/W F4F"),
        )
    return View(
        viewer=viewer,
        scenario="coral-sea",
        scenario_name="Coral Sea",
        turn=3,
        turns=6,
        turn_label="7 May PM",
        round=round_kind,
        finished=False,
        winner=None,
        sides={J: japanese, A: allied},
        tracks=coral_tracks(),
        history=coral_history(),
        previews=previews,
    )


def midway_status(viewer: Side | None = None) -> View:
    """Midway, turn 1 of 6, nothing revealed yet: both fleets' positions unknown."""
    tracks = (
        track(
            "japanese-fleet",
            MIDWAY_PLACES["japanese-fleet"],
            J,
            MIDWAY_JAPANESE_LEVELS,
            40,
            fleet=True,
        ),
        track("allied-fleet", MIDWAY_PLACES["allied-fleet"], A, CARRIER_LEVELS, 30, fleet=True),
        track("midway-airfield", MIDWAY_PLACES["midway-airfield"], A, MIDWAY_AIRFIELD_LEVELS, 20),
    )
    return View(
        viewer=viewer,
        scenario="midway",
        scenario_name="Midway",
        turn=1,
        turns=6,
        turn_label="4 June dawn",
        round=RoundKind.ORDERS,
        finished=False,
        winner=None,
        sides={J: side_view(J, 0), A: side_view(A, 0)},
        tracks=tracks,
        history=(),
    )


# --- strikes -------------------------------------------------------------------------------


def _aircraft(
    uid: str,
    side: Side,
    role: str,
    group: str,
    band: Band,
    *,
    ordnance: Ordnance = Ordnance.NONE,
    damage: int = 0,
    state: AircraftState = AircraftState.OK,
    disengaged: bool = False,
    lost: bool = False,
    pilot: str | None = None,
) -> AircraftOutcome:
    code = uid.split("-")[2]
    element = uid[:-1]
    return AircraftOutcome(
        uid=uid,
        aircraft=code,
        side=side,
        role=role,  # type: ignore[arg-type]
        group=group,  # type: ignore[arg-type]
        element=element,
        band=band,
        pilot=pilot,
        ordnance=ordnance,
        damage=damage,
        state=state,
        disengaged=disengaged,
        lost_on_recovery=lost,
    )


def japanese_strike() -> StrikeReport:
    """T3-J1: a Japanese Large Strike on the Allied fleet, against two F4F on CAP."""
    aircraft = (
        _aircraft(
            "J-S-A6M2-1L", J, "leader", "strike", Band.H, pilot="Honda (A, BU)", disengaged=True
        ),
        _aircraft(
            "J-S-A6M2-1W",
            J,
            "wingman",
            "strike",
            Band.H,
            damage=1,
            state=AircraftState.DAMAGED,
            disengaged=True,
        ),
        _aircraft(
            "J-S-B5N2-1L", J, "leader", "strike", Band.VL, ordnance=Ordnance.TORPEDO, damage=1
        ),
        _aircraft(
            "J-S-B5N2-1W",
            J,
            "wingman",
            "strike",
            Band.VL,
            ordnance=Ordnance.TORPEDO,
            damage=4,
            state=AircraftState.DESTROYED,
        ),
        _aircraft(
            "J-S-D3A1-1L",
            J,
            "leader",
            "strike",
            Band.M,
            ordnance=Ordnance.BOMB,
            damage=2,
            state=AircraftState.DAMAGED,
            lost=True,
        ),
        _aircraft("A-C-F4F-1L", A, "leader", "cap", Band.M, damage=1),
        _aircraft(
            "A-C-F4F-1W", A, "wingman", "cap", Band.L, damage=3, state=AircraftState.DESTROYED
        ),
    )
    exchanges = (
        Exchange(
            phase="target-bound",
            turn=2,
            attacker="A-C-F4F-1L",
            defender="J-S-B5N2-1W",
            cards=(("A-C-F4F-1L", 20), ("J-S-B5N2-1W", 8)),
            damage_to_defender=4,
            damage_to_attacker=1,
            note="counter-fire",
        ),
        Exchange(
            phase="target-bound",
            turn=2,
            attacker="J-S-A6M2-1L",
            defender="A-C-F4F-1W",
            cards=(("J-S-A6M2-1L", 16),),
            damage_to_defender=3,
            note="hit",
        ),
        Exchange(
            phase="ingress",
            turn=1,
            attacker="A-C-F4F-1L",
            defender="J-S-D3A1-1L",
            cards=(("A-C-F4F-1L", 12), ("J-S-D3A1-1L", 51)),
            note="cancelled",
        ),
        Exchange(
            phase="ingress",
            turn=1,
            attacker="A-C-F4F-1W",
            defender="J-S-A6M2-1W",
            cards=(("A-C-F4F-1W", 14),),
            damage_to_defender=1,
            note="spoiled",
        ),
    )
    flak = (
        FlakShot(phase="ingress", kind="area", against="J-S-B5N2-1L", cards=(2, 45), damage=1),
        FlakShot(
            phase="bomb",
            kind="target",
            against="J-S-D3A1-1L",
            cards=(23, 40),
            answered=23,
            answer_card=71,
            damage=0,
            spoils=1,
        ),
        FlakShot(phase="bomb", kind="target", against="J-S-B5N2-1L", cards=(30,), damage=0),
    )
    bomb_runs = (
        BombRun(
            uid="J-S-B5N2-1L",
            mode=BombMode.TORPEDO,
            band=Band.VL,
            cards=(3, 86),
            results=(BombResult.DIRECT, BombResult.VITAL),
            points=8,
        ),
        BombRun(
            uid="J-S-D3A1-1L",
            mode=BombMode.DIVE,
            band=Band.M,
            cards=(7, 64),
            cancelled=(7,),
            results=(BombResult.DIRECT,),
            points=3,
        ),
    )
    return StrikeReport(
        id="T3-J1",
        turn=3,
        kind="carrier",
        attacker=J,
        origin="japanese-fleet",
        target="allied-fleet",
        order=1,
        simultaneous=True,
        target_bound=2,
        home_bound=1,
        aircraft=aircraft,
        exchanges=exchanges,
        flak=flak,
        bomb_runs=bomb_runs,
        target_points=11,
    )


def simple_strike(
    strike_id: str, turn: int, side: Side, origin: str, target: str, points: int, *, destroyed: int
) -> StrikeReport:
    letter = "J" if side is J else "A"
    code = "D3A1" if side is J else "SBD-3"
    aircraft = tuple(
        _aircraft(
            f"{letter}-S-{code}-{i}L",
            side,
            "leader",
            "strike",
            Band.M,
            ordnance=Ordnance.BOMB,
            state=AircraftState.DESTROYED if i <= destroyed else AircraftState.OK,
        )
        for i in range(1, 5)
    )
    return StrikeReport(
        id=strike_id,
        turn=turn,
        kind="carrier",
        attacker=side,
        origin=origin,
        target=target,
        order=1,
        aircraft=aircraft,
        target_points=points,
    )


def after_action_view() -> View:
    """Coral Sea finished after turn 6; the Allies win 21 to 9."""
    history = list(coral_history())
    history.extend(
        [
            TurnRecord(
                turn=3,
                picks={
                    J: SidePicks(
                        tactic=FleetTactic.CLOSE, flight_ops="small:allied-fleet", resource=4
                    ),
                    A: SidePicks(
                        tactic=FleetTactic.LONG, flight_ops="large:invasion-force", resource=15
                    ),
                },
                strikes=(
                    japanese_strike(),
                    simple_strike("T3-A1", 3, A, "allied-fleet", "invasion-force", 6, destroyed=1),
                ),
                vp={J: 6, A: 13},
            ),
            TurnRecord(
                turn=4,
                picks={
                    J: SidePicks(tactic=FleetTactic.MEDIUM, flight_ops="none", resource=11),
                    A: SidePicks(
                        tactic=FleetTactic.MEDIUM, flight_ops="small:japanese-fleet", resource=15
                    ),
                },
                strikes=(
                    simple_strike("T4-A1", 4, A, "allied-fleet", "japanese-fleet", 4, destroyed=0),
                ),
                vp={J: 6, A: 17},
            ),
            TurnRecord(
                turn=5,
                picks={
                    J: SidePicks(
                        tactic=FleetTactic.MEDIUM, flight_ops="large:port-moresby", resource=15
                    ),
                    A: SidePicks(tactic=FleetTactic.LONG, flight_ops="none", resource=13),
                },
                strikes=(
                    simple_strike("T5-J1", 5, J, "japanese-fleet", "port-moresby", 7, destroyed=1),
                ),
                vp={J: 9, A: 17},
            ),
            TurnRecord(
                turn=6,
                picks={
                    J: SidePicks(tactic=FleetTactic.LONG, flight_ops="none", resource=15),
                    A: SidePicks(
                        tactic=FleetTactic.MEDIUM, flight_ops="large:japanese-fleet", resource=5
                    ),
                },
                strikes=(
                    simple_strike("T6-A1", 6, A, "allied-fleet", "japanese-fleet", 7, destroyed=2),
                ),
                vp={J: 9, A: 21},
            ),
        ]
    )
    return View(
        viewer=None,
        scenario="coral-sea",
        scenario_name="Coral Sea",
        turn=6,
        turns=6,
        turn_label="9 May AM",
        round=RoundKind.RESOURCE,
        finished=True,
        winner=A,
        sides={
            J: side_view(
                J, 9, last_tactic=FleetTactic.LONG, last_size=StrikeSize.NONE, used=(1, 4, 7, 11)
            ),
            A: side_view(
                A, 21, last_tactic=FleetTactic.MEDIUM, last_size=StrikeSize.LARGE, used=(3, 5, 13)
            ),
        },
        tracks=coral_tracks(japanese=27, allied=15, invasion=11, moresby=7),
        history=tuple(history),
    )


def reveal_sides() -> list[RevealSide]:
    return [
        RevealSide(
            side=J,
            lines=[
                ("Fleet Tactic", "Close Range"),
                ("Flight Ops", "Small Strike → Allied carrier fleet"),
            ],
            receipt="3f9a1c07e2",
        ),
        RevealSide(
            side=A,
            lines=[("Fleet Tactic", "Long Range"), ("Flight Ops", "Large Strike → Invasion Force")],
            receipt="b41d09aa58",
        ),
    ]


def scout_report() -> StrikeReport:
    """T3-JR: a Japanese scout mission that found the Allied fleet."""
    return StrikeReport(
        id="T3-JR",
        turn=3,
        kind="scout",
        attacker=J,
        origin="japanese-fleet",
        target="allied-fleet",
        order=0,
        aircraft=(_aircraft("J-R-H6K4-1", J, "recon", "scout", Band.H, damage=1),),
        scout_success=True,
    )


def hidden_strike() -> StrikeReport:
    """An Allied strike that did not find the Japanese fleet (Out of Sight), TB skipped."""
    return StrikeReport(
        id="T4-A1",
        turn=4,
        kind="carrier",
        attacker=A,
        origin="allied-fleet",
        target="japanese-fleet",
        order=2,
        target_bound=0,
        hidden=True,
        aircraft=(
            _aircraft("A-S-F4F-1L", A, "leader", "strike", Band.M),
            _aircraft("A-S-SBD3-1L", A, "leader", "strike", Band.H, ordnance=Ordnance.BOMB),
            _aircraft("A-S-SBD3-1W", A, "wingman", "strike", Band.H, ordnance=Ordnance.BOMB),
        ),
        notes=("phase-skipped:tb",),
    )


# --- the images the snapshot tests, the benchmark and the README use -----------------------


def badge_sheet(locale: str) -> bytes:
    """Every fixture card as a badge at the phone scale on an 800 px image (as a strike
    report read on a phone shows them), the one-line form, and a few larger."""
    from PIL import Image

    from rendering.style import PAPER, to_png
    from rendering.zero.card import PHONE_SCALE, card_tile, render_card_badge

    width = 800
    faces = list(cards().values())
    image = Image.new("RGB", (width, 1400), PAPER)
    x, y, row = 8, 8, 0
    for card in faces:
        badge = render_card_badge(card, locale=locale, scale=PHONE_SCALE)
        if x + badge.width > width - 8:
            x, y = 8, y + badge.height + 8
        image.paste(badge, (x, y), badge)
        x += badge.width + 6
        row = badge.height
    x, y = 10, y + row + 20
    for card in faces[:12]:
        tile = card_tile(
            card, locale=locale, variant="line", struck=card.id % 5 == 0, scale=PHONE_SCALE
        )
        if x + tile.width > width - 10:
            x, y = 10, y + tile.height + 8
        image.paste(tile, (x, y), tile)
        x += tile.width + 8
        row = tile.height
    x, y = 10, y + row + 20
    for card in faces[7:10]:
        badge = render_card_badge(card, locale=locale, scale=1.6)
        image.paste(badge, (x, y), badge)
        x += badge.width + 12
        row = badge.height
    return to_png(image.crop((0, 0, width, y + row + 10)))


def image_cases() -> dict[str, Callable[[], bytes]]:
    """Named renders from the fixed fixtures: one snapshot each."""
    from rendering.rulesets.carrier.panel import render_order_panel
    from rendering.rulesets.carrier.report import render_after_action
    from rendering.rulesets.carrier.status import render_status_board
    from rendering.zero.reveal import render_reveal
    from rendering.zero.strike import render_strike_report

    deadline = "Fri 9 May, 18:00 UTC (in 11 hours)"
    return {
        "status_orders_en": lambda: render_status_board(
            coral_status(), locked={J: True, A: False}, deadline_text=deadline, locale="en"
        ),
        "status_resource_fr": lambda: render_status_board(
            coral_status(round_kind=RoundKind.RESOURCE, revealed=True),
            locked={A: True},
            deadline_text="ven. 9 mai, 18:00 UTC",
            locale="fr",
        ),
        "status_midway_en": lambda: render_status_board(
            # Both sides waiting: an empty mapping now means no round waits, no lock shown.
            midway_status(),
            locked={J: False, A: False},
            deadline_text=None,
            locale="en",
        ),
        "panel_japanese_en": lambda: render_order_panel(
            coral_status(viewer=J, japanese_doctrine="balanced"),
            resource_names=RESOURCE_NAMES,
            locale="en",
        ),
        "panel_allied_fr": lambda: render_order_panel(
            coral_status(viewer=A, allied_doctrine="cautious"),
            resource_names=french_resource_names(),
            locale="fr",
        ),
        "reveal_orders_en": lambda: render_reveal(
            "Turn 3 · orders revealed", reveal_sides(), locale="en"
        ),
        "reveal_resource_fr": lambda: render_reveal(
            "Tour 3 · Ressource\u00a0: révélation",
            [
                RevealSide(
                    side=J, lines=[("Ressource", "#7 Pont d'envol chargé")], receipt="9c0e41d2f7"
                ),
                RevealSide(
                    side=A,
                    lines=[
                        ("Ressource", "#3 Radar"),
                        ("Ordre de Frappe", "Alliés en premier (3 < 7)"),
                    ],
                    receipt="e5a7730b1c",
                ),
            ],
            locale="fr",
        ),
        "strike_en": lambda: render_strike_report(
            japanese_strike(), place_names=CORAL_PLACES, cards=cards(), locale="en"
        ),
        "strike_fr": lambda: render_strike_report(
            japanese_strike(), place_names={}, cards=cards(), locale="fr"
        ),
        "strike_scout_en": lambda: render_strike_report(
            scout_report(), place_names=CORAL_PLACES, cards=cards(), locale="en"
        ),
        "strike_hidden_en": lambda: render_strike_report(
            hidden_strike(), place_names=CORAL_PLACES, cards=cards(), locale="en"
        ),
        "strike_large_en": lambda: render_strike_report(
            large_strike(), place_names=MIDWAY_PLACES, cards=cards(), locale="en"
        ),
        "after_action_en": lambda: render_after_action(
            after_action_view(), place_names=CORAL_PLACES, locale="en"
        ),
        "after_action_fr": lambda: render_after_action(
            after_action_view(), place_names={}, locale="fr"
        ),
        "badges_en": lambda: badge_sheet("en"),
    }


def large_strike() -> StrikeReport:
    """T2-A1 at Midway: eleven aircraft, many exchanges and flak shots (the cut-off case)."""
    strike = [
        _aircraft(
            "A-S-F4F-1L", A, "leader", "strike", Band.M, damage=6, state=AircraftState.DESTROYED
        ),
        *(
            _aircraft(
                f"A-S-SBD3-{n}{r}",
                A,
                "leader" if r == "L" else "wingman",
                "strike",
                Band.M,
                ordnance=Ordnance.BOMB,
                damage=n + (r == "W"),
                state=AircraftState.DAMAGED if n == 2 else AircraftState.OK,
                lost=n == 1 and r == "W",
            )
            for n in (1, 2)
            for r in ("L", "W")
        ),
        _aircraft(
            "A-S-TBD1-1L",
            A,
            "leader",
            "strike",
            Band.VL,
            ordnance=Ordnance.TORPEDO,
            damage=3,
            lost=True,
        ),
        _aircraft(
            "A-S-TBD1-1W",
            A,
            "wingman",
            "strike",
            Band.VL,
            ordnance=Ordnance.TORPEDO,
            damage=5,
            state=AircraftState.DESTROYED,
        ),
    ]
    cap = [
        _aircraft(
            f"J-C-A6M2-{n}{r}",
            J,
            "leader" if r == "L" else "wingman",
            "cap",
            Band.M if n == 1 else Band.L,
            damage=n * 2,
            state=AircraftState.DESTROYED if (n, r) == (2, "W") else AircraftState.OK,
        )
        for n in (1, 2)
        for r in ("L", "W")
    ]
    uids = [item.uid for item in strike + cap]
    ids = sorted(cards())
    exchanges = tuple(
        Exchange(
            phase=("target-bound", "ingress", "bomb")[i % 3],  # type: ignore[arg-type]
            turn=1 + i % 2,
            attacker=uids[7 + i % 4] if i % 2 else uids[i % 7],
            defender=uids[i % 7] if i % 2 else uids[7 + i % 4],
            cards=((uids[0], ids[i % len(ids)]), (uids[8], ids[(i * 7) % len(ids)])),
            damage_to_defender=i % 3,
            damage_to_attacker=1 if i % 5 == 0 else 0,
            note="cancelled" if i % 4 == 0 else "",
        )
        for i in range(14)
    )
    flak = tuple(
        FlakShot(
            phase=("ingress", "bomb", "egress")[i % 3],  # type: ignore[arg-type]
            kind="target" if i % 3 == 1 else "area",
            against=uids[i % 7],
            cards=(ids[(i * 3) % len(ids)], ids[(i * 5 + 1) % len(ids)]),
            answered=ids[(i * 3) % len(ids)] if i % 6 == 0 else None,
            answer_card=ids[(i * 11) % len(ids)] if i % 6 == 0 else None,
            damage=i % 4,
            spoils=1 if i % 7 == 0 else 0,
        )
        for i in range(29)
    )
    runs = tuple(
        BombRun(
            uid=uids[1 + n],
            mode=BombMode.DIVE if n < 4 else BombMode.TORPEDO,
            band=Band.M if n < 4 else Band.VL,
            cards=(ids[n * 2], ids[n * 2 + 5], ids[n * 3 + 9]),
            cancelled=(ids[n * 2],) if n % 2 == 0 else (),
            results=(BombResult(n % 4), BombResult((n + 1) % 4)),
            points=n * 2,
        )
        for n in range(5)
    )
    return StrikeReport(
        id="T2-A1",
        turn=2,
        kind="carrier",
        attacker=A,
        origin="allied-fleet",
        target="japanese-fleet",
        order=2,
        aircraft=tuple(strike + cap),
        exchanges=exchanges,
        flak=flak,
        bomb_runs=runs,
        target_points=sum(run.points for run in runs),
    )
