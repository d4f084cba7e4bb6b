"""A least-recently-used cache bounded by the memory its entries take, not by their count.

A count bound fits nothing here: a campaign's parsed state takes 5 KiB at its first turn
and over 1 MiB by its sixth (its history grows), so 512 entries were either far too many
states of late turns or far too few of early ones (1,000 campaigns missed the cache on
every call). Each entry carries an estimate of its size in bytes, made by its owner from
what it measured (``bot.service_states``), and the oldest entries go once the sum passes
the budget.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MIB = 1024 * 1024


def budget_bytes(share: float) -> int:
    """``share`` of the cache budget (``SORTIE_CACHE_MB``, 44 MiB by default) in bytes.

    Each entry is charged what it holds as the caches keep it (``Rules.held``, checked by
    ``tests/test_held_bytes.py``): since session 18 a kept state's or view's frozen models
    share their fields-sets (``engine.compact``), which holds a state or a public view in
    about a third of what it takes as parsed, and the charges were rescaled to match. 44
    MiB keeps the engine results the former 80 MiB (charged as parsed) kept: with 1,000
    campaigns at rounds 8 to 20, 2,306 results, 873 states and 15.4 MiB of pictures, the
    whole bot (its process and its workers) at 188 MB at rest and 208 MB at its peak
    (``bench/memory.py``). 32 MiB brings that under issue 29's 200 MB (169 / 186 MB) but
    keeps a quarter fewer results, and cost about an eighth more CPU per call under the
    capacity benchmark's open loop (docs/benchmarks.md, ninth pass).
    """
    return int(float(os.environ.get("SORTIE_CACHE_MB", "44")) * MIB * share)


class SizedLru(Generic[K, V]):
    """``group``: what an entry belongs to (a campaign), so that a group's entries can be
    found without walking the others (``keys_of``)."""

    def __init__(
        self,
        budget: int,
        on_evict: Callable[[K, V], None] | None = None,
        group: Callable[[K], Hashable] | None = None,
    ) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._on_evict = on_evict
        self._group = group
        self._groups: dict[Hashable, set[K]] = {}

    def __len__(self) -> int:
        return len(self._items)

    def keys_of(self, group: Hashable) -> list[K]:
        """The keys of ``group``'s entries (none without a ``group`` function)."""
        return list(self._groups.get(group, ()))

    def _gone(self, key: K, value: V) -> None:
        if self._group is not None:
            name = self._group(key)
            keys = self._groups.get(name)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._groups[name]
        if self._on_evict is not None:
            self._on_evict(key, value)

    def get(self, key: K) -> V | None:
        hit = self._items.get(key)
        if hit is None:
            return None
        self._items.move_to_end(key)
        return hit[0]

    def drop(self, key: K) -> None:
        """Forget one entry (as memory pressure would), keeping the budget's count right."""
        old = self._items.pop(key, None)
        if old is not None:
            self.used -= old[1]
            self._gone(key, old[0])

    def clear(self) -> None:
        for key in list(self._items):
            self.drop(key)

    def put(self, key: K, value: V, cost: int) -> None:
        if cost > self.budget:
            return  # would empty the cache for one entry: not kept
        old = self._items.pop(key, None)
        if old is not None:
            self.used -= old[1]
            self._gone(key, old[0])
        self._items[key] = (value, cost)
        self.used += cost
        if self._group is not None:
            self._groups.setdefault(self._group(key), set()).add(key)
        while self.used > self.budget:
            gone, (value_gone, cost_gone) = self._items.popitem(last=False)
            self.used -= cost_gone
            self._gone(gone, value_gone)
