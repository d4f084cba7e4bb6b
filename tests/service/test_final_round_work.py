"""The Lock that finishes a campaign parses no more history on the event loop than any other.

Counted in work done, never timed (issue 29): the history records parsed on the event
loop's thread while the last round resolves and its announcements are built and sent.
Every announcement of a finished campaign (its last turn's reports and summary, the board,
the card) is drawn from the snapshot and the latest record (``Rules.view_records``); the
after-action report, which reads every record, is parsed and drawn from the texts as
stored in a drawing process (a thread here, as in every test: off the event loop either
way). Its image is the one drawn from the whole state, byte for byte.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from bot import secrecy
from tests.service.support import ALL, Env


class Parsed:
    def __init__(self) -> None:
        self.on = False
        self.loop = 0  # history records parsed on the event loop's thread
        self.elsewhere = 0  # in other threads (the drawing's, in tests)


def _parsed(rules: Any, monkeypatch: pytest.MonkeyPatch) -> Parsed:
    """Counts the history records ``rules`` parses (whole, or onto a kept snapshot), by
    the thread that parses them."""
    counted = Parsed()
    loop_thread = threading.get_ident()
    for name in ("load_stored", "load_records"):

        def parse(first: Any, records: Any, real: Any = getattr(rules, name)) -> Any:
            if counted.on and threading.get_ident() == loop_thread:
                counted.loop += len(records)
            elif counted.on:
                counted.elsewhere += len(records)
            return real(first, records)

        monkeypatch.setattr(rules, name, parse)
    return counted


@pytest.mark.parametrize(
    ("ruleset", "scenario"), [("carrier", "coral-sea"), ("land", "malaya-dec41")]
)
async def test_the_last_round_parses_the_history_off_the_event_loop(
    env: Env, ruleset: str, scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = await env.campaign(scenario, ruleset=ruleset, seed="last")
    plugin = env.svc.rulesets.get(ruleset)
    rules = plugin.rules
    worker = env.bots_worker()
    rng = random.Random(3)
    await worker.deliver_due()
    earlier: list[int] = []  # records parsed on the loop by each round before the last
    counts = _parsed(rules, monkeypatch)
    for _round in range(60):
        round_id = await env.cold_before_last_lock(cid, rng)
        counts.on = True
        await env.svc.lock(cid, ALL, round_id)
        await env.svc.settle()
        await worker.deliver_due()
        counts.on = False
        async with env.repo.read() as tx:
            campaign = await tx.campaign(cid)
        assert campaign is not None
        if campaign.status == "finished":
            break
        earlier.append(counts.loop)
        counts.loop = counts.elsewhere = 0
    else:
        raise AssertionError("the campaign did not finish")
    async with env.repo.read() as tx:
        row = await tx.snapshot(campaign.snapshot_id)
        assert row is not None
        records = await tx.history(cid, row.branch, row.history_len)
    assert len(records) >= 5  # a history long enough to matter
    # The latest record of the round's snapshots (its round message's, its reports' and
    # board's), as every round before; the whole history once, in the drawing's thread,
    # for the after-action report.
    assert counts.loop <= max(earlier) <= 2, (counts.loop, earlier, len(records))
    assert counts.elsewhere == len(records)
    ended = [a for _, a, _ in env.sender.sent if a.kind == "campaign-ended"]
    assert len(ended) == 1
    whole = secrecy.view_for(rules, rules.load_stored(row.state, records), secrecy.Viewer.public())
    drawn = plugin.presenter.after_action(scenario, whole, campaign.locale)
    assert ended[0].images == [("after-action.png", drawn)]
