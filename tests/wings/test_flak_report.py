"""A flak gunner's order (seed A.IV.h) is his side's until the campaign is over: its field
opens then (and the program round's receipts with it), no view of the other side or the
public ever holds it before, and once over the order reads in words."""

from __future__ import annotations

from bot import secrecy
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


def test_the_order_reaches_nobody_else_before_the_campaign_is_over() -> None:
    from rendering.rulesets.wings import WingsPresenter

    rules = WingsRules(catalog())
    spec = rules.field_spec("flak")
    assert spec is not None and spec.opens == "campaign-end"
    # One receipt commits to the round's whole choice: the programs' wait with the order.
    assert not secrecy.opens_before_the_end(rules, ["program:P1", "flak"])
    assert secrecy.opens_before_the_end(rules, ["program:P1"])
    state = rules.new("wings-1917", "gunner")
    delayed = gunner = None
    for _ in range(400):
        if rules.progress(state).finished:
            break
        flak = next((d for d in rules.pending(state) if d.field == "flak"), None)
        if delayed is None and flak is not None:
            delayed = next(o for o in flak.options if o.id.startswith("flak.delay."))
            gunner = flak.side
            state = _round(rules, state, {"flak": delayed.id})
        else:
            state = _round(rules, state, {})
        if delayed is not None and not rules.progress(state).finished:
            for viewer in (None, "central" if gunner == "entente" else "entente"):
                view = rules.view(state, viewer).model_dump_json()
                assert delayed.id not in view and '"delay:' not in view
    assert delayed is not None and rules.progress(state).finished
    words = WingsPresenter().option_text("wings-1917", "flak", delayed.id, "en")
    plane = delayed.id.split(".")[2]
    assert plane in words and "next turn" in words
