"""The announced bomb release on the panel (seed A.IV.e): offered to the bomber's own side
as words of the program, worded in both languages, and secret from the enemy and the public
until the turn flies."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.rulesets.wings import QUICK_PICKS, WingsRules, WingsState
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings.catalog import default_catalog
from engine.rulesets.wings.objectives import bomb_fall
from engine.rulesets.wings.state import Objective
from tests.wings.helpers import program_reads, with_picks

SEED = "bombs"


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def bombing_campaign(rules: WingsRules) -> WingsState:
    return as_bombing_run(rules.new("wings-1917", SEED))


def as_bombing_run(state: WingsState) -> WingsState:
    """Wings 1917 turned into a bombing run: the Entente's P1 (plane1) carries a bomb and
    the Central target lies where it falls if released after the second straight."""
    mission = state.camp.mission
    assert mission is not None
    catalog = default_catalog()
    bomber = mission.planes["P1"].model_copy(update={"bombs": 1})
    move = catalog.move(catalog.planes[bomber.type], "S")
    x, y, heading = bomber.x, bomber.y, bomber.heading
    for _ in range(2):
        x, y, heading = geo.apply_move(x, y, heading, move)
    fall = bomb_fall(catalog, bomber.model_copy(update={"x": x, "y": y}), "straight")
    target = Objective(id="c-T1", kind="target", side="central", x=fall[0], y=fall[1])
    mission = mission.model_copy(
        update={
            "kind": "bombing",
            "active": "entente",
            "planes": {**mission.planes, "P1": bomber},
            "objectives": {"c-T1": target},
        }
    )
    return state.model_copy(update={"campaign": state.camp.model_copy(update={"mission": mission})})


def _step(
    rules: WingsRules, state: WingsState, picks: dict[str, dict[str, str]] | None = None
) -> tuple[WingsState, list[Any]]:
    progress = rules.progress(state)
    choices = with_picks(rules, state, picks)
    return rules.resolve(state, choices, Rng(SEED, progress.turn, progress.round))


def test_the_bomber_s_menu_offers_the_release_in_both_languages() -> None:
    rules = _rules()
    state = bombing_campaign(rules)
    decisions = {(d.side, d.field): d for d in rules.pending(state)}
    bomber = decisions[("entente", "program:P1")]
    ids = [o.id for o in bomber.options]
    assert ids[:5] == ["S S S", *(f"S S S bomb@{w}" for w in ("1", "2", "3", "hold"))]
    assert bomber.default == "S S S"  # a missed deadline keeps the standing order
    assert len(ids) <= QUICK_PICKS
    # Nobody else carries a bomb: no release on their menus.
    others = [d for key, d in decisions.items() if key != ("entente", "program:P1")]
    assert not any("bomb@" in o.id for d in others for o in d.options)
    release = bomber.options[2]
    program_reads(
        release,
        (
            "S S S · bomb after maneuver 2",
            "released after the 2nd card, whatever it lands on (at level 0 it blows you up)",
        ),
        "S S S · bombe après la manœuvre 2",
    )


def test_the_release_flies_on_its_maneuver_through_the_seam() -> None:
    rules = _rules()
    state = bombing_campaign(rules)
    for pick, hit in (("S S S bomb@2", True), ("S S S bomb@1", False)):
        held, _ = _step(rules, state, {"entente": {"program:P1": pick}})
        _flown, events = _step(rules, held)
        kinds = [e.kind for e in events if e.kind.startswith("bomb")]
        assert kinds == (["bomb-released", "bomb-hit"] if hit else ["bomb-released", "bomb-missed"])


def test_the_announced_release_is_secret_until_the_turn_flies() -> None:
    rules = _rules()
    state = bombing_campaign(rules)
    runs = {
        pick: _step(rules, state, {"entente": {"program:P1": pick}})
        for pick in ("S S S", "S S S bomb@2", "S S S bomb@hold")
    }
    (first, first_events), *others = runs.values()
    for held, events in others:
        assert held != first  # the campaigns do differ: each holds its own program
        for viewer in ("central", None):
            assert rules.view(held, viewer) == rules.view(first, viewer)
        assert [e.model_dump() for e in events] == [e.model_dump() for e in first_events]
    # Once the turn flies, the bomb tells: the held one falls nowhere.
    flown = {pick: _step(rules, held)[1] for pick, (held, _) in runs.items()}
    assert not any(e.kind.startswith("bomb") for e in flown["S S S bomb@hold"])
    assert any(e.kind == "bomb-hit" for e in flown["S S S bomb@2"])
