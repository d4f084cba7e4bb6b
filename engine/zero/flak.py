"""Flak (22.0): Area Flak with no answer, Target Flak with the single allowed answer.

The number of cards comes from the caller (``bombing.target_flak_count`` reads the Bombing
Display; Area Flak is the sheet value plus modifiers). Only IMS and OTS cards hurt; a
Spoiled Attack in Target Flak cancels the aircraft's best bomb or strafe card, which the
bombing module applies from the returned spoil count (22.13, 22.23).
"""

from __future__ import annotations

from typing import Any

from engine.zero.cards import Card, ids_of
from engine.zero.dogfight import (
    IMS,
    OTS,
    FlakKind,
    Plane,
    Sky,
    Source,
    hurt,
    pick_response,
    play_response,
    would_change,
)


def area_flak(sky: Sky, p: Plane, count: int, *, with_spoils: bool = False) -> dict[str, Any]:
    """22.1: ``count`` cards at an aircraft over the target; IMS/OTS damage, no answers (22.14).

    ``with_spoils`` counts the Spoiled Attack marks too: a scout's report draw meets Area
    Flak the way a bomb run meets Target Flak (authored 3.4), so spoils cancel its cards.
    """
    cards = sky.draw(max(0, count), "area-flak", p.uid)
    damage = spoils = 0
    for c in cards:
        if c.title is IMS or c.title is OTS:
            damage += c.damage or 0
        spoils += c.spoiled
    if not with_spoils:
        spoils = 0
    sky.discards.extend(cards)
    return _shot(sky, p, "area", cards, None, None, damage, spoils)


def target_flak(sky: Sky, p: Plane, count: int, kind: FlakKind = "target") -> dict[str, Any]:
    """22.2: Target Flak (or the strafing salvo, 22.27) at one aircraft.

    Formation aircraft cannot answer (22.24). A fighter or fighter-bomber plays one card in
    all (22.25): a Leader from its hand, a Wingman from a Defensive mini-hand drawn only
    when there is a damaging card to answer (22.26). The answer goes to the most damaging
    card it can cancel; a Spoiled Attack can never be answered, so an answered spoiling IMS
    loses its damage but its spoil still counts. ACE PILOT is spent only when the salvo
    would flip or destroy a Leader (dogfight policy).
    """
    cards = sky.draw(max(0, count), "strafe-flak" if kind == "strafe" else "target-flak", p.uid)
    hits: list[Card] = []
    spoils = 0
    for c in cards:
        if c.title is IMS or c.title is OTS:
            hits.append(c)
        spoils += c.spoiled
    answered: Card | None = None
    answer: Card | None = None
    if hits and not p.is_formation:
        total = sum(c.damage or 0 for c in hits)
        mini: list[Card] = []
        if p.lead:
            src = Source(p, p.hand, would_change(p, total), 1)
        else:
            mini = sky.draw(max(0, p.rat.defensive), "flak-defence", p.uid)
            src = Source(p, mini, True, 1)
        for card in sorted(hits, key=lambda c: -(c.damage or 0)):
            pick = pick_response(sky, [src], card.title, False, None)
            if pick is not None:
                play_response(sky, pick)
                answered, answer = card, pick[1]
                break
        sky.discards.extend(mini)
    damage = 0
    for c in hits:
        if c is not answered:
            damage += c.damage or 0
    sky.discards.extend(cards)
    return _shot(
        sky,
        p,
        kind,
        cards,
        answered.id if answered is not None else None,
        answer.id if answer is not None else None,
        damage,
        spoils,
    )


def _shot(
    sky: Sky,
    p: Plane,
    kind: FlakKind,
    cards: list[Card],
    answered: int | None,
    answer_card: int | None,
    damage: int,
    spoils: int,
) -> dict[str, Any]:
    """The salvo (the fields of its ``FlakShot``), recorded if the sky keeps records, then
    its damage taken."""
    shot = {
        "phase": sky.phase,
        "kind": kind,
        "against": p.uid,
        "cards": ids_of(cards),
        "answered": answered,
        "answer_card": answer_card,
        "damage": damage,
        "spoils": spoils,
    }
    if sky.records:
        sky.flak.append(shot)
    if damage > 0:
        hurt(sky, p, damage)
    return shot
