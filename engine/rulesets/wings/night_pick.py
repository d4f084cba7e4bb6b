"""The crew's own pick of the night card (DB 6, 8.c).

At night an AA gun firing at a Lancaster that is not distinctly visible draws two C cards,
and the Lancaster's player keeps one. The raid's turn stops at that gun: the pair waits in
the raid's state (``NightPick``, secret to the Entente until it is played), the player is
asked, and the turn goes on from the same gun with the random streams it started with.

Two identical cards leave nothing to choose: the turn does not stop for them. A missed
deadline keeps the card the engine kept before the player could choose (``kept_for_him``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.rulesets.wings.catalog import DamageCard
from engine.sight import Public

CHOICES = ("1", "2")  # the two cards, in the order they were drawn


class NightPick(BaseModel):
    """A gun's two cards waiting for the crew's pick, and what the rest of the turn needs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    plane: Public[str]  # which gun fires at which plane is seen by all
    gun: Public[str]
    cards: tuple[DamageCard, DamageCard]
    bomb: str = ""  # the turn's bomb order: the searchlights stay on after an aim
    lit: tuple[str, ...] = ()  # planes the player's switch keeps lit this turn
    escort: str | None = None  # Gibson, when he flew beside the run this turn
    # The round the turn was flown in: the rest of the turn draws from its streams.
    rng_turn: int = 0
    rng_round: str = ""


class PickNeeded(Exception):
    """Raised inside the fire phase where the crew must choose; the turn stops there."""

    def __init__(self, gun: str, plane: str, cards: tuple[DamageCard, DamageCard]) -> None:
        super().__init__(gun, plane)
        self.gun = gun
        self.plane = plane
        self.cards = cards


def same(first: DamageCard, second: DamageCard) -> bool:
    """Two cards that do the same thing: no choice to make."""
    return (first.value, first.special) == (second.value, second.special)


def kept_for_him(first: DamageCard, second: DamageCard) -> int:
    """The card a crew that says nothing keeps (the rule before the pick was the player's):
    never an explosion, then the fewer points, then no special damage."""
    pair = (first, second)
    return min(
        range(2),
        key=lambda i: (pair[i].special == "explosion", pair[i].value, pair[i].special != "none"),
    )


def option_id(index: int, card: DamageCard) -> str:
    """``"1:3:fire"``: the card's place in the draw, its points and its special."""
    return f"{CHOICES[index]}:{card.value}:{card.special}"


def options(pick: NightPick) -> tuple[str, ...]:
    return tuple(option_id(i, card) for i, card in enumerate(pick.cards))


def default(pick: NightPick) -> str:
    return option_id(kept_for_him(*pick.cards), pick.cards[kept_for_him(*pick.cards)])


def chosen(pick: NightPick, option: str) -> int:
    """The index of the card an option keeps; ValueError for an option not on offer."""
    offered = options(pick)
    if option not in offered:
        raise ValueError("not-a-night-card")
    return offered.index(option)


def told(cards: tuple[DamageCard, DamageCard], kept: int) -> dict[str, object]:
    """Both cards as the log tells them once the pick is played (DB 6: "log both")."""
    first, second = cards
    return {
        "first": first.value,
        "first_special": _special(first),
        "second": second.value,
        "second_special": _special(second),
        "kept": kept + 1,
    }


def _special(card: DamageCard) -> str:
    # "none" would read as a bare word in the log; the log words this one.
    return "no-special" if card.special == "none" else card.special
