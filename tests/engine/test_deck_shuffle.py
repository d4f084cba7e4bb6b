"""The deck's own shuffle is the library's shuffle, swap for swap (issue 13 speed work)."""

from __future__ import annotations

import random

from engine.zero.cards import shuffle
from engine.zero.loader import default_catalog


def test_the_deck_shuffle_deals_what_random_shuffle_deals() -> None:
    cards = list(default_catalog().deck.cards)
    for seed in range(200):
        ours, theirs = list(cards), list(cards)
        mine, library = random.Random(seed), random.Random(seed)
        shuffle(mine, ours)
        library.shuffle(theirs)
        assert [c.id for c in ours] == [c.id for c in theirs]
        assert mine.random() == library.random()  # the stream is left at the same place
    for size in (0, 1, 2, 3):
        short = cards[:size]
        ours, theirs = list(short), list(short)
        shuffle(random.Random(size), ours)
        random.Random(size).shuffle(theirs)
        assert ours == theirs
