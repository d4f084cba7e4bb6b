"""Major objectives (seed F.III.c), the airfield assault (F.III.d option) and the period
bonus (F.I, I.I): the photo-reconnaissance then bombing sequence, 10 structure points, the
doubled replenishing costs, the campaign won by the enemy airfield, the start bonus."""

from __future__ import annotations

import pytest

from bot.logtext import describe
from engine.rng import Rng
from engine.rulesets.wings import WingsRules, majors
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.campaign import _debrief, new_campaign
from engine.rulesets.wings.objectives import awards
from engine.rulesets.wings.state import CampaignState, MajorSite, MissionState
from tests.wings.helpers import catalog, mission, plane, seen
from tests.wings.test_mission_kinds import with_recon_crew
from tests.wings.test_objectives import FAR, after, run_phase
from tests.wings.test_pilots_campaign import squadrons

# --- 10 structure points (seed F.III.c, with the bombs of A.IV.e and B.X) -------------------


def _raid(damage: int, major: str | None, cluster: bool = False) -> tuple[int, bool]:
    bomber = plane(
        "b", type_="camel", side="entente", x=5.0, y=10.0, level=1, bombs=1, cluster=cluster
    )
    x, y, _ = after(bomber, "S", 2)  # its straight, then the bomb's straight: on the red dot
    base = mission(bomber, FAR)
    site = majors.place(catalog(), _campaign(), "bombing", "central", "station")["c-T1"]
    site = site.model_copy(update={"x": x, "y": y, "damage": damage, "major": major})
    work = run_phase(
        base.model_copy(update={"objectives": {site.id: site}}), b="S S S", far="S S S"
    )
    hit = work.objectives[site.id]
    return hit.damage, hit.destroyed


def test_a_major_objective_stands_ten_structure_points() -> None:
    # One bomb on the centre does 5 (B.X): it flattens a common target, not a major one.
    assert _raid(0, None) == (5, True)
    assert _raid(0, "station") == (5, False)
    assert _raid(4, "station") == (9, False)
    assert _raid(5, "station") == (10, True)
    # A two-seater's cluster of three (12, B.X) brings down a fresh one in one pass.
    assert _raid(0, "factory", cluster=True) == (12, True)


def test_a_destroyed_major_objective_earns_the_usual_target_awards_only() -> None:
    site = majors.place(catalog(), _campaign(), "bombing", "central", "depot")["c-T1"]
    flattened = site.model_copy(update={"damage": 10, "destroyed": True, "hit_by": "b"})
    bomber = plane("b", type_="camel", side="entente", pilot="P1")
    common = flattened.model_copy(update={"major": None})
    scored = [
        awards(catalog(), mission(bomber).model_copy(update={"objectives": {s.id: s}}))
        for s in (flattened, common)
    ]
    # Seed F.III.c: "no extra points" for the attacker, only the owner's penalty.
    assert scored[0].team == scored[1].team and scored[0].pilot == scored[1].pilot


# --- the sequence: photograph, stay active, bomb --------------------------------------------


def _campaign(**options: bool) -> CampaignState:
    state = with_recon_crew()
    return state.model_copy(
        update={
            "airfield_assault": options.get("airfield_assault", False),
            "active": "entente",
            "missions_planned": 9,
        }
    )


def _reasons(state: CampaignState) -> dict[str, str]:
    decision = wings.mission_decision(catalog(), state)
    return {e.id: e.reason for e in decision.excluded if ":" in e.id}


def _offered(state: CampaignState) -> set[str]:
    decision = wings.mission_decision(catalog(), state)
    return {o.id for o in decision.options if ":" in o.id}


def _brief(state: CampaignState, choice: str) -> CampaignState:
    assert state.phase == "briefing", state.phase
    choices = wings.defaults(wings.pending(catalog(), state))
    choices[state.active]["mission"] = choice
    after_, _ = wings.resolve(catalog(), state, choices, Rng("m", state.mission_number, "b"))
    return after_


def _photo_flown(state: CampaignState, success: bool) -> CampaignState:
    """The briefed photo mission over: the two-seater took the photograph and is home, or
    did not; every enemy plane left the table, so nobody is lost."""
    flown = state.mission
    assert flown is not None
    planes = {
        pid: p if p.side == "entente" else p.model_copy(update={"status": "left"})
        for pid, p in flown.planes.items()
    }
    camera = next(p.id for p in planes.values() if p.type == "bristol_f2b")
    (site,) = flown.objectives.values()
    done = site.model_copy(update={"done_by": camera if success else None})
    return _close(state, flown, planes, {site.id: done})


def _bombing_flown(state: CampaignState, damage: int) -> CampaignState:
    flown = state.mission
    assert flown is not None
    planes = {
        pid: p if p.side == "entente" else p.model_copy(update={"status": "left"})
        for pid, p in flown.planes.items()
    }
    (site,) = flown.objectives.values()
    structure = majors.structure(catalog(), site)
    hit = site.model_copy(update={"damage": damage, "destroyed": damage >= structure})
    return _close(state, flown, planes, {site.id: hit})


def _close(state: CampaignState, flown: MissionState, planes: dict, sites: dict) -> CampaignState:  # type: ignore[type-arg]
    finished = flown.model_copy(update={"planes": planes, "objectives": sites, "finished": True})
    debriefed, _ = _debrief(
        catalog(), state.model_copy(update={"mission": finished}), Rng("d", 1, "m"), []
    )
    if debriefed.phase == "ended":
        return debriefed  # decided at the mission's end: no debrief is asked (issue 27)
    choices = wings.defaults(wings.pending(catalog(), debriefed))
    briefed, _ = wings.resolve(catalog(), debriefed, choices, Rng("d", 2, "m"))
    return briefed


def test_no_bombing_of_a_major_objective_before_its_photograph() -> None:
    state = _campaign()
    reasons = _reasons(state)
    assert reasons["bombing:station"] == "needs-photo-recon"
    assert {"photography:station", "photography:depot", "photography:factory"} <= _offered(state)
    assert "photography:airfield" not in reasons | {o: "" for o in _offered(state)}
    choices = wings.defaults(wings.pending(catalog(), state))
    choices["entente"]["mission"] = "bombing:station"
    with pytest.raises(wings.IllegalChoice) as refused:
        wings.resolve(catalog(), state, choices, Rng("m", 0, "b"))
    assert refused.value.reason == "needs-photo-recon"


def test_a_photo_mission_against_a_major_objective_lays_it_at_its_spot() -> None:
    briefed = _brief(_campaign(), "photography:factory")
    flown = briefed.mission
    assert flown is not None and flown.kind == "photography" and flown.major == "factory"
    (site,) = flown.objectives.values()
    width, height = catalog().rules.units.table
    ruler = catalog().rules.units.ruler
    assert (site.kind, site.side, site.major) == ("photo", "central", "factory")
    assert site.x == pytest.approx(width * 3 / 4 + ruler * majors.rules().depth)
    assert site.y == pytest.approx(height * majors.rules().spots["factory"])


def test_a_photographed_objective_may_be_bombed_next_mission_and_falls_at_ten_points() -> None:
    state = _photo_flown(_brief(_campaign(), "photography:station"), success=True)
    assert state.active == "entente" and state.phase == "briefing"
    assert majors.site(state.squadrons["central"], "station").photographed == 1
    assert "bombing:station" in _offered(state)
    assert _reasons(state)["bombing:depot"] == "needs-photo-recon"  # only what was photographed
    briefed = _brief(state, "bombing:station")
    assert briefed.mission is not None and briefed.mission.major == "station"
    (target,) = briefed.mission.objectives.values()
    assert (target.kind, target.major) == ("target", "station")
    # A raid that leaves it standing keeps its damage but spends the photograph.
    state = _bombing_flown(briefed, damage=7)
    station = majors.site(state.squadrons["central"], "station")
    assert (station.damage, station.destroyed, station.photographed) == (7, False, None)
    assert state.active == "central"  # seed F.III.a: the raid failed, the initiative passed
    state = state.model_copy(update={"active": "entente"})  # (won back in a mission between)
    assert _reasons(state)["bombing:station"] == "needs-photo-recon"
    # Photographed again, the next raid starts from those 7 points.
    state = _photo_flown(_brief(state, "photography:station"), success=True)
    again = _brief(state, "bombing:station")
    assert again.mission is not None
    assert next(iter(again.mission.objectives.values())).damage == 7
    state = _bombing_flown(again, damage=10)
    assert majors.site(state.squadrons["central"], "station").destroyed
    assert _reasons(state)["photography:station"] == "major-destroyed"


def test_a_failed_photograph_or_a_lost_initiative_opens_no_bombing() -> None:
    failed = _photo_flown(_brief(_campaign(), "photography:station"), success=False)
    assert majors.site(failed.squadrons["central"], "station").photographed is None
    assert "bombing:station" not in _offered(failed.model_copy(update={"active": "entente"}))
    done = _photo_flown(_brief(_campaign(), "photography:station"), success=True)
    # The initiative passed (seed F.III.a: half the flying strength lost, say): the central
    # squadron chooses, and has nothing of its own to bomb...
    central = done.model_copy(update={"active": "central"})
    assert "bombing:station" not in _offered(central)
    # ...and once a mission has gone by, the Entente's photograph is stale.
    later = done.model_copy(update={"mission_number": done.mission_number + 1})
    assert _reasons(later)["bombing:station"] == "needs-photo-recon"


# --- the penalties (seed F.III.c) -----------------------------------------------------------


def _destroyed(state: CampaignState, side: str, major: str) -> CampaignState:
    squadron = state.squadrons[side]  # type: ignore[index]
    sites = {**squadron.majors, major: MajorSite(kind=major, damage=10, destroyed=True)}
    squadrons = {**state.squadrons, side: squadron.model_copy(update={"majors": sites})}
    return state.model_copy(update={"squadrons": squadrons, "phase": "debrief"})


def _prices(state: CampaignState, side: str) -> dict[str, int]:
    decision = next(
        d for d in wings.pending(catalog(), state) if d.side == side and d.kind == "purchase"
    )
    return {o.id: int(o.detail.split()[0]) for o in decision.options if o.id}


@pytest.mark.parametrize(
    ("major", "doubled", "kept"),
    [
        ("station", ("rookie", "mechanics"), ("fuel", "ammunition", "plane:albatros_d3")),
        ("factory", ("plane:albatros_d3",), ("rookie", "fuel", "mechanics")),
        ("depot", ("fuel", "ammunition", "spare_parts"), ("rookie", "plane:albatros_d3")),
    ],
)
def test_a_destroyed_major_objective_doubles_its_replenishing(
    major: str, doubled: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    state = new_campaign(catalog(), "k", squadrons())  # type: ignore[arg-type]
    state = state.model_copy(
        update={
            "phase": "debrief",
            "squadrons": {
                side: s.model_copy(update={"reserve": 20}) for side, s in state.squadrons.items()
            },
        }
    )
    before = _prices(state, "central")
    hit = _destroyed(state, "central", major)
    prices = _prices(hit, "central")
    for kind in doubled:
        assert prices[kind] == 2 * before[kind], kind
    for kind in kept:
        assert prices[kind] == before[kind], kind
    # Never-owned materiel is bought at its normal price (an Ace, a new plane type), and the
    # Entente, whose buildings stand, pays as before.
    assert prices["ace"] == before["ace"] and prices["trenches"] == before["trenches"]
    assert prices["plane:halberstadt_cl2"] == before["plane:halberstadt_cl2"]
    assert _prices(hit, "entente") == _prices(state, "entente")
    # The price is what the reserve pays.
    choices = wings.defaults(wings.pending(catalog(), hit))
    choices["central"]["purchase"] = doubled[0]
    paid, _ = wings.resolve(catalog(), hit, choices, Rng("p", 1, "b"))
    assert paid.squadrons["central"].reserve == 20 - 2 * before[doubled[0]]


# --- the airfield (seed F.III.d option) -----------------------------------------------------


def test_the_airfield_recon_needs_the_option_and_a_weakened_or_outscored_enemy() -> None:
    plain = _campaign()
    assert not any("airfield" in key for key in (*_reasons(plain), *_offered(plain)))
    state = _campaign(airfield_assault=True)
    assert _reasons(state)["photography:airfield"] == "enemy-not-weakened"
    squadrons_ = dict(state.squadrons)
    squadrons_["entente"] = squadrons_["entente"].model_copy(update={"score": 7})
    squadrons_["central"] = squadrons_["central"].model_copy(update={"score": 3})
    ahead = state.model_copy(update={"squadrons": squadrons_})
    assert "photography:airfield" in _offered(ahead)  # 7 > 2 x 3
    squadrons_["central"] = squadrons_["central"].model_copy(update={"score": 4})
    assert "photography:airfield" not in _offered(
        state.model_copy(update={"squadrons": squadrons_})
    )
    # Weakened: the Central squadron can put up fewer crews than it has players.
    stock = dict(state.squadrons["central"].stock)
    stock["plane:albatros_d3"] = 1
    weak = dict(state.squadrons)
    weak["central"] = weak["central"].model_copy(update={"stock": stock})
    assert "photography:airfield" in _offered(state.model_copy(update={"squadrons": weak}))


def test_destroying_the_enemy_airfield_ends_the_campaign() -> None:
    state = _campaign(airfield_assault=True)
    squadrons_ = dict(state.squadrons)
    # Far ahead (25 > 2 x 10), though not so far that the 1/3 rule ends the campaign first.
    squadrons_["entente"] = squadrons_["entente"].model_copy(update={"score": 25})
    squadrons_["central"] = squadrons_["central"].model_copy(update={"score": 10})
    state = state.model_copy(update={"squadrons": squadrons_, "missions_planned": 9})
    state = _photo_flown(_brief(state, "photography:airfield"), success=True)
    assert state.phase == "briefing" and "bombing:airfield" in _offered(state)
    spared = _bombing_flown(_brief(state, "bombing:airfield"), damage=9)
    assert spared.phase == "briefing"  # standing at 9 of 10: the war goes on
    spared = spared.model_copy(update={"active": "entente"})
    state = _photo_flown(_brief(spared, "photography:airfield"), success=True)
    ended = _bombing_flown(_brief(state, "bombing:airfield"), damage=10)
    assert (ended.phase, ended.winner) == ("ended", "entente")
    assert ended.mission_number < ended.missions_planned


# --- the period bonus (seed F.I, I.I) --------------------------------------------------------


@pytest.mark.parametrize(
    ("date", "side", "modifier"),
    [("1917-09", "entente", -2), ("1917-04", "central", 2), ("1916-04", "central", 0),
     ("1918-06", "entente", 2)],
)  # fmt: skip
def test_the_period_bonus_goes_to_the_period_side(date: str, side: str, modifier: int) -> None:
    plain = new_campaign(catalog(), "pb", squadrons(), date=date)  # type: ignore[arg-type]
    lucky = new_campaign(catalog(), "pb", squadrons(), date=date, period_bonus=True)  # type: ignore[arg-type]
    bonus = lucky.period_bonus
    assert bonus is not None and (bonus["side"], bonus["modifier"]) == (side, modifier)
    assert 1 <= bonus["roll"] <= 10 and bonus["points"] == max(0, bonus["roll"] + modifier)
    other_side = "central" if side == "entente" else "entente"
    assert lucky.squadrons[side].reserve == plain.squadrons[side].reserve + bonus["points"]  # type: ignore[index]
    assert lucky.squadrons[other_side].reserve == plain.squadrons[other_side].reserve  # type: ignore[index]
    assert lucky.squadrons[side].score == 0  # type: ignore[index]  # seed F.I: the score starts at 0
    # Its own stream: the rest of the campaign draws as without it.
    assert lucky.active == plain.active


def test_the_period_bonus_is_deterministic_and_varies_with_the_seed() -> None:
    rolls = {
        new_campaign(catalog(), seed, squadrons(), period_bonus=True).period_bonus["roll"]  # type: ignore[arg-type, index]
        for seed in ("a", "b", "c", "d", "e", "f")
    }
    assert len(rolls) > 1
    again = [
        new_campaign(catalog(), "a", squadrons(), period_bonus=True).period_bonus  # type: ignore[arg-type]
        for _ in range(2)
    ]
    assert again[0] == again[1]
    # The die of the named stream the docs give (wings-data.md), so a GM can check it.
    for seed in ("a", "b", "c", "d", "e", "f"):
        drawn = new_campaign(catalog(), seed, squadrons(), period_bonus=True).period_bonus  # type: ignore[arg-type]
        die = Rng(seed, 0, "campaign").stream("period-bonus").randint(1, 10)
        assert drawn is not None and drawn["roll"] == die
    before_war = new_campaign(catalog(), "a", squadrons(), date="1915-01", period_bonus=True)  # type: ignore[arg-type]
    assert before_war.period_bonus is None


def test_the_period_bonus_is_told_in_the_log_as_the_campaign_is_set_up() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917-front", "log")
    bonus = state.camp.period_bonus
    assert bonus is not None
    told = [e for e in rules.opening(state) if e.kind == "period-bonus"]
    assert len(told) == 1 and told[0].data == bonus
    choices = {d.side: {} for d in rules.pending(state)}
    for d in rules.pending(state):
        choices[d.side][d.field] = d.default
    _after, events = rules.resolve(state, choices, Rng("log", 1, "program"))
    assert not [e for e in events if e.kind == "period-bonus"]  # told once
    english = describe("period-bonus", told[0].data, "en", turn=1)
    assert english == (
        f"Period bonus (summer 1917, 1D10-2): Entente rolls {bonus['roll']} and starts with "
        f"{bonus['points']} more Campaign Points"
    )
    assert "été 1917" in describe("period-bonus", told[0].data, "fr", turn=1)
    # Told once: the next turn's log does not repeat it.
    nxt = rules.resolve(
        _after,
        {
            s: {d.field: d.default for d in rules.pending(_after) if d.side == s}
            for s in ("entente", "central")
        },
        Rng("log", 1, "reorder"),
    )
    assert not any(e.kind == "period-bonus" for e in nxt[1])


# --- what the board shows --------------------------------------------------------------------


def test_the_status_lines_show_each_squadrons_major_objectives() -> None:
    from rendering.rulesets.wings.majors import major_lines

    state = _destroyed(_campaign(), "central", "depot")
    sites = dict(state.squadrons["central"].majors)
    sites["station"] = MajorSite(kind="station", damage=7)
    sites["factory"] = MajorSite(kind="factory", photographed=2)
    squadrons_ = {**state.squadrons}
    squadrons_["central"] = squadrons_["central"].model_copy(update={"majors": sites})
    # Public facts: the Entente's own view shows the Central buildings as they stand.
    data = seen(state.model_copy(update={"squadrons": squadrons_}), "entente")
    lines = major_lines(data, "en", airfield=False)
    assert lines[0] == "Major objectives"
    assert lines[1] == "Entente: station (intact), depot (intact), factory (intact)"
    assert lines[2] == (
        "Central Powers: station (damage 7/10), depot (destroyed), factory (photographed)"
    )
    with_airfield = major_lines(data, "fr", airfield=True)
    assert with_airfield[2].endswith("terrain d’aviation (en état)")
