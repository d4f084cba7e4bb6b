"""Pictures drawn in the worker processes are the bytes drawn here (``bot.drawing``).

The bot draws in a pool of worker processes so Pillow never holds up its event loop
(issue 29); each worker builds its presenters from the packaged data. A board, an order
panel, a reveal and a turn's report of every ruleset, drawn both ways, must be the same
bytes; a presenter made from another catalog is drawn here, never by a worker.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest

from bot import drawing, preload, secrecy
from bot import panel as panels
from bot.rulesets import Plugin, Registry
from bot.service_model import PanelData
from bot.service_panels import steps_draft
from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.zero.loader import load_catalog
from rendering.presenter import RevealLine
from rendering.rulesets.carrier import CarrierPresenter
from tests.golden_rulesets import load


def _played(rules: Any, game: dict[str, Any], rounds: int) -> tuple[Any, int]:
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    turn = 1
    for recorded in game["rounds"][:rounds]:
        progress = rules.progress(state)
        turn = progress.turn
        state, _ = rules.resolve(state, recorded["choices"], Rng(seed, turn, progress.round))
    return state, turn


def _jobs(registry: Registry) -> list[tuple[Any, str, tuple[Any, ...]]]:
    jobs: list[tuple[Any, str, tuple[Any, ...]]] = []
    firsts: dict[str, dict[str, Any]] = {}
    for game in load():
        firsts.setdefault(game["ruleset"], game)
    for key, game in firsts.items():
        plugin = registry.get(key)
        state, turn = _played(plugin.rules, game, 8)
        side = plugin.rules.side_ids[0]
        public = secrecy.view_for(plugin.rules, state, secrecy.Viewer.public())
        own = secrecy.view_for(plugin.rules, state, secrecy.Viewer.player(side))
        jobs.append((plugin, "status_board", (public, {side: True}, "2026-01-02 12:00 UTC", "fr")))
        jobs.append((plugin, "panel_image", (own, "en")))
        jobs.append(
            (
                plugin,
                "reveal_image",
                ("Tour 2", [RevealLine(side, (("Ordres", "Attaque"),), "ab12cd")], "fr"),
            )
        )
        for index in range(plugin.presenter.report_count(public, turn)):
            jobs.append((plugin, "report", (game["scenario"], public, turn, index, "en")))
    return jobs


def test_pictures_from_the_workers_are_the_same_bytes(drawing_pool: None) -> None:
    registry = Registry()
    jobs = _jobs(registry)
    assert any(method == "report" for _, method, _ in jobs)

    async def both() -> list[tuple[Any, Any]]:
        return [
            (await drawing.draw(plugin, method, *args), getattr(plugin.presenter, method)(*args))
            for plugin, method, args in jobs
        ]

    pairs = asyncio.run(both())
    assert drawing._pool is not None  # the pictures came from a worker process
    for (plugin, method, _args), (worker, here) in zip(jobs, pairs, strict=True):
        assert worker == here, (plugin.key, method)


def _panel(plugin: Plugin[Any, Any], state: Any, turn: int) -> PanelData | None:
    """The first side asked something's new order panel (no draft yet), as the outbox
    sends it."""
    rules = plugin.rules
    progress = rules.progress(state)
    for side in rules.side_ids:
        decisions = tuple(d for d in rules.pending(state) if d.side == side)
        if not decisions:
            continue
        return PanelData(
            campaign_id=7, round_id=40, turn=turn, kind=progress.round, side=side,
            status="open", paused=False, deadline=datetime(2026, 1, 2, 12, tzinfo=UTC),
            decisions=decisions, drafts={}, locked=False, receipt=None, is_commander=True,
            can_unlock=False, view=secrecy.view_for(rules, state, secrecy.Viewer.player(side)),
            public=rules.public_round(progress.round),
            steps={
                d.field: steps_draft(rules, state, d, {}, {})
                for d in decisions
                if d.input == "steps"
            },
        )  # fmt: skip
    return None


def test_panels_composed_by_the_workers_are_the_ones_composed_here(drawing_pool: None) -> None:
    # The outbox composes an order panel's words and controls in a drawing process
    # (``drawing.composed_panel``): the same as composed here, for every ruleset.
    registry = Registry()
    cases: list[tuple[Plugin[Any, Any], str, PanelData]] = []
    for game in load():
        plugin = registry.get(game["ruleset"])
        if any(case[0] is plugin for case in cases):
            continue
        played = len(game["rounds"])
        # A round well into the game where there is one (Pearl Harbor's recorded game has
        # two rounds in all).
        for rounds in (*range(3, played), *range(min(3, played))):
            state, turn = _played(plugin.rules, game, rounds)
            data = _panel(plugin, state, turn)
            if data is not None:
                break
        assert data is not None, game["ruleset"]
        cases.append((plugin, game["scenario"], data))

    async def composed() -> list[Any]:
        return [
            await drawing.composed_panel(plugin, data, scenario, "fr", 11, 500)
            for plugin, scenario, data in cases
        ]

    specs = asyncio.run(composed())
    assert drawing._pool is not None  # from a worker process
    every = {registry.get(game["ruleset"]).key for game in load()}
    assert {case[0].key for case in cases} == every and "pearl-harbor" in every
    for (plugin, scenario, data), worker in zip(cases, specs, strict=True):
        here = panels.compose(
            plugin, data, scenario=scenario, locale="fr", commander_id=11, channel_id=500
        )
        assert worker == here, plugin.key
        assert worker.selects or worker.buttons


def test_an_after_action_from_the_stored_texts_is_the_one_drawn_from_the_view(
    drawing_pool: None,
) -> None:
    # A finished campaign's after-action report is parsed, seen through the secrecy gate
    # and drawn in the worker from the texts as stored (``drawing.after_action``): the same
    # bytes as drawn here from the public view of the whole state, for every ruleset.
    registry = Registry()
    firsts: dict[str, dict[str, Any]] = {}
    for game in load():
        firsts.setdefault(game["ruleset"], game)
    cases = []
    for key, game in firsts.items():
        plugin = registry.get(key)
        state, _turn = _played(plugin.rules, game, len(game["rounds"]))
        stored = plugin.rules.dump_stored(state)
        public = secrecy.view_for(plugin.rules, state, secrecy.Viewer.public())
        here = plugin.presenter.after_action(game["scenario"], public, "fr")
        cases.append((plugin, game["scenario"], stored, here))

    async def drawn() -> list[bytes]:
        return [
            await drawing.after_action(plugin, scenario, stored.current, stored.records, "fr")
            for plugin, scenario, stored, _here in cases
        ]

    pictures = asyncio.run(drawn())
    assert drawing._pool is not None  # from a worker process
    assert sum(stored.length > 1 for _, _, stored, _ in cases) >= 4  # histories to parse
    for (plugin, _scenario, _stored, here), worker in zip(cases, pictures, strict=True):
        assert worker == here, plugin.key


def test_a_presenter_of_another_catalog_is_drawn_here(drawing_pool: None) -> None:
    catalog = load_catalog()
    plugin = Plugin(CarrierRules(catalog), CarrierPresenter(catalog))
    assert drawing._pool_for(plugin) is None
    assert drawing._pool_for(Registry().get("carrier")) is not None


class _Timer:
    """A ``threading.Timer`` the test fires itself."""

    made: ClassVar[list[_Timer]] = []

    def __init__(self, delay: float, action: Any) -> None:
        self.delay, self.action = delay, action
        self.started = self.cancelled = False
        self.daemon = False
        _Timer.made.append(self)

    def start(self) -> None:
        self.started = True

    def cancel(self) -> None:
        self.cancelled = True


def test_a_worker_gives_its_heap_back_once_idle_never_under_a_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A worker's allocator keeps what a board's full-size images freed: it rested at its
    # busiest size until its heap is trimmed, which waits until no picture is being drawn.
    trimmed: list[int] = []
    monkeypatch.setattr(drawing, "_trim_heap", lambda: trimmed.append(1))
    monkeypatch.setattr(drawing.threading, "Timer", _Timer)
    monkeypatch.setattr(drawing, "_idle", None)
    _Timer.made = []
    seen: list[tuple[bool, ...]] = []

    class Presenter:
        def status_board(self, *_args: Any) -> bytes:
            seen.append(tuple(t.cancelled for t in _Timer.made))
            return b"png"

    class Plugins:
        def get(self, _key: str) -> Any:
            return Plugin(None, Presenter())  # type: ignore[arg-type]

    monkeypatch.setattr(preload, "_registry", Plugins())
    assert drawing._job("carrier", "status_board", ()) == b"png"
    first = _Timer.made[0]
    assert first.started and first.daemon and first.delay == drawing.TRIM_AFTER
    assert trimmed == []  # not while drawing, nor right after: only once idle
    assert drawing._job("carrier", "status_board", ()) == b"png"
    assert seen[-1] == (True,)  # the pending trim was called off before the second picture
    second = _Timer.made[1]
    assert not second.cancelled
    second.action()  # nothing else to draw: the heap goes back
    assert trimmed == [1]


def _trims_once_idle() -> int:
    """In a worker: wait for its pending trim, then say how many it made."""
    pending = drawing._idle
    if pending is not None:
        pending.join()
    return drawing._trims


def test_a_real_worker_trims_its_heap_after_drawing(drawing_pool: None) -> None:
    if drawing._trim_heap is None:
        pytest.skip("no malloc_trim in this C library")
    registry = Registry()
    plugin, method, args = _jobs(registry)[0]

    async def drawn() -> Any:
        return await drawing.draw(plugin, method, *args)

    assert asyncio.run(drawn())
    assert drawing._pool is not None
    assert drawing._pool.submit(_trims_once_idle).result(timeout=60) >= 1


@pytest.mark.parametrize(("cores", "expected"), [(1, 1), (2, 1), (4, 3)])
def test_the_drawing_processes_leave_the_event_loop_a_core(
    monkeypatch: pytest.MonkeyPatch, cores: int, expected: int
) -> None:
    # Two drawing processes on the 2-core machine: a player's picture asked for during a
    # burst came x1.96 later and the loop's p99 lag doubled, for a burst drawn 17 % sooner
    # (bench/draw_workers.py); and 25 to 50 MiB more (bench/memory.py).
    monkeypatch.delenv("SORTIE_DRAW_WORKERS", raising=False)
    monkeypatch.setattr(drawing.os, "cpu_count", lambda: cores)
    assert drawing.workers() == expected
    monkeypatch.setenv("SORTIE_DRAW_WORKERS", "2")
    assert drawing.workers() == 2  # asked for: as many as asked
