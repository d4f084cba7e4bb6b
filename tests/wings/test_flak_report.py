"""The seam keeps each flak gunner's sealed order with its words (seed A.IV.h) and shows
them to nobody until the campaign is over."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, WingsState
from tests.wings.helpers import catalog


def _round(rules: WingsRules, state: WingsState, picks: dict[str, str]) -> WingsState:
    progress = rules.progress(state)
    choices = rules.defaults(rules.pending(state))
    for decision in rules.pending(state):
        if decision.field in picks:
            choices[decision.side][decision.field] = picks[decision.field]
    state, _ = rules.resolve(state, choices, Rng("gunner", progress.turn, progress.round))
    return state


def test_the_orders_opened_stay_out_of_every_view_until_the_campaign_is_over() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "gunner")
    delayed = None
    for _ in range(400):
        if rules.progress(state).finished:
            break
        flak = next((d for d in rules.pending(state) if d.field == "flak"), None)
        if delayed is None and flak is not None:
            delayed = next(o for o in flak.options if o.detail.startswith("flak.delay."))
            state = _round(rules, state, {"flak": delayed.id})
            assert state.flak_opened[delayed.id] == delayed.detail
        else:
            state = _round(rules, state, {})
        if not rules.progress(state).finished:
            for viewer in (None, "entente", "central"):
                view = rules.view(state, viewer)
                assert view.opened == {} and "flak_opened" not in view.model_dump_json()
    assert delayed is not None and rules.progress(state).finished
    assert rules.view(state, None).opened[delayed.id] == delayed.detail
    opened = rules.view(state, None).opened  # the flak orders' among the debriefs' picks
    assert all(words.startswith("flak.") for key, words in opened.items() if key[:5] == "flak-")
    # Loaded back from its stored rows, the campaign keeps them.
    stored = rules.dump_stored(state)
    assert rules.load_stored(stored.current, stored.records).flak_opened == state.flak_opened
