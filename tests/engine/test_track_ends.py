"""A damage track has no box past its end (issue 30, item 7; 25.82).

"16/15 boxes" was posted in the channel and written in the export: a strike's points and
the aircraft lost were added with no limit. What is recorded and shown stops at the
track's length; what Damage Control restored is capacity again (authored #11), so a fleet
repaired and hit again still reaches Out of Action.
"""

from __future__ import annotations

import pytest

from engine.rulesets.carrier.campaign import new_campaign
from engine.rulesets.carrier.state import State, TrackState
from engine.rulesets.carrier.turn import tick_track, track_level
from engine.rulesets.carrier.view import view
from engine.zero.loader import default_catalog
from tests.engine.campaign_helpers import play

CATALOG = default_catalog()


def _lengths(state: State) -> dict[str, int]:
    scenario = CATALOG.scenarios[state.scenario]
    return {place.key: CATALOG.tracks[place.track].boxes for place in scenario.places}


@pytest.mark.parametrize("scenario", ["coral-sea", "midway"])
def test_no_track_is_recorded_or_shown_past_its_end(scenario: str) -> None:
    past: list[str] = []
    for pick_seed in range(12):
        final, _events, states = play(CATALOG, scenario, f"ends-{pick_seed}", pick_seed)
        lengths = _lengths(final)
        for record in final.history:
            for key, boxes in record.boxes.items():
                if boxes > lengths[key]:
                    past.append(
                        f"seed {pick_seed} turn {record.turn}: {key} {boxes}/{lengths[key]}"
                    )
            for tick in record.ticks:
                assert tick.boxes > 0
        for state in states:
            for track in view(CATALOG, state, None).tracks:
                if track.boxes > track.max_boxes or track.effective > track.max_boxes:
                    past.append(f"seed {pick_seed}: shown {track.place} {track.boxes}")
    assert not past, past[:5]


def test_damage_control_still_reaches_out_of_action() -> None:
    state = new_campaign(CATALOG, "coral-sea", "repaired")
    scenario = CATALOG.scenarios["coral-sea"]
    fleet = scenario.fleet_of(next(iter(state.sides)))
    length = CATALOG.tracks[fleet.track].boxes
    assert length == 30
    track = TrackState(place=fleet.key, damage_points=28, repaired=3)  # 25 effective
    hit, ticked = tick_track(track, length, 5)
    assert ticked == 5
    assert track_level(CATALOG, scenario, hit).out_of_action
    assert min(hit.boxes, length) == length  # "30/30 boxes", VP of the last level
    # More than the track holds: only what it holds is ticked.
    full, ticked = tick_track(hit, length, 12)
    assert ticked == 0 and full == hit
    fresh, ticked = tick_track(TrackState(place=fleet.key), length, 45)
    assert (ticked, fresh.boxes, fresh.effective) == (30, 30, 30)
    # Without repairs, a partly filled track takes what is left.
    part, ticked = tick_track(TrackState(place=fleet.key, damage_points=26), length, 9)
    assert (ticked, part.boxes) == (4, 30)
