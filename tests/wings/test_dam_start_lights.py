"""The Dambuster player's own start angle (DB 8.d) and searchlight switch (DB 6)."""

from __future__ import annotations

import math

import pytest

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import dam as dam_rules
from engine.rulesets.wings import dambuster as db
from rendering.rulesets.wings import dam as wings_dam
from tests.wings.helpers import catalog, random_raid


def kinds(events: list[dict[str, object]]) -> list[object]:
    return [e["kind"] for e in events]


def test_the_chosen_heading_turns_the_plane_before_its_first_card() -> None:
    state = db.new_dam("eder")
    assert db.start_headings(state) == (-60, -45, -30, -15, 0, 15, 30, 45, 60)
    straight, _ = db.play(catalog(), state, "SS", Rng("h", 1, "dam"))
    turned, events = db.play(catalog(), state, "SS", Rng("h", 1, "dam"), start=30)
    ahead, left = straight.planes["AJ-L"], turned.planes["AJ-L"]
    assert ("start-heading", 30) in [(e["kind"], e.get("heading")) for e in events]
    assert left.heading == 30.0 and ahead.heading == 0.0
    # The same straight flown along the new heading: as far from the start, 30° off.
    x0, y0, _ = state.layout.start
    assert math.hypot(left.x - x0, left.y - y0) == pytest.approx(ahead.x - x0)
    assert math.degrees(math.atan2(left.y - y0, left.x - x0)) == pytest.approx(30.0)
    # Placed once: the next turn offers no heading, and refuses one.
    assert db.start_headings(turned) == ()
    with pytest.raises(ValueError, match="already-placed"):
        db.play(catalog(), turned, "SS", Rng("h", 2, "dam"), start=15)
    with pytest.raises(ValueError, match="bad-heading"):
        db.play(catalog(), state, "SS", Rng("h", 1, "dam"), start=90)


def test_a_second_pass_offers_the_heading_again() -> None:
    state = db.new_dam("eder")
    state, _ = db.play(catalog(), state, "SS", Rng("p", 1, "dam"))
    away = state.planes["AJ-L"].model_copy(update={"x": 0.5, "heading": 180.0})
    state = state.model_copy(update={"planes": {**state.planes, "AJ-L": away}})
    again, events = db.play(catalog(), state, "SS", Rng("p", 2, "dam"))
    assert "second-pass" in kinds(events)
    assert db.start_headings(again) == again.layout.headings
    turned, _ = db.play(catalog(), again, "SS", Rng("p", 3, "dam"), start=-15)
    assert turned.planes["AJ-L"].heading == -15.0


def test_a_marker_the_heading_puts_on_land_is_not_laid() -> None:
    state = db.new_dam("eder")
    # Offered from the start's heading, where this stop lies over the lake...
    assert db.check_order(catalog(), state, db.parse_order("SS aim:100")) is None
    # ...but 60° to the right the marker falls on the shore: the card flies alone.
    after, events = db.play(catalog(), state, "SS aim:100", Rng("w", 1, "dam"), start=-60)
    assert "aim-off-water" in kinds(events) and "bomb-aimed" not in kinds(events)
    assert after.planes["AJ-L"].bomb.stage == "aboard"
    kept, events = db.play(catalog(), state, "SS aim:100", Rng("w", 1, "dam"), start=0)
    assert kept.planes["AJ-L"].bomb.stage == "aimed"


def beside_the_dam_gun(lights_on: bool = False) -> db.DamState:
    """AJ-G placed and flying beside dam gun 1, the only gun, searchlights as given; its
    gunners are hurt, so its own fire never makes it seen."""
    state = db.new_dam("mohne")
    plane = state.planes["AJ-G"].model_copy(
        update={
            "x": 17.0,
            "y": 5.5,
            "heading": 90.0,
            "placed": True,
            "searchlights": lights_on,
            "hurt": ("front", "rear"),
        }
    )
    return state.model_copy(
        update={"planes": {**state.planes, "AJ-G": plane}, "guns": {"dam-1": state.guns["dam-1"]}}
    )


def test_the_lights_switch_changes_the_night_draw() -> None:
    state = beside_the_dam_gun()
    seed = Rng("night", 0, "dam")
    first = db.draw(catalog(), seed, "C", "0.1:aa:dam-1:1")
    second = db.draw(catalog(), seed, "C", "0.1:aa:dam-1:2")
    assert first.value > second.value  # a draw where the pick matters
    assert first.special == second.special == "none"
    dark, _ = db.play(catalog(), state, "SS", seed)
    lit, events = db.play(catalog(), state, "SS", seed, lights="on")
    # Dark and unseen: two C cards, the lower kept. Lit: seen, the first card taken.
    assert dark.planes["AJ-G"].damage == second.value
    assert lit.planes["AJ-G"].damage == first.value
    assert "searchlights-on" in kinds(events) and lit.planes["AJ-G"].searchlights
    # Left to the bomb's timing, lit searchlights go off at the turn's end, as before.
    after, _ = db.play(catalog(), beside_the_dam_gun(lights_on=True), "SS", seed)
    assert not after.planes["AJ-G"].searchlights
    kept, _ = db.play(catalog(), beside_the_dam_gun(lights_on=True), "SS", seed, lights="on")
    assert kept.planes["AJ-G"].searchlights


def test_the_switch_is_offered_at_night_only_and_gibsons_while_he_may_fly() -> None:
    assert db.lights_options(db.new_dam("eder")) == ()
    assert db.lights_options(db.new_dam("mohne")) == ("auto", "on")
    with pytest.raises(ValueError, match="bad-lights"):
        db.play(catalog(), db.new_dam("mohne"), "SS", Rng("x", 1, "dam"), lights="gibson")


def test_the_default_switch_plays_as_the_automatic_timing() -> None:
    """A missed deadline: the aim lights the searchlights, they stay for the release and go
    off once the release turn's combat is over."""
    state = db.new_dam("mohne")
    seen = []
    for index, order in enumerate(["SS aim:25", "SS release", "SS"]):
        state, _ = db.play(catalog(), state, order, Rng("auto", index, "dam"))
        seen.append(state.planes["AJ-G"].searchlights)
    assert seen == [True, False, False]


def test_the_renderer_uses_the_seams_field_names() -> None:
    assert (wings_dam.DAM_START, wings_dam.DAM_LIGHTS) == (
        dam_rules.START_FIELD,
        dam_rules.LIGHTS_FIELD,
    )
    assert (wings_dam.DAM_START_WORDS, wings_dam.DAM_LIGHTS_WORDS) == (
        dam_rules.START_WORDS,
        dam_rules.LIGHTS_WORDS,
    )


def test_heading_and_lights_stay_sealed_until_the_turn_flies() -> None:
    """Two raids differing only in the secret start angle and switch: the enemy's and the
    public view are the same until the turn flies; then the plane stands elsewhere."""
    rules = WingsRules(catalog())
    state = rules.new("dambuster-mohne", "seal")
    seen = []
    for heading, lights in (("0", "auto"), ("45", "on")):
        choices = {"entente": {"plane1": "SS", "heading": heading, "lights": lights}}
        sealed, events = rules.resolve(state, choices, Rng("seal", 1, "program"))
        assert events == []
        views = [rules.view(sealed, viewer).model_dump_json() for viewer in (None, "central")]
        flown, _public = rules.resolve(
            sealed, {"entente": {}, "central": {}}, Rng("seal", 1, "reorder")
        )
        seen.append((views, flown))
    assert seen[0][0] == seen[1][0]
    first, second = (s[1].dam for s in seen)
    assert first is not None and second is not None
    assert (first.planes["AJ-G"].heading, second.planes["AJ-G"].heading) == (0.0, 45.0)
    assert second.planes["AJ-G"].searchlights and not first.planes["AJ-G"].searchlights


def test_random_headings_and_switches_replay_identically() -> None:
    """The Möhne raid with every field picked at random, twice: the same raid, byte for byte."""
    first = random_raid("dambuster-mohne", "lights", 400)
    assert first == random_raid("dambuster-mohne", "lights", 400)
    assert any('"searchlights":true' in d for d in first)
