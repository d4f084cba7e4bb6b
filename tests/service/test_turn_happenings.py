"""A turn's summary says first what the game tells of the turn in a line (planes down,
balloons burnt): the presenter's declared ``turn_happenings``, asked with the public view
after the turn and the turn's public events, for every game alike (issue 26 part 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rendering.rulesets.carrier import CarrierPresenter
from tests.service.support import Env


async def test_the_turn_summary_opens_with_what_the_game_tells(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[list[str]] = []

    def happenings(
        self: Any, view: Any, events: Sequence[tuple[str, Mapping[str, Any]]], locale: str
    ) -> list[str]:
        asked.append([kind for kind, _ in events])
        return ["Two planes down"]

    monkeypatch.setattr(CarrierPresenter, "turn_happenings", happenings)
    cid = await env.campaign()
    summaries: list[str] = []
    for _ in range(12):
        await env.play_round(cid)
        await env.worker().deliver_due()
        summaries = [a.text for _, a, _ in env.sender.sent if a.kind == "turn-summary"]
        if summaries:
            break
    assert summaries, "no turn ended in twelve rounds"
    lines = summaries[0].splitlines()
    assert lines[1] == "Two planes down", lines  # right under the title, before the summary
    assert asked and all(asked), asked  # with the turn's events
