"""A squadron's purchases at the debrief stay its secret through the real service (seed E/F:
"each side's purchases" are secret and simultaneous): two campaigns differing only in the
Entente's purchase read the same to the Central side and to the channel while they run (the
``purchase`` field opens when the campaign ends: the debrief's receipts stay closed till
then); the purchase still happens and replays; the finished campaign's report names it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.demo import SeededTokens
from bot.export import after_action_markdown, verify_export
from bot.panel import compose, menu_words
from engine.ruleset import Decision
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog
from rendering.i18n import t
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, finish_and_verify, lock_all, start_wings
from tests.test_french import problems

SEED = "buy-secret"
# A digest carries nothing without the salt that made it: a lock's receipt (sha256 of the
# canonical choice and its salt, whole or cut short in the channel) differs with any choice.
DIGESTS = re.compile(r"[0-9a-f]{64}|[0-9a-f]{8}…")


async def _open(path: Path) -> Env:
    clock = ManualClock(datetime(2025, 6, 1, 12, 0, tzinfo=UTC))
    return await Env(path, default_catalog(), clock, SeededTokens(7)).open()


async def _to_debrief(env: Env, cid: int) -> Decision:
    """Plays the first mission at the defaults; the Entente's purchase at its debrief."""
    for _ in range(80):
        panel = await env.svc.panel(cid, ENTENTE)
        asked = next((d for d in panel.decisions if d.field == "purchase"), None)
        if asked is not None:
            return asked
        await lock_all(env, cid)
    raise AssertionError("no debrief asked the Entente to buy")


def _pick(asked: Decision, kind: str) -> tuple[str, int]:
    """The option buying ``kind``, and its price in CP."""
    option = next(o for o in asked.options if o.detail.startswith(f"buy|{kind}|"))
    return option.id, int(option.detail.split("|")[2])


async def _seen_by_others(env: Env, cid: int) -> dict[str, Any]:
    """All the Central side and the public may read of the campaign now."""
    central: Any = (await env.svc.panel(cid, CENTRAL)).view
    public: Any = (await env.svc.status(cid)).view
    page = await env.svc.log(cid, per_page=200)
    export = await env.svc.export(cid)
    sent = [
        (target.kind, target.id, a.text, a.alt)
        for target, a, _ in env.sender.sent
        if target.kind == "channel" or target.id == CENTRAL
    ]
    seen = {
        "central": central.data,
        "public": public.data,
        "log": [(e.kind, e.turn, e.data) for e in page.entries],
        "rounds": export["rounds"],  # the receipts opened: canonical choices and salts
        "sent": sent,
    }
    return json.loads(
        DIGESTS.sub("#", json.dumps(seen, default=str, sort_keys=True, ensure_ascii=False))
    )


# Fuel the Entente has bought before; trenches it never had (its "owned" list grows).
@pytest.mark.parametrize("kind", ["fuel", "trenches"])
async def test_the_other_side_and_the_channel_cannot_tell_what_a_squadron_bought(
    tmp_path: Path, catalog: Catalog, kind: str
) -> None:
    envs = [await _open(tmp_path / f"{name}.db") for name in ("bought", "kept")]
    try:
        cids = [await start_wings(env, SEED) for env in envs]
        asked = [await _to_debrief(env, cid) for env, cid in zip(envs, cids, strict=True)]
        assert {o.id for o in asked[0].options} >= {"none", kind}  # the resources themselves
        picked, price = _pick(asked[0], kind)
        await lock_all(envs[0], cids[0], {ENTENTE: {"purchase": picked}})
        await lock_all(envs[1], cids[1])  # the default: nothing
        bought, kept = [
            await _seen_by_others(env, cid) for env, cid in zip(envs, cids, strict=True)
        ]
        opened = json.dumps([bought["rounds"], bought["log"]]).lower()
        assert kind not in opened, re.findall(rf".{{120}}{kind}.{{60}}", opened)
        for part in bought:
            assert bought[part] == kept[part], part
        # The purchase happened all the same: the Entente's own view shows it.
        own = [
            (await env.svc.panel(cid, ENTENTE)).view.data
            for env, cid in zip(envs, cids, strict=True)
        ]  # type: ignore[attr-defined]
        mine, theirs = (view["squadrons"]["entente"] for view in own)
        assert mine["reserve"] == theirs["reserve"] - price
        assert mine["stock"].get(kind, 0) > theirs["stock"].get(kind, 0)
        assert kind in mine["owned"]
        # While the campaign runs, its report does not name it; once over, it does.
        running = after_action_markdown(await envs[0].svc.export(cids[0]))
        words = {loc: t(f"wings.purchase.{kind}", loc) for loc in ("en", "fr")}
        assert words["en"] not in running
        await finish_and_verify(envs[0], cids[0], catalog)
        export = await envs[0].svc.export(cids[0])
        check = verify_export(export)
        assert check.ok and check.replayed, check.problems
        report = after_action_markdown(export)
        assert words["en"] in report
        french = after_action_markdown(export, locale="fr")
        assert words["fr"] in french
    finally:
        for env in envs:
            await env.repo.close()


async def test_the_owner_panel_names_each_purchase_and_its_price(
    tmp_path: Path,
) -> None:
    env = await _open(tmp_path / "panel.db")
    try:
        cid = await start_wings(env, SEED)
        asked = await _to_debrief(env, cid)
        plugin = env.svc.rulesets.get("wings")
        for locale, price in (("en", "Fuel (1 CP)"), ("fr", "Carburant (1\u00a0PC)")):
            words = menu_words(plugin, "wings-1917", asked, locale)
            assert price in words, words
            assert t("wings.nothing", locale) in words
            # Once opened (at the campaign's end), the pick reads as the resource it bought.
            opened = [
                plugin.presenter.option_text("wings-1917", "purchase", o.id, locale)
                for o in asked.options
            ]
            assert t("wings.purchase.fuel", locale) in " ".join(opened), opened
            if locale == "fr":
                assert not problems([("menu", " ".join(words)), ("opened", " ".join(opened))])
        # Drafted, the pick reads on the owner's panel (its ✓ line) as resource and price.
        panel = await env.svc.panel(cid, ENTENTE)
        await env.svc.draft(cid, ENTENTE, panel.round_id, "purchase", _pick(asked, "fuel")[0])
        panel = await env.svc.panel(cid, ENTENTE)
        for locale, price in (("en", "Fuel (1 CP)"), ("fr", "Carburant (1\u00a0PC)")):
            spec = compose(plugin, panel, scenario="wings-1917", locale=locale, commander_id=None)
            assert f"✓ {price}" in spec.text, spec.text
    finally:
        await env.repo.close()
