"""The odds preview through the real service: it never uses what the asking side may not know.

Differential: two campaigns identical for the asking side but differing in the other side's
secret (its drafts, its lock, its committed but unopened doctrine, and the campaign seed
itself) must give byte-identical answers. And the answer must move with the asking side's
own picks, so it is not a constant.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import odds
from bot import panel as panels
from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.rulesets import FACTORIES, Registry
from bot.service_model import Pace, ServiceError
from engine.ruleset import Odds, TargetOdds
from engine.zero.catalog import Catalog
from engine.zero.types import Side
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env

SAMPLES = 12  # enough plays for the figures to react, few enough to keep the test quick


@pytest.fixture(autouse=True)
def _few_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(odds, "SAMPLES", SAMPLES)
    # No remembered answers: the two runs of a test share ids (and so seeds), and each
    # answer here must be worked out from its own campaign.
    monkeypatch.setattr(odds, "RECENT", 0)
    odds._recent.clear()


async def _env(path: Path, catalog: Catalog) -> Env:
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    return await Env(path, catalog, clock, SeededTokens(7)).open()


async def _campaign(env: Env, seed: str, ruleset: str = "carrier", channel: int = CHANNEL) -> int:
    scenario = next(iter(env.svc.rulesets.get(ruleset).rules.scenarios()))
    info = await env.svc.create_campaign(
        GUILD, channel, GM, scenario, Pace(), seed=seed, ruleset=ruleset
    )
    rules = env.svc.rulesets.get(ruleset).rules
    for side, user in zip(rules.side_ids, (JAP, ALL), strict=False):
        await env.svc.join(info.id, user, side)
    await env.svc.start(info.id, GM)
    return info.id


async def _draft(env: Env, cid: int, user: int, pick: dict[str, int]) -> int:
    """Draft every field of the user's side: option ``pick[field]`` (default the first)."""
    panel = await env.svc.panel(cid, user)
    for decision in panel.decisions:
        index = min(pick.get(decision.field, 0), len(decision.options) - 1)
        option = decision.options[index].id
        await env.svc.draft(cid, user, panel.round_id, decision.field, option)
    return panel.round_id


async def _answer(env: Env, cid: int, user: int) -> str:
    panel = await env.svc.panel(cid, user)
    return await odds.preview(env.svc, cid, user, panel.round_id, "en")


async def test_the_other_sides_drafts_lock_and_seed_do_not_change_the_orders_round_odds(
    tmp_path: Path, catalog: Catalog
) -> None:
    answers = []
    for run, (seed, allied_pick, lock) in enumerate(
        [("seed-one", 0, False), ("seed-two", 2, True)]
    ):
        env = await _env(tmp_path / f"run{run}.db", catalog)
        try:
            cid = await _campaign(env, seed)
            await _draft(env, cid, JAP, {"flight_ops": 1})
            round_id = await _draft(
                env, cid, ALL, {name: allied_pick for name in ("fleet_tactic", "flight_ops")}
            )
            if lock:
                await env.svc.lock(cid, ALL, round_id)
            answers.append(await _answer(env, cid, JAP))
        finally:
            await env.close()
    assert answers[0] == answers[1]
    assert f"{SAMPLES} simulated plays" in answers[0]


async def test_the_committed_doctrine_of_the_other_side_stays_out_of_the_resource_odds(
    tmp_path: Path, catalog: Catalog
) -> None:
    """After the orders reveal the state holds the Allied doctrine; the Japanese odds ignore it."""
    answers, states, unmasked = [], [], []
    for run, (doctrine, resource) in enumerate([(0, 0), (2, 1)]):
        env = await _env(tmp_path / f"run{run}.db", catalog)
        try:
            cid = await _campaign(env, "same-seed")
            round_id = await _draft(env, cid, JAP, {})
            await env.svc.lock(cid, JAP, round_id)
            round_id = await _draft(env, cid, ALL, {"doctrine": doctrine})
            await env.svc.lock(cid, ALL, round_id)
            # The resource round: the Allied side drafts (and in one run locks) its resource.
            round_id = await _draft(env, cid, ALL, {"resource": resource})
            if resource:
                await env.svc.lock(cid, ALL, round_id)
            await _draft(env, cid, JAP, {})
            answers.append(await _answer(env, cid, JAP))
            panel = await env.svc.panel(cid, JAP)
            question = await odds.ask(env.svc, cid, JAP, panel.round_id)
            states.append(question.state.sides[Side.ALLIED].doctrine)
            # The same question with nothing masked: proves the doctrine would show.
            bare = odds.simulate(dataclasses.replace(question, hidden=()), 40)
            unmasked.append(odds.text(bare, "en") if bare else "")
        finally:
            await env.close()
    assert states[0] != states[1], "the two runs must hold different Allied doctrines"
    assert answers[0] == answers[1]
    assert unmasked[0] != unmasked[1], "the doctrine never matters: the test could not fail"


async def test_the_odds_follow_the_asking_sides_own_picks_and_repeat(env: Env) -> None:
    cid = await _campaign(env, "own-seed")
    await _draft(env, cid, JAP, {"flight_ops": 0})
    first = await _answer(env, cid, JAP)
    assert first == await _answer(env, cid, JAP)  # the same panel, the same figures
    panel = await env.svc.panel(cid, JAP)
    no_strike = next(d.options[-1].id for d in panel.decisions if d.field == "flight_ops")
    await env.svc.draft(cid, JAP, panel.round_id, "flight_ops", no_strike)
    second = await _answer(env, cid, JAP)
    assert first != second


async def test_a_stale_round_an_outsider_and_another_game_are_refused(env: Env) -> None:
    cid = await _campaign(env, "refuse-seed")
    first = await _draft(env, cid, JAP, {})
    await env.svc.lock(cid, JAP, first)
    await env.svc.lock(cid, ALL, await _draft(env, cid, ALL, {}))
    with pytest.raises(ServiceError) as stale:
        await odds.preview(env.svc, cid, JAP, first, "en")
    assert stale.value.code == "stale-round"
    with pytest.raises(ServiceError) as outsider:
        await odds.preview(env.svc, cid, 4242, first, "en")
    assert outsider.value.code == "not-player"
    land = await _campaign(env, "land-seed", ruleset="land", channel=CHANNEL + 1)
    panel = await env.svc.panel(land, JAP)
    with pytest.raises(ServiceError) as other_game:
        await odds.preview(env.svc, land, JAP, panel.round_id, "en")
    assert other_game.value.code == "odds-unavailable"
    assert "not available" in other_game.value.message("en")


def test_only_the_carrier_ruleset_offers_odds(catalog: Catalog) -> None:
    registry = Registry()
    offering = {key for key in FACTORIES if registry.get(key).rules.supports_odds}
    assert offering == {"carrier"}


async def test_the_panel_offers_the_button_only_where_the_game_has_odds(env: Env) -> None:
    actions = {}
    for channel, ruleset in enumerate(("carrier", "land"), start=CHANNEL):
        cid = await _campaign(env, "button-seed", ruleset=ruleset, channel=channel)
        info = await env.svc.info(cid)
        plugin = env.svc.rulesets.get(ruleset)
        data = await env.svc.panel(cid, JAP)
        spec = panels.compose(plugin, data, scenario=info.scenario, locale="en", commander_id=JAP)
        actions[ruleset] = [(b.action, b.label) for b in spec.buttons]
    assert ("odds", "What are my odds?") in actions["carrier"]
    assert "odds" not in [action for action, _ in actions["land"]]


async def test_a_double_click_is_told_to_wait_and_nothing_runs_twice(env: Env) -> None:
    cid = await _campaign(env, "busy-seed")
    round_id = await _draft(env, cid, JAP, {})
    question = await odds.ask(env.svc, cid, JAP, round_id)
    odds._running.add((cid, round_id, question.side))  # the first click's preview
    try:
        with pytest.raises(odds.Busy):
            await odds.run(question, cid, round_id)
    finally:
        odds._running.discard((cid, round_id, question.side))
    assert await odds.run(question, cid, round_id) is not None
    assert not odds._running


def test_a_drafted_strike_shows_in_the_damage_it_is_expected_to_do(catalog: Catalog) -> None:
    """Same public seed, two own picks: a Large Strike on TF 17 ticks more of its boxes."""
    rules = Registry().get("carrier").rules
    state = rules.new("coral-sea", "any")
    boxes = {}
    for pick in ("large:allied-fleet", "none"):
        result = rules.odds(
            state, "japanese", {"flight_ops": pick}, ("doctrine",), samples=30, seed="same"
        )
        assert result is not None and result.samples == 30
        assert result.win + result.draw + result.loss == 30
        assert "flight_ops" not in result.sampled and "fleet_tactic" in result.sampled
        boxes[pick] = next(t.boxes for t in result.targets if t.place == "allied-fleet")
    assert boxes["large:allied-fleet"] > boxes["none"] + 1


def test_the_answer_reads_in_the_clickers_language() -> None:
    figures = Odds(
        side="allied",
        samples=4,
        win=2,
        draw=1,
        loss=1,
        targets=(TargetOdds("allied-fleet", "TF 17", "allied", 1.5, 0.75),),
        sampled=("resource",),
    )
    english, french = odds.text(figures, "en"), odds.text(figures, "fr")
    assert "ahead 50%, even 25%, behind 25%" in english
    assert "TF 17 (yours): 1.5 boxes, hit in 75% of the plays" in english
    assert "4 simulated plays" in english and "Resource" in english
    assert "l'avantage 50\u00a0%" in french and "1,5 cases" in french
    assert "4 parties simulées" in french
