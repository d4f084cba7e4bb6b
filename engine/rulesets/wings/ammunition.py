"""Ammunition cards (seed B.II, a scenario switch).

Each gun starts with face-down cards taken from its damage deck among the 1, 2 and 3
cards (the first ones of the shuffled pile: the pile is already in random order). A shot's
first card is the shooter's top ammunition card; the others come from the common pile. A
gun with no card left cannot fire. When a plane goes down, its unused cards go to the
bottom of the common pile. Authored: 8 cards a gun (the seed says 6 to 10), fewer and the
same for every gun when the deck runs short (6 with four planes to a deck); a
Sharpshooter's or Killer's shot, and a shot at a ground element or a balloon, still spends
one, sent under the common pile.
"""

from __future__ import annotations

import engine.rulesets.wings.equipment as equipment
from engine.rulesets.wings.catalog import Catalog, DamageCard
from engine.rulesets.wings.shooting import hand_over
from engine.rulesets.wings.state import MissionState, PlaneState
from engine.rulesets.wings.work import Shot, Turn


def issue(catalog: Catalog, mission: MissionState) -> MissionState:
    """Hand every plane's guns their ammunition at the start of the mission: dealt one card
    at a time round the guns sharing a damage deck, so when a deck runs short of 1, 2 and 3
    cards every gun gets the same number (8 at most, authored)."""
    fire = catalog.rules.fire
    piles = {letter: list(deck.pile) for letter, deck in mission.decks.items()}
    guns_by_deck: dict[str, list[tuple[str, str]]] = {}
    for pid in sorted(mission.planes):
        for gun in catalog.planes[mission.planes[pid].type].guns:
            guns_by_deck.setdefault(gun.deck, []).append((pid, gun.name))
    ammo: dict[str, dict[str, list[int]]] = {pid: {} for pid in mission.planes}
    for letter, guns in sorted(guns_by_deck.items()):
        cards = catalog.damage_decks[letter].expanded
        usable = [c for c in piles[letter] if cards[c % len(cards)].value in fire.ammo_values]
        each = min(fire.ammo_cards, len(usable) // len(guns))
        dealt = iter(usable)
        for _ in range(each):
            for pid, name in guns:
                ammo[pid].setdefault(name, []).append(next(dealt))
        for pid, name in guns:
            ammo[pid].setdefault(name, [])
            # Seed D.VIII ammunition surplus: half as many cards again, while they last.
            for _ in range(equipment.surplus(mission.planes[pid].kit, each)):
                card = next(dealt, None)
                if card is None:
                    break
                ammo[pid][name].append(card)
        taken = {card for pid, name in guns for card in ammo[pid][name]}
        piles[letter] = [c for c in piles[letter] if c not in taken]
    planes = {
        pid: plane.model_copy(
            update={"ammo": {gun: tuple(ids) for gun, ids in sorted(ammo[pid].items())}}
        )
        for pid, plane in mission.planes.items()
    }
    decks = {
        letter: deck.model_copy(update={"pile": tuple(piles[letter])})
        for letter, deck in mission.decks.items()
    }
    return mission.model_copy(update={"planes": planes, "decks": decks})


def dry(plane: PlaneState, gun: str) -> bool:
    """Out of ammunition: this gun cannot fire."""
    return plane.ammo is not None and not plane.ammo.get(gun)


def first_card(work: Turn, shot: Shot, target: str) -> DamageCard | None:
    """The shot's first card from the shooter's ammunition, or None (no count kept)."""
    shooter = work.planes.get(shot.shooter)
    if shooter is None or shooter.ammo is None or not shooter.ammo.get(shot.gun.name):
        return None
    card_id, *rest = shooter.ammo[shot.gun.name]
    work.update(shot.shooter, ammo={**shooter.ammo, shot.gun.name: tuple(rest)})
    guns = work.catalog.planes[shooter.type].guns
    loaded = next((gun.deck for gun in guns if gun.name == shot.gun.name), shot.gun.deck)
    if shot.sharp or shot.killer or loaded != shot.gun.deck:
        # The round is fired all the same: a skilled pick, or a twin gun firing alone
        # (B.IV) whose damage comes from another deck.
        work.piles[loaded].append(card_id)
        return None
    return hand_over(work, shot.gun.deck, card_id, target)


def spend(work: Turn, shot: Shot) -> None:
    """A shot at a ground element or a balloon fires a round too: its top card goes under
    the common pile (authored: the target's cards come from the pile, as for planes')."""
    shooter = work.planes.get(shot.shooter)
    if shooter is None or shooter.ammo is None or not shooter.ammo.get(shot.gun.name):
        return
    card_id, *rest = shooter.ammo[shot.gun.name]
    work.update(shot.shooter, ammo={**shooter.ammo, shot.gun.name: tuple(rest)})
    guns = work.catalog.planes[shooter.type].guns
    loaded = next((gun.deck for gun in guns if gun.name == shot.gun.name), shot.gun.deck)
    work.piles[loaded].append(card_id)


def return_unused(work: Turn) -> None:
    """A plane down gives its unused ammunition back under the common pile."""
    for pid in work.ids():
        plane = work.planes[pid]
        if plane.status == "flying" or plane.status == "landed" or not plane.ammo:
            continue
        for gun in work.catalog.planes[plane.type].guns:
            work.piles[gun.deck].extend(plane.ammo.get(gun.name, ()))
        work.update(pid, ammo={})
