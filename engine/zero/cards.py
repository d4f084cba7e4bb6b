"""The Action deck as a draw pile: seeded shuffles, reshuffle of discards, stacked decks.

Each resolution scope (one strike, one recovery, one CAP draw) shuffles a fresh deck from
its own named rng stream, so a draw is replayable from (seed, turn, round, purpose) alone
and never depends on how many cards an earlier, unrelated step used.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

from engine.zero.catalog import ActionCard

T = TypeVar("T")


def shuffle(rng: random.Random, cards: list[T]) -> None:
    """``rng.shuffle(cards)``, the same swaps from the same draws, at half the cost.

    Every strike shuffles a fresh deck (issue 13). This is CPython's Fisher-Yates with its
    rejection sampling (``_randbelow_with_getrandbits``) written out with the calls bound
    once; ``tests/engine/test_golden.py`` and a test beside it hold it to the library's.
    """
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


class Card:
    """One Action card's fields as plain attributes: what a deck deals to a strike.

    A strike reads card fields thousands of times (issue 13). A pydantic model defines
    ``__getattr__``, which sends every attribute read down CPython's slow generic path,
    about 50 ns a read against 7 for a plain object. Each catalog card has one ``Card``
    (``face_of``), which keeps the model it mirrors as ``card``.
    """

    def __init__(self, card: ActionCard) -> None:
        self.card = card
        self.id = card.id
        self.title = card.title
        self.burst = card.burst
        self.damage = card.damage
        self.spoiled = card.spoiled
        self.bombing = card.bombing
        self.strafe_hit = card.strafe_hit
        self.border = card.border

    def __repr__(self) -> str:
        return f"Card({self.card!r})"


def ids_of(cards: list[Card]) -> tuple[int, ...]:
    """The cards' ids, for the strike's records. Compiled (scripts/build_native.py), a
    ``Card``'s id is a field read in C, cheaper than ``map`` with an ``attrgetter``."""
    return tuple(card.id for card in cards)


# The one ``Card`` of each card, and of each deck's card tuple, by identity; an entry keeps
# its model so that its id cannot be reused while it lives. Only tests make other cards.
_faces: dict[int, tuple[ActionCard, Card]] = {}
_decks: dict[int, tuple[Sequence[ActionCard], tuple[Card, ...]]] = {}


def face_of(card: ActionCard) -> Card:
    hit = _faces.get(id(card))
    if hit is None or hit[0] is not card:
        if len(_faces) >= 1 << 14:
            _faces.clear()
        hit = _faces[id(card)] = (card, Card(card))
    return hit[1]


def faces_of(cards: Sequence[ActionCard]) -> tuple[Card, ...]:
    """The ``Card`` of each card, a tuple (the catalog's deck) looked up once."""
    if not isinstance(cards, tuple):
        return tuple([face_of(card) for card in cards])
    hit = _decks.get(id(cards))
    if hit is None or hit[0] is not cards:
        if len(_decks) >= 64:
            _decks.clear()
        hit = _decks[id(cards)] = (cards, tuple([face_of(card) for card in cards]))
    return hit[1]


class Deck:
    """The draw pile and discards of one scope. It holds each card's ``Card``: a strike
    deals those (``deal``), every other scope draws the catalog's models (``draw``,
    ``draw_many``); both take the same cards in the same order from the same shuffle."""

    def __init__(self, cards: Sequence[ActionCard], rng: random.Random | None) -> None:
        faces = faces_of(cards)
        self._all = list(faces)
        self._rng = rng
        # The draw pile, top first, and the discards: each one list for the deck's whole
        # life (a reshuffle refills and empties them in place), so a strike may keep them
        # and take or put cards without a call (issue 13).
        self.pile = list(faces)
        if rng is not None:
            shuffle(rng, self.pile)
        self.discards: list[Card] = []
        self.reshuffles = 0
        self.reshuffled_at: list[int] = []  # draws made before each reshuffle (the export)
        self.dealt = 0  # cards drawn so far
        self.purpose = ""  # what the last draw was for

    @classmethod
    def stacked(cls, order: Iterable[ActionCard], rest: Sequence[ActionCard] = ()) -> Deck:
        """A deck that deals ``order`` first, then ``rest`` unshuffled (tests, worked examples)."""
        deck = cls(list(order) + list(rest), None)
        return deck

    def copy(self) -> Deck:
        """This deck as it stands, its own lists and rng, sharing the cards (benchmarks
        replay a strike on a copy; ``copy.deepcopy`` cannot copy a compiled deck)."""
        twin = Deck((), None)
        twin._all = list(self._all)
        twin._rng = copy.deepcopy(self._rng)
        twin.pile = list(self.pile)
        twin.discards = list(self.discards)
        twin.reshuffles = self.reshuffles
        twin.reshuffled_at = list(self.reshuffled_at)
        twin.dealt = self.dealt
        twin.purpose = self.purpose
        return twin

    def draw(self, purpose: str) -> ActionCard:
        if not self.pile:
            self._reshuffle()
        self.purpose = purpose
        card = self.pile.pop(0)
        self.dealt += 1
        return card.card

    def draw_many(self, count: int, purpose: str) -> list[ActionCard]:
        return [face.card for face in self.deal(count, purpose)]

    def deal(self, count: int, purpose: str) -> list[Card]:
        """``count`` cards off the top (reshuffling the discards when the pile runs out)."""
        pile = self.pile
        if count <= 0:
            return []
        self.purpose = purpose
        if count <= len(pile):  # no reshuffle on the way: take the top cards at once
            cards = pile[:count]
            del pile[:count]
            self.dealt += count
            return cards
        cards = []
        for _ in range(count):
            if not pile:
                self._reshuffle()  # refills ``pile`` in place
            cards.append(pile.pop(0))
            self.dealt += 1
        return cards

    def discard(self, cards: Iterable[ActionCard]) -> None:
        self.discards.extend(map(face_of, cards))

    def _reshuffle(self) -> None:
        """When the pile runs out the discards are shuffled into a new pile (authored 3.2.1).

        No discards means a scope that reads each card and sets it aside (recovery, CAP,
        out of sight, submarine): all it drew are discards, so the whole deck is the pile.
        A strike never gets here empty-handed (tests/engine/test_deck_reshuffle.py).
        """
        pile = list(self.discards or self._all)
        self.discards.clear()
        if self._rng is not None:
            shuffle(self._rng, pile)
        self.pile[:] = pile
        self.reshuffles += 1
        self.reshuffled_at.append(self.dealt)
