"""One side's decisions worked out alone are that side's of the whole round's, in order
(``Rules.side_pending``), and the bot's panels, drafts and Locks of one side work out only
them when the round's whole decisions are not kept (``bot.service_states.side_pending_of``).

A Wings round's decisions are mostly its planes' programs: each plane's legal first cards,
default, quick picks and seals judge dozens of programs. A cold panel of one side worked
out the other side's too, and threw them away (issue 29, the capacity benchmark's Wings
calls). Every round of every recorded game is compared both ways, for every side; then the
work is counted: the planes whose legal first cards are judged, and the rules' calls.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine.rulesets.wings.campaign as wings_campaign
from bot import service_states
from bot.service_panels import side_decisions
from db.repository import SnapshotRow
from engine.rng import Rng
from engine.ruleset import Rules
from tests.golden_rulesets import _registry, load

GAMES = load()


def _name(game: dict[str, Any]) -> str:
    return f"{game['ruleset']}-{game['scenario']}-{game['seed']}"


def _states(game: dict[str, Any]) -> list[Any]:
    """The state before each recorded round, and the last."""
    rules = _registry().get(game["ruleset"]).rules
    seed = f"golden-{game['seed']}"
    state = rules.new(game["scenario"], seed)
    states = [state]
    for recorded in game["rounds"]:
        progress = rules.progress(state)
        state, _ = rules.resolve(
            state, recorded["choices"], Rng(seed, progress.turn, progress.round)
        )
        states.append(state)
    return states


@pytest.mark.parametrize("game", GAMES, ids=_name)
def test_a_sides_decisions_are_the_whole_rounds_of_that_side(game: dict[str, Any]) -> None:
    rules = _registry().get(game["ruleset"]).rules
    for index, state in enumerate(_states(game)):
        whole = rules.pending(state)
        for side in rules.side_ids:
            alone = rules.side_pending(state, side)
            assert alone == [d for d in whole if d.side == side], f"round {index}, {side}"


class _Counted:
    """Counts the planes whose legal first cards are judged (each judges a deck's worth of
    programs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.planes: list[str] = []
        real = wings_campaign.legal_first_cards

        def counting(catalog: Any, plane: Any, rules: Any, turn: int) -> Any:
            self.planes.append(plane.id)
            return real(catalog, plane, rules, turn)

        monkeypatch.setattr(wings_campaign, "legal_first_cards", counting)


def _wings_round() -> tuple[Any, Any]:
    """A Wings state whose round asks both sides for their planes' programs."""
    game = next(g for g in GAMES if g["ruleset"] == "wings")
    rules = _registry().get("wings").rules
    for state in _states(game):
        sides = {d.side for d in rules.pending(state) if d.field.startswith("program:")}
        if len(sides) == 2:
            return rules, state
    raise AssertionError("no round asks both sides' planes")


def _kept(rules: Any, state: Any, snapshot_id: int) -> tuple[SnapshotRow, Any]:
    """``state`` parsed back from its stored text and kept, as the bot reads a snapshot
    for a panel (``load_state(history=False)``)."""
    text = rules.dump_stored(state).current
    row = SnapshotRow(
        id=snapshot_id,
        campaign_id=snapshot_id,
        branch=0,
        turn=1,
        round_kind="program",
        state=text,
        created_at=0,
        history_len=1,
    )
    bare = rules.load_stored(text, ())
    service_states.keep_state(rules, row, bare)
    return row, bare


def test_a_cold_panel_of_one_side_judges_only_that_sides_planes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules, state = _wings_round()
    row, bare = _kept(rules, state, 9_001)
    mission = bare.camp.mission
    entente = sorted(
        pid
        for pid, plane in mission.planes.items()
        if plane.side == "entente" and plane.status in ("flying", "landed")
    )
    counted = _Counted(monkeypatch)
    try:
        first = side_decisions(rules, bare, "entente")
        assert sorted(counted.planes) == entente  # before: every plane of both sides
        assert first == tuple(d for d in rules.pending(bare) if d.side == "entente")
        counted.planes.clear()
        assert side_decisions(rules, bare, "entente") == first  # kept: nothing judged again
        assert counted.planes == []
    finally:
        service_states.forget_superseded(row.campaign_id, [])


def test_a_sides_decisions_come_from_the_whole_rounds_when_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules, state = _wings_round()
    row, bare = _kept(rules, state, 9_002)
    whole = rules.pending(bare)
    service_states.keep_pending(rules, row, whole)  # as a resolution's worker sends them
    calls: list[str] = []
    monkeypatch.setattr(rules, "side_pending", lambda *a: calls.append("side") or [])
    monkeypatch.setattr(rules, "pending", lambda *a: calls.append("whole") or [])
    try:
        for side in rules.side_ids:
            assert side_decisions(rules, bare, side) == tuple(d for d in whole if d.side == side)
        assert calls == []
    finally:
        service_states.forget_superseded(row.campaign_id, [])


def test_a_game_without_sides_of_its_own_works_out_the_whole_round_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = next(g for g in GAMES if g["ruleset"] == "carrier")
    rules = _registry().get("carrier").rules
    state = _states(game)[1]
    assert type(rules).side_pending is Rules.side_pending
    row, bare = _kept(rules, state, 9_003)
    calls: list[str] = []
    real = rules.pending
    monkeypatch.setattr(rules, "pending", lambda s: calls.append("whole") or real(s))
    try:
        for side in rules.side_ids:
            assert side_decisions(rules, bare, side) == tuple(
                d for d in real(bare) if d.side == side
            )
        assert calls == ["whole"]  # both sides' panels: one round's decisions, kept
    finally:
        service_states.forget_superseded(row.campaign_id, [])
