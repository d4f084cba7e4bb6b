"""Pictures drawn in the worker processes are the bytes drawn here (``bot.drawing``).

The bot draws in a pool of worker processes so Pillow never holds up its event loop
(issue 29); each worker builds its presenters from the packaged data. A board, an order
panel, a reveal and a turn's report of every ruleset, drawn both ways, must be the same
bytes; a presenter made from another catalog is drawn here, never by a worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from bot import drawing, secrecy
from bot.rulesets import Plugin, Registry
from engine.rng import Rng
from engine.rulesets.carrier import CarrierRules
from engine.zero.loader import load_catalog
from rendering.presenter import RevealLine
from rendering.rulesets.carrier import CarrierPresenter
from tests.golden_rulesets import load


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SORTIE_DRAW_WORKERS", "1")
    monkeypatch.setattr(drawing, "_broken", False)
    try:
        yield
    finally:
        drawing.shut_down()


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


def test_pictures_from_the_workers_are_the_same_bytes(pool: None) -> None:
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


def test_a_presenter_of_another_catalog_is_drawn_here(pool: None) -> None:
    catalog = load_catalog()
    plugin = Plugin(CarrierRules(catalog), CarrierPresenter(catalog))
    assert drawing._pool_for(plugin) is None
    assert drawing._pool_for(Registry().get("carrier")) is not None
