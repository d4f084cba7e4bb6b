"""Drafts, locks and panels read a round's decisions from its snapshot alone (issue 13).

A late state's history is nearly all of it (1 MiB parsed at turn 6, 5 KiB without), and
no ruleset's ``pending`` reads it: the service parses the history only for views, the
resolution and the log. If a ruleset ever made its decisions depend on the history, the
first test goes red. After a resolution the new round's decisions and views are worked out
off the lock's path, and the first panel finds them ready.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot import secrecy, service_panels, service_states
from bot.rulesets import FACTORIES, Registry
from engine.rng import Rng
from engine.zero.catalog import Catalog
from tests.service.support import ALL, JAP, Env

ROUNDS = 14  # a few turns of every ruleset: strikes, missions, waves, programs


def _plays() -> list[tuple[str, str]]:
    registry = Registry()
    return [
        (key, scenario)
        for key in sorted(FACTORIES)
        for scenario in sorted(registry.get(key).rules.scenarios())[:2]
    ]


@pytest.mark.parametrize(("key", "scenario"), _plays())
def test_decisions_are_the_same_without_the_history(
    catalog: Catalog, key: str, scenario: str
) -> None:
    play = sum(map(ord, key + scenario))
    rules = Registry().get(key).rules
    rng = random.Random(play)
    state = rules.new(scenario, f"bare-{play}")
    checked = with_history = 0
    for round_index in range(ROUNDS):
        stored = rules.dump_stored(state)
        whole = rules.load_stored(stored.current, stored.records)
        bare = rules.load_stored(stored.current, ())
        assert rules.pending(bare) == rules.pending(whole), (key, scenario, round_index)
        checked += 1
        with_history += bool(stored.records)
        pending = rules.pending(whole)
        if rules.progress(whole).finished or not pending:
            break
        choices: dict[str, dict[str, str]] = {}
        for decision in pending:
            option = rng.choice(decision.options) if decision.options else None
            if option is not None:
                choices.setdefault(decision.side, {})[decision.field] = option.id
        state, _events = rules.resolve(whole, choices, Rng(f"bare-{play}", round_index, "r"))
    assert checked >= 2
    # Wings keeps no history records between turns; a Dambuster raid keeps none at all.
    if key not in ("wings", "dambuster"):
        assert with_history, f"{key} {scenario}: no state with history was compared"


async def test_a_new_rounds_panels_are_ready_after_its_resolution(env: Env) -> None:
    cid = await env.campaign()
    await env.play_round(cid, random.Random(3))
    # The resolution's follow-up runs beside the lock: let it finish.
    await asyncio.gather(*env.svc._background)
    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        rules = env.svc._ctx().plugin(campaign).rules
    computed: list[str] = []
    real_pending, real_view = rules.pending, secrecy.view_for

    def pending(state: Any) -> Any:
        computed.append("pending")
        return real_pending(state)

    def view_for(rules: Any, state: Any, viewer: secrecy.Viewer) -> Any:
        computed.append(f"view {viewer.side}")
        return real_view(rules, state, viewer)

    rules.pending = pending  # type: ignore[method-assign]
    secrecy.view_for = view_for  # type: ignore[assignment]
    try:
        japanese = await env.svc.panel(cid, JAP)
        allied = await env.svc.panel(cid, ALL)
    finally:
        rules.pending = real_pending  # type: ignore[method-assign]
        secrecy.view_for = real_view  # type: ignore[assignment]
    assert computed == []  # both panels came from what the resolution prepared
    # ... and they are what a cold bot (a restart, caches empty) shows.
    service_states._memo._items.clear()
    service_states._states._items.clear()
    for prepared, user in ((japanese, JAP), (allied, ALL)):
        cold = await env.svc.panel(cid, user)
        assert cold.decisions == prepared.decisions
        assert cold.view == prepared.view
        assert cold.view is not prepared.view


async def test_a_view_is_never_made_from_a_state_without_its_history(env: Env) -> None:
    # To the end of the first turn, when the history has a record.
    cid, campaign = await env.played_to_history(8)
    async with env.repo.read() as tx:
        rules = env.svc._ctx().plugin(campaign).rules
        bare = await service_states.state_of(tx, rules, campaign.snapshot_id, history=False)
        whole = await service_states.state_of(tx, rules, campaign.snapshot_id)
    assert service_states.pending_of(rules, bare) == service_states.pending_of(rules, whole)
    with pytest.raises(RuntimeError, match="whole state"):
        service_states.view_of(rules, bare, secrecy.Viewer.public())
    # Still refused once the cache no longer knows the state (evicted, or too big to keep).
    service_states._states._keys.clear()
    with pytest.raises(RuntimeError, match="whole state"):
        service_states.view_of(rules, bare, secrecy.Viewer.public())
    assert service_states.view_of(rules, whole, secrecy.Viewer.public()).history
    # A panel made from the snapshot alone shows the view of the whole state, even once
    # the cache has forgotten which state it was.
    async with env.repo.read() as tx:
        bare = await service_states.state_of(tx, rules, campaign.snapshot_id, history=False)
        service_states._states._keys.clear()
        service_states._memo._items.clear()
        player, live = await tx.player(cid, JAP), await tx.live_round(cid)
        assert player is not None and live is not None
        panel = await service_panels.panel_data(tx, rules, campaign, player, live, bare, 0)
    assert panel.view.history
