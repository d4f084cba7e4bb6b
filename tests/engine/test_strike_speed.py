"""The plain stand-ins a strike reads instead of pydantic models (issue 13's speed work).

A strike reads ``Card`` objects instead of the catalog's ``ActionCard`` models, and mirrors
of the aircraft types, ratings, doctrines and target sheet: each must hold every field of
what it stands for, with the same value, or a strike would silently play a different card.
``tests/engine/test_golden.py`` holds the outputs of whole campaigns byte for byte.
"""

from __future__ import annotations

import random

import pytest

from engine.zero.cards import Card, Deck, face_of, faces_of
from engine.zero.catalog import ActionCard
from engine.zero.loader import default_catalog
from engine.zero.mirror import mirror
from engine.zero.orders import DOCTRINE_PRESETS
from engine.zero.report import CardDraw
from engine.zero.trusted import trusted_dicts

CATALOG = default_catalog()


def test_every_card_of_the_deck_reads_the_same_as_a_card() -> None:
    for model in CATALOG.deck.cards:
        card = face_of(model)
        assert card.card is model
        for name in ActionCard.model_fields:
            assert getattr(card, name) == getattr(model, name), (model.id, name)


def test_a_deck_deals_the_same_cards_as_it_draws() -> None:
    # The strike's ``deal`` and every other scope's ``draw_many``: the same shuffle, the
    # same cards in the same order, the one as ``Card``s, the other as the catalog's models.
    for seed in range(20):
        dealt = Deck(CATALOG.deck.cards, random.Random(seed)).deal(150, "test")
        drawn = Deck(CATALOG.deck.cards, random.Random(seed)).draw_many(150, "test")
        assert all(isinstance(card, Card) for card in dealt)
        assert all(isinstance(card, ActionCard) for card in drawn)
        assert [card.card for card in dealt] == drawn
    assert faces_of(CATALOG.deck.cards) is faces_of(CATALOG.deck.cards)  # looked up once


def test_a_mirror_holds_the_models_fields_and_methods() -> None:
    sheet = next(s for s in CATALOG.targets.values() if s.levels)
    copy = mirror(sheet)
    assert copy is mirror(sheet)
    assert type(copy) is not type(sheet)  # a plain class: no pydantic on the read path
    for name in type(sheet).model_fields:
        assert getattr(copy, name) == getattr(sheet, name)
    for points in (0, 5, 50, 500):
        assert copy.level(points) == sheet.level(points)
    for kind in CATALOG.aircraft.values():
        plane = mirror(kind)
        for face in ("undamaged", "damaged"):
            ratings, original = getattr(plane, face), getattr(kind, face)
            assert type(ratings) is not type(original)  # nested models are mirrored too
            assert vars(ratings) == dict(original)
        assert plane.ratings(True) is plane.damaged
    for doctrine in DOCTRINE_PRESETS.values():
        assert vars(mirror(doctrine)) == dict(doctrine)


def test_report_rows_must_name_their_fields_in_the_models_order() -> None:
    row = {"phase": "bomb", "turn": 1, "purpose": "bomb", "who": "J1", "cards": (3, 4)}
    (draw,) = trusted_dicts(CardDraw, [row])
    assert draw == CardDraw(**row)
    assert draw.model_dump_json() == CardDraw(**row).model_dump_json()
    swapped = {"turn": 1, "phase": "bomb", "purpose": "bomb", "who": "J1", "cards": (3, 4)}
    with pytest.raises(KeyError):
        trusted_dicts(CardDraw, [swapped])
