"""The capacity benchmark's copies are the campaigns they copy: a campaign played through the
service, copied under new ids (``bench/clone.py``), shows its new players the same panel and
board as the original's players, and plays on alike (same resolution, same next round)."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import clone  # noqa: E402
from bench.service import _open  # noqa: E402


def _fields(panel):  # type: ignore[no-untyped-def]
    return (
        panel.status,
        panel.missing,
        panel.locked,
        [(d.field, [o.id for o in d.options]) for d in panel.decisions],
    )


async def test_a_copy_plays_like_its_original(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(clone, "PLAYS", (("carrier", "coral-sea", 11),))
    stages = clone.Stages(tmp_path / "stages.db")
    await clone.play_stages(str(tmp_path), stages, 1, 3)
    third = next(s for s in stages.stages() if s.round == 3)
    async with _open(str(tmp_path), "copy.db", 1):
        pass  # the schema
    played = stages.users(third)
    users = {side: 500 + n for n, (_u, side) in enumerate(played)}
    ids = clone.Ids(campaign=77, guild=5, channel=6, gm=7, users={u: users[s] for u, s in played})
    target = sqlite3.connect(tmp_path / "copy.db")
    stages.clone(target, third, ids, offset=1_000_000)
    target.commit()
    target.close()

    # The original, as it stood at round 3: its rows captured, so a second copy under the
    # original's own ids is that campaign (the seed database has moved on since).
    source = stages.db.execute(
        "SELECT campaign_id FROM stages WHERE key = ?", (third.key,)
    ).fetchone()[0]
    same = clone.Ids(campaign=source, guild=1, channel=8, gm=9, users={u: u for u, _s in played})
    async with _open(str(tmp_path), "same.db", 1):
        pass
    target = sqlite3.connect(tmp_path / "same.db")
    stages.clone(target, third, same, offset=0)
    target.commit()
    target.close()
    stages.close()

    outcomes = []
    for name, cid, who in (("same.db", source, {s: u for u, s in played}), ("copy.db", 77, users)):
        async with _open(str(tmp_path), name, 1) as (_, svc):
            panels = [_fields(await svc.panel(cid, user)) for user in who.values()]
            before = await svc.status(cid)
            for user in who.values():
                panel = await svc.panel(cid, user)
                for field in panel.missing:  # the first legal option, the same in both
                    option = next(d for d in panel.decisions if d.field == field).options[0]
                    panel = await svc.draft(cid, user, panel.round_id, field, option.id)
                result = await svc.lock(cid, user, panel.round_id)
            await svc.settle()
            after = await svc.status(cid)
            outcomes.append(
                (
                    panels,
                    before.view.model_dump(),
                    result.resolved,
                    after.view.model_dump(),
                    after.round.turn if after.round else None,
                )
            )
    assert outcomes[0][0][0][0] == "open"
    assert outcomes[0][2] is True  # the second Lock resolved the round
    assert outcomes[1] == outcomes[0]
