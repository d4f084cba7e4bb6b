"""Complex maneuvers across two turns (seed A.I.b, C): begun on the 2nd or 3rd card of a
turn, finished on the first card(s) of the next, with the same effect as flown whole."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.program import (
    check_program,
    default_program,
    legal_first_cards,
    parse_program,
)
from engine.rulesets.wings.state import MissionRules, MissionState, PlaneState, Program
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane, seen

RULES = MissionRules()
UNDER_WAY = "sequence-under-way"
ACE = plane(skills=("piloting_ace",))
STRADDLING = ("split_s", "forced_dive", "historical_immelmann")


def _recipe(key: str) -> tuple[str, ...]:
    return catalog().complex[key].cards


def _programs(key: str, offset: int) -> list[str]:
    """Three turns of a plane flying straights with the maneuver begun at card ``offset``
    of a nine-card stream (3: whole in turn 2; 2: split 1+2; 1: split 2+1)."""
    stream = ["S"] * offset + list(_recipe(key)) + ["S"] * (6 - offset)
    turns = [stream[0:3], stream[3:6], stream[6:9]]
    texts = []
    for number, cards in enumerate(turns):
        start = offset - 3 * number
        if 0 <= start < 3:
            plain = " ".join(cards[:start])
            texts.append(f"{plain} {key}: {' '.join(cards[start:])}".strip())
        else:
            texts.append(" ".join(cards))
    return texts


def _fly(
    key: str, offset: int, start: PlaneState
) -> tuple[list[tuple[float, float, float]], PlaneState, list[PlaneState]]:
    """Fly the three turns, each program judged legal first; the poses after each card,
    the plane at the end and the plane after each turn."""
    far = plane("f", type_="dr1", side="entente", x=190, y=190, heading=90)
    state: MissionState = mission(start, far, seed="straddle", collisions=False, tailing=False)
    state = state.model_copy(update={"table": (200.0, 200.0)})
    poses: list[tuple[float, float, float]] = []
    after: list[PlaneState] = []
    for number, text in enumerate(_programs(key, offset)):
        program = parse_program(text)
        subject = state.planes["c"]
        assert check_program(catalog(), subject, program, state.rules, state.turn) == [], text
        programs = {"c": program, "f": Program(cards=("S", "S", "S"))}
        state, events = play_turn(catalog(), state, programs, Rng("straddle", number, "t"))
        poses += [
            (e.data["x"], e.data["y"], e.data["heading"])
            for e in events
            if e.kind == "moved" and e.data["plane"] == "c"
        ]
        after.append(state.planes["c"])
    return poses, state.planes["c"], after


def _relative(
    before: tuple[float, float, float], end: tuple[float, float, float]
) -> tuple[float, float, float]:
    """Where ``end`` lies in the frame of ``before``: the maneuver's own move."""
    x0, y0, h0 = before
    x1, y1, h1 = end
    angle = math.radians(h0)
    dx, dy = x1 - x0, y1 - y0
    along = dx * math.cos(angle) + dy * math.sin(angle)
    across = -dx * math.sin(angle) + dy * math.cos(angle)
    return round(along, 6), round(across, 6), round((h1 - h0) % 360, 6)


@settings(max_examples=40, deadline=None)
@given(
    key=st.sampled_from(STRADDLING),
    type_=st.sampled_from(("camel", "albatros_d3", "spad7", "se5a")),
    level=st.integers(min_value=3, max_value=5),
    counters=st.integers(min_value=0, max_value=1),
    heading=st.sampled_from((0.0, 90.0, 150.0, 270.0)),
)
def test_a_maneuver_split_over_two_turns_ends_where_the_whole_one_does(
    key: str, type_: str, level: int, counters: int, heading: float
) -> None:
    start = plane(
        "c", type_=type_, side="central", x=100, y=100, heading=heading, level=level,
        counters=counters, skills=("piloting_ace",),
    )  # fmt: skip
    results = []
    for offset in (3, 2, 1):
        poses, end, after = _fly(key, offset, start)
        before = poses[offset - 1]
        moved = _relative(before, poses[offset + 2])
        results.append((moved, end.level, end.counters))
        # Nothing is owed once the turn that finished it is over.
        assert end.sequence is None
        if offset < 3:
            assert (after[0].sequence, after[0].sequence_flown) == (key, 3 - offset)
    # The "moved" events round the poses to a thousandth of a base-width.
    for split, result in zip(("1+2", "2+1"), results[1:], strict=True):
        assert result[1:] == results[0][1:], f"split {split}: altitude"
        assert result[0] == pytest.approx(results[0][0], abs=0.005), f"split {split}: move"


def _owing(key: str, flown: int, **extra: object) -> PlaneState:
    deck_last = _recipe(key)[flown - 1]
    last = "S" if deck_last == "S" else deck_last
    return plane(
        "c", type_="camel", sequence=key, sequence_flown=flown, last_card=last,
        last_steep=last == "ST", skills=("piloting_ace",), **extra,
    )  # type: ignore[arg-type]  # fmt: skip


def _reasons(subject: PlaneState, text: str) -> list[tuple[int, str]]:
    refusals = check_program(catalog(), subject, parse_program(text), RULES, turn=3)
    return [(r.position, r.reason) for r in refusals]


@pytest.mark.parametrize(
    ("subject", "text", "expected"),
    [
        (_owing("split_s", 1), "S IM S", [(0, "owed-card"), (1, "owed-card")]),
        (_owing("split_s", 1), "IM S BL", []),
        (_owing("split_s", 2), "BL S S", [(0, "owed-card")]),
        (_owing("split_s", 2), "S BL TR", []),
        (_owing("split_s", 2), "forced_dive: ST DV S", [(0, "owed-card"), (-1, UNDER_WAY)]),
        (_owing("split_s", 2), "S S forced_dive: ST", []),
        (_owing("forced_dive", 1), "DV S S", []),
        (_owing("split_s", 2), "LD S S S", [(-1, "sequence-under-way")]),
        (ACE, "S controlled_dive_steep: S ST", [(-1, "one-turn-maneuver")]),
        (plane(), "S split_s: ST BL", [(-1, "sequence-mismatch")]),
        (plane(), "S historical_immelmann: CL IM", [(-1, "needs-piloting_ace")]),
        (plane(), "S S split_s: ST", []),
        (plane(), "BL split_s: ST IM", []),
        # A plain Immelmann still wants its straight, even before a declared maneuver.
        (plane(), "S IM split_s: ST", [(2, "straight-after-immelmann")]),
    ],
)  # fmt: skip
def test_owed_cards_and_late_starts_are_judged(
    subject: PlaneState, text: str, expected: list[tuple[int, str]]
) -> None:
    assert _reasons(subject, text) == expected


def test_the_carry_over_rules_hold_across_the_break() -> None:
    # The Split-S begun on the 3rd card (ST) owes IM: the diamond rule looked at the ST,
    # and the IM needs no straight before it (it is the maneuver's).
    subject = _owing("split_s", 1)
    assert _reasons(subject, "IM S TL") == []
    # A plain Immelmann after last turn's stall would be refused.
    assert _reasons(plane(last_card="ST", last_steep=True), "IM S TL") == [
        (0, "immelmann-needs-straight-before")
    ]
    # Begun on the 3rd card after a diamond: the stall is still a diamond after a diamond.
    assert _reasons(plane(), "S HL split_s: ST") == [(2, "steep-after-steep")]


def test_only_the_owed_card_opens_a_program() -> None:
    legal, refused = legal_first_cards(catalog(), _owing("split_s", 1), RULES, 3)
    assert legal == ["IM"]
    assert {reason for _, reason in refused} == {"owed-card"}


@pytest.mark.parametrize("key", STRADDLING)
@pytest.mark.parametrize("flown", [1, 2])
@pytest.mark.parametrize(
    "damage",
    [
        {},
        {"rudder": "L", "rudder_until": 9},
        {"rudder": "R", "rudder_until": 9},
        {"engine_hits": 1},
    ],
)
def test_the_default_program_finishes_the_maneuver(
    key: str, flown: int, damage: dict[str, object]
) -> None:
    """A missed deadline never stalls a sequence, whatever damage it took since it began."""
    subject = _owing(key, flown, **damage)
    program = default_program(catalog(), subject, RULES, 3)
    assert check_program(catalog(), subject, program, RULES, 3) == []
    deck = catalog().maneuver_decks[catalog().planes["camel"].deck]
    owed = _recipe(key)[flown:]
    opened = tuple("S" if deck.card(c) and deck.card(c).is_straight else c for c in program.cards)  # type: ignore[union-attr]
    assert opened[: len(owed)] == owed


def test_a_seriously_wounded_pilot_finishes_the_maneuver_before_landing() -> None:
    subject = _owing("split_s", 2, pilot_lp=2, level=0)
    program = default_program(catalog(), subject, RULES, 3)
    assert program.maneuver is None and program.cards[0] == "S"


def test_a_plane_off_the_table_drops_the_sequence() -> None:
    # Flying off the table in the maneuver's first card: nothing is owed any more.
    start = plane("c", type_="camel", x=0.5, y=10, heading=180, level=4)
    far = plane("f", type_="dr1", side="entente", x=20, y=20, heading=90)
    state = mission(start, far, collisions=False, tailing=False)
    programs = {"c": parse_program("S S split_s: ST"), "f": Program(cards=("S", "S", "S"))}
    end, _ = play_turn(catalog(), state, programs, Rng("off", 1, "t"))
    assert end.planes["c"].status != "flying"
    assert end.planes["c"].sequence is None


def test_the_enemy_never_sees_what_is_owed() -> None:
    """Two campaigns differing only in the maneuver begun on the 3rd card (both open with a
    stall): the enemy's view and the public events are the same."""
    views = []
    for key in ("split_s", "forced_dive"):
        state = WingsRules(catalog()).new("wings-1917-basic", "owed").camp
        assert state.mission is not None
        decisions = wings.pending(catalog(), state)
        field = next(d.field for d in decisions if d.side == "entente" and d.kind == "program")
        owner = state.mission.planes[field]
        choices = wings.defaults(decisions)
        choices["entente"][owner.id] = f"S S {key}: ST"
        state, events = wings.resolve(catalog(), state, choices, Rng("owed", 1, "c"))
        assert state.mission is not None
        flying = state.mission.planes[owner.id]
        assert (flying.sequence, flying.sequence_flown) == (key, 1)
        public = [e.model_dump() for e in events if e.secret_for is None]
        views.append((seen(state, "central"), public))
    assert views[0] == views[1]
    own = seen(state, "entente")
    assert own["mission"]["planes"][owner.id]["sequence"] == "forced_dive"


def test_a_pursuer_never_moves_an_owed_card() -> None:
    """Tailing (seed A.IV.d): the pursuer reorders his free cards; the owed one stays first."""
    hunter = _owing("split_s", 1).model_copy(update={"id": "h", "side": "entente"})
    prey = plane("p", type_="dr1", side="central", x=20, y=20)
    state = mission(hunter, prey).model_copy(
        update={
            "round": "reorder",
            "pursuits": {"h": "p"},
            "programs": {"h": parse_program("IM S TL"), "p": parse_program("S S S")},
        }
    )
    (decision,) = wings._reorder_decisions(catalog(), state)
    assert {o.id for o in decision.options} == {"IM S TL"}


def test_an_ace_keeps_a_program_that_begins_a_maneuver() -> None:
    """Seed D.VII.a: the last card of a program owing cards next turn is its maneuver's."""
    from engine.rulesets.wings import ace

    subject = plane(skills=("ace_of_aces",), tokens=3)
    assert ace.why_not(subject, parse_program("S S split_s: ST")) == "declared-maneuver"
    # Finishing one leaves the last card free (at most two cards are ever owed).
    assert ace.why_not(_owing("split_s", 1, tokens=3), parse_program("IM S TL")) is None


def test_release_and_pistol_words_read_back_after_a_maneuver_begun_late() -> None:
    # Three suffixes meet on one program: the late start, the bomb release, the pistol.
    from engine.rulesets.wings.program import parse_program, program_text

    for text in ("S split_s: ST IM pistol@2", "S split_s: ST IM bomb@1 pistol@3"):
        program = parse_program(text)
        assert program.start == 1 and program.pistol is not None
        assert program_text(program) == text
