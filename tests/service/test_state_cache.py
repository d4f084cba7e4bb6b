"""The state and engine-result caches are bounded by memory, not by a count (issue 13)."""

from __future__ import annotations

from typing import Any

from bot import service_states
from bot.service_cache import SizedLru
from tests.service.support import ALL, JAP, Env


def test_the_oldest_entries_go_once_their_bytes_pass_the_budget() -> None:
    gone: list[str] = []
    cache: SizedLru[str, int] = SizedLru(100, lambda key, value: gone.append(key))
    cache.put("a", 1, 40)
    cache.put("b", 2, 40)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3, 40)  # 120 bytes: the least recently used ("b") goes
    assert gone == ["b"] and cache.get("b") is None and cache.used == 80
    cache.put("huge", 4, 101)  # bigger than the whole budget: not kept, nothing evicted
    assert cache.get("huge") is None and len(cache) == 2
    for index in range(50):  # many small entries fit where few big ones did
        cache.put(f"s{index}", index, 2)
    assert cache.used <= 100 and len(cache) == 50


def test_forgetting_entries_gives_their_bytes_back() -> None:
    gone: list[str] = []
    cache: SizedLru[str, int] = SizedLru(100, lambda key, value: gone.append(key))
    cache.put("a", 1, 60)
    cache.drop("a")
    assert cache.used == 0 and gone == ["a"]
    cache.put("b", 2, 90)  # fits again: the dropped entry's bytes are free
    assert cache.get("b") == 2
    cache.clear()
    cache.put("c", 3, 90)
    assert cache.get("c") == 3 and cache.used == 90 and gone == ["a", "b"]


async def test_a_thousand_small_states_fit_where_512_entries_did_not(env: Env) -> None:
    # Issue 13's measurement: 1,000 campaigns missed a 512-entry cache on every call. At
    # their first turn a state is under 1,000 characters stored: the default budget keeps
    # 1,000 of them, and their pending decisions and both sides' views.
    states = service_states._states
    assert states._items.budget >= 1000 * service_states.STATE_BYTES_PER_CHAR * 1000
    per_campaign = service_states.part_bytes("pending", 1000) + 2 * service_states.part_bytes(
        "view:allied", 1000
    )
    assert service_states._memo._items.budget >= 1000 * per_campaign
    cid = await env.campaign()
    panel = await env.svc.panel(cid, JAP)
    assert panel.decisions
    # The panel's results are kept by what the state is: dropping the parsed state
    # (memory pressure) does not make the next panel compute its decisions again.
    calls: list[Any] = []
    pending = service_states.pending_of

    async with env.repo.read() as tx:
        campaign = await tx.campaign(cid)
        assert campaign is not None
        rules = env.svc._ctx().plugin(campaign).rules
        state = await service_states.state_of(tx, rules, campaign.snapshot_id)
    key = states.key_of(state)
    assert key is not None
    original = rules.pending

    def counted(state: Any) -> Any:
        calls.append(state)
        return original(state)

    try:
        rules.pending = counted  # type: ignore[method-assign]
        states._items.drop(key)  # the parsed state is gone from memory
        again = await env.svc.panel(cid, JAP)
        assert [d.field for d in again.decisions] == [d.field for d in panel.decisions]
        assert calls == []  # answered from the results kept by the state's key
        assert pending is service_states.pending_of
        await env.svc.panel(cid, ALL)
    finally:
        rules.pending = original  # type: ignore[method-assign]


def test_a_result_is_never_handed_to_another_rules_object_at_the_same_key() -> None:
    # Keys name the rules by id(); once a rules object is gone a new one may get its id.
    memo = service_states._Memo(10 * service_states.PART_BYTES)
    first, second = object(), object()
    key = (id(first), 1, 1, 0, "{}", True)
    memo._items.put((key, "view:public"), (first, "first's view"), 1)
    assert memo.peek(first, key, "view:public") == "first's view"
    assert memo.peek(second, key, "view:public") is None
