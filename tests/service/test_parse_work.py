"""What a panel and /status parse, counted (issue 29: CPU per call).

A view's state is its snapshot plus the latest history records; the snapshot parsed alone
(what a round's decisions are read from) is kept, and the view's state is built on it, so a
cold panel parses each text once. /status shows the public view kept since the round
opened, so it parses nothing while that view is kept, even when the state is gone.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot import secrecy, service_states
from bot.rulesets import FACTORIES, Registry
from engine.rng import Rng
from tests.service.support import JAP, Env


def _plays() -> list[tuple[str, str]]:
    registry = Registry()
    return [(key, sorted(registry.get(key).rules.scenarios())[0]) for key in sorted(FACTORIES)]


@pytest.mark.parametrize(("key", "scenario"), _plays())
def test_history_read_onto_a_kept_snapshot_is_the_state_parsed_whole(
    key: str, scenario: str
) -> None:
    rules = Registry().get(key).rules
    rng = random.Random(key)
    state = rules.new(scenario, f"onto-{key}")
    for round_index in range(10):
        stored = rules.dump_stored(state)
        bare = rules.load_stored(stored.current, ())
        whole = rules.load_stored(stored.current, stored.records)
        assert rules.load_records(bare, stored.records) == whole, (key, round_index)
        assert bare == rules.load_stored(stored.current, ())  # shared, left as it was
        pending = rules.pending(whole)
        if rules.progress(whole).finished or not pending:
            break
        choices: dict[str, dict[str, str]] = {}
        for decision in pending:
            if decision.options:
                choices.setdefault(decision.side, {})[decision.field] = rng.choice(
                    decision.options
                ).id
        state, _events = rules.resolve(whole, choices, Rng(f"onto-{key}", round_index, "r"))


class Parses:
    def __init__(self) -> None:
        self.snapshots = 0  # snapshot texts parsed
        self.records = 0  # history records parsed


@contextmanager
def parses(rules: Any) -> Iterator[Parses]:
    counted = Parses()
    real_stored, real_records = rules.load_stored, rules.load_records

    def load_stored(current: str, records: Any) -> Any:
        counted.snapshots += 1
        counted.records += len(records)
        return real_stored(current, records)

    def load_records(bare: Any, records: Any) -> Any:
        counted.records += len(records)
        return real_records(bare, records)

    rules.load_stored, rules.load_records = load_stored, load_records
    try:
        yield counted
    finally:
        rules.load_stored, rules.load_records = real_stored, real_records


async def _with_history(env: Env) -> tuple[int, Any]:
    """A campaign whose current snapshot has history records, and its rules."""
    cid, campaign = await env.played_to_history(12)
    return cid, env.svc._ctx().plugin(campaign).rules


async def test_a_cold_panel_parses_its_snapshot_once(env: Env) -> None:
    cid, rules = await _with_history(env)
    service_states._states._items.clear()  # cold, as after a restart
    service_states._memo._items.clear()
    with parses(rules) as counted:
        panel = await env.svc.panel(cid, JAP)
    # A side's view of a running campaign reads no turn record (``side_view_records``):
    # its panel parses the snapshot alone, however long the turn's reports.
    assert panel.view.turn > 1
    assert (counted.snapshots, counted.records) == (1, 0)


async def test_a_sides_kept_state_never_serves_the_public_view(env: Env) -> None:
    cid, rules = await _with_history(env)
    service_states._states._items.clear()
    service_states._memo._items.clear()
    await env.svc.panel(cid, JAP)  # a side's state kept: it lacks the turn's record
    service_states._memo._items.clear()
    shown = await env.svc.status(cid)
    assert shown.view.viewer is None and shown.view.history  # the turn's reports
    async with env.svc.repo.read() as tx:
        row = await tx.campaign(cid)
        assert row is not None
        whole = await service_states.state_of(tx, rules, row.snapshot_id)
    assert shown.view == rules.view(whole, secrecy.Viewer.public().eyes)


async def test_a_state_loaded_for_a_side_refuses_the_public_view(env: Env) -> None:
    # The guard itself, whatever route a caller takes: a state loaded for a side's view
    # may lack the records the public view reads, so asking it for the public view fails
    # loudly instead of showing a view with the turn's reports missing.
    cid, rules = await _with_history(env)
    service_states._states._items.clear()
    service_states._memo._items.clear()
    async with env.svc.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        row = await service_states.snapshot_row(tx, campaign.snapshot_id)
        player = secrecy.Viewer.player(rules.side_ids[0])
        side = await service_states.load_view_state(tx, rules, row, player)
    service_states.view_of(rules, side, player)  # a side's own view: served
    with pytest.raises(RuntimeError, match="records a side's state left out"):
        service_states.view_of(rules, side, secrecy.Viewer.public())


async def test_status_shows_the_kept_public_view_without_parsing(env: Env) -> None:
    cid, rules = await _with_history(env)
    shown = await env.svc.status(cid)
    service_states._states._items.clear()  # the states evicted, the views kept
    with parses(rules) as counted:
        again = await env.svc.status(cid)
    assert (counted.snapshots, counted.records) == (0, 0)
    assert again.view == shown.view
