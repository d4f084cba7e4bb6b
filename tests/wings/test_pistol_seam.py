"""The pistol on the panel (seed D.VIII): every plane near an enemy is offered the shot,
pistol or not, so neither the menu nor the orders opened after the turn tell who carries
one; only the owner's panel says whether it will fire; the Knight is told why he may not.
Until a shot is fired, the enemy's view and the public events are the same whether a pilot
owns a pistol or announced a shot that could not go."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.rulesets.wings import QUICK_PICKS, WingsRules, WingsState
from engine.rulesets.wings.catalog import default_catalog
from rendering.rulesets.wings import WingsPresenter
from tests.service.wings_play import with_planes
from tests.wings.helpers import program_reads, with_picks

SEED = "pistol"
ARMED = {"pistol": 1, "bullets": 6}


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def abreast(state: WingsState, gap: float = 2.0, kit: dict[str, int] | None = None) -> WingsState:
    """Wings 1917 with the Entente's P1 (plane1, a Hothead) flying abreast of the Central
    P3, ``gap`` bw apart and out of each other's arcs, with this kit aboard."""
    return with_planes(
        state,
        {
            "P1": {"x": 10.0, "y": 7.4, "heading": 0.0, "kit": dict(kit or {})},
            "P3": {"x": 10.0, "y": 7.4 + gap, "heading": 0.0},
        },
    )


def _step(
    rules: WingsRules, state: WingsState, picks: dict[str, dict[str, str]] | None = None
) -> tuple[WingsState, list[Any]]:
    progress = rules.progress(state)
    choices = with_picks(rules, state, picks)
    new, events = rules.resolve(state, choices, Rng(SEED, progress.turn, progress.round))
    return new, rules.public_events(events)


def _menu(rules: WingsRules, state: WingsState, side: str, field: str) -> Any:
    return next(d for d in rules.pending(state) if (d.side, d.field) == (side, field))


def test_every_plane_near_an_enemy_is_offered_the_shot_pistol_or_not() -> None:
    rules = _rules()
    start = rules.new("wings-1917", SEED)
    owner = _menu(rules, abreast(start, kit=ARMED), "entente", "program:P1")
    bare = _menu(rules, abreast(start), "entente", "program:P1")
    ids = [o.id for o in owner.options]
    assert ids == [o.id for o in bare.options]  # the same menu, pistol or not
    assert ids[1:4] == [f"S S S pistol@{n}" for n in (1, 2, 3)]
    assert len(ids) <= QUICK_PICKS and owner.default == "S S S"
    details = {o.id: o.detail for o in owner.options}
    assert details["S S S pistol@2"] == "pistol.2.ready"
    assert {o.id: o.detail for o in bare.options}["S S S pistol@2"] == "pistol.2.no-pistol"
    empty = _menu(rules, abreast(start, kit={"pistol": 1}), "entente", "program:P1")
    assert {o.id: o.detail for o in empty.options}["S S S pistol@1"] == "pistol.1.no-bullets"
    # The enemy near him is offered it as well; far from any enemy, nobody is.
    assert "S S S pistol@1" in {
        o.id for o in _menu(rules, abreast(start), "central", "program:P3").options
    }
    assert not any("pistol@" in o.id for d in rules.pending(start) for o in d.options)
    option = next(o for o in owner.options if o.id == "S S S pistol@2")
    program_reads(
        option,
        (
            "S S S · pistol after maneuver 2",
            "your pilot shoots the nearest enemy pilot within R/2 (never a Ghost), one bullet",
        ),
        "S S S · pistolet après la manœuvre 2",
    )


def test_the_knight_is_told_why_his_menu_has_no_shot() -> None:
    rules = _rules()
    state = with_planes(
        rules.new("wings-1917", SEED),
        {"P2": {"x": 10.0, "y": 7.4, "heading": 0.0}, "P3": {"x": 10.0, "y": 9.4}},
    )
    knight = _menu(rules, state, "entente", "program:P2")
    assert state.camp.mission is not None and state.camp.mission.planes["P2"].behaviour == "knight"
    assert not any("pistol@" in o.id for o in knight.options)
    refused = {e.id: e.reason for e in knight.excluded if "pistol@" in e.id}
    assert refused == {"pistol@": "knight-refuses"}
    lines = {
        locale: WingsPresenter().excluded_lines("wings-1917", knight, locale)
        for locale in ("en", "fr")
    }
    assert ("pistol shot", "a Knight of the Air never uses it") in lines["en"]
    assert ("tir au pistolet", "un Chevalier des airs ne s'en sert jamais") in lines["fr"]


def _flown(
    rules: WingsRules, state: WingsState, pick: str
) -> tuple[list[WingsState], list[list[Any]]]:
    held, held_events = _step(rules, state, {"entente": {"program:P1": pick}})
    flown, flown_events = _step(rules, held)
    return [held, flown], [held_events, flown_events]


def test_owning_a_pistol_or_announcing_a_shot_that_cannot_go_shows_nothing() -> None:
    """Differential: four campaigns differing only in the pistol aboard and the shot
    announced (P3 flies 3 bw off, out of reach): the enemy's and the public view and the
    public events are the same at every step, the turn flown included."""
    rules = _rules()
    start = rules.new("wings-1917", SEED)
    kits = {"bare": {}, "armed": ARMED}
    runs = {
        (name, pick): _flown(rules, abreast(start, gap=3.0, kit=kit), pick)
        for name, kit in kits.items()
        for pick in ("S S S", "S S S pistol@1")
    }
    (first_states, first_events), *others = runs.values()
    for states, events in others:
        for step in (0, 1):
            for viewer in ("central", None):
                assert rules.view(states[step], viewer) == rules.view(first_states[step], viewer)
            assert [e.model_dump() for e in events[step]] == [
                e.model_dump() for e in first_events[step]
            ]
    # The campaigns do differ: the owner's own view holds the kit, and the shot that
    # could not go spent no bullet; his side alone was told why.
    armed, told = runs[("armed", "S S S pistol@1")]
    bare, _ = runs[("bare", "S S S pistol@1")]
    own: Any = rules.view(armed[1], "entente").data
    assert own["mission"]["planes"]["P1"]["kit"] == ARMED
    assert rules.view(bare[1], "entente") != rules.view(armed[1], "entente")
    assert told[1] == first_events[1]  # the public events (the seam keeps no secret one)


def test_once_the_shot_is_fired_everyone_sees_it() -> None:
    rules = _rules()
    state = abreast(rules.new("wings-1917", SEED), kit=ARMED)
    states, events = _flown(rules, state, "S S S pistol@1")
    flown = states[1]
    shots = [e for e in events[1] if e.kind == "pistol-shot"]
    assert [e.data["plane"] for e in shots] == ["P1"] and shots[0].data["at"] == "P3"
    enemy: Any = rules.view(flown, "central").data
    assert enemy["mission"]["planes"]["P1"]["kit_shown"] == ["pistol"]
    assert "kit" not in enemy["mission"]["planes"]["P1"]  # how many bullets: still his
    own: Any = rules.view(flown, "entente").data
    assert own["mission"]["planes"]["P1"]["kit"] == {"pistol": 1, "bullets": 5}
    quiet, _ = _flown(rules, state, "S S S")
    assert rules.view(quiet[1], "central").data["mission"]["planes"]["P1"]["kit_shown"] == []
