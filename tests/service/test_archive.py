"""The archive's service side, on both stores: finding a channel's campaign after it ended,
a server's list, missed deadlines per player, and settings changed with a reason."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.logtext import describe
from bot.service_model import ServiceError
from bot.service_settings import SettingsChange
from engine.zero.types import Side
from tests.service.support import ALL, CHANNEL, GM, GUILD, JAP, Env, pace

SUB = 33


async def test_a_finished_campaign_is_still_the_channels_until_a_new_one(env: Env) -> None:
    first = await env.campaign()
    await env.svc.end(first, GM, "done")
    assert await env.svc.campaign_in_channel(CHANNEL) is None  # nothing live here
    found = await env.svc.campaign_for_channel(CHANNEL)
    assert found is not None and (found.id, found.status) == (first, "finished")
    assert found.ended_at is not None
    second = await env.svc.create_campaign(GUILD, CHANNEL, GM, "midway")
    found = await env.svc.campaign_for_channel(CHANNEL)
    assert found is not None and found.id == second.id  # the live one comes first
    # ... and the finished one is still reached by its number.
    assert (await env.svc.campaign_in_guild(first, GUILD)).status == "finished"
    assert await env.svc.campaign_for_channel(CHANNEL + 1) is None


async def test_a_campaign_number_from_another_server_reads_as_unknown(env: Env) -> None:
    cid = await env.campaign()
    other = await env.svc.create_campaign(GUILD + 1, CHANNEL + 1, GM, "midway")
    with pytest.raises(ServiceError) as foreign:
        await env.svc.campaign_in_guild(other.id, GUILD)
    with pytest.raises(ServiceError) as unknown:
        await env.svc.campaign_in_guild(other.id + 50, GUILD)
    with pytest.raises(ServiceError) as forged:
        await env.svc.campaign_in_guild(2**70, GUILD)
    assert foreign.value.code == unknown.value.code == forged.value.code == "foreign-campaign"
    assert str(other.id) in foreign.value.message("en")
    assert (await env.svc.campaign_in_guild(cid, GUILD)).id == cid


async def test_server_list_is_newest_first_paged_and_says_who_won(
    env: Env, clock: ManualClock
) -> None:
    ids = []
    for channel in range(5):
        info = await env.svc.create_campaign(GUILD, CHANNEL + channel, GM, "coral-sea")
        ids.append(info.id)
    await env.svc.create_campaign(GUILD + 1, CHANNEL + 99, GM, "midway")  # another server
    await env.svc.end(ids[0], GM, "abandoned")
    first = await env.svc.guild_campaigns(GUILD, page=1, per_page=2)
    assert (first.total, first.pages) == (5, 3)
    assert [c.id for c in first.campaigns] == [ids[4], ids[3]]
    last = await env.svc.guild_campaigns(GUILD, page=99, per_page=2)  # clamped to the last
    assert last.page == 3 and [c.id for c in last.campaigns] == [ids[0]]
    ended = last.campaigns[0]
    assert ended.status == "finished" and ended.winner is None and ended.turn == 1
    assert ended.end_reason == "abandoned"
    hidden = await env.svc.guild_campaigns(GUILD, visible={CHANNEL + 1})
    assert [c.id for c in hidden.campaigns] == [ids[1]]
    choices = await env.svc.campaign_choices(GUILD)
    assert [c.id for c in choices] == list(reversed(ids))


async def test_missed_deadlines_count_for_the_sides_players_at_the_time(
    env: Env, clock: ManualClock
) -> None:
    cid = await env.campaign(pace=pace(reminder_offsets=()), start=False)
    await env.svc.join(cid, 44, Side.JAPANESE)  # a Japanese teammate
    await env.svc.start(cid, GM)
    # Turn 1 orders: Japanese lock, Allied miss the deadline.
    await env.svc.lock(cid, JAP, await env.fill(cid, JAP))
    clock.advance(days=1, seconds=1)
    await env.svc.tick()
    assert await env.svc.missed(cid) == {ALL: 1}
    # Resource round: both miss it.
    clock.advance(days=1, seconds=1)
    await env.svc.tick()
    assert await env.svc.missed(cid) == {ALL: 2, JAP: 1, 44: 1}
    # A substitute starts with a clean slate; the GM resolving early is no missed deadline.
    clock.advance(minutes=5)
    await env.svc.substitute(cid, GM, ALL, SUB, "holiday")
    await env.svc.resolve_now(cid, GM, "speed up")
    clock.advance(days=1, seconds=1)
    await env.svc.tick()
    missed = await env.svc.missed(cid)
    assert missed[ALL] == 2 and missed[SUB] == 1 and missed[JAP] == 2
    listed = (await env.svc.guild_campaigns(GUILD)).campaigns[0]
    assert listed.missed == 5  # side-deadlines: Allied 3, Japanese 2


async def test_settings_change_is_checked_logged_and_audited(env: Env) -> None:
    cid = await env.campaign()
    change = SettingsChange(round_seconds=12 * 3600, missing_policy="drafts", locale="fr")
    assert [name for name, _, _ in await env.svc.settings_check(cid, GM, change)] == [
        "deadline",
        "missing",
        "language",
    ]
    refusals = {
        "not-gm": (JAP, change, "mine"),
        "no-reason": (GM, change, "  "),
        "settings-unchanged": (GM, SettingsChange(round_seconds=86_400), "same"),
        "bad-reminders": (GM, SettingsChange(round_seconds=3 * 3600), "reminder 6h too late"),
        "bad-pace": (GM, SettingsChange(round_seconds=10), "too short"),
        "bad-policy": (GM, SettingsChange(missing_policy="coin-flip"), "why not"),
        "bad-locale": (GM, SettingsChange(locale="de"), "Deutsch"),
    }
    for code, (by, wanted, reason) in refusals.items():
        with pytest.raises(ServiceError) as refused:
            await env.svc.change_settings(cid, by, wanted, reason)
        assert refused.value.code == code
    info = await env.svc.info(cid)
    assert (info.pace.round_seconds, info.pace.missing_policy, info.locale) == (
        86_400,
        "default",
        "en",
    )

    changed = await env.svc.change_settings(cid, GM, change, "players in Asia")
    assert changed[0] == ("deadline", 86_400, 12 * 3600)
    info = await env.svc.info(cid)
    assert (info.pace.round_seconds, info.pace.missing_policy, info.locale) == (
        12 * 3600,
        "drafts",
        "fr",
    )
    log = await env.svc.log(cid)
    entry = next(e for e in log.entries if e.kind == "settings-changed")
    assert entry.data["reason"] == "players in Asia"
    # The values are kept, so each reader gets the change in their own language.
    assert entry.data["changes"][0] == ["deadline", 86_400, 12 * 3600]
    assert "time per round 1 d → 12 h" in describe(entry.kind, entry.data, "en")
    french = describe(entry.kind, entry.data, "fr")
    assert "durée par manche\u00a0: 1 j → 12 h" in french
    assert "ordres manquants\u00a0: l'ordre par défaut → l'ordre en brouillon" in french
    assert "langue\u00a0: anglais → français" in french
    async with env.repo.read() as tx:
        audit = [a for a in await tx.audit(cid) if a.what == "settings"]
    assert audit and audit[0].why == "players in Asia"
    assert audit[0].data["changes"]["missing"] == {"from": "default", "to": "drafts"}
    assert "campaign-card" in await env.outbox_kinds(cid)


async def test_new_round_length_counts_from_the_next_round(env: Env, clock: ManualClock) -> None:
    cid = await env.campaign(pace=pace(reminder_offsets=()))
    before = (await env.svc.status(cid)).round
    assert before is not None and before.deadline is not None
    await env.svc.change_settings(cid, GM, SettingsChange(round_seconds=2 * 3600), "faster")
    still = (await env.svc.status(cid)).round
    assert still is not None and still.deadline == before.deadline
    await env.play_round(cid)
    after = (await env.svc.status(cid)).round
    assert after is not None and after.deadline is not None
    assert (after.deadline - after.opened_at).total_seconds() == 2 * 3600


async def test_settings_of_a_finished_campaign_are_refused(env: Env) -> None:
    cid = await env.campaign()
    await env.svc.end(cid, GM, "over")
    with pytest.raises(ServiceError) as refused:
        await env.svc.change_settings(cid, GM, SettingsChange(locale="fr"), "late")
    assert refused.value.code == "finished"
