"""The flak gunner's choices (seed A.IV.h): where he lays the counter, delaying it two
phases, moving it before the second maneuver, holding fire; the order and the counter his
side's secret until the shell bursts."""

from __future__ import annotations

from engine.rng import Rng
from engine.rulesets.wings import geometry as geo
from engine.rulesets.wings import gunner
from engine.rulesets.wings.campaign import pending, resolve
from engine.rulesets.wings.flak import aim, in_band
from engine.rulesets.wings.state import CampaignState, Event, GroundElement, MissionState
from engine.rulesets.wings.turn import play_turn
from tests.wings.helpers import catalog, mission, plane, seen
from tests.wings.test_turn import programs

R = 5.0


def battery(**kw: object) -> GroundElement:
    return GroundElement(id="dca", kind="dca", side="central", x=15.0, y=11.0, **kw)  # type: ignore[arg-type]


def sky(order: str | None = None, **kw: object) -> MissionState:
    """A Camel at level 2 flying at the battery, a Sopwith Pup at level 3 beside it and a
    German far off; the battery armed from turn 2."""
    camel = plane("c", type_="camel", side="entente", x=4.0, y=11.0, level=2)
    pup = plane("p", type_="camel", side="entente", x=6.0, y=16.0, level=3)
    far = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)
    state = mission(camel, pup, far).model_copy(
        update={"ground": {"dca": battery(**{"ready_turn": 2, **kw})}, "turn": 2}
    )
    if order is not None:
        state = state.model_copy(update={"flak_orders": {"dca": order}})
    return state


PROGS = {"c": "ST ST ST", "p": "S S S", "f": "S S S"}


def fly(state: MissionState, turns: int) -> tuple[MissionState, list[Event]]:
    events: list[Event] = []
    for _ in range(turns):
        state, flown = play_turn(catalog(), state, programs(**PROGS), Rng("g", state.turn, "t"))
        events += flown
    return state, events


def flak_events(events: list[Event]) -> list[str]:
    return [f"{e.kind}@{e.turn}.{e.phase}" for e in events if e.kind.startswith("flak")]


def test_the_owning_side_chooses_among_each_enemy_plane_and_holding_fire() -> None:
    (decision,) = gunner.decisions(catalog(), sky())
    assert (decision.side, decision.field, decision.default) == ("central", "flak:dca", "auto")
    assert [o.id for o in decision.options] == [
        "auto",
        *[f"{kind}:{pid}" for pid in ("p", "c") for kind in ("fire", "delay", "follow")],
        "hold",
    ]  # the nearest first; the German plane is his own side's
    assert all(len(o.label) <= 100 for o in decision.options)
    # Arming, reloading, a counter on the table or a silenced battery: nothing to decide.
    assert gunner.decisions(catalog(), sky().model_copy(update={"turn": 1})) == []
    assert gunner.decisions(catalog(), sky(ready_turn=4)) == []
    assert gunner.decisions(catalog(), sky(burst=(10.0, 11.0, 2))) == []
    assert gunner.decisions(catalog(), sky(silenced=True)) == []


def test_a_plane_at_level_0_or_in_the_clouds_is_not_offered() -> None:
    state = sky()
    planes = dict(state.planes)
    planes["c"] = planes["c"].model_copy(update={"level": 0})
    planes["p"] = planes["p"].model_copy(update={"in_cloud": True})
    (decision,) = gunner.decisions(catalog(), state.model_copy(update={"planes": planes}))
    assert [o.id for o in decision.options] == ["auto", "hold"]


def test_the_default_is_the_standing_order() -> None:
    auto, events = fly(sky("auto"), 1)
    plain, plain_events = fly(sky(), 1)
    laid = [e.data for e in events if e.kind == "flak-laid"]
    expected = aim(catalog(), battery(), list(sky().planes.values()))
    assert expected is not None
    assert laid == [{"battery": "dca", "x": round(expected[0], 3), "y": round(expected[1], 3),
                     "level": expected[2]}]  # fmt: skip
    assert auto == plain and events == plain_events


def test_over_a_chosen_plane_the_counter_lies_in_its_band_and_bursts_in_maneuver_2() -> None:
    state, events = fly(sky("fire:p"), 1)
    (laid,) = [e for e in events if e.kind == "flak-laid"]
    assert laid.data["level"] == 3 and laid.secret_for == "central"
    gap = geo.distance((15.0, 11.0), (laid.data["x"], laid.data["y"]))
    assert R / 2 - 0.01 <= gap <= R + 0.01  # level 3's band (the event rounds to 0.001)
    assert flak_events(events) == ["flak-laid@2.0", "flak-burst@2.2"]
    (burst,) = [e for e in events if e.kind == "flak-burst"]
    assert burst.secret_for is None and burst.data["level"] == 3  # told to all, where it was
    assert state.ground["dca"].ready_turn == 4  # turn 3 reloading


def test_left_unmoved_it_bursts_two_phases_later_in_the_next_turns_first_maneuver() -> None:
    state, events = fly(sky("delay:c"), 1)
    assert flak_events(events) == ["flak-laid@2.0"]
    counter = state.ground["dca"]
    assert counter.burst is not None and (counter.burst_turn, counter.burst_phase) == (3, 1)
    assert gunner.decisions(catalog(), state) == []  # his counter is on the table
    state, events = fly(state, 1)
    assert flak_events(events) == ["flak-burst@3.1"]
    (burst,) = [e for e in events if e.kind == "flak-burst"]
    assert (burst.data["x"], burst.data["y"]) == (
        round(counter.burst[0], 3), round(counter.burst[1], 3))  # fmt: skip
    # It fired in turn 3: it reloads through turn 4, its gunner is asked again in turn 5.
    assert state.ground["dca"].ready_turn == 5
    assert gunner.decisions(catalog(), state) == []
    state, events = fly(state, 1)
    assert flak_events(events) == [] and len(gunner.decisions(catalog(), state)) == 1


def test_a_delayed_counter_waits_for_where_the_plane_will_be_then() -> None:
    now, _ = fly(sky("fire:c"), 1)
    later, _ = fly(sky("delay:c"), 1)
    fire = next(e.data for e in fly(sky("fire:c"), 1)[1] if e.kind == "flak-laid")
    delay = later.ground["dca"].burst
    assert delay is not None and now.ground["dca"].burst is None
    # Four straights take the Camel further on than two.
    assert geo.distance((4.0, 11.0), delay[:2]) > geo.distance((4.0, 11.0), (fire["x"], fire["y"]))


def test_a_moved_counter_follows_its_plane_a_ruler_and_a_level_at_most() -> None:
    state = sky("follow:p")
    planes = dict(state.planes)
    planes["p"] = planes["p"].model_copy(update={"level": 1})  # it will be found at level 1
    state = state.model_copy(update={"planes": planes})
    flown, events = fly(state, 1)
    laid = next(e.data for e in events if e.kind == "flak-laid")
    moved = next(e for e in events if e.kind == "flak-moved")
    assert moved.phase == 2 and moved.secret_for == "central"  # before maneuver 2 shows
    start = (laid["x"], laid["y"])
    end = (moved.data["x"], moved.data["y"])
    assert 0 < geo.distance(start, end) <= R + 1e-6
    assert moved.data["level"] == laid["level"] == 1
    assert in_band(catalog(), battery(), end[0], end[1], 1)
    assert flak_events(events) == ["flak-laid@2.0", "flak-moved@2.2"]
    counter = flown.ground["dca"]
    assert counter.burst is not None and counter.burst_turn == 3 and counter.follow is None
    _, events = fly(flown, 1)
    assert flak_events(events) == ["flak-burst@3.1"]


def test_a_moved_counter_changes_one_level_towards_its_plane() -> None:
    counter = (15.0 - 4.0, 11.0, 1)  # at level 1, 4 bw west of the battery
    pup = plane("p", type_="camel", side="entente", x=12.0, y=11.0, level=4)
    x, y, level = gunner.moved_counter(catalog(), battery(), counter, pup)
    assert level == 2  # one level nearer, not three
    assert in_band(catalog(), battery(), x, y, 2)
    assert geo.distance(counter[:2], (x, y)) <= R + 1e-6


def test_holding_fire_keeps_the_battery_armed() -> None:
    state, events = fly(sky("hold"), 1)
    assert flak_events(events) == []
    assert len(gunner.decisions(catalog(), state)) == 1  # asked again next turn


def test_a_target_gone_leaves_the_shell_in_the_breech() -> None:
    state = sky("fire:p")
    planes = dict(state.planes)
    planes["p"] = planes["p"].model_copy(update={"status": "shot_down"})
    _, events = fly(state.model_copy(update={"planes": planes}), 1)
    assert flak_events(events) == []


# --- secrecy: the enemy cannot tell the orders apart before the burst -----------------


def campaign_at_turn_2() -> CampaignState:
    """A Wings 1917 balloon-busting campaign (the Central side defends with a battery)
    with turn 1 flown at the defaults."""
    import engine.rulesets.wings as seam
    from engine.rulesets.wings.catalog import default_catalog

    rules = seam.WingsRules(default_catalog())
    state = rules.new("wings-1917", "gunner-secret")
    campaign = state.camp
    choices = _defaults(campaign)
    campaign, _ = resolve(catalog(), campaign, choices, Rng("gs", 1, "program"))
    return campaign


def _defaults(campaign: CampaignState) -> dict[str, dict[str, str]]:
    result: dict[str, dict[str, str]] = {}
    for decision in pending(catalog(), campaign):
        result.setdefault(decision.side, {})[decision.field] = decision.default
    return result


def test_the_order_is_the_owning_sides_secret_until_the_burst() -> None:
    start = campaign_at_turn_2()
    assert start.mission is not None and start.mission.turn == 2
    (flak,) = [d for d in pending(catalog(), start) if d.kind == "flak"]
    gunners, enemy_side = flak.side, "central" if flak.side == "entente" else "entente"
    target = next(o.id for o in flak.options if o.id.startswith("delay:")).split(":")[1]
    runs = []
    for order in (f"delay:{target}", f"follow:{target}", "hold"):
        choices = _defaults(start)
        choices[gunners][flak.field] = order
        after, events = resolve(catalog(), start, choices, Rng("gs", 2, "program"))
        runs.append((after, events))
    public = [[e for e in events if e.secret_for in (None, enemy_side)] for _, events in runs]
    enemy = [seen(after, enemy_side) for after, _ in runs]
    own = [seen(after, gunners) for after, _ in runs]
    assert public[0] == public[1] == public[2]
    assert enemy[0] == enemy[1] == enemy[2]
    assert own[0] != own[1] != own[2]  # his own side sees its counter
    bid = flak.field.removeprefix(gunner.PREFIX)
    assert "burst" not in enemy[0]["mission"]["ground"][bid]
    assert own[0]["mission"]["ground"][bid]["burst"] is not None
    assert own[2]["mission"]["ground"][bid]["burst"] is None
    # The next turn's first maneuver bursts the delayed shells, and then all is told.
    told = []
    for after, _ in runs:
        _, events = resolve(catalog(), after, _defaults(after), Rng("gs", 3, "program"))
        told.append([e.data for e in events if e.kind == "flak-burst" and e.phase == 1])
    assert told[2] == [] and told[0] and told[1]


def test_on_the_seam_the_public_and_the_enemy_views_hide_the_counter() -> None:
    import engine.rulesets.wings as seam
    from engine.rulesets.wings.catalog import default_catalog

    rules = seam.WingsRules(default_catalog())

    def advance(state: seam.WingsState, picks: dict[str, str]) -> seam.WingsState:
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):
            value = picks.get(decision.field, decision.default)
            choices.setdefault(decision.side, {})[decision.field] = value
        state, _ = rules.resolve(state, choices, Rng("seam", state.turn, "r"))
        return state

    sides = set()
    for seed in ("gunner-seam", "gunner-secret"):  # a Central battery, then an Entente one
        start = rules.new("wings-1917", seed)
        while rules.progress(start).turn < 2:
            start = advance(start, {})
        (flak,) = [d for d in rules.pending(start) if d.field == "flak"]
        sides.add(flak.side)
        enemy = "central" if flak.side == "entente" else "entente"
        views = []
        for kind in ("flak.delay.", "flak.follow.", "flak.hold"):
            chosen = next(o.id for o in flak.options if o.detail.startswith(kind))
            state = advance(start, {"flak": chosen})
            while rules.progress(state).round != "program":
                state = advance(state, {})
            views.append((rules.view(state, None).data, rules.view(state, enemy).data))
            own = rules.view(state, flak.side).data["mission"]["ground"]
            assert any(e.get("burst") for e in own.values()) == (kind != "flak.hold")
        assert views[0] == views[1] == views[2]
    assert sides == {"entente", "central"}
