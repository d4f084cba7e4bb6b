"""One finished Coral Sea campaign, played once per session; every replay test reads it."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.export import dumps
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from tests.replay.play import play
from tests.service.support import receipt_without_choice


@pytest.fixture
def choice_free_receipts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Receipts without their choice, in the rounds and on the page (support.
    receipt_without_choice): two games differing only by a secret choice then show the same
    receipts, so any other difference on the page is a leak."""
    monkeypatch.setattr("bot.service_rounds.receipt_of", receipt_without_choice)
    monkeypatch.setattr("bot.export.receipt_of", receipt_without_choice)


@pytest.fixture
def boards_drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, bool], str | None]]:
    """Each carrier status board drawn during the test, as (who had locked, deadline)."""
    from rendering.rulesets.carrier import CarrierPresenter

    boards: list[tuple[dict[str, bool], str | None]] = []
    drawn = CarrierPresenter.status_board

    def status_board(self: Any, view: Any, locked: Any, deadline: Any, locale: str) -> bytes:
        boards.append((dict(locked), deadline))
        return drawn(self, view, locked, deadline, locale)

    monkeypatch.setattr(CarrierPresenter, "status_board", status_board)
    return boards


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture(scope="session")
def _played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("replay")
    export = asyncio.run(play(folder / "campaign.db"))
    assert export["campaign"]["status"] == "finished"
    return export


@pytest.fixture
def export(_played: dict[str, Any]) -> dict[str, Any]:
    """The campaign's export, a copy a test may change."""
    return copy.deepcopy(_played)


@pytest.fixture
def export_file(export: dict[str, Any], tmp_path: Path) -> Path:
    path = tmp_path / "export.json"
    path.write_text(dumps(export), encoding="utf-8")
    return path


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
