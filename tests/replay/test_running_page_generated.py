"""Generated differential test of a running campaign's replay page, every game.

The service-side generated secrecy test (``tests/service/test_secrecy_generated_service``)
draws a round deep into a recorded campaign, a secret decision of one side there and two of
its options; here the GM makes the campaign's replay page after every lock from that round
on, until the lock whose resolution opens the field. With either option the pages must be
the same bytes: the page holds nothing the channel has not seen. Receipts are computed
blind to the choice, in the service and in verify alike (they differ by design).
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.service_model import ServiceError
from engine.zero.catalog import Catalog
from tests.engine.test_secrecy_generated import declared_opening
from tests.secrecy_pool import Case, rules_of
from tests.service.support import Env
from tests.service.test_secrecy_differential import (
    USERS,
    _receipt_without_choice,
    _state,
    _taken,
)
from tests.service.test_secrecy_generated_service import (
    _service_cases,
    play_to_case,
)


async def _pages(path: Path, catalog: Catalog, case: Case, value: str) -> list[str]:
    """The GM's page after each lock from the case's round on, before its field opens."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(7)).open()
    rules = rules_of(case.round.ruleset)
    users = dict(zip(rules.side_ids, USERS, strict=False))
    pages: list[str] = []
    try:
        campaign_id = await play_to_case(env, case, users)
        choices = {s: dict(c) for s, c in case.round.choices.items()}
        choices.setdefault(case.side, {})[case.field] = value
        opens = declared_opening(rules, case.field)
        turn = case.round.progress.turn
        pages.append((await env.svc.replay_page(campaign_id)).html)
        while True:
            status = await env.svc.status(campaign_id)
            if status.campaign.status == "finished" or status.round is None:
                return pages
            for side, user in users.items():
                try:
                    panel = await env.svc.panel(campaign_id, user)
                except ServiceError:
                    continue
                if panel.locked:
                    continue
                planned = {
                    d.field: choices.get(side, {}).get(d.field, d.default) for d in panel.decisions
                }
                # A combination the rules refuse whole (check_choice at Lock) is changed as
                # the service's differential test changes it: the varied field kept, only
                # fields opening no earlier changed, so what differs stays as secret.
                kept = {case.field} if side == case.side and case.field in planned else set()
                state = await _state(env, rules, campaign_id)
                planned = _taken(rules, state, side, panel.decisions, planned, kept)
                for field, pick in planned.items():
                    await env.svc.draft(campaign_id, user, panel.round_id, field, pick)
                result = await env.svc.lock(campaign_id, user, panel.round_id)
                after = (await env.svc.status(campaign_id)).round
                closed = after is None or after.turn > turn
                if result.resolved and (opens == "reveal" or closed):
                    return pages  # this lock opened the field: the pages stop before it
                pages.append((await env.svc.replay_page(campaign_id)).html)
                if result.resolved:
                    break
            choices = {}  # the rest of the turn: every side's default orders
    finally:
        await env.close()


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
async def test_a_running_campaigns_page_holds_no_secret_deep_into_any_game(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    monkeypatch.setattr("bot.service_rounds.receipt_of", _receipt_without_choice)
    monkeypatch.setattr("bot.export.receipt_of", _receipt_without_choice)
    # Every recorded round is one the service locks as recorded (the golden tests check
    # it): no game's cases are left out.
    case = data.draw(st.sampled_from(_service_cases()), label="case")
    rules = rules_of(case.round.ruleset)
    decision = next(
        d for d in rules.pending(case.round.state) if (d.side, d.field) == (case.side, case.field)
    )
    first, second = data.draw(
        st.lists(
            st.sampled_from([o.id for o in decision.options]), min_size=2, max_size=2, unique=True
        ),
        label="two options",
    )
    runs = []
    for value in (first, second):
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        runs.append(await _pages(folder / "store.db", catalog, case, value))
    one, other = runs
    assert len(one) == len(other) and one
    for step, (a, b) in enumerate(zip(one, other, strict=True)):
        assert a == b, (
            f"{case.round.ruleset} {case.round.scenario} round {case.round.index}: {case.side}'s"
            f" {case.field} ({first!r} or {second!r}) shows on the GM's page at step {step}"
        )
