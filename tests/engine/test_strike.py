"""``fly_strike``: phases, doctrine, determinism and invariants over random strikes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.zero.cards import Deck
from engine.zero.orders import DOCTRINE_PRESETS, Doctrine, FlightUnit, PilotFace, StrikeSetup
from engine.zero.report import StrikeReport
from engine.zero.strike import Strike, fly_strike
from engine.zero.types import AircraftState, Band, BombMode, Ordnance
from tests.engine.strike_fixtures import (
    CATALOG,
    VL,
    A,
    J,
    L,
    M,
    bombers,
    element,
    make_setup,
)


def _deck(seed: int) -> Deck:
    return Deck(CATALOG.deck.cards, random.Random(seed))


def _coral_sea(**extra: object) -> StrikeSetup:
    """The seed's Coral Sea Large Strike (25.63) against two F4F elements."""
    strike = (
        element("A6M2", J, "strike", "J1")
        + element("B5N2", J, "strike", "J2", VL, ordnance=Ordnance.TORPEDO)
        + element("D3A1", J, "strike", "J3", M, wingman=False, ordnance=Ordnance.BOMB)
    )
    cap = element("F4F", A, "cap", "A1") + element("F4F", A, "cap", "A2")
    data: dict[str, object] = {"sheet_id": "5A", "carrier_fleet": True}
    data.update(extra)
    return make_setup(strike, cap, **data)  # type: ignore[arg-type]


def _fly(setup: StrikeSetup, seed: int) -> StrikeReport:
    return fly_strike(setup, CATALOG, _deck(seed))


def test_same_deck_order_gives_the_same_report() -> None:
    setup = _coral_sea()
    for seed in range(5):
        assert _fly(setup, seed).model_dump_json() == _fly(setup, seed).model_dump_json()
    assert len({_fly(setup, seed).model_dump_json() for seed in range(5)}) > 1


def test_a_phase_of_zero_turns_is_skipped() -> None:
    report = _fly(_coral_sea(target_bound=0, home_bound=-1), 3)
    assert "phase-skipped:target-bound" in report.notes
    assert "phase-skipped:home-bound" in report.notes
    phases = {e.phase for e in report.exchanges} | {f.phase for f in report.flak}
    assert "target-bound" not in phases and "home-bound" not in phases
    assert "ingress" in {f.phase for f in report.flak}  # Over-Target always flies (23.22)


@pytest.mark.parametrize("length", [1, 2, 4])
def test_target_bound_turns_are_counted(length: int) -> None:
    """23.3 / 25.62: exactly ``length`` Target-Bound turns are flown, before the Ingress.

    One strike may see no fight in some turn, so the turns are gathered over a few decks:
    a strike that skipped its Target-Bound phase, or flew too few or too many turns of it,
    shows a different set."""
    seen: set[int] = set()
    for seed in range(12):
        report = _fly(_coral_sea(target_bound=length), seed)
        phases = [e.phase for e in report.exchanges]
        seen |= {e.turn for e in report.exchanges if e.phase == "target-bound"}
        if "target-bound" in phases and "ingress" in phases:
            last_outbound = max(i for i, p in enumerate(phases) if p == "target-bound")
            assert last_outbound < phases.index("ingress")
    assert seen == set(range(1, length + 1))


def test_hidden_strike_does_no_damage() -> None:
    """Out of Sight: the outbound and return legs are flown, the target is never found."""
    fought: set[str] = set()
    for seed in range(5):
        report = _fly(_coral_sea(hidden=True), seed)
        assert report.hidden and report.notes[0] == "hidden"
        assert report.target_points == 0
        assert not report.bomb_runs and not report.flak
        fought |= {e.phase for e in report.exchanges}
    assert fought == {"target-bound", "home-bound"}  # the CAP still meets the strike


def test_scout_mission_shape() -> None:
    """The campaign flies a scout as a hidden strike of 2 turns against one CAP element."""
    scout = [
        u.model_copy(update={"group": "scout", "role": "recon"})
        for u in bombers("G4M1", J, "JR1", 1, M)
    ]
    setup = make_setup(
        scout,
        element("F4F", A, "cap", "A1"),
        sheet_id="5A",
        carrier_fleet=True,
        kind="scout",
        hidden=True,
        home_bound=0,
    )
    reports = [_fly(setup, seed) for seed in range(10)]
    assert any(report.aircraft[0].damage for report in reports)
    for report in reports:
        scout = report.aircraft[0]
        # No Over-Target turns; the only flak is the report draw's Area salvo (authored
        # 3.4), and only a scout still flying makes that draw.
        assert {f.phase for f in report.flak} <= {"scout"}
        assert all(f.kind == "area" and f.against == scout.uid for f in report.flak)
        reported = bool(report.flak)
        assert reported is (scout.state is not AircraftState.DESTROYED or bool(report.bomb_runs))
        assert [r.mode for r in report.bomb_runs] == (["recon"] if reported else [])
        assert report.target_points == 0


def test_never_strafes_a_carrier_fleet() -> None:
    """21.71 / 25.66, with flak so weak that strafing would otherwise always pay."""
    strike = element("P-40E", A, "strike", "A1", VL) + element(
        "TBD-1", A, "strike", "A2", VL, ordnance=Ordnance.TORPEDO
    )
    escort = Doctrine(escort="escort")
    for sheet, fleet, expect in (("5A", True, False), ("4C", True, False), ("4A", False, True)):
        setup = make_setup(
            strike,
            sheet_id=sheet,
            attacker=A,
            carrier_fleet=fleet,
            target_flak_mod=-9,
            attacker_doctrine=escort,
        )
        runs = [r for seed in range(4) for r in _fly(setup, seed).bomb_runs]
        strafes = [r for r in runs if r.mode == "strafe"]
        assert bool(strafes) is expect, sheet
        assert all(r.band == Band.VL for r in strafes)


def test_dive_bombers_drop_a_band_and_draw_one_more() -> None:
    """21.41-21.43: Vals start at Medium, dive to Low, Bomb rating 1 + 1 = 2 cards."""
    setup = make_setup(
        element("D3A1", J, "strike", "J1", L, ordnance=Ordnance.BOMB),
        sheet_id="1A",
        area_flak_mod=-9,  # no Area Flak at Ingress, so both Vals still carry their bombs
    )
    report = _fly(setup, 0)
    runs = [r for r in report.bomb_runs if r.mode is BombMode.DIVE]
    assert [r.band for r in runs] == [Band.L, Band.L]
    assert [len(r.cards) for r in runs] == [2, 2]
    flak = [f for f in report.flak if f.kind == "target"]
    assert [len(f.cards) for f in flak] == [2, 2]  # Airfield Target Flak 2, no change at Low


def test_torpedo_points_are_doubled_in_a_full_strike() -> None:
    setup = make_setup(
        element("B5N2", J, "strike", "J1", VL, ordnance=Ordnance.TORPEDO), sheet_id="4C"
    )
    for seed in range(10):
        report = _fly(setup, seed)
        for run in report.bomb_runs:
            assert run.mode is BombMode.TORPEDO and run.band == Band.VL
            expected = sum({0: 0, 1: 4, 2: 8, 3: 12}[r.value] for r in run.results)
            assert run.points == expected


def test_bombs_on_a_ground_target_even_with_torpedo_ordnance() -> None:
    """17.14b: against a ground target a torpedo bomber carries bombs (level)."""
    setup = make_setup(
        element("B5N2", J, "strike", "J1", L, ordnance=Ordnance.TORPEDO), sheet_id="1A"
    )
    modes = {r.mode for r in _fly(setup, 1).bomb_runs}
    assert modes == {BombMode.LEVEL}


def test_doctrine_torpedo_false_means_bombs() -> None:
    setup = make_setup(
        element("B5N2", J, "strike", "J1", L, ordnance=Ordnance.TORPEDO),
        sheet_id="4C",
        attacker_doctrine=Doctrine(torpedo=False),
    )
    assert {r.mode for r in _fly(setup, 1).bomb_runs} == {BombMode.LEVEL}


def test_disengaged_escorts_take_no_flak() -> None:
    """23.51-23.53: escorts that carry nothing wait outside; flak only over the target."""
    setup = _coral_sea(attacker_doctrine=Doctrine(disengage_over_target=True))
    seen: set[str] = set()
    for seed in range(5):
        report = _fly(setup, seed)
        out = {a.uid for a in report.aircraft if a.disengaged}
        seen |= out
        assert all(uid.startswith("J") for uid in out)  # the CAP's doctrine keeps it over
        # A bomber that lost its load before Ingress (18.22) carries nothing and waits too.
        assert not any(r.uid in out for r in report.bomb_runs)
        assert not any(f.against in out for f in report.flak)
        for ex in report.exchanges:
            if ex.phase in ("ingress", "bomb", "egress") and ex.attacker in out:
                assert ex.defender in out  # the CAP stayed over the target: nobody to fight
    assert {"J1-A6M2-L", "J1-A6M2-W"} <= seen


def test_cap_starts_at_its_doctrine_band() -> None:
    setup = _coral_sea(defender_doctrine=Doctrine(cap_band=Band.H), target_bound=0)
    strike = Strike(setup, CATALOG, _deck(0))
    assert {p.band for p in strike.sky.planes if p.group == "cap"} == {Band.H}
    assert {p.band for p in strike.sky.planes if p.uid.startswith("J2")} == {Band.VL}
    assert {p.band for p in strike.sky.planes if p.uid.startswith("J3")} == {Band.M}


def test_escort_and_sweep_fly_to_different_bands() -> None:
    """Doctrine: escorts stay with the bombers, a sweep goes for the CAP; the CAP goes for
    the bombers (its ``escort`` value) or for the fighters (``sweep``)."""
    strike_units = element("A6M2", J, "strike", "J1", M) + bombers("Ki-21", J, "J2", band=L)
    cap_units = element("F4F", A, "cap", "A1")
    bands = {}
    for mine, theirs in (("escort", "escort"), ("sweep", "sweep")):
        setup = make_setup(
            strike_units,
            cap_units,
            attacker_doctrine=Doctrine(escort=mine),  # type: ignore[arg-type]
            defender_doctrine=Doctrine(escort=theirs, cap_band=Band.VH),  # type: ignore[arg-type]
        )
        strike = Strike(setup, CATALOG, _deck(0))
        by = {p.uid: p for p in strike.sky.planes}
        bands[mine] = (strike.desired(by["J1-A6M2-L"]), strike.desired(by["A1-F4F-L"]))
    assert bands["escort"] == (Band.L, Band.L)
    assert bands["sweep"] == (Band.VH, Band.M)


def test_cap_guarding_against_bombers_goes_down_to_torpedo_bombers() -> None:
    """A CAP set to go for the bombers dives on torpedo bombers at Very Low, even with
    escorts nearer its own band (Very Low is band 0: it once counted as 'no bombers')."""
    strike_units = element("A6M2", J, "strike", "J1", M) + element(
        "B5N2", J, "strike", "J2", VL, ordnance=Ordnance.TORPEDO
    )
    setup = make_setup(
        strike_units,
        element("F4F", A, "cap", "A1"),
        sheet_id="5A",
        defender_doctrine=Doctrine(escort="escort", cap_band=Band.VH),
    )
    strike = Strike(setup, CATALOG, _deck(0))
    by = {p.uid: p for p in strike.sky.planes}
    assert by["J2-B5N2-L"].loaded and by["J2-B5N2-L"].band is Band.VL
    assert strike.desired(by["A1-F4F-L"]) is Band.VL


def test_damaged_cap_carried_in_keeps_its_ratings() -> None:
    cap = [u.model_copy(update={"damage": 5}) for u in element("F4F", A, "cap", "A1")]
    setup = make_setup(element("B5N2", J, "strike", "J1", VL), cap, sheet_id="5A")
    report = _fly(setup, 2)
    for outcome in report.aircraft:
        if outcome.group == "cap":
            assert outcome.damage >= 5 and outcome.state is not AircraftState.OK


def test_pilot_label_and_skills() -> None:
    honda = PilotFace(name="Honda", skills=("A", "BU"))
    setup = make_setup(element("A6M2", J, "strike", "J1", pilot=honda), sheet_id="1A")
    report = _fly(setup, 0)
    assert report.aircraft[0].pilot == "Honda (A, BU)"
    assert report.aircraft[1].pilot is None


def test_formation_bombs_at_end_of_bomb_turn_without_answers() -> None:
    setup = make_setup(bombers("Ki-21", J, "J1"), sheet_id="3B")
    report = _fly(setup, 4)
    assert [r.uid for r in report.bomb_runs] == ["J1-Ki-21-1", "J1-Ki-21-2"]
    assert all(f.answered is None for f in report.flak)


# --- Property test -------------------------------------------------------------------------

_FIGHTERS_J = ["A6M2", "Ki-43"]
_FIGHTERS_A = ["F4F", "P-40B", "P-40E", "Buffalo-I", "Hurricane-IIB"]
_SKILLS = ["A", "BM", "BU", "CV", "D", "G", "H", "P", "S"]


@st.composite
def _setups(draw: st.DrawFn) -> StrikeSetup:
    attacker = draw(st.sampled_from([J, A]))
    defender = A if attacker is J else J
    own = _FIGHTERS_J if attacker is J else _FIGHTERS_A
    foe = _FIGHTERS_A if attacker is J else _FIGHTERS_J
    bomb_types = (
        [("B5N2", Ordnance.TORPEDO), ("D3A1", Ordnance.BOMB), ("Ki-30", Ordnance.BOMB)]
        if attacker is J
        else [("TBD-1", Ordnance.TORPEDO), ("SBD-3", Ordnance.BOMB), ("P-40E", Ordnance.BOMB)]
    )
    formations = ["Ki-21", "G4M1"] if attacker is J else ["B-17E", "B-26"]
    bands = st.sampled_from(list(Band))
    skills = st.lists(st.sampled_from(_SKILLS), max_size=2, unique=True)
    strike: list[FlightUnit] = []
    for i in range(draw(st.integers(0, 2))):
        pilot = PilotFace(name="Ace", skills=tuple(draw(skills))) if draw(st.booleans()) else None
        strike += element(draw(st.sampled_from(own)), attacker, "strike", f"S{i}", draw(bands),
                          wingman=draw(st.booleans()), pilot=pilot)  # fmt: skip
    for i in range(draw(st.integers(0, 2))):
        code, ordnance = draw(st.sampled_from(bomb_types))
        strike += element(code, attacker, "strike", f"B{i}", draw(bands),
                          wingman=draw(st.booleans()), ordnance=ordnance)  # fmt: skip
    if draw(st.booleans()) or not strike:
        code = draw(st.sampled_from(formations))
        band = Band.H if code == "B-17E" else Band.M
        strike += [
            u.model_copy(update={"side": attacker})
            for u in bombers(code, attacker, "F1", draw(st.integers(1, 3)), band)
        ]
    cap: list[FlightUnit] = []
    for i in range(draw(st.integers(0, 3))):
        pilot = PilotFace(name="Cap", skills=tuple(draw(skills))) if draw(st.booleans()) else None
        cap += element(draw(st.sampled_from(foe)), defender, "cap", f"C{i}",
                       wingman=draw(st.booleans()), pilot=pilot)  # fmt: skip
    sheet = draw(st.sampled_from(["1A", "3B", "4A", "4C", "4E", "5A"]))
    return make_setup(
        strike,
        cap,
        sheet_id=sheet,
        attacker=attacker,
        carrier_fleet=sheet == "5A",
        attacker_doctrine=draw(st.sampled_from(list(DOCTRINE_PRESETS.values()))),
        defender_doctrine=draw(st.sampled_from(list(DOCTRINE_PRESETS.values()))),
        target_bound=draw(st.integers(-1, 4)),
        home_bound=draw(st.integers(-1, 2)),
        area_flak_mod=draw(st.integers(-1, 2)),
        target_flak_mod=draw(st.integers(-2, 2)),
        damage_bonus=draw(st.integers(0, 2)),
        result_shift=draw(st.integers(0, 2)),
        hidden=draw(st.booleans()) and draw(st.booleans()),
    )


@given(setup=_setups(), seed=st.integers(0, 2**32 - 1))
def test_random_strikes_keep_the_invariants(setup: StrikeSetup, seed: int) -> None:
    strike = Strike(setup, CATALOG, _deck(seed))
    report = strike.run()
    # Destroyed aircraft never bomb afterwards, and a Destroyed aircraft stays Destroyed.
    destroyed: set[str] = set()
    for kind, uid in strike.sky.events:
        if kind == "bomb":
            assert uid not in destroyed
        else:
            assert uid not in destroyed
            destroyed.add(uid)
    states = {a.uid: a for a in report.aircraft}
    assert {u for u, a in states.items() if a.state is AircraftState.DESTROYED} == destroyed
    for a in report.aircraft:
        assert a.damage >= 0
        kind = CATALOG.aircraft[a.aircraft]
        if a.state is AircraftState.OK:
            assert a.damage < kind.flip_at + 1  # skill D may add one
    assert report.target_points >= 0
    assert report.target_points == sum(r.points for r in report.bomb_runs)
    assert all(r.points >= 0 for r in report.bomb_runs)
    assert all(e.damage_to_defender >= 0 and e.damage_to_attacker >= 0 for e in report.exchanges)
    assert all(f.damage >= 0 for f in report.flak)
    if setup.carrier_fleet:
        assert not any(r.mode == "strafe" for r in report.bomb_runs)
    strike_uids = {u.uid for u in setup.strike}
    assert all(r.uid in strike_uids for r in report.bomb_runs)  # the CAP never bombs
    if setup.hidden:
        assert report.target_points == 0 and not report.bomb_runs and not report.flak
    uids = [u.uid for u in (*setup.strike, *setup.cap)]
    assert [a.uid for a in report.aircraft] == uids
    assert StrikeReport.model_validate_json(report.model_dump_json()) == report
    # Each bomb run's cards and flak come from the catalog's deck.
    ids = {c.id for c in CATALOG.deck.cards}
    assert all(set(r.cards) <= ids for r in report.bomb_runs)


def test_runs_on_the_shipped_data_files() -> None:
    """The same engine on ``engine/zero/data`` (its answers table also lists ACE PILOT)."""
    loader = pytest.importorskip("engine.zero.loader")
    catalog = loader.default_catalog()
    strike = (
        element("A6M2", J, "strike", "J1")
        + element("B5N2", J, "strike", "J2", VL, ordnance=Ordnance.TORPEDO)
        + element("D3A1", J, "strike", "J3", M, wingman=False, ordnance=Ordnance.BOMB)
        + bombers("G4M1", J, "J4")
    )
    cap = element("F4F", A, "cap", "A1") + element("SBD-3", A, "cap", "A2")
    setup = make_setup(strike, cap, sheet_id="5A", carrier_fleet=True, damage_bonus=1)
    for seed in range(20):
        report = fly_strike(setup, catalog, Deck(catalog.deck.cards, random.Random(seed)))
        assert report.target_points == sum(r.points for r in report.bomb_runs)
        assert not any(r.mode == "strafe" for r in report.bomb_runs)
