"""A new round's views made where its round was resolved are the ones the bot makes from
storage, byte for byte (issue 29: secrecy of ``bot.round_views``).

The resolution's worker (``bot.resolver``) sends back the public's view and each asked
side's view of the state it has just resolved, and the bot keeps them for the round's
panels and ``/status`` (``bot.service_states.keep_views``) instead of making them again on
its event loop. A view sent for a side must be the one ``view_at`` gives that side's
player from the stored snapshot and records, and must be kept where ``view_at`` looks for
it, under that viewer only. Every round of every recorded game is resolved as the service
resolves it (from the snapshot alone, through ``resolver.play``, the outcome pickled as the
worker sends it), its outcome stored in a stand-in for the database (the snapshot text and
the branch's records, which is all ``view_at`` reads), and every sent view compared with
``view_at``'s from cold caches: the pickled bytes (each set's members sorted), and
equality. A view made from the
engine's state in memory, from the snapshot before the round, or for other eyes goes red.
"""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Sequence
from dataclasses import fields, is_dataclass, replace
from multiprocessing.reduction import ForkingPickler
from typing import Any

import pytest
from pydantic import BaseModel

from bot import resolver, secrecy, service_states
from bot.round_views import viewer_of
from db.repository import SnapshotRow
from tests.golden_rulesets import _registry, load

GAMES = load()


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


class Stored:
    """What ``view_at`` reads of storage: one snapshot row and its branch's records."""

    def __init__(self) -> None:
        self.row: SnapshotRow | None = None
        self.records: list[str] = []
        self.history_reads = 0
        self.starts: list[int] = []  # the first record of each read

    async def snapshot(self, snapshot_id: int) -> SnapshotRow | None:
        return self.row if self.row is not None and self.row.id == snapshot_id else None

    async def history(
        self, campaign_id: int, branch: int, length: int, start: int = 0
    ) -> list[str]:
        self.history_reads += 1
        self.starts.append(start)
        return self.records[start:length]


def _cold() -> None:
    service_states._states._items.clear()
    service_states._memo._items.clear()


def _bytes(view: Any) -> bytes:
    """The view's bytes: every model, field, item and value in order, with its type, each
    set's members sorted. Not the view's own pickle: a set pickles in its table's order,
    which two equal sets built apart need not share (the fields a model was given,
    ``model_fields_set``, did after a round trip), and a pickle refers back to an object
    met twice where two equal objects are written twice."""
    return repr(_canonical(view)).encode()


def _canonical(value: Any) -> Any:
    kind = (type(value).__module__, type(value).__qualname__)
    if isinstance(value, BaseModel):
        return (
            kind,
            tuple((name, _canonical(item)) for name, item in value.__dict__.items()),
            tuple(sorted(value.model_fields_set)),
            _canonical(value.__pydantic_extra__),
            _canonical(value.__pydantic_private__),
        )
    if is_dataclass(value) and not isinstance(value, type):
        return (kind, tuple((f.name, _canonical(getattr(value, f.name))) for f in fields(value)))
    if isinstance(value, dict):
        return (kind, tuple((_canonical(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (kind, tuple(_canonical(item) for item in value))
    if isinstance(value, (set, frozenset)):
        return (kind, tuple(sorted((_canonical(item) for item in value), key=repr)))
    return (kind, value)


async def _replay(game: dict[str, Any]) -> tuple[int, int, list[str]]:
    """(views compared, views the worker left out, what differed or was left out wrongly).
    A view is left out when it reads a record older than the round's own (the worker,
    resolving from the snapshot alone, holds no other): the bot makes it from storage."""
    plugin = _registry().get(game["ruleset"])
    rules = plugin.rules
    seed = f"golden-{game['seed']}"
    start = rules.dump_stored(rules.new(game["scenario"], seed))
    store = Stored()
    store.records = list(start.records)
    current, snapshot_id = start.current, 1
    compared = left_out = 0
    wrong: list[str] = []
    tx: Any = store
    for index, recorded in enumerate(game["rounds"]):
        bare = rules.load_stored(current, ())
        progress = rules.progress(bare)
        job = resolver.Job(
            ruleset=game["ruleset"],
            scenario=game["scenario"],
            current=current,
            records=None,
            stored_len=len(store.records),
            choices=recorded["choices"],
            seed=seed,
            turn=progress.turn,
            kind=progress.round,
            decisions=False,
            views=True,
        )
        outcome = resolver.play(plugin, job)
        if outcome is None:  # its rules read the history: sent it, as the service does
            outcome = resolver.play(plugin, replace(job, records=tuple(store.records)))
        assert outcome is not None
        # As a worker sends it back.
        outcome = pickle.loads(ForkingPickler.dumps(replace(outcome, bare=None)))
        # Stored as ``store_stored`` stores it: the round's records after the branch's.
        del store.records[job.stored_len :]
        store.records.extend(outcome.stored.records)
        assert len(store.records) == outcome.base + outcome.stored.length
        current, snapshot_id = outcome.stored.current, snapshot_id + 1
        store.row = SnapshotRow(
            snapshot_id,
            1,
            0,
            outcome.progress.turn,
            outcome.progress.round,
            current,
            0,
            history_len=len(store.records),
        )
        if outcome.progress.finished:
            assert outcome.views == ()
            continue
        asked = {d.side for d in outcome.next_decisions or ()}
        sent = {side: (kind, view) for side, kind, view in outcome.views}
        assert len(sent) == len(outcome.views)
        assert set(sent) <= {None, *asked}, index
        # The records the round added, all the worker holds of the branch.
        first_known = len(store.records) - len(outcome.stored.records)
        for side in (None, *sorted(asked)):
            where = f"round {index}, {side or 'public'}"
            _cold()
            store.starts.clear()
            made = await service_states.view_at(tx, rules, snapshot_id, viewer_of(side))
            if side not in sent:
                # Only a view that reads an older record than the round's own is left out.
                if min(store.starts, default=len(store.records)) >= first_known:
                    wrong.append(f"{where}: left out")
                left_out += 1
                continue
            compared += 1
            if _bytes(made) != _bytes(sent[side][1]) or made != sent[side][1]:
                wrong.append(where)
        # Kept where ``view_at`` looks: no state parsed, no record read, the very object.
        _cold()
        service_states.keep_views(rules, store.row, outcome.views)
        reads = store.history_reads
        for side, _kind, view in outcome.views:
            kept = await service_states.view_at(tx, rules, snapshot_id, viewer_of(side))
            assert kept is view, (index, side)
        assert store.history_reads == reads and len(service_states._states._items) == 0
    _cold()
    return compared, left_out, wrong


@pytest.mark.parametrize("game", GAMES, ids=_name)
def test_a_view_sent_with_a_resolution_is_the_one_made_from_storage(game: dict[str, Any]) -> None:
    compared, left_out, wrong = asyncio.run(_replay(game))
    print(f"{compared} views compared, {left_out} left to the bot")
    assert wrong == []
    assert compared > 0


def test_a_sides_view_is_kept_for_that_side_only() -> None:
    """Each side's view goes under its own part; the public's under the public's, which a
    GM without the right to peek and a spectator also read."""
    kept: list[tuple[Any, str]] = []

    class Memo:
        def put(self, rules: Any, key: Any, part: str, value: Any) -> None:
            kept.append((value, part))

    real = service_states._memo
    service_states._memo = Memo()  # type: ignore[assignment]
    try:
        row = SnapshotRow(1, 1, 0, 1, "r", "{}", 0, history_len=2)
        views: Sequence[Any] = ((None, 1, "p"), ("a", 3, "A"), ("b", 1, "B"))
        service_states.keep_views(_registry().get("carrier").rules, row, views)
    finally:
        service_states._memo = real
    assert kept == [("p", "view:public"), ("A", "view:a"), ("B", "view:b")]
    assert secrecy.Viewer.game_master(False).eyes == secrecy.Viewer.public().eyes
