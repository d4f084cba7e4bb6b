"""A refused option is named as the panel names it (issue 16: the French refusal showed
``long`` or ``large:allied-fleet``): through the service, for every ruleset, an option the
panel leaves out, forged into a select, is refused in English and French with its name."""

from __future__ import annotations

import re

import pytest

from bot.service_model import ServiceError
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env, pace

SCENARIOS = {
    "carrier": "coral-sea",
    "land": "burma-dec41-jan42",
    "pearl-harbor": "pearl-harbor",
    "wings": "wings-1917",
}


async def _refusal(env: Env, ruleset: str) -> tuple[str, str, ServiceError]:
    """Play first options until some panel leaves an option out; forge a pick of it."""
    plugin = env.svc.rulesets.get(ruleset)
    sides = plugin.rules.side_ids
    scenario = SCENARIOS[ruleset]
    info = await env.svc.create_campaign(
        GUILD, CHANNEL + len(ruleset), GM, scenario, pace(), seed="names", ruleset=ruleset
    )
    users = dict(zip(sides, (JAP, ALL), strict=False))
    for side, user in users.items():
        await env.svc.join(info.id, user, side)
    await env.svc.start(info.id, GM)
    for _ in range(40):
        for user in users.values():
            panel = await env.svc.panel(info.id, user)
            for decision in panel.decisions:
                # Pearl Harbor leaves nothing out: a target of another group (torpedoes
                # against an airfield) is the forged pick there.
                elsewhere = [
                    o.id
                    for other in panel.decisions
                    for o in other.options
                    if o.id not in {mine.id for mine in decision.options}
                ]
                if decision.written:
                    continue  # a written program is refused by its text (test_input_kinds)
                if decision.excluded or (ruleset == "pearl-harbor" and elsewhere):
                    left_out = decision.excluded[0].id if decision.excluded else elsewhere[0]
                    with pytest.raises(ServiceError) as refused:
                        await env.svc.draft(info.id, user, panel.round_id, decision.field, left_out)
                    return decision.field, left_out, refused.value
            for decision in panel.decisions:
                if decision.options:
                    pick = decision.default or decision.options[0].id
                    await env.svc.draft(info.id, user, panel.round_id, decision.field, pick)
            await env.svc.lock(info.id, user, panel.round_id)
    raise AssertionError(f"{ruleset}: no panel left an option out")


@pytest.mark.parametrize("ruleset", ["carrier", "land", "pearl-harbor", "wings"])
async def test_a_left_out_option_is_refused_by_its_name(env: Env, ruleset: str) -> None:
    field, value, error = await _refusal(env, ruleset)
    assert error.code == "illegal-option"
    presenter = env.svc.rulesets.get(ruleset).presenter
    for lang in ("en", "fr"):
        name = presenter.option_text(SCENARIOS[ruleset], field, value, lang)
        message = error.message(lang)
        assert message.startswith(name), (lang, message)
        if value not in name:  # the id itself never shows ("#2 Codebreakers" holds "2")
            assert not re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", message), message


async def test_carrier_refusal_in_both_languages(env: Env) -> None:
    cid = await env.campaign()
    await env.close_range_turn(cid)  # turn 2: Long Range is not allowed after Close Range
    panel = await env.svc.panel(cid, JAP)
    with pytest.raises(ServiceError) as refused:
        await env.svc.draft(cid, JAP, panel.round_id, "fleet_tactic", "long")
    assert refused.value.message("en") == (
        "Long Range cannot be chosen for Fleet Tactic: not after Close Range."
    )
    assert refused.value.message("fr") == (
        "Longue Distance ne peut pas être choisi pour Tactique de Flotte\u00a0:"
        " pas après Distance Réduite."
    )
    # A value no option has (a forged select) is quoted back as it came.
    with pytest.raises(ServiceError) as forged:
        await env.svc.draft(cid, JAP, panel.round_id, "fleet_tactic", "warp")
    assert forged.value.message("fr").startswith("warp ne peut pas être choisi")
