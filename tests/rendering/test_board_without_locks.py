"""A status board handed no side to wait on shows no lock: the replay page's played turns
are shown as they opened, not as a channel still waiting ('Entente: waiting'). Every
registered game whose board shows locks at all."""

from __future__ import annotations

import pytest

from bot.rulesets import FACTORIES, Registry
from bot.secrecy import Viewer, view_for
from tests.rendering.asked import keys_asked


@pytest.mark.parametrize("ruleset", list(FACTORIES))
def test_a_board_with_no_side_waiting_shows_no_lock(ruleset: str) -> None:
    plugin = Registry().get(ruleset)
    rules, presenter = plugin.rules, plugin.presenter
    state = rules.new(next(iter(rules.scenarios())), "locks")
    view = view_for(rules, state, Viewer.public())

    def board(locked: dict[str, bool]) -> bytes:
        return presenter.status_board(view, locked, None, "en")

    waiting = board({side: False for side in rules.side_ids})
    locked = board({side: True for side in rules.side_ids})
    if waiting == locked:
        pytest.skip(f"{ruleset}'s board shows no lock")
    nobody = board({})
    assert nobody != waiting and nobody != locked


def test_the_carriers_board_with_no_side_waiting_names_no_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rendering.rulesets.carrier.status as status

    plugin = Registry().get("carrier")
    rules = plugin.rules
    view = view_for(rules, rules.new("coral-sea", "locks"), Viewer.public())
    asked = keys_asked(monkeypatch, status, "tr")
    plugin.presenter.status_board(view, {side: False for side in rules.side_ids}, None, "en")
    assert "status.no_deadline" in asked and "status.waiting" in asked
    asked.clear()
    plugin.presenter.status_board(view, {}, None, "en")
    assert not {"status.no_deadline", "status.waiting", "status.locked"} & set(asked)
