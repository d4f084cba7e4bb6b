"""The labels and the gate (``engine.sight``) on small models: what each label keeps for
whom, and that a field nobody labelled stays hidden."""

from __future__ import annotations

import enum
from collections import OrderedDict
from typing import Annotated

import pytest
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

from bench.views import canonical
from engine.rulesets.wings.state import PlaneState
from engine.sight import (
    PUBLIC,
    SIDE,
    Derived,
    Eyes,
    Own,
    Owner,
    Public,
    Sealed,
    Sight,
    jsonable,
    keep,
    keep_json,
    kinds,
    own,
    public_record,
    sealed,
)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Unit(_Model):
    side: Owner[str]
    hex: Public[str]
    orders: Own[str] = ""
    note: str = ""  # no label: its side's
    last: Annotated[str, own(unless="hidden")] = ""
    hidden: Public[bool] = False
    damage: Annotated[int, own(glimpse="watching")] = 0
    watching: Own[tuple[str, ...]] = ()
    ammo: Annotated[tuple[int, ...] | None, sealed(owner_sees=len)] = None


@public_record
class Roll(_Model):
    dice: tuple[int, ...]
    hits: int


class Game(_Model):
    turn: Public[int]
    units: Public[dict[str, Unit]]
    hands: Annotated[dict[str, tuple[str, ...]], own(key=SIDE)] = Field(default_factory=dict)
    plans: Annotated[dict[str, str], own(key="units")] = Field(default_factory=dict)
    spotted: Annotated[tuple[str, ...], own(item="units")] = ()
    leader: Public[str | None] = None
    choice: Annotated[str, own(by="leader")] = ""
    deck: Sealed[tuple[int, ...]] = ()
    salt: Annotated[str, sealed("never")] = ""
    rolls: Public[tuple[Roll, ...]] = ()
    scratch: int = 0  # no label, no owner in scope: nobody's


def _game() -> Game:
    return Game(
        turn=3,
        units={
            "a1": Unit(side="axis", hex="C4", orders="advance", note="n", last="L", ammo=(1, 2)),
            "b1": Unit(side="allies", hex="D5", orders="hold", hidden=True, last="M", damage=2),
            "b2": Unit(side="allies", hex="E6", watching=("a1",)),
        },
        hands={"axis": ("x",), "allies": ("y",)},
        plans={"a1": "flank", "b1": "dig"},
        spotted=("a1", "b2"),
        leader="axis",
        choice="attack",
        deck=(5, 4),
        salt="s",
        rolls=(Roll(dice=(6, 1), hits=1),),
        scratch=7,
    )


def test_the_public_sees_only_what_is_labelled_public() -> None:
    seen = keep_json(_game(), Eyes.public(), finished=False)
    assert seen["turn"] == 3 and seen["leader"] == "axis"
    assert seen["rolls"] == [{"dice": [6, 1], "hits": 1}]  # a public record, whole
    assert seen["hands"] == {} and seen["plans"] == {} and seen["spotted"] == []
    for hidden in ("choice", "deck", "salt", "scratch"):
        assert hidden not in seen
    a1, b1 = seen["units"]["a1"], seen["units"]["b1"]
    assert a1 == {"side": "axis", "hex": "C4", "last": "L", "hidden": False}
    assert b1 == {"side": "allies", "hex": "D5", "hidden": True}  # in hiding: no last


def test_a_side_sees_its_own_and_what_its_eyes_watch() -> None:
    allies = keep_json(_game(), Eyes.of("allies"), finished=False)
    assert allies["hands"] == {"allies": ["y"]} and allies["plans"] == {"b1": "dig"}
    assert allies["spotted"] == ["b2"]
    assert "choice" not in allies  # the leader's (axis)
    b1, a1 = allies["units"]["b1"], allies["units"]["a1"]
    assert b1["orders"] == "hold" and b1["note"] == "" and b1["last"] == "M"
    assert "ammo" in b1 and b1["ammo"] is None
    assert "orders" not in a1 and "note" not in a1 and "ammo" not in a1
    assert a1["damage"] == 0  # b2 watches a1: its damage, not its orders
    axis = keep_json(_game(), Eyes.of("axis"), finished=False)
    assert axis["choice"] == "attack" and axis["units"]["a1"]["ammo"] == 2  # counted only
    assert "damage" not in axis["units"]["b1"]


def test_the_gm_who_may_peek_reads_every_side_but_not_what_is_sealed() -> None:
    gm = keep_json(_game(), Eyes.gm(peek=True), finished=False)
    assert gm["hands"] == {"axis": ["x"], "allies": ["y"]} and gm["choice"] == "attack"
    assert "deck" not in gm and "salt" not in gm and "scratch" not in gm
    assert keep_json(_game(), Eyes.gm(peek=False), finished=False) == keep_json(
        _game(), Eyes.public(), finished=False
    )


def test_at_the_campaigns_end_everything_opens_but_what_never_does() -> None:
    whole = _game().model_dump(mode="json")
    opened = keep_json(_game(), Eyes.public(), finished=True)
    assert opened == {k: v for k, v in whole.items() if k != "salt"}


def test_a_field_nobody_labelled_is_hidden_from_all_but_its_owner() -> None:
    class Newer(PlaneState):
        experiment: int = 0  # added without a label

    plane = Newer(id="P1", type="spad7", side="entente", x=1, y=2, heading=0, level=2)
    plane = plane.model_copy(update={"experiment": 42})
    assert "experiment" in keep_json(plane, Eyes.of("entente"), finished=False)
    for eyes in (Eyes.of("central"), Eyes.public(), Eyes.gm(peek=False)):
        assert "experiment" not in keep_json(plane, eyes, finished=False)


def test_a_wholly_public_part_is_kept_as_it_is() -> None:
    game = _game()
    kept = keep(game, Eyes.public(), finished=False)
    assert kept["rolls"][0] is game.rolls[0]


def test_derived_facts_carry_their_own_labels() -> None:
    facts = (
        Derived(Game, "units_left", PUBLIC, lambda game, _root: len(game.units)),
        Derived(Game, "next_plan", own(key="units"), lambda game, _root: dict(game.plans)),
    )
    public = keep(_game(), Eyes.public(), finished=False, derived=facts)
    assert public["units_left"] == 3 and public["next_plan"] == {}
    axis = keep(_game(), Eyes.of("axis"), finished=False, derived=facts)
    assert axis["next_plan"] == {"a1": "flank"}


def test_event_labels_by_kind_and_an_unlabelled_kind_is_secret() -> None:
    from engine.ruleset import Event
    from engine.sight import event_sight

    labels = kinds(public=("dice-rolled",), owned=("card-drawn",))
    assert event_sight(None, "dice-rolled", labels).public
    assert event_sight(None, "card-drawn", labels).audience == "owner"
    assert not event_sight(None, "something-new", labels).public
    one = Event(kind="dice-rolled", turn=1, sight=own(), owner="axis")
    assert not event_sight(one.sight, one.kind, labels).public  # its own label first
    assert "sight" not in one.model_dump() and "owner" not in one.model_dump()


def test_a_field_carries_one_label_at_most() -> None:
    from engine.sight import plan

    class Twice(_Model):
        x: Annotated[int, PUBLIC, Sight("sealed")] = 0

    with pytest.raises(TypeError):
        plan(Twice)


def test_a_label_names_sibling_fields_only() -> None:
    """``by`` and ``unless`` name a field of the model (the gate reads its fields), not a
    property, nor a field of another model."""
    from engine.sight import plan

    class Flagged(_Model):
        side: Owner[str]
        x: Annotated[int, own(unless="hidden")] = 0

        @property
        def hidden(self) -> bool:
            return False

    class Given(_Model):
        x: Annotated[int, own(by="holder")] = 0

    for model in (Flagged, Given):
        with pytest.raises(TypeError, match="names no field"):
            plan(model)


def test_no_ruleset_builds_its_own_views() -> None:
    """Every view goes through the gate: a ruleset writes ``project``, never ``view``."""
    from engine.ruleset import Rules
    from tests.golden_rulesets import _registry

    registry = _registry()
    keys = registry.keys()  # every registered game
    for key in keys:
        rules = registry.get(key).rules
        assert type(rules).view is Rules.view, key
        assert type(rules).project is not Rules.project, key


class _Colour(enum.StrEnum):
    RED = "red"


class _Rank(enum.IntEnum):
    ACE = 1


class _Text(str):
    pass


def test_jsonable_is_to_jsonable_python() -> None:
    """``jsonable`` converts plain data itself and leaves the rest to pydantic: the same
    values of the same types, in the same order, whatever it is given."""
    unit = Unit(side="axis", hex="A1", orders="hold")
    values = [
        {"a": 1, "b": (2, [3, (4.5, None)]), "c": {"d": True, "e": ""}},
        {1: "x", "y": 2},  # keys not all text: pydantic makes them text
        {"units": {"u1": unit}, "colour": _Colour.RED, "rank": _Rank.ACE},
        {"set": {3}, "frozen": frozenset({"z"}), "bytes": b"b", "text": _Text("t")},
        OrderedDict(a=(1,)),
        [float("inf"), float("-inf"), -0.0, 2**70, False, 0],
        ((), [], {}, ""),
        unit,
        _Colour.RED,
        None,
    ]
    for value in values:
        assert canonical(jsonable(value)) == canonical(to_jsonable_python(value)), value
    nan = jsonable([float("nan")])
    assert repr(nan) == repr(to_jsonable_python([float("nan")])) and type(nan) is list
