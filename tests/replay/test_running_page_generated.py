"""Generated differential test of a running campaign's replay page, every game.

The service-side generated secrecy test (``tests/service/test_secrecy_generated_service``)
draws a round deep into a recorded campaign, a secret decision of one side there and two of
its options; here the GM makes the campaign's replay page after every lock from that round
on, until the lock whose resolution opens the field. With either option the pages must be
the same bytes: the page holds nothing the channel has not seen. Receipts are computed
blind to the choice, in the service and in verify alike (they differ by design).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.clock import ManualClock
from bot.demo import SeededTokens
from engine.zero.catalog import Catalog
from tests.engine.test_secrecy_generated import declared_opening
from tests.secrecy_pool import Case, rules_of
from tests.service.support import Env
from tests.service.test_secrecy_differential import (
    USERS,
)
from tests.service.test_secrecy_generated_service import (
    _service_cases,
    draft_taken,
    draw_case,
    each_on_its_own_store,
    open_panel,
    play_to_case,
    played_through_the_service,
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
                panel = await open_panel(env, campaign_id, user)
                if panel is None:
                    continue
                kept = {case.field} if side == case.side else set()
                await draft_taken(env, rules, campaign_id, (user, side), panel, choices, kept)
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


@played_through_the_service(examples=3)
@given(data=st.data())
async def test_a_running_campaigns_page_holds_no_secret_deep_into_any_game(
    tmp_path: Path, catalog: Catalog, choice_free_receipts: None, data: st.DataObject
) -> None:
    case, first, second = draw_case(data, _service_cases())
    one, other = await each_on_its_own_store(
        tmp_path, (first, second), lambda path, value: _pages(path, catalog, case, value)
    )
    assert len(one) == len(other) and one
    for step, (a, b) in enumerate(zip(one, other, strict=True)):
        assert a == b, (
            f"{case.round.ruleset} {case.round.scenario} round {case.round.index}: {case.side}'s"
            f" {case.field} ({first!r} or {second!r}) shows on the GM's page at step {step}"
        )
