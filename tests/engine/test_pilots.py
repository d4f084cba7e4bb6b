"""Pilot counters (authored 3.9) and the draft of 19.24, with the seed's worked example."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from hypothesis import given
from hypothesis import strategies as st

from engine.zero.loader import default_catalog, default_pilot_pool, load_pilots
from engine.zero.orders import PilotFace
from engine.zero.pilots import (
    SKILL_CODES,
    PilotCounter,
    PilotDraw,
    PilotPool,
    assignments,
    draft_pilots,
)
from engine.zero.types import Side

CATALOG = default_catalog()
POOL = default_pilot_pool()
_T = TypeVar("_T")


class ScriptedPicker:
    """Picks what the script says, by counter id or face index, and records each cup it was
    offered; fails if the scripted pick is not in the cup (the cup itself is then wrong)."""

    def __init__(self, script: Sequence[str | int]) -> None:
        self.script = list(script)
        self.cups: list[list[Any]] = []

    def choice(self, seq: Sequence[_T], /) -> _T:
        want = self.script.pop(0)
        offered = [item.id if isinstance(item, PilotCounter) else item for item in seq]
        self.cups.append(offered)
        assert want in offered, f"{want!r} is not in the cup {offered}"
        return seq[offered.index(want)]


def _face(counter_id: str, name: str) -> int:
    faces = POOL.counter(counter_id).faces
    return [face.name for face in faces].index(name)


def _by_name(name: str) -> PilotCounter:
    return next(c for c in POOL.counters if any(face.name == name for face in c.faces))


# --- The pool (authored 3.9) -----------------------------------------------------------------


def test_pools_per_nation_and_service() -> None:
    generic = Counter((c.nation.value, c.service) for c in POOL.counters if c.aircraft is None)
    assert generic == {
        ("japanese", "navy"): 10,
        ("japanese", "army"): 10,
        ("allied", "navy"): 10,
        ("allied", "army"): 10,
        ("allied", "marines"): 10,
        ("allied", "british"): 10,
    }
    for key in generic:
        faces = [
            face
            for c in POOL.counters
            if c.aircraft is None and (c.nation.value, c.service) == key
            for face in c.faces
        ]
        assert len(faces) == 20
        skilled = [face for face in faces if face.skills]
        assert len(skilled) == 8  # 40% of faces
        assert sum(face.skills == ("A",) for face in faces) == 2  # about 1 face in 10
    for counter in POOL.counters:
        for face in counter.faces:
            assert len(face.skills) <= 1 and set(face.skills) <= SKILL_CODES
    assert len({c.id for c in POOL.counters}) == len(POOL.counters)
    assert len({f.name for c in POOL.counters for f in c.faces}) == 2 * len(POOL.counters)


def test_seed_named_counters() -> None:
    """19.24 [EX]: Paek is an unskilled generic Navy face; two B5N2 counters, one with Abe;
    two A6M2 counters, one with Honda."""
    paek = _by_name("Paek")
    assert paek.aircraft is None and (paek.nation, paek.service) == (Side.JAPANESE, "navy")
    assert [f.skills for f in paek.faces if f.name == "Paek"] == [()]
    abe, honda = _by_name("Abe"), _by_name("Honda")
    assert abe.aircraft == "B5N2" and honda.aircraft == "A6M2"
    assert [c.id for c in POOL.counters if c.aircraft == "B5N2"] == ["jn-b5n2-1", "jn-b5n2-2"]
    assert [c.id for c in POOL.counters if c.aircraft == "A6M2"] == ["jn-a6m2-1", "jn-a6m2-2"]
    for name in ("Abe", "Honda"):
        face = next(f for f in _by_name(name).faces if f.name == name)
        assert face.skills  # both are skilled in the example
    assert {c.provenance for c in POOL.counters if c.aircraft} == {"seed"}


def test_cups_follow_nation_service_and_type() -> None:
    kate_cup = {c.id for c in POOL.cup_for(CATALOG.aircraft["B5N2"])}
    zero_cup = {c.id for c in POOL.cup_for(CATALOG.aircraft["A6M2"])}
    navy = {c.id for c in POOL.counters if c.aircraft is None and c.service == "navy"}
    navy = {i for i in navy if i.startswith("jn-")}
    assert kate_cup == navy | {"jn-b5n2-1", "jn-b5n2-2"}
    assert zero_cup == navy | {"jn-a6m2-1", "jn-a6m2-2"}
    oscar_cup = POOL.cup_for(CATALOG.aircraft["Ki-43"])
    assert {(c.nation, c.service) for c in oscar_cup} == {(Side.JAPANESE, "army")}
    buffalo = POOL.cup_for(CATALOG.aircraft["F2A-3"])
    assert {(c.nation, c.service) for c in buffalo} == {(Side.ALLIED, "marines")}
    # A formation type still has an eligible cup, though only Leaders draw (19.24).
    assert all(c.id.startswith("ua-") for c in POOL.cup_for(CATALOG.aircraft["B-17E"]))


def test_load_pilots_defaults_to_the_packaged_files() -> None:
    assert load_pilots() == POOL
    assert POOL.provenance == "authored-default"


# --- The draft (19.24) -----------------------------------------------------------------------


def test_seed_worked_example_19_24() -> None:
    """Two B5N2 Leaders and one A6M2 Leader. Draw 1: Paek, unskilled, discarded, the first
    Kate flies without a pilot. Draw 2: a B5N2 counter showing Abe, on the second Kate.
    For the Zero: Paek is back, the other B5N2 counter is out, the two A6M2 counters are in;
    one draw gives Honda, placed on the Zero."""
    kate, zero = CATALOG.aircraft["B5N2"], CATALOG.aircraft["A6M2"]
    paek, abe, honda = _by_name("Paek"), _by_name("Abe"), _by_name("Honda")
    picker = ScriptedPicker(
        [
            paek.id, _face(paek.id, "Paek"),
            abe.id, _face(abe.id, "Abe"),
            honda.id, _face(honda.id, "Honda"),
        ]
    )  # fmt: skip
    draws = draft_pilots([("K1", kate), ("K2", kate), ("Z1", zero)], POOL, picker)

    assert [(d.uid, d.counter, d.shown.name if d.shown else None, d.skilled) for d in draws] == [
        ("K1", paek.id, "Paek", False),
        ("K2", abe.id, "Abe", True),
        ("Z1", honda.id, "Honda", True),
    ]
    assert draws[0].pilot is None
    assert draws[1].pilot == next(f for f in abe.faces if f.name == "Abe")
    assert draws[2].pilot == next(f for f in honda.faces if f.name == "Honda")

    generic = {c.id for c in POOL.counters if c.aircraft is None and c.id.startswith("jn-")}
    first_kate, _, second_kate, _, zero_cup, _ = picker.cups  # a cup, then a coin flip
    assert set(first_kate) == generic | {"jn-b5n2-1", "jn-b5n2-2"}
    assert set(second_kate) == set(first_kate) - {paek.id}  # Paek discarded for Kates
    assert set(zero_cup) == generic | {"jn-a6m2-1", "jn-a6m2-2"}  # Paek back, B5N2s out
    assert paek.id in zero_cup
    assert picker.script == []

    pilots = assignments(draws)
    assert pilots["K1"] is None
    assert pilots["K2"] is not None and pilots["K2"].name == "Abe"
    assert pilots["Z1"] is not None and pilots["Z1"].name == "Honda"


def test_a_skilled_counter_is_out_for_the_rest_of_the_strike() -> None:
    zero = CATALOG.aircraft["A6M2"]
    tanaka = _by_name("Tanaka")
    picker = ScriptedPicker([tanaka.id, _face(tanaka.id, "Tanaka"), "jn-01", 0])
    draft_pilots([("Z1", zero), ("Z2", zero)], POOL, picker)
    assert tanaka.id not in picker.cups[2]


def test_veteran_aircrew_draws_again_after_an_unskilled_face() -> None:
    kate = CATALOG.aircraft["B5N2"]
    paek, abe = _by_name("Paek"), _by_name("Abe")
    script = [paek.id, _face(paek.id, "Paek"), abe.id, _face(abe.id, "Abe")]
    picker = ScriptedPicker(script)
    draws = draft_pilots([("K1", kate)], POOL, picker, extra_draw_if_unskilled=True)
    assert [(d.counter, d.skilled, d.redraw) for d in draws] == [
        (paek.id, False, False),
        (abe.id, True, True),
    ]
    assert paek.id not in picker.cups[2]
    assert assignments(draws)["K1"] == draws[1].pilot
    # Without the resource the same Leader keeps the unskilled result.
    draws = draft_pilots([("K1", kate)], POOL, ScriptedPicker(script[:2]))
    assert len(draws) == 1 and draws[0].pilot is None


def test_an_empty_cup_leaves_the_leader_without_a_pilot() -> None:
    only = PilotCounter(
        id="solo",
        nation=Side.JAPANESE,
        service="navy",
        aircraft="A6M2",
        faces=(PilotFace(name="One", skills=("H",)), PilotFace(name="Two", skills=("P",))),
    )
    pool = PilotPool(counters=(only,))
    zero = CATALOG.aircraft["A6M2"]
    draws = draft_pilots([("Z1", zero), ("Z2", zero)], pool, random.Random(1))
    assert draws[0].counter == "solo" and draws[0].pilot is not None
    assert draws[1] == PilotDraw(uid="Z2", aircraft="A6M2", counter=None)


def test_types_are_drafted_in_order_of_first_appearance() -> None:
    kate, zero = CATALOG.aircraft["B5N2"], CATALOG.aircraft["A6M2"]
    draws = draft_pilots([("Z1", zero), ("K1", kate), ("Z2", zero)], POOL, random.Random(3))
    assert [d.uid for d in draws] == ["Z1", "Z2", "K1"]


LEADER_TYPES = ["A6M2", "B5N2", "D3A1", "Ki-43", "F4F", "SBD-3", "TBD-1", "F2A-3", "P-40B"]


@given(
    codes=st.lists(st.sampled_from(LEADER_TYPES), min_size=1, max_size=12),
    seed=st.integers(min_value=0, max_value=2**32),
    veteran=st.booleans(),
)
def test_draft_invariants(codes: list[str], seed: int, veteran: bool) -> None:
    leaders = [(f"U{i}", CATALOG.aircraft[code]) for i, code in enumerate(codes)]
    draws = draft_pilots(leaders, POOL, random.Random(seed), extra_draw_if_unskilled=veteran)
    again = draft_pilots(leaders, POOL, random.Random(seed), extra_draw_if_unskilled=veteran)
    assert draws == again  # same rng, same draft
    assert set(assignments(draws)) == {uid for uid, _ in leaders}
    per_leader = Counter(d.uid for d in draws)
    assert all(n <= (2 if veteran else 1) for n in per_leader.values())
    placed = [d.counter for d in draws if d.skilled]
    assert len(placed) == len(set(placed))  # a skilled counter flies once per strike
    types = dict(leaders)
    for draw in draws:
        assert (draw.pilot is not None) == draw.skilled
        if draw.counter is not None:
            counter = POOL.counter(draw.counter)
            assert counter.may_fly(types[draw.uid])
            assert draw.face is not None and draw.shown == counter.faces[draw.face]
