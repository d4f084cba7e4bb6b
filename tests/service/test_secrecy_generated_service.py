"""Generated differential secrecy test through the real services (issue 26).

Hypothesis draws a round deep into a recorded campaign (``tests.secrecy_pool``), a secret
decision of one side there (declared or not) and two of its options. Each run plays the
recorded campaign up to that round through the service on a fresh SQLite store (what was
announced on the way is set aside unread: both runs post the same), then plays the round
with one option or the other and the rest of its turn. After every draft and every lock we
record everything someone else receives: the channel and the other sides' DMs (text, a
panel's components, pings, alt text, image bytes), the other sides' panels and
``/receipt``, the public ``/status`` and ``/log``, and the export. Up to the step that
opens the field (its turn's end; the campaign's for a field that opens then or that nobody
declared) the two records must be identical.

Receipts are salted hashes of the choice: they differ by design. As in
``test_secrecy_differential``, the receipt function is replaced by one blind to the choice.
The engine-side test (``tests/engine/test_secrecy_generated.py``) draws many more cases;
this one proves the application adds no leak of its own, so it draws a few.
"""

from __future__ import annotations

import tempfile
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import dumps
from bot.service_model import Pace, ServiceError
from engine.zero.catalog import Catalog
from tests.engine.test_secrecy_generated import declared_opening
from tests.secrecy_pool import Case, buckets, rounds, rules_of
from tests.service.support import CHANNEL, GUILD, Env, receipt_without_choice
from tests.service.test_secrecy_differential import GM, USERS, _state, _taken

T = TypeVar("T")
DEEPEST = 14  # rounds played before the varied one, at most: the run's cost grows with it


def _service_cases() -> list[Case]:
    """One case per bucket, its deepest round within reach (a bucket out of reach: none):
    within reach of the service. Every recorded round is one the service locks as recorded
    (tests/test_golden_rulesets.py checks it), so no game's cases are left out."""
    chosen = []
    for cases in buckets().values():
        reachable = [c for c in cases if 2 <= c.round.index <= DEEPEST]
        if reachable:
            chosen.append(max(reachable, key=lambda c: (c.round.index, c.side, c.field)))
    return chosen


async def _run(path: Path, catalog: Catalog, case: Case, value: str) -> tuple[list[Any], int]:
    """Play the case's campaign to its round, vary the field, record what others got."""
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    env = await Env(path, catalog, clock, SeededTokens(7)).open()
    rules = rules_of(case.round.ruleset)
    users = dict(zip(rules.side_ids, USERS, strict=False))
    others = [u for s, u in users.items() if s != case.side]
    try:
        campaign_id = await play_to_case(env, case, users)
        worker = env.worker()
        live = (await env.svc.status(campaign_id)).round
        assert live is not None
        assert (live.turn, live.kind) == (case.round.progress.turn, case.round.progress.round)
        # What the campaign announced on the way is the same in both runs: set it aside.
        async with env.repo.transaction(campaign_id) as tx:
            for row in await tx.outbox(campaign_id):
                if row.status == "pending":
                    await tx.mark_delivered(row.id, 1, clock.now())
        records: list[Any] = []

        async def observe() -> None:
            await worker.deliver_due()
            seen = [
                # What was posted, with a panel's components and whom it pings.
                (
                    t.kind,
                    t.id,
                    a.kind,
                    a.text,
                    [png for _, png in a.images],
                    a.alt,
                    e,
                    a.edit_of,
                    repr(a.panel),
                    a.mentions,
                )
                for t, a, e in env.sender.sent
                if t.kind == "channel" or t.id in others
            ]
            panels = []
            for user in others:
                try:
                    panels.append(repr(await env.svc.panel(campaign_id, user)))
                except ServiceError as error:
                    panels.append(error.code)
            records.append(
                (
                    seen,
                    panels,
                    [repr(await env.svc.receipts(campaign_id, u)) for u in others],
                    repr(await env.svc.status(campaign_id)),
                    repr(await env.svc.log(campaign_id, per_page=50)),
                    dumps(await env.svc.export(campaign_id)),
                )
            )

        await observe()
        choices = {s: dict(c) for s, c in case.round.choices.items()}
        choices.setdefault(case.side, {})[case.field] = value
        opens = declared_opening(rules, case.field)
        turn = case.round.progress.turn
        opening = None
        while opening is None:
            status = await env.svc.status(campaign_id)
            live = status.round
            if status.campaign.status == "finished" or live is None:
                opening = len(records)
                break
            for side, user in users.items():
                panel = await open_panel(env, campaign_id, user)
                if panel is None:
                    continue
                kept = {case.field} if side == case.side else set()
                await draft_taken(env, rules, campaign_id, (user, side), panel, choices, kept)
                await observe()
                result = await env.svc.lock(campaign_id, user, panel.round_id)
                after = (await env.svc.status(campaign_id)).round
                closed = after is None or after.turn > turn
                if result.resolved and (opens == "reveal" or closed):
                    opening = len(records)
                await observe()
                if result.resolved:
                    break
            choices = {}  # the rest of the turn: every side's default orders
    finally:
        await env.close()
    return records, opening


def played_through_the_service(examples: int) -> settings:
    """Hypothesis settings for a test that plays campaigns through the service: few
    examples (each is slow), no deadline, the same draws every run, and tmp_path shared by
    the examples on purpose (each run makes a store of its own in it)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )


def draw_case(data: st.DataObject, cases: list[Case]) -> tuple[Case, str, str]:
    """A case drawn from ``cases``, and two different options of its secret field."""
    case = data.draw(st.sampled_from(cases), label="case")
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
    return case, first, second


async def each_on_its_own_store(
    tmp_path: Path, values: tuple[str, str], run: Callable[[Path, str], Awaitable[T]]
) -> list[T]:
    """``run`` once per value, each on a store of its own: hypothesis hands every example
    the same ``tmp_path``."""
    runs = []
    for value in values:
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        runs.append(await run(folder / "store.db", value))
    return runs


async def open_panel(env: Env, cid: int, user: int) -> Any | None:
    """The user's panel while he has orders to give; None when the campaign asks him
    nothing now or he has locked."""
    try:
        panel = await env.svc.panel(cid, user)
    except ServiceError:
        return None
    return None if panel.locked else panel


async def drafted(env: Env, cid: int, user: int, panel: Any, picks: Mapping[str, str]) -> None:
    """Drafts ``picks`` on the user's open panel, every other field at its default."""
    for decision in panel.decisions:
        pick = picks.get(decision.field, decision.default)
        await env.svc.draft(cid, user, panel.round_id, decision.field, pick)


async def draft_taken(
    env: Env,
    rules: Any,
    cid: int,
    player: tuple[int, str],
    panel: Any,
    choices: Mapping[str, Mapping[str, str]],
    kept: set[str],
) -> None:
    """Drafts the side's ``choices`` (each other field at its default) on the player's
    (user, side) open panel; a combination the rules refuse whole at Lock is changed as
    the service's differential test changes it (``_taken``): the ``kept`` fields untouched,
    only fields opening no earlier changed, so what differs between two runs stays as
    secret."""
    user, side = player
    planned = {d.field: choices.get(side, {}).get(d.field, d.default) for d in panel.decisions}
    state = await _state(env, rules, cid)
    taken = _taken(rules, state, side, panel.decisions, planned, kept & planned.keys())
    for field, pick in taken.items():
        await env.svc.draft(cid, user, panel.round_id, field, pick)


async def _lock_all(env: Env, cid: int, users: dict[str, int], picks: Any) -> None:
    """Lock the round's recorded choices, every side; a round nobody is asked in plays
    by itself."""
    for side, user in users.items():
        try:
            panel = await env.svc.panel(cid, user)
        except ServiceError:
            return
        if panel.locked:
            continue
        await drafted(env, cid, user, panel, picks.get(side, {}))
        result = await env.svc.lock(cid, user, panel.round_id)
        if result.resolved:
            return


@played_through_the_service(examples=4)
@given(data=st.data())
async def test_a_secret_choice_reaches_nobody_else_until_it_opens(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    monkeypatch.setattr("bot.service_rounds.receipt_of", receipt_without_choice)
    case, first, second = draw_case(data, _service_cases())
    runs = await each_on_its_own_store(
        tmp_path, (first, second), lambda path, value: _run(path, catalog, case, value)
    )
    (one, opening), (other, opening_b) = runs
    assert opening == opening_b
    for step in range(opening):
        assert one[step] == other[step], (
            f"{case.round.ruleset} {case.round.scenario} round {case.round.index}: {case.side}'s"
            f" {case.field} ({first!r} or {second!r}) reaches someone else at step {step}"
        )


async def play_to_case(env: Env, case: Case, users: Mapping[str, int]) -> int:
    """A campaign of the case's own recorded game (its ruleset too: a scenario may be
    recorded under two), played through the service with the recorded choices up to the
    case's round; its id."""
    game = (case.round.ruleset, case.round.scenario, case.round.seed)
    recorded = [r for r in rounds() if (r.ruleset, r.scenario, r.seed) == game]
    info = await env.svc.create_campaign(
        GUILD,
        CHANNEL,
        GM,
        case.round.scenario,
        Pace(),
        seed=case.round.seed,
        ruleset=case.round.ruleset,
    )
    for side, user in users.items():
        await env.svc.join(info.id, user, side)
    await env.svc.start(info.id, GM)
    for past in recorded[: case.round.index]:
        live = (await env.svc.status(info.id)).round
        if live is not None and (live.turn, live.kind) == (
            past.progress.turn,
            past.progress.round,
        ):
            await _lock_all(env, info.id, users, past.choices)
        # else a round nobody was asked in: the service played it by itself
    return info.id
