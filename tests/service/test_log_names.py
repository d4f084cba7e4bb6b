"""`/log` names pilots, not the engine's plane ids, and no coordinates (issue 27): the
page carries the names the public view gives (Presenter.names), and each line reads them."""

from __future__ import annotations

import re

from bot.logtext import describe
from tests.service.support import Env
from tests.service.wings_play import lock_all, start_wings


async def test_the_log_reads_pilots_names(env: Env) -> None:
    cid = await start_wings(env, "names")
    for _ in range(3):
        await lock_all(env, cid)
    page = await env.svc.log(cid, per_page=50)
    assert page.names["P1"] == "Albert Ball" and page.names["P3"] == "Kurt Wolff"
    lines = [describe(e.kind, e.data, "en", turn=e.turn, names=page.names) for e in page.entries]
    moves = [line for line in lines if " ends its " in line]
    assert moves and all(re.match(r"^(Albert Ball|Cecil Lewis|Kurt Wolff|Karl Allmenröder) ", m)
                         for m in moves), moves  # fmt: skip
    assert not [line for line in lines if re.search(r"\bP[1-4]\b", line)], lines
    assert not [line for line in lines if re.search(r"\(\d+\.\d+, \d+\.\d+\)", line)], lines
    french = [describe(e.kind, e.data, "fr", turn=e.turn, names=page.names) for e in page.entries]
    assert any(line.startswith("Albert Ball termine sa carte") for line in french), french
