"""Random views and reports render without error, at the size Discord wants.

Hypothesis builds views with odd tracks (one box, sixty boxes, levels with unknown effects),
long names, empty and long histories, and strike reports with unknown aircraft and card
ids; every image must come out 1200 px wide and under 1 MB.
"""

from __future__ import annotations

import io
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

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
from rendering.rulesets.carrier.panel import render_order_panel
from rendering.rulesets.carrier.report import render_after_action
from rendering.rulesets.carrier.status import render_status_board
from rendering.zero.card import render_card_badge
from rendering.zero.reveal import RevealSide, render_reveal
from rendering.zero.strike import render_strike_report
from tests.rendering.fixtures import CORAL_PLACES, RESOURCE_NAMES, cards

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
LOCALES = st.sampled_from(["en", "fr"])
WORDS = st.text(alphabet=string.ascii_letters + " éèàçÉ'-()", min_size=0, max_size=60)
NAMES = st.text(alphabet=string.ascii_letters + " éÉ'-", min_size=1, max_size=50)
EFFECTS = st.sampled_from(
    [
        "strike-1",
        "strike-3",
        "cap-1",
        "cap-2",
        "no-large",
        "no-strike-only",
        "cap-shift-1",
        "no-cap",
        "out-of-action",
        "odd-effect",
    ]
)
PHASES = st.sampled_from(["target-bound", "ingress", "bomb", "egress", "home-bound", "scout"])
PHONE = 800  # the pictures drawn for a phone first (issue 16)
PLACES = st.sampled_from([*CORAL_PLACES, "midway-airfield", "somewhere-else"])


def check_png(data: bytes, width: int = 1200) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1_000_000
    image = Image.open(io.BytesIO(data))
    assert image.width == width
    assert 200 <= image.height <= 2400
    return image


@st.composite
def levels(draw: st.DrawFn, max_boxes: int) -> tuple[LevelView, ...]:
    starts = draw(st.lists(st.integers(1, max_boxes + 3), max_size=7, unique=True))
    out = [LevelView(name=draw(NAMES), min_boxes=0, vp=0, effects=())]
    for index, start in enumerate(sorted(starts)):
        effects = tuple(draw(st.lists(EFFECTS, max_size=4)))
        out.append(LevelView(name=draw(NAMES), min_boxes=start, vp=index * 3, effects=effects))
    return tuple(out)


@st.composite
def tracks(draw: st.DrawFn) -> TrackView:
    max_boxes = draw(st.integers(1, 60))
    boxes = draw(st.integers(0, max_boxes + 5))
    return TrackView(
        place=draw(PLACES),
        name=draw(NAMES),
        side=draw(st.sampled_from(Side)),
        carrier_fleet=draw(st.booleans()),
        boxes=boxes,
        effective=draw(st.integers(0, boxes)),
        damage_points=boxes,
        losses=0,
        max_boxes=max_boxes,
        level=draw(NAMES),
        levels=draw(levels(max_boxes)),
    )


@st.composite
def side_views(draw: st.DrawFn, side: Side, own: bool) -> SideView:
    target = draw(PLACES)
    size = draw(st.sampled_from(["large", "small", "none", "odd"]))
    return SideView(
        side=side,
        vp=draw(st.integers(0, 99)),
        tactic=draw(st.none() | st.sampled_from(FleetTactic)),
        flight_ops=draw(st.none() | st.just(f"{size}:{target}") | st.just("none")),
        last_tactic=draw(st.none() | st.sampled_from(FleetTactic)),
        last_size=draw(st.none() | st.sampled_from(StrikeSize)),
        resources_used=tuple(draw(st.lists(st.integers(1, 15), max_size=6, unique=True))),
        resources_available=tuple(draw(st.lists(st.integers(1, 20), max_size=15, unique=True))),
        doctrine=draw(st.sampled_from(["balanced", "aggressive", "odd-one"])) if own else None,
        strike_minus=draw(st.integers(0, 3)),
        cap_minus=draw(st.integers(0, 2)),
    )


@st.composite
def records(draw: st.DrawFn, turn: int) -> TurnRecord:
    pick = SidePicks(tactic=FleetTactic.MEDIUM, flight_ops="none", resource=15)
    strikes = tuple(draw(st.lists(reports(), max_size=2)))
    return TurnRecord(
        turn=turn,
        picks={Side.JAPANESE: pick, Side.ALLIED: pick},
        strikes=strikes,
        recovery=tuple(
            RecoveryDraw(
                uid=draw(st.sampled_from(["J-S-A6M2-1L", "nobody"])),
                strike=s.id,
                cards=(1,),
                lost=True,
            )
            for s in strikes[:1]
        ),
        vp={side: draw(st.integers(0, 60)) for side in draw(st.sets(st.sampled_from(Side)))},
    )


@st.composite
def views(draw: st.DrawFn, viewer: Side | None = None) -> View:
    turns = draw(st.integers(1, 14))
    turn = draw(st.integers(1, turns))
    history = tuple(draw(records(index + 1)) for index in range(draw(st.integers(0, min(turn, 6)))))
    previews: tuple[ForcePreview, ...] = ()
    if viewer is not None:
        previews = tuple(
            ForcePreview(size=size, strike=draw(WORDS), cap=draw(WORDS))
            for size in draw(st.lists(st.sampled_from(StrikeSize), max_size=3, unique=True))
        )
    finished = draw(st.booleans())
    return View(
        viewer=viewer,
        scenario=draw(st.sampled_from(["coral-sea", "midway", "elsewhere"])),
        scenario_name=draw(NAMES),
        turn=turn,
        turns=turns,
        turn_label=draw(WORDS),
        round=draw(st.sampled_from(RoundKind)),
        finished=finished,
        winner=draw(st.sampled_from([Side.JAPANESE, Side.ALLIED, "draw", None]))
        if finished
        else None,
        sides={side: draw(side_views(side, side is viewer)) for side in Side},
        tracks=tuple(draw(st.lists(tracks(), max_size=6))),
        history=history,
        previews=previews,
    )


UIDS = [
    "J-S-A6M2-1L",
    "J-S-A6M2-1W",
    "J-S-B5N2-1L",
    "A-C-F4F-1L",
    "A-C-F4F-1W",
    "A-S-B17-1",
    "ghost",
]


@st.composite
def outcomes(draw: st.DrawFn, uid: str) -> AircraftOutcome:
    return AircraftOutcome(
        uid=uid,
        aircraft=draw(st.sampled_from(["A6M2", "B5N2", "F4F", "SBD-3", "B-17E", "PBY-5A-LONG"])),
        side=draw(st.sampled_from(Side)),
        role=draw(st.sampled_from(["leader", "wingman", "formation", "recon"])),
        group=draw(st.sampled_from(["strike", "cap", "scout"])),
        element=draw(st.sampled_from(["e1", "e2", "e3"])),
        band=draw(st.sampled_from(Band)),
        ordnance=draw(st.sampled_from(Ordnance)),
        damage=draw(st.integers(0, 12)),
        state=draw(st.sampled_from(AircraftState)),
        disengaged=draw(st.booleans()),
        lost_on_recovery=draw(st.booleans()),
    )


CARD_IDS = st.integers(1, 125)  # some ids have no face in the fixture deck


@st.composite
def reports(draw: st.DrawFn) -> StrikeReport:
    uids = draw(
        st.lists(
            st.sampled_from(UIDS[:-1])
            | st.text(string.ascii_uppercase + "-", min_size=1, max_size=12),
            max_size=16,
            unique=True,
        )
    )
    aircraft = tuple(draw(outcomes(uid)) for uid in uids)
    anyone = st.sampled_from([*uids, "ghost"])
    exchanges = tuple(
        Exchange(
            phase=draw(PHASES),
            turn=1,
            attacker=draw(anyone),
            defender=draw(anyone),
            cards=tuple((draw(anyone), draw(CARD_IDS)) for _ in range(draw(st.integers(0, 5)))),
            damage_to_defender=draw(st.integers(0, 6)),
            damage_to_attacker=draw(st.integers(0, 3)),
            note=draw(st.sampled_from(["", "spoiled", "cancelled", "hit"])),
        )
        for _ in range(draw(st.integers(0, 30)))
    )
    flak = tuple(
        FlakShot(
            phase=draw(PHASES),
            kind=draw(st.sampled_from(["area", "target", "strafe"])),
            against=draw(anyone),
            cards=tuple(draw(st.lists(CARD_IDS, max_size=6))),
            answered=draw(st.none() | CARD_IDS),
            answer_card=draw(st.none() | CARD_IDS),
            damage=draw(st.integers(0, 6)),
            spoils=draw(st.integers(0, 2)),
        )
        for _ in range(draw(st.integers(0, 30)))
    )
    runs = tuple(
        BombRun(
            uid=draw(anyone),
            mode=draw(st.sampled_from([*BombMode, "strafe"])),
            band=draw(st.sampled_from(Band)),
            cards=tuple(draw(st.lists(CARD_IDS, max_size=7))),
            cancelled=tuple(draw(st.lists(CARD_IDS, max_size=2))),
            results=tuple(draw(st.lists(st.sampled_from(BombResult), max_size=6))),
            points=draw(st.integers(0, 40)),
        )
        for _ in range(draw(st.integers(0, 7)))
    )
    return StrikeReport(
        id=draw(st.text(string.ascii_uppercase + string.digits + "-", min_size=1, max_size=10)),
        turn=draw(st.integers(1, 12)),
        kind=draw(st.sampled_from(["carrier", "airfield", "land-based", "scout", "submarine"])),
        attacker=draw(st.sampled_from(Side)),
        origin=draw(PLACES),
        target=draw(PLACES),
        order=draw(st.integers(0, 5)),
        simultaneous=draw(st.booleans()),
        target_bound=draw(st.integers(0, 5)),
        home_bound=draw(st.integers(0, 2)),
        hidden=draw(st.booleans()),
        aircraft=aircraft,
        exchanges=exchanges,
        flak=flak,
        bomb_runs=runs,
        target_points=draw(st.integers(0, 40)),
        scout_success=draw(st.none() | st.booleans()),
        notes=tuple(
            draw(
                st.lists(st.sampled_from(["phase-skipped:tb", "phase-skipped:hb", "x"]), max_size=2)
            )
        ),
    )


@SETTINGS
@given(
    view=views(),
    locked=st.dictionaries(st.sampled_from(Side), st.booleans()),
    deadline=st.none() | WORDS,
    locale=LOCALES,
)
def test_status_board(
    view: View, locked: dict[Side, bool], deadline: str | None, locale: str
) -> None:
    check_png(
        render_status_board(view, locked=locked, deadline_text=deadline, locale=locale), PHONE
    )


@SETTINGS
@given(view=st.sampled_from(Side).flatmap(lambda side: views(viewer=side)), locale=LOCALES)
def test_order_panel(view: View, locale: str) -> None:
    check_png(render_order_panel(view, resource_names=RESOURCE_NAMES, locale=locale), PHONE)


@SETTINGS
@given(
    title=WORDS,
    sides=st.lists(
        st.builds(
            RevealSide,
            side=st.sampled_from(Side),
            lines=st.lists(st.tuples(WORDS, WORDS), max_size=6),
            receipt=st.text(string.hexdigits, max_size=64),
        ),
        max_size=2,
    ),
    locale=LOCALES,
)
def test_reveal(title: str, sides: list[RevealSide], locale: str) -> None:
    check_png(render_reveal(title, sides, locale=locale), PHONE)


@SETTINGS
@given(report=reports(), locale=LOCALES)
def test_strike_report(report: StrikeReport, locale: str) -> None:
    check_png(
        render_strike_report(
            report, place_names={"allied-fleet": "TF 17"}, cards=cards(), locale=locale
        ),
        PHONE,
    )


@SETTINGS
@given(view=views(), locale=LOCALES)
def test_after_action(view: View, locale: str) -> None:
    check_png(render_after_action(view, place_names=CORAL_PLACES, locale=locale), PHONE)


@SETTINGS
@given(
    card=st.builds(
        ActionCard,
        id=st.integers(1, 110),
        title=st.sampled_from(CardTitle),
        burst=st.none() | st.integers(0, 9),
        damage=st.none() | st.integers(0, 9),
        spoiled=st.booleans(),
        bombing=st.sampled_from(BombResult),
        strafe_hit=st.booleans(),
        border=st.sampled_from(["blue", "tan"]),
    ),
    scale=st.floats(0.5, 3.0),
    locale=LOCALES,
)
def test_card_badge(card: ActionCard, scale: float, locale: str) -> None:
    badge = render_card_badge(card, locale=locale, scale=scale)
    assert badge.mode == "RGBA"
    assert abs(badge.width - 150 * scale) <= 1
    assert abs(badge.height - 66 * scale) <= 1
