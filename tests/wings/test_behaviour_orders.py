"""A Knight's and an Artist's standing orders through the seam (seed D.VI): asked of their
own side only, worded in both languages, secret from the enemy and the public before and
after the turn flies, and kept from turn to turn."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from engine.rulesets.wings.catalog import default_catalog
from rendering.rulesets.wings import WingsPresenter

SEED = "orders"


def _rules() -> WingsRules:
    return WingsRules(default_catalog())


def defaults(rules: WingsRules, state: WingsState) -> dict[str, dict[str, str]]:
    choices: dict[str, dict[str, str]] = {}
    for decision in rules.pending(state):
        choices.setdefault(decision.side, {})[decision.field] = decision.default
    return choices


def fly(
    rules: WingsRules, state: WingsState, order: str, side: str = "entente", field: str = "order:P2"
) -> tuple[list[WingsState], list[Any]]:
    """One turn of wings-1917 with ``field`` of ``side`` (by default the Entente's Knight,
    plane 2) under ``order``: the states after the programs are locked and after the turn
    flew, and the public events."""
    picks = defaults(rules, state)
    picks[side][field] = order
    locked, events = rules.resolve(state, picks, Rng(SEED, state.turn, "program"))
    flown, more = rules.resolve(locked, defaults(rules, locked), Rng(SEED, state.turn, "reorder"))
    return [locked, flown], [*events, *more]


def with_artist(state: WingsState) -> WingsState:
    """The Central P3 (plane 1) flown by an Artist."""
    mission = state.camp.mission
    assert mission is not None
    p3 = mission.planes["P3"].model_copy(update={"behaviour": "artist"})
    mission = mission.model_copy(update={"planes": {**mission.planes, "P3": p3}})
    return state.model_copy(update={"campaign": state.camp.model_copy(update={"mission": mission})})


def test_the_knight_s_side_alone_is_asked_and_reads_its_words() -> None:
    rules = _rules()
    state = rules.new("wings-1917", SEED)
    asked = {(d.side, d.field): d for d in rules.pending(state)}
    order = asked[("entente", "order:P2")]
    assert [o.id for o in order.options] == ["spare", "kill"] and order.default == "spare"
    assert not any(field.startswith("order") for side, field in asked if side == "central")
    presenter = WingsPresenter()
    words = {
        locale: [
            (
                presenter.option_text("wings-1917", "order:P2", o.id, locale),
                presenter.option_description("order:P2", o, locale),
            )
            for o in order.options
        ]
        for locale in ("en", "fr")
    }
    assert words["en"][0][0] == "spare and take prisoner"
    assert words["fr"][1][0] == "pas de quartier"
    assert words["fr"][0][1].startswith("Chevalier\u00a0: le premier pilote ennemi")
    assert all(len(text) <= 100 for pairs in words.values() for _, text in pairs)
    # The panel says which plane's power the order plays, on its own side's panel only.
    notes = {
        side: presenter.panel_notes("wings-1917", rules.view(state, side), side, {}, "en")[0]
        for side in ("entente", "central")
    }
    assert any(line.startswith("-# Plane 2 flies a Knight") for line in notes["entente"])
    assert not any("Knight" in line or "Artist" in line for line in notes["central"])


def test_the_standing_order_is_secret_before_and_after_the_turn_flies() -> None:
    rules = _rules()
    start = rules.new("wings-1917", SEED)
    spare, spare_events = fly(rules, start, "spare")
    kill, kill_events = fly(rules, start, "kill")
    # The two campaigns did differ: the Knight's own side keeps "no quarter" in force.
    entente = [rules.view(s, "entente").data["mission"]["orders"] for s in (spare[1], kill[1])]
    assert entente == [{"P2": "spare"}, {"P2": "kill"}]
    assert defaults(rules, kill[1])["entente"]["order:P2"] == "kill"  # a missed deadline keeps it
    # The enemy and the public see the same views, and the same public events.
    for before, after in zip(spare, kill, strict=True):
        for viewer in ("central", None):
            assert rules.view(before, viewer) == rules.view(after, viewer)
    assert [e.model_dump() for e in spare_events] == [e.model_dump() for e in kill_events]


def test_the_artist_s_order_is_secret_too() -> None:
    rules = _rules()
    start = with_artist(rules.new("wings-1917", SEED))
    dodge, dodge_events = fly(rules, start, "heavy", "central", "order:P3")
    wait, wait_events = fly(rules, start, "off", "central", "order:P3")
    own = [rules.view(s, "central").data["mission"]["orders"] for s in (dodge[1], wait[1])]
    assert own == [{"P3": "heavy"}, {"P3": "off"}]
    for before, after in zip(dodge, wait, strict=True):
        for viewer in ("entente", None):
            assert rules.view(before, viewer) == rules.view(after, viewer)
    assert [e.model_dump() for e in dodge_events] == [e.model_dump() for e in wait_events]
