"""The shooting and mechanics skills that change which damage cards are dealt or seen
(seed D.VII.b Sharpshooter and Killer, D.VII.c Expert's eye).

The seed lets the shooter choose cards while the shot is resolved; a play-by-post turn has
no round there, so the choice is a standing order (authored, docs/wings-data.md):

- Sharpshooter, on consecutive fire, instead of the aiming +1: one card more is drawn and
  the best are kept (an explosion first, then the most points, then a special); the spare
  card goes to the bottom of the deck.
- Killer (ultimate, 3 times a game), at short range with two cards or more: one card goes
  to the pilot, a "pilot wounded" card if there is one, else the one with most points; the
  pilot loses its points and suffers its wound. The other cards hit the aircraft.
- Expert's eye: every damage special he inflicts is told to his side (no token); and at
  the end of each turn, for one token, his side sees the damage cards of every damaged
  enemy plane within sight (under 1 R at his level, under R/2 one level apart) until the
  next turn ends.
"""

from __future__ import annotations

import engine.rulesets.wings.equipment as equipment
import engine.rulesets.wings.geometry as geo
from engine.rulesets.wings.catalog import DamageCard
from engine.rulesets.wings.work import Shot, Turn

ULTIMATE_USES = 3  # seed D.VII: an ultimate serves at most 3 times a game
HIDDEN = ("none", "smoke", "fire", "explosion")  # specials everyone sees anyway


def choose(work: Turn, shot: Shot) -> None:
    """Whether a shot at a plane is a Killer's or a Sharpshooter's (one token each)."""
    shooter = work.planes.get(shot.shooter)
    if shooter is None:
        return
    killer = (
        shot.short
        and shot.cards >= 2
        and "killer" in shooter.skills
        and shooter.ultimate_uses < ULTIMATE_USES
    )
    if killer and work.spend_token(shot.shooter, "killer"):
        work.update(shot.shooter, ultimate_uses=shooter.ultimate_uses + 1)
        shot.killer = True
    elif shot.aimed and work.spend_token(shot.shooter, "sharpshooter"):
        shot.bonus -= 1  # instead of the consecutive-fire +1
        shot.sharp = True


def _worth(card: DamageCard) -> tuple[bool, int, bool]:
    return (card.special == "explosion", card.value, card.special != "none")


def pick(work: Turn, shot: Shot, target: str | None = None) -> None:
    """Draw the skilled shot's cards when its first card comes up, and choose."""
    target = target or shot.target
    letter = shot.gun.deck
    drawn: list[tuple[int, DamageCard]] = []
    for _ in range(shot.cards + (1 if shot.sharp else 0)):
        card_id, card = work.draw(letter, None)
        work.spent[letter].remove(card_id)  # not spent: chosen, or back under the deck
        drawn.append((card_id, card))
    side = work.planes[shot.shooter].side
    if shot.sharp:
        ranked = sorted(drawn, key=lambda item: _worth(item[1]), reverse=True)
        keep, spare = ranked[: shot.cards], ranked[shot.cards :]
        work.piles[letter].extend(card_id for card_id, _ in spare)
        shot.picked = [card_id for card_id, _ in keep]
        work.event("sharpshooter", secret_for=side, plane=shot.shooter, target=target)
        return
    pilot_card = max(drawn, key=lambda item: (item[1].special == "pilot_wounded", item[1].value))
    shot.picked = [card_id for card_id, _ in drawn if card_id != pilot_card[0]]
    shot.left -= 1
    card = hand_over(work, letter, pilot_card[0], target)
    work.event("killer", secret_for=side, plane=shot.shooter, target=target)
    victim = work.planes[target]
    work.event("pilot-hit", secret_for=victim.side, plane=target, value=card.value,
               special=card.special)  # fmt: skip
    lp = victim.pilot_lp - equipment.direct_wound(work, target, card.value)  # D.VIII vest
    work.update(target, pilot_lp=lp)
    if card.special == "pilot_wounded":
        # Face 0: the wound is the pilot's even on a two-seater (the Killer aims at him).
        work.apply_special(target, "pilot_wounded", 0, shot.shooter, shot.gun)
    elif lp < 0:
        work.shoot_down(target, "crashed", shot.shooter)  # seed D.V: the pilot is dead


def hand_over(work: Turn, letter: str, card_id: int, holder: str) -> DamageCard:
    """A chosen card goes to the plane that takes it, as a drawn one would."""
    plane = work.planes[holder]
    work.update(holder, cards=(*plane.cards, (letter, card_id)))
    deck = work.catalog.damage_decks[letter].expanded
    return deck[card_id % len(deck)]


def expert_sees(work: Turn, shooter: str | None, target: str, special: str) -> None:
    """Seed D.VII.c: the expert sees every special he inflicts (no token)."""
    owner = work.planes.get(shooter or "")
    if owner is None or "experts_eye" not in owner.skills or special in HIDDEN:
        return
    work.event("special-seen", secret_for=owner.side, plane=target, special=special, by=shooter)


def in_sight(work: Turn, expert_id: str, other_id: str) -> bool:
    expert, other = work.planes[expert_id], work.planes[other_id]
    ruler = work.catalog.rules.units.ruler
    apart = abs(expert.level - other.level)
    reach = ruler if apart == 0 else ruler / 2 if apart == 1 else 0.0
    return geo.distance((expert.x, expert.y), (other.x, other.y)) < reach


def experts_look(work: Turn) -> None:
    """End of turn: each expert with a token looks at the enemy planes in sight."""
    for expert in work.flying():
        if "experts_eye" not in expert.skills:
            if expert.eyeing:
                work.update(expert.id, eyeing=())
            continue
        # Only a plane with damage cards is worth a token: an empty pile tells nothing.
        seen = tuple(
            other.id
            for other in work.flying()
            if other.side != expert.side and other.cards and in_sight(work, expert.id, other.id)
        )
        if seen and work.spend_token(expert.id, "experts_eye"):
            work.update(expert.id, eyeing=seen)
            work.event("expert-look", secret_for=expert.side, plane=expert.id, seen=list(seen))
        elif expert.eyeing:
            work.update(expert.id, eyeing=())
