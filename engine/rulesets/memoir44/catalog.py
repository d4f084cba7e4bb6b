"""Validated data of the Memoir '44 air rules, read from ``engine/rulesets/memoir44/data``.

Three files: ``cards.toml`` (the 30 Air Combat cards, authored), ``aircraft.toml`` (types,
figures, nations' trios) and ``rules.toml`` (the superiority chart, opening hands, the
Command cards the air rules touch). A broken file raises ``DataError`` naming the file and
the entry, so a group typing in the real deck finds its mistake.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

DATA_DIR = Path(__file__).parent / "data"
DECK_SIZE = 30

PlaneType = Literal["fighter", "fighter_bomber", "bomber"]
PLANE_TYPES: tuple[PlaneType, ...] = ("fighter", "fighter_bomber", "bomber")
Icon = Literal["fighter", "fighter_bomber", "bomber", "none"]
Timing = Literal["attack", "own_turn", "reaction"]
Trigger = Literal[
    "token_on_unit", "enemy_plane_near", "dogfight_on_own_plane", "own_plane_attacked"
]
Face = Literal["symbol", "grenade", "star", "flag"]
Theatre = Literal["western", "eastern", "pacific", "mediterranean"]
THEATRES: tuple[Theatre, ...] = ("western", "eastern", "pacific", "mediterranean")
SideId = Literal["allies", "axis"]
Section = Literal["left", "centre", "right"]


class DataError(Exception):
    """A data file is missing, unreadable or holds an invalid entry; the message says where."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Words(_Frozen):
    en: str
    fr: str

    def get(self, locale: str) -> str:
        return self.fr if locale == "fr" else self.en


class Card(_Frozen):
    """One Air Combat card title; ``copies`` of it are in the deck. Parameters left out are
    the standard attack's (3 tokens on a chain, 1 die each, MG on the symbol, bombs on the
    symbol or a grenade)."""

    key: str
    title: Words
    provenance: str
    icon: Icon
    copies: int
    timing: Timing
    trigger: Trigger | None = None
    effect: Words
    note: str = ""
    # attack modifiers
    max_tokens: int = 3
    chain: Literal["unbroken", "any"] = "unbroken"
    mg_dice: int = 1
    mg_faces: tuple[Face, ...] = ("symbol",)
    bomb_dice: int = 1
    bomb_faces: tuple[Face, ...] = ("symbol", "grenade")
    first_dice: int = 0
    first_faces: tuple[Face, ...] = ()
    armour_dice: int = 0
    armour_faces: tuple[Face, ...] = ()
    no_ground_attack: bool = False
    move: int = 0
    flags_stick: bool = False
    table: bool = False
    # dogfight modifiers
    dogfight_bonus: int = 0
    dogfight_faces: tuple[Face, ...] = ("grenade",)
    dogfight_reroll: bool = False
    confirm_faces: tuple[Face, ...] = ("grenade",)
    # reactions and own-turn effects
    intercept: bool = False
    fire_back: int = 0
    ground_fire: int = 0
    cancel_hits: int = 0
    draw: int = 0
    restore: int = 0

    @model_validator(mode="after")
    def _coherent(self) -> Card:
        if self.copies < 1:
            raise ValueError("copies must be at least 1")
        if (self.timing == "reaction") != (self.trigger is not None):
            raise ValueError("a reaction card, and only one, names its trigger")
        if self.timing == "attack" and self.icon == "none":
            raise ValueError("an attack card needs a plane icon")
        if self.timing == "own_turn" and self.icon != "none":
            raise ValueError("an own-turn card has no plane icon")
        if not 1 <= self.max_tokens <= 4:
            raise ValueError("max_tokens is 1 to 4")
        return self

    @property
    def reaction(self) -> bool:
        return self.timing == "reaction"


class AircraftType(_Frozen):
    name: Words
    mg: int
    bombs: int
    move: int
    dogfight: int
    carrier: bool


class Model(_Frozen):
    name: str
    nation: str
    type: PlaneType
    theatre: Theatre | None = None


class Nation(_Frozen):
    side: SideId
    name: Words
    provenance: str
    trio: dict[PlaneType, str] = {}
    pacific: dict[PlaneType, str] = {}
    borrows: str | None = None


class Command(_Frozen):
    key: str
    kind: Literal["section", "tactic"]
    sections: tuple[Section, ...] = ()
    orders: int
    air: Literal["recon", "finest-hour", "close-assault", "barrage"] | None = None


class Hands(_Frozen):
    base: int
    superiority: int
    beach: int


class Supply(_Frozen):
    mg: int
    bombs: int


class Catalog(_Frozen):
    cards: tuple[Card, ...]
    types: dict[PlaneType, AircraftType]
    models: dict[str, Model]
    nations: dict[str, Nation]
    superiority: dict[Theatre, dict[int, Literal["allies", "axis", "none"]]]
    hands: Hands
    supply: Supply
    removed: tuple[str, ...]
    commands: tuple[Command, ...]

    @model_validator(mode="after")
    def _complete(self) -> Catalog:
        keys = [card.key for card in self.cards]
        if len(set(keys)) != len(keys):
            raise ValueError("two cards share a key")
        total = sum(card.copies for card in self.cards)
        if total != DECK_SIZE:
            raise ValueError(f"the Air Combat deck holds {total} cards, not {DECK_SIZE}")
        if set(self.types) != set(PLANE_TYPES):
            raise ValueError("every plane type needs its stats")
        for key, model in self.models.items():
            if model.nation not in self.nations:
                raise ValueError(f"model {key}: unknown nation {model.nation}")
        for key, nation in self.nations.items():
            trio = self._own_trio(key)
            if set(trio) != set(PLANE_TYPES):
                raise ValueError(f"nation {key}: its trio needs one plane of each type")
            for kind, model_key in {**trio, **nation.pacific}.items():
                figure = self.models.get(model_key)
                if figure is None or figure.type != kind:
                    raise ValueError(f"nation {key}: {model_key} is not a {kind}")
        for theatre in THEATRES:
            if sorted(self.superiority.get(theatre, {})) != list(range(1939, 1946)):
                raise ValueError(f"superiority chart: {theatre} needs 1939 to 1945")
        return self

    def _own_trio(self, nation: str) -> Mapping[PlaneType, str]:
        entry = self.nations[nation]
        if entry.borrows is not None:
            lender = self.nations.get(entry.borrows)
            if lender is None or lender.borrows is not None:
                raise ValueError(f"nation {nation} borrows from {entry.borrows}, which has none")
            return lender.trio
        return entry.trio

    # -- look-ups
    def card(self, key: str) -> Card:
        for card in self.cards:
            if card.key == key:
                return card
        raise KeyError(key)

    def deck(self) -> tuple[str, ...]:
        """Every card of the deck as an instance id, ``key#n``, in data order."""
        return tuple(f"{card.key}#{n}" for card in self.cards for n in range(1, card.copies + 1))

    def command(self, key: str) -> Command:
        for command in self.commands:
            if command.key == key:
                return command
        raise KeyError(key)

    def trio(self, nation: str, theatre: Theatre) -> dict[PlaneType, str]:
        """The three planes a nation flies in a theatre (a borrowing nation flies its
        lender's; the US fighter is the Corsair in the Pacific)."""
        entry = self.nations[nation]
        lender = entry.borrows or nation
        trio = dict(self._own_trio(nation))
        if theatre == "pacific":
            trio.update(self.nations[lender].pacific)
        return trio

    def side_nations(self, side: str) -> tuple[str, ...]:
        return tuple(key for key, nation in self.nations.items() if nation.side == side)


def card_key(instance: str) -> str:
    """The card title's key of a deck instance id (``heavy-fire#2`` -> ``heavy-fire``)."""
    return instance.split("#", 1)[0]


def _read(name: str) -> dict[str, Any]:
    path = DATA_DIR / name
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise DataError(f"{name}: {error}") from error


def load_catalog() -> Catalog:
    cards, aircraft, rules = _read("cards.toml"), _read("aircraft.toml"), _read("rules.toml")
    try:
        chart = {
            theatre: {int(year): who for year, who in row.items()}
            for theatre, row in rules.get("superiority", {}).items()
        }
        return Catalog(
            cards=tuple(Card.model_validate(entry) for entry in cards.get("card", [])),
            types=aircraft.get("type", {}),
            models=aircraft.get("model", {}),
            nations=aircraft.get("nation", {}),
            superiority=chart,
            hands=rules.get("hands", {}),
            supply=rules.get("supply", {}),
            removed=tuple(rules.get("removed", ())),
            commands=tuple(rules.get("command", ())),
        )
    except (ValidationError, ValueError) as error:
        raise DataError(f"memoir44 data: {error}") from error


@functools.cache
def default_catalog() -> Catalog:
    return load_catalog()
