"""The after-action report says what each flak gunner ordered (seed A.IV.h), in words, once
the campaign is over; while it runs the orders are nobody else's (the program round's
receipts stay closed)."""

from __future__ import annotations

from bot.export import after_action_markdown
from engine.zero.catalog import Catalog
from rendering.i18n import t
from tests.service.support import Env
from tests.service.wings_play import CENTRAL, ENTENTE, finish_and_verify, lock_all, start_wings


async def test_the_report_opens_the_gunners_orders_only_once_the_campaign_is_over(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "gunner")
    await lock_all(env, cid)  # turn 1: the battery arms
    panels = {user: await env.svc.panel(cid, user) for user in (ENTENTE, CENTRAL)}
    gunner = next(u for u, p in panels.items() if "flak" in {d.field for d in p.decisions})
    flak = next(d for d in panels[gunner].decisions if d.field == "flak")
    delayed = next(o for o in flak.options if o.id.startswith("flak.delay."))
    _kind, plane, level = delayed.id.removeprefix("flak.").split(".")
    await lock_all(env, cid, {gunner: {"flak": delayed.id}})
    # Over the plane as the gunner's panel named it ("Cecil Lewis · SPAD VII"), not "P2".
    assert plane not in delayed.label and " · " in delayed.label
    over = delayed.label
    words = {loc: t("wings.flak.delay", loc, plane=over, level=level) for loc in ("en", "fr")}
    # While the campaign runs, the export holds no choice of the gunner's side that turn
    # (one receipt commits to his whole choice, the order in it); the other side's opened.
    export = await env.svc.export(cid)
    flown = [r for r in export["rounds"] if r["turn"] == 2 and r["kind"] == "program"]
    locks = [lock for r in flown for lock in r["locks"]]
    assert {lock["side"] for lock in locks} == {"entente", "central"}
    assert all((lock["canonical"] is None) == (lock["side"] == flak.side) for lock in locks)
    running = after_action_markdown(export)
    assert words["en"] not in running and "delay" not in running
    await finish_and_verify(env, cid, catalog)
    export = await env.svc.export(cid)
    report = after_action_markdown(export)
    assert words["en"] in report
    french = after_action_markdown(export, locale="fr")
    assert words["fr"] in french
