"""The seam's input kinds through the real service (``tests/skirmish.py`` asks for each):
texts written per unit and read by the ruleset, a yes/no, a public round with nothing
sealed, a reaction asked of one side with a short deadline of its own."""

from __future__ import annotations

from typing import Any

import pytest

from bot import panel as panels
from bot.service_model import ServiceError, choice_of, receipt_of
from tests import skirmish
from tests.service.support import CHANNEL, GM, GUILD, Env, pace

BLUE, RED = 31, 32


@pytest.fixture(autouse=True)
def _skirmish(monkeypatch: pytest.MonkeyPatch) -> None:
    skirmish.register(monkeypatch)


async def _start(env: Env, scenario: str = "hill") -> int:
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, scenario, pace(), seed="inputs", ruleset=skirmish.KEY
    )
    await env.svc.join(info.id, BLUE, "blue")
    await env.svc.join(info.id, RED, "red")
    await env.svc.start(info.id, GM)
    return info.id


async def _orders(env: Env, cid: int, red_path: str = "E5", blue_path: str = "C4 D4") -> None:
    blue = await env.svc.panel(cid, BLUE)
    _, refused = await env.svc.write(
        cid, BLUE, blue.round_id, {"move:B1": blue_path, "move:B2": "c5"}
    )
    assert not refused
    await env.svc.lock(cid, BLUE, blue.round_id)
    red = await env.svc.panel(cid, RED)
    await env.svc.write(cid, RED, red.round_id, {"move:R1": red_path})
    await env.svc.draft(cid, RED, red.round_id, "dig", "yes")
    await env.svc.lock(cid, RED, red.round_id)


def _plugin(env: Env) -> Any:
    return env.svc.rulesets.get(skirmish.KEY)


async def test_a_text_per_unit_is_read_by_the_ruleset_and_a_refusal_changes_nothing(
    env: Env,
) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, BLUE)
    assert [(d.field, d.input, d.label) for d in panel.decisions] == [
        ("move:B1", "text", "Sherman · C4"),
        ("move:B2", "text", "Stuart · C5"),
    ]
    panel, refused = await env.svc.write(
        cid, BLUE, panel.round_id, {"move:B1": "c4, d4-E4", "move:B2": "C5 ZZ"}
    )
    # The legal one is drafted as the ruleset reads it; the other is refused, unchanged.
    assert panel.drafts == {"move:B1": "C4 D4 E4"}
    assert set(refused) == {"move:B2"} and refused["move:B2"].code == "illegal-text"
    message = refused["move:B2"].message("en")
    assert "“C5 ZZ”" in message and "Stuart · C5" in message and "Nothing changed" in message
    # Written again the same: nothing new is stored.
    again, refused = await env.svc.write(cid, BLUE, panel.round_id, {"move:B1": "C4 D4 E4"})
    assert not refused and again.version == panel.version
    # A per-unit field answers with its family's declaration.
    rules = _plugin(env).rules
    assert rules.field_spec("move:B1") is rules.fields[0]
    assert rules.field_spec("dig:X") is None  # no family of that name is per unit
    # Lock refuses until every field is written, naming each by its unit.
    with pytest.raises(ServiceError) as incomplete:
        await env.svc.lock(cid, BLUE, panel.round_id)
    assert "Stuart · C5" in incomplete.value.message("en")


async def test_a_text_too_long_is_refused_before_the_ruleset_reads_it(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, BLUE)
    with pytest.raises(ServiceError) as refused:
        await env.svc.draft(cid, BLUE, panel.round_id, "move:B1", "C4 " * 500)
    assert refused.value.params["reason"] == "text-too-long"
    assert (await env.svc.panel(cid, BLUE)).drafts == {}


async def test_a_yes_no_is_drawn_as_two_buttons_and_drafts_an_option(env: Env) -> None:
    cid = await _start(env)
    panel = await env.svc.panel(cid, RED)
    spec = panels.compose(_plugin(env), panel, scenario="hill", locale="en", commander_id=None)
    (dig,) = spec.confirms
    assert [c.value for c in dig.choices] == ["yes", "no"] and not any(
        c.default for c in dig.choices
    )
    assert "dig" not in {s.field for s in spec.selects}  # buttons, not a select
    panel = await env.svc.draft(cid, RED, panel.round_id, "dig", "yes")
    spec = panels.compose(_plugin(env), panel, scenario="hill", locale="en", commander_id=None)
    assert [c.default for c in spec.confirms[0].choices] == [True, False]
    with pytest.raises(ServiceError):
        await env.svc.draft(cid, RED, panel.round_id, "dig", "maybe")


async def test_a_public_round_seals_nothing_and_says_one_line(env: Env) -> None:
    cid = await _start(env)
    await _orders(env, cid)
    await env.worker().deliver_due()
    env.sender.sent.clear()
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.kind == "dice"
    panel = await env.svc.panel(cid, BLUE)
    assert panel.public
    spec = panels.compose(_plugin(env), panel, scenario="hill", locale="en", commander_id=None)
    assert next(b for b in spec.buttons if b.action == "lock").label == "Submit"
    await env.svc.draft(cid, BLUE, panel.round_id, "dice", "2")
    result = await env.svc.lock(cid, BLUE, panel.round_id)
    assert result.resolved  # the only side asked: applied when submitted
    export = await env.svc.export(cid)
    dice = next(r for r in export["rounds"] if r["kind"] == "dice")
    lock = next(lock for lock in dice["locks"] if lock["side"] == "blue")
    assert lock["salt"] == "" and lock["receipt"] == receipt_of(lock["canonical"], "")
    assert choice_of(lock["canonical"]) == {"dice": "2"}
    await env.worker().deliver_due()
    reveals = [a for _t, a, _e in env.sender.sent if a.kind == "reveal"]
    assert len(reveals) == 1 and not reveals[0].images
    (line,) = reveals[0].text.splitlines()
    assert "2 " in line or "2" in line
    assert "receipt" not in line.lower() and lock["receipt"][:8] not in line
    panel_texts = [a.text for t, a, _e in env.sender.sent if a.kind == "dm-panel"]
    assert all("receipt" not in text for text in panel_texts if "Dice" in text)


async def test_a_reaction_asks_one_side_with_a_deadline_of_its_own(env: Env) -> None:
    cid = await _start(env)
    await _orders(env, cid, blue_path="C4 D4")  # B1 ends on D4, next to the Tiger on E5
    blue = await env.svc.panel(cid, BLUE)
    await env.svc.draft(cid, BLUE, blue.round_id, "dice", "1")
    await env.worker().deliver_due()
    env.sender.sent.clear()
    await env.svc.lock(cid, BLUE, blue.round_id)
    await env.worker().deliver_due()
    status = await env.svc.status(cid)
    assert status.round is not None and status.round.kind == "ambush"
    opened, deadline = status.round.opened_at, status.round.deadline
    assert deadline is not None
    assert (deadline - opened).total_seconds() == skirmish.REACTION_SECONDS  # not a day
    red = await env.svc.panel(cid, RED)
    assert [d.field for d in red.decisions] == ["ambush"] and not red.locked
    blue = await env.svc.panel(cid, BLUE)
    assert blue.locked and not blue.decisions  # not asked
    # Red gets a new panel; Blue only sees its dice panel closed (an edit), no ping.
    new = {t.id for t, a, edit in env.sender.sent if t.kind == "dm" and edit is None}
    assert new == {RED}
    pinged = [m for _t, a, _e in env.sender.sent for m in a.mentions]
    assert BLUE not in pinged
    await env.svc.draft(cid, RED, red.round_id, "ambush", "yes")
    assert (await env.svc.lock(cid, RED, red.round_id)).resolved
    status = await env.svc.status(cid)
    assert status.round is not None and (status.round.turn, status.round.kind) == (2, "orders")
