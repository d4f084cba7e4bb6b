"""The after-action report lists what each side decided; a round nobody was asked anything
in (a Wings turn without a pursuit still has its reorder round) is left out, and a side
asked nothing while the other decided reads "nothing to decide", not a blank."""

from __future__ import annotations

import re

from bot.export import after_action_markdown, choice_of
from bot.service_model import canonical_choice
from engine.zero.catalog import Catalog
from tests.service.support import Env
from tests.service.wings_play import finish_and_verify, start_wings


async def test_empty_rounds_are_left_out_and_empty_choices_are_worded(
    env: Env, catalog: Catalog
) -> None:
    cid = await start_wings(env, "report-rounds")
    await finish_and_verify(env, cid, catalog)
    export = await env.svc.export(cid)
    report = after_action_markdown(export)
    assert not re.search(r"^- [^:\n]+: +— ", report, re.M), report  # no blank choice
    resolved = [r for r in export["rounds"] if r["status"] == "resolved"]

    def asked_nothing(lock: dict[str, str]) -> bool:
        return not choice_of(lock["canonical"])

    empty = [r for r in resolved if all(asked_nothing(lock) for lock in r["locks"])]
    assert empty  # the campaign had reorder rounds without a pursuit
    listed = report.count("**Tailing reorder**")
    reorders = [r for r in resolved if r["kind"] == "reorder"]
    assert listed == len(reorders) - len([r for r in empty if r["kind"] == "reorder"])
    # A side asked nothing while the other decided (its planes all down, say) reads so.
    lone = next(r for r in resolved if r not in empty and len(r["locks"]) == 2)
    lock = lone["locks"][0]
    lock["canonical"] = canonical_choice(cid, 1, lone["turn"], lone["kind"], lock["side"], {})
    lock["defaulted"] = True
    reworded = after_action_markdown(export)
    assert reworded.count("nothing to decide") == 1 + report.count("nothing to decide")
    assert "nothing to decide (default orders)" not in reworded
