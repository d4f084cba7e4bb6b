"""What a resolved round shows of the choices it opens: the reveal message, and the receipts
the turn's end carries when a reveal would show nothing.

What a reveal may show and which salts it opens is the secrecy gate's answer
(``bot.secrecy``), from the fields' declared opening: a doctrine, for one, is committed
with the orders but opens at turn end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import secrecy
from bot.service_model import choice_of
from bot.service_notify import notify
from bot.service_panels import option_label
from bot.service_rounds import Ctx
from db.repository import CampaignRow, RoundRow, Transaction
from engine.ruleset import Decision


async def announce_reveal(
    tx: Transaction,
    ctx: Ctx,
    campaign: CampaignRow,
    round_row: RoundRow,
    decisions: Sequence[Decision],
    standing: Mapping[str, Any],
    after_id: int,
    ends_turn: bool,
    *,
    quiet: bool = False,
) -> list[dict[str, Any]]:
    """Queue the round's reveal. A quiet round (nobody decided) has none, nor has a round
    whose choices all stay sealed until the turn ends: the receipts it opens are returned
    for the turn's summary to carry, or, if it does not end the turn, still revealed on
    their own."""
    rules = ctx.plugin(campaign).rules
    sides: list[dict[str, Any]] = []
    for side in rules.side_ids:
        lock = standing[side]
        own = [d for d in decisions if d.side == side]
        choice = choice_of(lock.canonical)
        labels = {d.field: d.label for d in own if d.label}
        shown = {
            field: {
                "id": value,
                "label": option_label(own, field, value),
                # A per-unit field is named by its unit's public words (a pilot, a tank).
                **({"field_label": labels[field]} if field in labels else {}),
            }
            for field, value in secrecy.shown_at_reveal(rules, choice).items()
        }
        sides.append(
            {
                "side": side,
                "fields": shown,
                "receipt": lock.receipt,
                "defaulted": lock.defaulted,
                # Whether the side chose something the reveal may not show yet: the round
                # message already told everyone whether it had anything to decide.
                "sealed": len(choice) > len(shown),
            }
        )
    opened: list[dict[str, Any]] = []
    # The receipts a resolution opens are its turn's (``secrecy.opened_by``): the turn's
    # rounds only, not every round the campaign has played.
    rounds = [
        r
        for r in await tx.turn_rounds(campaign.id, round_row.branch, round_row.turn)
        if r.status in ("resolved", "resolving")
    ]
    resolved = next(r for r in rounds if r.id == round_row.id)
    for other in secrecy.opened_by(rules, resolved, rounds, ends_turn):
        assert isinstance(other, RoundRow)
        locks = standing if other.id == round_row.id else await tx.standing_locks(other.id)
        for side in rules.side_ids:
            lock = locks.get(side)
            if quiet and other.id == round_row.id:
                continue  # an empty choice nobody made: nothing to check (/receipt has it)
            if lock is not None and secrecy.opens_before_the_end(rules, choice_of(lock.canonical)):
                opened.append(
                    {
                        "round_id": other.id,
                        "round": other.kind,
                        "side": side,
                        "canonical": lock.canonical,
                        "salt": lock.salt,
                        "receipt": lock.receipt,
                    }
                )
            elif lock is not None and ends_turn:
                # Its receipt commits to a choice that stays secret until the campaign ends
                # (a purchase): the turn's end says so, without its salt or choice.
                opened.append(
                    {"round_id": other.id, "round": other.kind, "side": side, "held": True}
                )
    # A reveal that would show nothing (every choice sealed until the turn ends, as a flight
    # program is) is not posted either: "revealed" with nothing in it is noise, and the
    # turn's end shows what was chosen with its receipts.
    shows_nothing = not any(side["fields"] for side in sides)
    # A game that shows each turn flown shows its choices there: the round closing the
    # turn has no reveal of its own (a pursuer's reorder, a raid's night pick).
    told = ends_turn and ctx.plugin(campaign).presenter.tells_turns
    if (quiet or shows_nothing or told) and (ends_turn or not _opening(opened)):
        return opened
    payload: dict[str, Any] = {
        "round_id": round_row.id,
        "turn": round_row.turn,
        "round": round_row.kind,
        "snapshot_id": after_id,
        "sides": sides,
        "opened": opened,
    }
    if rules.public_round(round_row.kind):
        # Nothing was sealed: one short line says what was done, no receipts, no image.
        payload.update(sides=[s for s in sides if s["fields"]], opened=[], public=True)
    await notify(
        tx,
        campaign,
        "reveal",
        payload,
        ctx.now,
        dedupe_key=f"reveal:{round_row.id}",
    )
    return []


def _opening(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The receipts a resolution opens, without those it says stay sealed to the end."""
    return [item for item in items if not item.get("held")]
