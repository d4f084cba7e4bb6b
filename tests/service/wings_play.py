"""Playing a Wings of War campaign through the real service, as the Wings service tests do:
two commanders, every field at its default unless a test picks it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import engine.rulesets.wings as seam
from bot.export import verify_export
from bot.logtext import describe
from engine.zero.catalog import Catalog
from tests.service.support import CHANNEL, GM, GUILD, Env, pace
from tests.wings.helpers import with_planes

__all__ = ["with_planes"]  # the service tests' set-ups change planes as the seam tests do

ENTENTE, CENTRAL = 11, 22


async def start_wings(env: Env, seed: str, scenario: str = "wings-1917") -> int:
    """A started campaign of ``scenario``, its first announcements delivered."""
    info = await env.svc.create_campaign(
        GUILD, CHANNEL, GM, scenario, pace(), seed=seed, ruleset="wings"
    )
    await env.svc.join(info.id, ENTENTE, "entente")
    await env.svc.join(info.id, CENTRAL, "central")
    await env.svc.start(info.id, GM)
    await env.worker().deliver_due()
    return info.id


async def lock_all(env: Env, cid: int, picks: dict[int, dict[str, str]] | None = None) -> None:
    """Each commander drafts every field at its default, but the ``picks`` given him, and
    locks; then the announcements go out."""
    for user in (ENTENTE, CENTRAL):
        if (await env.svc.status(cid)).campaign.status == "finished":
            return  # the first lock ended the campaign
        panel = await env.svc.panel(cid, user)
        if panel.locked:
            continue
        chosen = {d.field: d.default for d in panel.decisions}
        chosen.update((picks or {}).get(user, {}))
        for field, value in chosen.items():
            await env.svc.draft(cid, user, panel.round_id, field, value)
        await env.svc.lock(cid, user, panel.round_id)
    await env.worker().deliver_due()


async def log_lines(env: Env, cid: int, *, oldest_first: bool = False) -> list[str]:
    """The whole campaign log in English (the service pages it, 50 entries at most)."""
    lines: list[str] = []
    for number in range(1, 1000):
        page = await env.svc.log(cid, page=number, per_page=50)
        if not page.entries:
            break
        lines += [describe(e.kind, e.data, "en", turn=e.turn) for e in page.entries]
    return lines[::-1] if oldest_first else lines


async def finish_and_verify(env: Env, cid: int, catalog: Catalog) -> None:
    """Plays on to the campaign's end, every side at its defaults; its export must replay."""
    for _ in range(300):
        if (await env.svc.status(cid)).campaign.status == "finished":
            break
        await lock_all(env, cid)
    assert (await env.svc.status(cid)).campaign.status == "finished"
    check = verify_export(await env.svc.export(cid))
    assert check.ok and check.replayed, check.problems


def set_up_opening(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[seam.WingsState], seam.WingsState]
) -> None:
    """Every campaign the test creates opens on ``change`` of its usual first state."""
    original = seam.WingsRules.new

    def new(self: seam.WingsRules, scenario: str, seed: str) -> seam.WingsState:
        return change(original(self, scenario, seed))

    monkeypatch.setattr(seam.WingsRules, "new", new)
