"""``trusted_defaults`` builds the model validation would, or refuses what validation would."""

from __future__ import annotations

import pytest

from engine.rulesets.carrier.state import Tick, TurnRecord
from engine.zero.orders import StrikeSetup
from engine.zero.trusted import trusted_copy, trusted_defaults
from engine.zero.types import Side


def test_left_out_fields_take_their_defaults_in_the_models_order() -> None:
    built = trusted_defaults(Tick, boxes=2, place="allied-fleet", cause="damage")
    checked = Tick(place="allied-fleet", boxes=2, cause="damage")
    assert built == checked
    assert built.model_dump_json() == checked.model_dump_json()


def test_a_default_factory_gives_each_model_its_own_value() -> None:
    first = trusted_defaults(TurnRecord, turn=1, picks={})
    second = trusted_defaults(TurnRecord, turn=2, picks={})
    assert first.vp == {} and first.vp is not second.vp


def test_a_missing_required_field_or_an_unknown_one_is_refused() -> None:
    with pytest.raises(KeyError, match="cause"):
        trusted_defaults(Tick, place="allied-fleet", boxes=1)
    with pytest.raises(KeyError, match="boxs"):
        trusted_defaults(Tick, place="allied-fleet", boxs=1, cause="damage")
    with pytest.raises(KeyError, match="strike"):
        trusted_defaults(
            StrikeSetup,
            id="T1-J1",
            turn=1,
            kind="carrier",
            attacker=Side.JAPANESE,
            origin="japanese-fleet",
            target="allied-fleet",
            sheet="carrier",
            carrier_fleet=True,
            order=2,
        )


def test_a_trusted_copy_is_the_model_copy_and_refuses_an_unknown_field() -> None:
    tick = Tick(place="allied-fleet", boxes=2, cause="damage")
    copied = trusted_copy(tick, boxes=3, strike="T1-J1")
    assert copied == tick.model_copy(update={"boxes": 3, "strike": "T1-J1"})
    assert (
        copied.model_dump_json()
        == tick.model_copy(update={"boxes": 3, "strike": "T1-J1"}).model_dump_json()
    )
    assert tick.boxes == 2  # the original is untouched
    with pytest.raises(KeyError, match="boxs"):
        trusted_copy(tick, boxs=3)


def test_models_sharing_a_fields_set_keep_their_own_after_copies_and_dumps() -> None:
    """Frozen models share one fields-set per class; pydantic must never write to it."""
    first = trusted_defaults(Tick, place="allied-fleet", boxes=1, cause="damage")
    second = trusted_defaults(Tick, place="japanese-fleet", boxes=2, cause="submarine")
    copied = first.model_copy(update={"boxes": 3})
    assert copied.boxes == 3 and first.boxes == 1
    assert first.model_fields_set == second.model_fields_set == set(Tick.model_fields)
    assert Tick.model_validate(first.model_dump()) == first
    assert first.model_dump(exclude_unset=True) == Tick(**first.model_dump()).model_dump(
        exclude_unset=True
    )
