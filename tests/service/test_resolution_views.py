"""What a resolution leaves the bot's event loop to work out for the new round, counted
(issue 29: capacity), with its worker asked for the new round's views
(``bot.service_plan.VIEWS_FROM_WORKER``, off by default: see there why): the public's
view and each asked side's come back from the worker (``bot.round_views``), so the Lock
that resolves a round and the work it starts after (``prepare_round``) make no view and
parse no state on the bot, and the new round's first panels and ``/status`` find them kept.
Without (84a4968, and the default), each resolution made the public's view and every
side's (3) here and parsed the snapshot and a record."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import secrecy, service_plan
from tests.service.support import ALL, JAP, Env


class Work:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, rules: Any) -> None:
        self.views = self.parsed = 0
        real_view = secrecy.view_for

        def view_for(*args: Any) -> Any:
            self.views += 1
            return real_view(*args)

        monkeypatch.setattr(secrecy, "view_for", view_for)
        for name in ("load_stored", "load_records"):
            real = getattr(rules, name)

            def parse(*args: Any, _real: Any = real) -> Any:
                self.parsed += 1
                return _real(*args)

            monkeypatch.setattr(rules, name, parse)


@pytest.mark.parametrize(
    ("ruleset", "scenario", "left"),
    # Coral Sea's third round adds no record: its public view reads the turn record an
    # earlier round added, which the worker, resolving from the snapshot alone, does not
    # hold; the bot makes that one view, from the snapshot and that record (2 parsed).
    [("carrier", "coral-sea", (1, 2)), ("land", "malaya-all", (0, 0))],
)
async def test_a_resolution_makes_no_view_on_the_bot(
    env: Env,
    monkeypatch: pytest.MonkeyPatch,
    resolver_pool: None,
    ruleset: str,
    scenario: str,
    left: tuple[int, int],
) -> None:
    monkeypatch.setattr(service_plan, "VIEWS_FROM_WORKER", True)
    cid = await env.campaign(scenario, ruleset=ruleset)
    rng = random.Random(5)
    work = Work(monkeypatch, env.svc.rulesets.get(ruleset).rules)
    resolved = views = parsed = 0
    for _ in range(4):
        await env.svc.lock(cid, JAP, await env.fill(cid, JAP, rng))
        round_id = await env.fill(cid, ALL, rng)
        await env.svc.settle()
        work.views = work.parsed = 0
        result = await env.svc.lock(cid, ALL, round_id)
        await env.svc.settle()  # the new round's views, prepared after the write
        resolved += result.resolved
        views, parsed = views + work.views, parsed + work.parsed
        # The new round's panels and the public's /status find them kept.
        work.views = 0
        await env.svc.panel(cid, JAP)
        await env.svc.panel(cid, ALL)
        await env.svc.status(cid)
        assert work.views == 0
    assert resolved == 4
    # Without (84a4968, or the setting off): 12 views made and 7 states parsed here for
    # carrier, 12 and 8 for land.
    assert (views, parsed) == left
