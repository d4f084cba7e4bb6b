"""Announcements a round queues in the outbox: the round message, the campaign card, the
GM's notices and the commanders' DM panels.

Each is written in the caller's transaction, so what is posted afterwards describes a
state that was committed; nothing here sends anything (``bot.outbox`` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.service_model import (
    idle_lock,
)
from db.repository import (
    CampaignRow,
    NewOutbox,
    Transaction,
)


async def notify(
    tx: Transaction,
    campaign: CampaignRow,
    kind: str,
    payload: Mapping[str, Any],
    now: int,
    *,
    dm_user: int | None = None,
    message_key: str | None = None,
    dedupe_key: str | None = None,
    coalesce: bool = False,
) -> None:
    """Queue one announcement for the campaign's channel, or a user's DMs (written with
    the transaction's other announcements, before it commits)."""
    await tx.queue(
        campaign.id,
        NewOutbox(
            kind=kind,
            target_kind="dm" if dm_user is not None else "channel",
            target_id=dm_user if dm_user is not None else campaign.channel_id,
            payload={"campaign_id": campaign.id, **payload},
            message_key=message_key,
            dedupe_key=dedupe_key,
            coalesce=coalesce,
        ),
        now,
    )


async def refresh_round_message(
    tx: Transaction, campaign: CampaignRow, round_id: int, now: int
) -> None:
    # The round message is rebuilt from the database when it is delivered, so one pending
    # update is enough however many locks happen before the worker runs.
    await notify(
        tx,
        campaign,
        "round-message",
        {"round_id": round_id},
        now,
        message_key=f"round:{round_id}",
        coalesce=True,
    )


async def refresh_card(tx: Transaction, campaign: CampaignRow, now: int) -> None:
    await notify(tx, campaign, "campaign-card", {}, now, message_key="card", coalesce=True)


async def gm_notice(
    tx: Transaction, campaign: CampaignRow, notice: str, now: int, **params: Any
) -> None:
    await notify(
        tx,
        campaign,
        "gm-notice",
        {"notice": notice, "params": params, "gm_id": campaign.gm_id},
        now,
    )


async def commanders(tx: Transaction, campaign_id: int) -> dict[str, int]:
    return {p.side: p.user_id for p in await tx.players(campaign_id) if p.commander}


async def send_panel(
    tx: Transaction, campaign: CampaignRow, round_id: int, user_id: int, side: str, now: int
) -> None:
    """A DM panel, or for a player known to have closed DMs a pointer to /orders."""
    player = await tx.player(campaign.id, user_id)
    if player is not None and not player.dm_ok:
        await gm_notice(tx, campaign, "use-orders", now, user=user_id, side=side)
        return
    # One DM per round and player, edited whenever what it shows changes (a pause, a new
    # deadline, the round's end): queued updates coalesce like the round message's.
    await notify(
        tx,
        campaign,
        "dm-panel",
        {"round_id": round_id, "user_id": user_id, "side": side},
        now,
        dm_user=user_id,
        message_key=f"panel:{round_id}:{user_id}",
        coalesce=True,
    )


async def refresh_panels(tx: Transaction, campaign: CampaignRow, round_id: int, now: int) -> None:
    """Redraw the commanders' DM panels of a round (pause, resume, deadline, end)."""
    locks = await tx.standing_locks(round_id)
    for side, user_id in sorted((await commanders(tx, campaign.id)).items()):
        if side in locks and idle_lock(locks[side]):
            continue  # asked nothing, sent no panel: nothing to redraw
        player = await tx.player(campaign.id, user_id)
        if player is not None and player.dm_ok:
            await send_panel(tx, campaign, round_id, user_id, side, now)
