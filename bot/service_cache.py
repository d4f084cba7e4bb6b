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
    """``share`` of the cache budget (``SORTIE_CACHE_MB``, 80 MiB by default) in bytes.

    The estimates are 0.88 to 1.00 of what the caches hold (bench/memory.py --trace); the
    process holds about 60 MiB before any campaign and about 40 MiB more than the caches'
    estimate once they have churned (the allocator keeps partly used arenas). With 800
    campaigns at rounds 8 to 20, 80 MiB kept RSS at 176 MiB (185 MB; 96 MiB gave 198 MiB,
    past issue 29's 200 MB).

    The charges are what an entry holds as parsed or built (``Rules.held``); kept, its
    frozen models share their fields-sets (``engine.compact``, session 18): a state or a
    public view holds 0.34 to 0.46 of its charge, a side's view and the decisions about
    what they are charged (``tests/test_held_bytes.py``'s samples, kept; per game in
    docs/benchmarks.md, ninth pass). At 1,000 campaigns the 80 MiB charged reach 31.6 MiB of objects
    (``sys.getsizeof`` over every object an entry reaches; 62.1 MiB before). The entries
    kept, and so the hits, are the ones kept before.
    """
    return int(float(os.environ.get("SORTIE_CACHE_MB", "80")) * MIB * share)


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
