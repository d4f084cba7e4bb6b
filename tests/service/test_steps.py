"""A choice built in steps through the real service (``tests/skirmish.py``'s ridge: Red's
barrage of three salvoes, high explosive never twice running, one smoke a turn): each
step offers what the picks before it allow, a changed step clears the later ones, a stale
or forged pick changes nothing, a half-built choice survives a restart and is no choice at
Lock, and the whole one is locked and resolved as the ruleset reads it."""

from __future__ import annotations

from typing import Any

import pytest

from bot import panel as panels
from bot.service_model import ServiceError, steps_token
from tests import skirmish
from tests.service.support import Env
from tests.service.test_input_kinds import BLUE, RED, _skirmish
from tests.service.test_input_kinds import _start as _begin

__all__ = ["_skirmish"]  # the fixture registering the test game, autouse


async def _start(env: Env) -> int:
    return await _begin(env, "ridge")


def _offered(panel: Any, step: int) -> list[str]:
    return [o.id for o in panel.steps["barrage"].menus[step].options]


async def _pick(env: Env, cid: int, panel: Any, step: int, value: str) -> Any:
    token = steps_token(panel.steps["barrage"].picks[:step])
    return await env.svc.pick_step(
        cid, RED, panel.round_id, "barrage", step, value, token=token, panel_side="red"
    )


async def test_each_step_offers_what_the_picks_before_it_allow(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, RED)
    assert _offered(panel, 0) == ["he", "smoke", "rest"]
    panel = await _pick(env, cid, panel, 0, "he")
    assert panel.steps["barrage"].picks == ("he",) and "barrage" in panel.missing
    assert _offered(panel, 1) == ["smoke", "rest"]  # the barrels are hot
    assert [e.reason for e in panel.steps["barrage"].menus[1].excluded] == ["barrels-hot"]
    panel = await _pick(env, cid, panel, 1, "smoke")
    assert _offered(panel, 2) == ["he", "rest"]  # one smoke shell a turn
    panel = await _pick(env, cid, panel, 2, "he")
    assert panel.drafts["barrage"] == "he smoke he" and "barrage" not in panel.missing
    assert panel.steps["barrage"].whole and panel.written["barrage"] == "he smoke he"


async def test_a_step_changed_clears_the_steps_after_it_and_the_whole_choice(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, RED)
    for step, value in enumerate(("rest", "he", "smoke")):
        panel = await _pick(env, cid, panel, step, value)
    assert panel.drafts["barrage"] == "rest he smoke"
    # The same first salvo again (a double click): nothing changes.
    again = await _pick(env, cid, panel, 0, "rest")
    assert again.drafts == panel.drafts and again.version == panel.version
    panel = await _pick(env, cid, panel, 0, "smoke")
    assert panel.steps["barrage"].picks == ("smoke",) and "barrage" not in panel.drafts
    assert _offered(panel, 1) == ["he", "rest"]
    # Start again: nothing picked, nothing drafted.
    panel = await env.svc.restart_steps(cid, RED, panel.round_id, "barrage", panel_side="red")
    assert panel.steps["barrage"].picks == () and "barrage" not in panel.drafts


async def test_a_stale_or_forged_pick_changes_nothing(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, RED)
    drawn = await _pick(env, cid, panel, 0, "he")
    # A second step drawn over "he", picked after the first step became "rest" elsewhere.
    await _pick(env, cid, drawn, 0, "rest")
    with pytest.raises(ServiceError) as stale:
        await _pick(env, cid, drawn, 1, "smoke")
    assert stale.value.code == "panel-outdated"
    # A step not reached yet, and an option its step leaves out (a forged id).
    now = await env.svc.panel(cid, RED)
    with pytest.raises(ServiceError) as early:
        await env.svc.pick_step(cid, RED, now.round_id, "barrage", 2, "he", token="000000")
    assert early.value.code == "panel-outdated"
    await _pick(env, cid, now, 1, "he")
    now = await env.svc.panel(cid, RED)
    with pytest.raises(ServiceError) as forged:
        await _pick(env, cid, now, 2, "he")  # high explosive twice running
    assert forged.value.code == "illegal-text" and forged.value.params["reason"] == "barrels-hot"
    with pytest.raises(ServiceError):
        await _pick(env, cid, now, 2, "napalm")
    after = await env.svc.panel(cid, RED)
    assert after.steps["barrage"].picks == ("rest", "he") and after.version == now.version
    # Blue has no such choice, and may not build Red's.
    with pytest.raises(ServiceError) as other:
        await env.svc.pick_step(cid, BLUE, now.round_id, "barrage", 0, "he", token="e3b0c4")
    assert other.value.code == "unknown-field"


async def test_a_half_built_choice_survives_a_restart_and_is_no_choice_at_lock(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, RED)
    await env.svc.write(cid, RED, panel.round_id, {"move:R1": "E5"})
    await env.svc.draft(cid, RED, panel.round_id, "dig", "no")
    panel = await _pick(env, cid, panel, 0, "smoke")
    await env.restart()
    panel = await env.svc.panel(cid, RED)
    assert panel.steps["barrage"].picks == ("smoke",)
    with pytest.raises(ServiceError) as incomplete:
        await env.svc.lock(cid, RED, panel.round_id)
    assert incomplete.value.code == "incomplete" and "barrage" in incomplete.value.message("en")
    # Typed whole instead: the steps give way to it, and the panel's selects show it.
    panel, refused = await env.svc.write(cid, RED, panel.round_id, {"barrage": "he he rest"})
    assert refused["barrage"].params["reason"] == "barrels-hot"
    assert "“he he”" not in refused["barrage"].message("en")  # the whole text quoted
    panel, refused = await env.svc.write(cid, RED, panel.round_id, {"barrage": "he rest he"})
    assert not refused and panel.steps["barrage"].picks == ("he", "rest", "he")
    result = await env.svc.lock(cid, RED, panel.round_id)
    assert result.receipt


async def test_the_steps_are_drawn_one_select_each_on_a_page_of_their_own(env: Env) -> None:
    cid = await _start(env)
    plugin = env.svc.rulesets.get(skirmish.KEY)
    panel = await env.svc.panel(cid, RED)
    panel = await _pick(env, cid, panel, 0, "he")
    first = panels.compose(plugin, panel, scenario="ridge", locale="fr", commander_id=None)
    quick = [s for s in first.selects if s.field == "barrage"]
    assert [s.step for s in quick] == [None]  # its quick picks among the other fields
    page = panels.page_of(panel, "barrage", steps=True)
    assert page > 0
    spec = panels.compose(plugin, panel, scenario="ridge", locale="fr", commander_id=None,
                          page=page)  # fmt: skip
    steps = [s for s in spec.selects if s.step is not None]
    assert [s.step for s in steps] == [0, 1, 2]
    assert [c.value for c in steps[0].options] == ["he", "smoke", "rest"]
    assert [c.value for c in steps[0].options if c.default] == ["he"]
    assert [c.value for c in steps[1].options] == ["smoke", "rest"]  # narrowed by "he"
    assert steps[2].disabled and "Étape 2" in steps[2].placeholder
    assert not steps[0].disabled and not steps[1].disabled
    assert any(b.action == "restart" and b.label == "↺ Recommencer" for b in spec.buttons)
    assert "Étape 2" in spec.text and "barrels-hot" in spec.text  # what step 2 leaves out
    assert len(spec.selects) <= 4 and len(spec.buttons) <= 5
    assert all(len(f"sortie:st:{cid}:1:red:{s.step}:{s.token}:barrage") <= 100 for s in steps)
