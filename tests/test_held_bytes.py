"""Each game's ``Rules.held`` (what the service's caches charge an entry) matches what the
entry really holds, measured with tracemalloc on the recorded games' running states: a
state as the cache parses it (its snapshot and the latest records its views read), the
round's decisions and each viewer's view once their state is gone (issue 29), each as
the caches keep it: its frozen models sharing their fields-sets (``engine.compact``, at
the caches' ``put``), which holds a state or a public view in 0.34 to 0.47 of what it
takes as built.

An estimate off by more than half either way puts the wrong number of entries in the
caches' budget: too few kept of one game, RSS past the budget with another.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from bot import secrecy
from engine.compact import share_fields_sets
from engine.rng import Rng
from engine.rulesets.carrier.campaign import _recent as carrier_recent
from tests.golden_rulesets import _registry, load

MEASURED = ("carrier", "land", "wings")  # the games the capacity benchmark plays
GAMES = [g for g in load() if g["ruleset"] in MEASURED]
LOW, HIGH = 0.6, 1.67  # estimate / measured, summed over the states sampled
SMALL = 2048  # bytes a sample: a part this close to its measure is right whatever the ratio


def _alone(make: Callable[[], Any]) -> int:
    """Bytes still allocated while ``make()``'s result is the only thing kept of it."""
    share_fields_sets(make())  # module-level tables, memos and shared sets made once
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        share_fields_sets(kept)  # as the caches keep it (``bot.service_states``' puts)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        del kept
        return held
    finally:
        tracemalloc.stop()


def _running_states(game: dict[str, Any], every: int) -> list[Any]:
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state, out = rules.new(game["scenario"], seed), []
    for number, recorded in enumerate(game["rounds"]):
        progress = rules.progress(state)
        state, _events = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
        if number % every == every - 1 and not rules.progress(state).finished:
            out.append(state)
    return out


@pytest.mark.parametrize("ruleset", MEASURED)
def test_what_the_caches_charge_matches_what_each_entry_holds(ruleset: str) -> None:
    rules = _registry().get(ruleset).rules
    held = rules.held

    def _decisions(state: Any) -> list[Any]:
        decisions = list(rules.pending(state))
        # The carrier engine keeps its last four states' decision lists (by the state's
        # identity): emptied, so that what is measured is what the decisions hold.
        carrier_recent.clear()
        return decisions

    sums: dict[str, list[float]] = {}  # part -> [estimated, measured, samples]

    def add(part: str, estimate: float, measured: int) -> None:
        row = sums.setdefault(part, [0.0, 0.0, 0])
        row[0] += estimate
        row[1] += measured
        row[2] += 1

    for game in [g for g in GAMES if g["ruleset"] == ruleset][:2]:
        for state in _running_states(game, every=3):
            stored = rules.dump_stored(state)
            wanted = rules.view_records(rules.load_stored(stored.current, ()))
            records = stored.records if wanted is None else stored.records[-wanted:]
            chars = len(stored.current) + sum(len(r) for r in records)

            def parsed(current: str = stored.current, records: Any = tuple(records)) -> Any:
                return rules.load_stored(current, records)

            add("state", held.state * chars, _alone(parsed))
            snapshot = len(stored.current)
            add("pending", held.result("pending", snapshot), _alone(lambda: _decisions(parsed())))
            for side in (None, *rules.side_ids):
                viewer = secrecy.Viewer.public() if side is None else secrecy.Viewer.player(side)
                part = "view:public" if side is None else f"view:{side}"
                add(
                    "view:public" if side is None else "view",
                    held.result(part, snapshot),
                    _alone(lambda viewer=viewer: secrecy.view_for(rules, parsed(), viewer)),
                )
    ratios = {part: round(e / m, 2) for part, (e, m, _n) in sums.items()}
    assert set(ratios) == {"state", "pending", "view", "view:public"}
    wrong = {
        part: (ratios[part], round(e / n), round(m / n))
        for part, (e, m, n) in sums.items()
        if not LOW <= ratios[part] <= HIGH and abs(e - m) > SMALL * n
    }
    assert not wrong, wrong  # part: (estimate / measured, bytes estimated, measured)
