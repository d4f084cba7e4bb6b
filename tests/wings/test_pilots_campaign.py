"""Pilots (seed D), the mission generator (seed E) and the campaign (seed F) through the
public API."""

from __future__ import annotations

import pytest

from engine.rng import Rng
from engine.rulesets.wings.campaign import (
    IllegalChoice,
    PilotSetup,
    SquadronSetup,
    defaults,
    new_campaign,
    pending,
    resolve,
)
from engine.rulesets.wings.catalog import Catalog
from engine.rulesets.wings.generator import draw_weather, mission_points
from engine.rulesets.wings.pilots import (
    allowed_skills,
    heal,
    killer_bonus,
    replacement,
    skills_due,
    spendable_vp,
    state_from_lp,
)
from engine.rulesets.wings.program import parse_program, program_text, random_program
from engine.rulesets.wings.state import CampaignState, PlaneState
from engine.sight import Eyes, keep_json
from tests.wings.helpers import catalog, pilot, seen


def test_mission_points_worked_example() -> None:
    # Seed E.II.b: Jasta 85 (3 players) photographs 2 objectives near enemy territory,
    # defended by 2 CAA and 1 DCA, against SPA 85 (4 players): 5 extra MP, 11 against 8.
    points = mission_points(
        catalog(),
        active_players=3,
        enemy_players=4,
        kind="photography",
        extra_objectives=1,
        enemy_extra_aircraft=1,
        enemy_caa=2,
        enemy_dca=1,
    )
    assert sum(value for _, value in points.lines) == 5
    assert (points.active, points.enemy) == (11, 8)


def test_skill_count_arithmetic_of_d2() -> None:
    cat = catalog()
    assert skills_due(cat, pilot(kills=4)) == 1  # Rookie: the starting skill only
    assert skills_due(cat, pilot(kills=5)) == 2  # Ace
    assert skills_due(cat, pilot(kills=9, vp=80)) == 6  # Veteran Ace
    assert skills_due(cat, pilot(kills=30, vp=160)) == 10  # Ace of Aces
    assert pilot(kills=5, vp=79).status == "ace" and pilot(vp=80).status == "veteran"


@pytest.mark.parametrize(
    ("lp", "state"),
    [(10, "active"), (6, "active"), (5, "wounded"), (3, "wounded"), (2, "seriously_wounded"),
     (0, "seriously_wounded"), (-1, "dead")],
)  # fmt: skip
def test_life_points_to_state(lp: int, state: str) -> None:
    assert state_from_lp(catalog(), lp) == state


def test_equipment_vp_and_death() -> None:
    assert spendable_vp(pilot(vp=23)) == 3  # seed D.VIII
    cat = catalog()
    assert killer_bonus(cat, pilot(vp=90, kills=8)) == 2
    assert killer_bonus(cat, pilot(vp=170, kills=20)) == 5
    assert killer_bonus(cat, pilot(kills=6)) == 0
    heir = replacement(cat, pilot(vp=170, kills=20, state="dead"), "P9")
    assert heir.status == "veteran" and heir.skill_picks == 6
    assert replacement(cat, pilot(vp=90, kills=8), "P9").status == "ace"
    assert replacement(cat, pilot(kills=2), "P9").status == "rookie"


def test_healing_takes_missions() -> None:
    cat = catalog()
    hurt = pilot(state="seriously_wounded", rest=2, lp=1)
    once = heal(cat, hurt)
    assert (once.state, once.rest) == ("seriously_wounded", 1)
    twice = heal(cat, once)
    assert (twice.state, twice.lp) == ("wounded", 5)
    assert heal(cat, twice).state == "active"
    assert heal(cat, pilot(state="dead")).state == "dead"


def test_skill_rules_by_behaviour_and_ultimates() -> None:
    cat = catalog()
    legal, refused = allowed_skills(cat, pilot(behaviour="rammer"))
    assert set(legal) == {"conscientious", "experts_eye", "systeme_d"}
    assert ("very_good_shot", "barred-by-behaviour") in refused
    assert ("tinkerer", "ultimate-needs-field") in refused
    veteran = pilot(behaviour="rammer", skills=("conscientious", "experts_eye", "systeme_d"))
    assert "tinkerer" in allowed_skills(cat, veteran)[0]
    assert ("killer", "barred-by-behaviour") in allowed_skills(cat, pilot(behaviour="knight"))[1]


def test_weather_by_season() -> None:
    cat = catalog()
    seen = {draw_weather(cat, "1917-07", Rng("w", i, "x").stream("w")) for i in range(60)}
    assert seen == {"clear", "heavy", "medium"}


def squadrons() -> dict[str, SquadronSetup]:
    return {
        "entente": SquadronSetup(
            name="SPA 85",
            players=2,
            pilots=(
                PilotSetup(name="Guy", behaviour="knight", plane="nieuport17",
                           skills=("very_good_shot", "viper")),
                PilotSetup(name="Charles", behaviour="hothead", plane="spad7", skills=("acrobat",)),
            ),
        ),
        "central": SquadronSetup(
            name="Jasta 85",
            players=2,
            pilots=(
                PilotSetup(name="Manfred", behaviour="opportunist", plane="albatros_d3",
                           skills=("very_good_shot",)),
                PilotSetup(name="Werner", behaviour="soldier", plane="albatros_d3",
                           skills=("genius",)),
            ),
        ),
    }  # fmt: skip


def test_new_campaign_spends_starting_points() -> None:
    state = new_campaign(catalog(), "s", squadrons())  # type: ignore[arg-type]
    # 6 CP a player (seed F.I): 2 Rookies (1 each), 2 period fighters (1 each), mechanics,
    # spare parts, fuel and ammunition (1 each): 8 of 12 spent.
    assert state.squadrons["entente"].reserve == 4
    assert state.squadrons["central"].stock["plane:albatros_d3"] == 2
    with pytest.raises(IllegalChoice) as bad:
        setup = squadrons()
        setup["central"] = setup["central"].model_copy(
            update={
                "pilots": (
                    PilotSetup(name="X", behaviour="rammer", plane="dr1", skills=("killer",)),
                )
            }
        )
        new_campaign(catalog(), "s", setup)  # type: ignore[arg-type]
    assert bad.value.reason == "barred-by-behaviour"


def play(seed: str, max_steps: int = 400) -> tuple[CampaignState, list[str]]:
    cat = catalog()
    state = new_campaign(cat, seed, squadrons())  # type: ignore[arg-type]
    log: list[str] = []
    for step in range(max_steps):
        if state.phase == "ended":
            break
        decisions = pending(cat, state)
        choices = defaults(decisions)
        if (
            state.phase == "mission"
            and state.mission is not None
            and state.mission.round == "program"
        ):
            for d in decisions:
                if d.kind != "program":
                    continue  # a plane off the table: its default keeps it out (A.IV.c)
                plane = state.mission.planes[d.field]
                stream = Rng(seed, step, "ai").stream(d.field)
                choices[d.side][d.field] = program_text(
                    random_program(cat, plane, state.mission.rules, state.mission.turn, stream)
                )
        state, events = resolve(cat, state, choices, Rng(seed, step, state.phase))
        log.extend(event.model_dump_json() for event in events)
    return state, log


def test_a_campaign_runs_to_its_end_and_replays_exactly() -> None:
    first, log = play("replay")
    second, log_again = play("replay")
    assert first.phase == "ended" and first.winner is not None
    assert len(first.history) == 3
    assert first.model_dump_json() == second.model_dump_json()
    assert log == log_again
    for squadron in first.squadrons.values():
        assert squadron.reserve >= 0 and squadron.score >= 0


def test_illegal_program_is_refused_with_its_reason() -> None:
    cat = catalog()
    state = new_campaign(cat, "s", squadrons())  # type: ignore[arg-type]
    state, _ = resolve(cat, state, defaults(pending(cat, state)), Rng("s", 1, "b"))
    assert state.phase == "mission"
    decisions = pending(cat, state)
    # A Knight's or an Artist's standing order is asked with the programs (seed D.VI).
    assert all(d.kind in ("program", "order") for d in decisions)
    choices = defaults(decisions)
    victim = decisions[0]
    choices[victim.side][victim.field] = "ST ST S"
    with pytest.raises(IllegalChoice) as refused:
        resolve(cat, state, choices, Rng("s", 2, "m"))
    assert refused.value.reason == "steep-after-steep"
    del choices[victim.side][victim.field]
    with pytest.raises(IllegalChoice) as missing:
        resolve(cat, state, choices, Rng("s", 2, "m"))
    assert missing.value.reason == "missing"


def test_purchase_limits() -> None:
    cat = catalog()
    state = new_campaign(cat, "s", squadrons())  # type: ignore[arg-type]
    state = state.model_copy(update={"phase": "debrief"})
    choices = defaults(pending(cat, state))
    choices["entente"]["purchase"] = "fuel, fuel"
    with pytest.raises(IllegalChoice, match="once-per-resource"):
        resolve(cat, state, choices, Rng("s", 1, "d"))
    choices["entente"]["purchase"] = "caa, trenches"
    with pytest.raises(IllegalChoice, match="one-new-resource"):
        resolve(cat, state, choices, Rng("s", 1, "d"))
    choices["entente"]["purchase"] = "ace_of_aces"
    with pytest.raises(IllegalChoice, match="cannot-afford"):
        resolve(cat, state, choices, Rng("s", 1, "d"))
    choices["entente"]["purchase"] = "fuel, rookie"
    after, events = resolve(cat, state, choices, Rng("s", 1, "d"))
    assert after.squadrons["entente"].reserve == 2
    assert after.squadrons["entente"].stock["fuel"] == 20
    assert len([p for p in after.pilots.values() if p.side == "entente"]) == 3
    assert [e.kind for e in events] == ["purchased"]


def test_view_hides_the_other_sides_secrets() -> None:
    cat = catalog()
    state = new_campaign(cat, "s", squadrons())  # type: ignore[arg-type]
    state, _ = resolve(cat, state, defaults(pending(cat, state)), Rng("s", 1, "b"))
    assert state.mission is not None
    programs = {pid: parse_program("S S S") for pid in state.mission.planes}
    sealed = state.mission.model_copy(update={"programs": programs})
    state = state.model_copy(update={"mission": sealed})
    kept = seen(state, "entente")
    planes = kept["mission"]["planes"]
    for pid, plane in planes.items():
        if plane["side"] == "entente":
            assert "damage" in plane and pid in kept["mission"]["programs"]
        else:
            assert "damage" not in plane and "cards" not in plane
            assert pid not in kept["mission"]["programs"]
    assert "reserve" not in kept["squadrons"]["central"]
    # The damage decks are nobody's until the campaign ends; then everyone reads them.
    assert "decks" not in seen(state, "entente")["mission"]
    assert "decks" in keep_json(state, Eyes.public(), finished=True)["mission"]


def _first_mission() -> tuple[Catalog, CampaignState, PlaneState, PlaneState]:
    """The "tail" campaign at its first mission's programs, with an Entente plane to hunt
    and a Central one to be its prey."""
    cat = catalog()
    state = new_campaign(cat, "tail", squadrons())  # type: ignore[arg-type]
    state, _ = resolve(cat, state, defaults(pending(cat, state)), Rng("tail", 1, "b"))
    assert state.mission is not None
    planes = state.mission.planes.values()
    hunter = next(p for p in planes if p.side == "entente")
    prey = next(p for p in planes if p.side == "central")
    return cat, state, hunter, prey


def test_tailing_reveals_the_first_card_and_allows_a_reorder() -> None:
    cat, state, hunter, prey = _first_mission()
    assert state.mission is not None
    mission = state.mission
    mission = mission.model_copy(update={"pursuits": {hunter.id: prey.id}})
    state = state.model_copy(update={"mission": mission})
    choices = defaults(pending(cat, state))
    choices["central"][prey.id] = "BL S S"
    choices["entente"][hunter.id] = "S ST S"
    state, events = resolve(cat, state, choices, Rng("tail", 2, "m"))
    assert state.mission is not None and state.mission.round == "reorder"
    shown = [e for e in events if e.kind == "first-card-shown"]
    assert [(e.data["card"], e.secret_for) for e in shown] == [("BL", "entente")]
    # The sealed programs stay out of the other side's view.
    assert prey.id not in seen(state, "entente")["mission"]["programs"]
    decisions = pending(cat, state)
    assert [d.field for d in decisions] == [hunter.id]
    # Three orderings of S, ST, S; ST first would follow nothing steep, all are legal here.
    assert {o.id for o in decisions[0].options} == {"S ST S", "ST S S", "S S ST"}
    with pytest.raises(IllegalChoice, match="not-a-reordering"):
        resolve(cat, state, {"entente": {hunter.id: "S S S"}}, Rng("tail", 3, "m"))
    state, events = resolve(cat, state, {"entente": {hunter.id: "ST S S"}}, Rng("tail", 3, "m"))
    assert state.mission is None or state.mission.round == "program"
    revealed = [
        e.data["card"] for e in events if e.kind == "card-revealed" and e.data["plane"] == hunter.id
    ]
    assert revealed[:1] == ["ST"]


def test_debrief_folds_the_mission_into_pilots_and_squadrons() -> None:
    from engine.rulesets.wings.campaign import _debrief
    from tests.wings.helpers import mission as make_mission
    from tests.wings.helpers import plane as make_plane

    cat = catalog()
    state = new_campaign(cat, "d", squadrons())  # type: ignore[arg-type]
    veteran = state.pilots["P3"].model_copy(update={"kills": 8, "vp": 90})
    state = state.model_copy(
        update={"pilots": {**state.pilots, "P3": veteran}, "active": "entente"}
    )
    planes = [
        make_plane("P1", type_="nieuport17", side="entente", pilot="P1", kills=("P3",)),
        make_plane("P2", type_="spad7", side="entente", pilot="P2", status="crashed",
                   pilot_lp=4, crash_zone="enemy", damage=15),
        make_plane("P3", type_="albatros_d3", side="central", pilot="P3", status="shot_down",
                   pilot_lp=-1, destroyed_by="P1", damage=14),
        make_plane("P4", type_="albatros_d3", side="central", pilot="P4", status="left",
                   damage=3, specials=("smoke", "none")),
    ]  # fmt: skip
    finished = make_mission(*planes).model_copy(update={"finished": True, "active": "entente"})
    state = state.model_copy(update={"mission": finished, "phase": "mission"})
    after, events = _debrief(cat, state, Rng("d", 9, "m"), [])
    pilots = after.pilots
    assert pilots["P3"].state == "dead" and pilots["P2"].state == "captured"
    assert (pilots["P1"].kills, pilots["P1"].vp) == (1, 0)  # a Rookie scores no VP himself
    heir = next(p for p in pilots.values() if p.id not in state.pilots)
    assert heir.side == "central" and heir.status == "ace"  # seed D.III
    entente, central = after.squadrons["entente"], after.squadrons["central"]
    # The kill (1) and the Veteran's killer bonus (2) become Campaign Points.
    assert (entente.reserve, entente.score) == (state.squadrons["entente"].reserve + 3, 3)
    # The dead Veteran's 90 VP go to his squadron; the smoke repair costs 1 and spare parts.
    assert central.score == 90
    assert central.reserve == state.squadrons["central"].reserve + 90 - 1
    assert central.stock["spare_parts"] == 4
    # The SPAD VII is obsolete by 1917-09 and came as a pair (seed F.I): one is left.
    assert central.stock["plane:albatros_d3"] == 1 and entente.stock["plane:spad7"] == 1
    assert entente.lost_half and central.lost_half
    record = after.history[-1]
    assert record["success"] is True and after.active == "entente"
    assert [e.kind for e in events] == ["repaired", "debrief"]
    assert after.phase == "debrief"


def test_a_wounded_pilot_chooses_to_rest_or_fly_hurt() -> None:
    from engine.rulesets.wings.campaign import _debrief
    from engine.rulesets.wings.generator import choose_forces
    from engine.rulesets.wings.pilots import after_mission, flying_skills
    from tests.wings.helpers import plane as make_plane

    cat = catalog()
    state = new_campaign(cat, "w", squadrons())  # type: ignore[arg-type]
    guy = state.pilots["P1"]  # the Knight, two skills
    hurt = after_mission(cat, guy, make_plane("P1", side="entente", pilot_lp=5), 0)
    assert (hurt.state, hurt.rest) == ("wounded", 1)
    state = state.model_copy(update={"pilots": {**state.pilots, "P1": hurt}, "phase": "debrief"})
    decisions = pending(cat, state)
    assert [d.field for d in decisions if d.kind == "wound"] == ["wound:P1"]
    choices = defaults(decisions)
    choices["entente"]["wound:P1"] = "fly"
    after, _ = resolve(cat, state, choices, Rng("w", 1, "d"))
    flier = after.pilots["P1"]
    assert (flier.state, flier.lp, flier.wounded_flights) == ("wounded", 5, 2)
    assert flier in choose_forces(cat, after, "entente", 10)
    assert flier.skills == ("very_good_shot", "viper") and flying_skills(flier) == (
        "very_good_shot",
    )
    # Two missions flown without a new wound and he is fit again.
    once = after_mission(cat, flier, make_plane("P1", side="entente", pilot_lp=5), 0)
    twice = after_mission(cat, once, make_plane("P1", side="entente", pilot_lp=5), 0)
    assert (once.state, once.wounded_flights) == ("wounded", 1)
    assert (twice.state, twice.lp) == ("active", 10)
    # Resting instead: he misses the next mission, and is fit after it.
    choices["entente"]["wound:P1"] = "rest"
    rested, _ = resolve(cat, state, choices, Rng("w", 1, "d"))
    assert rested.pilots["P1"].state == "wounded"
    assert rested.pilots["P1"] not in choose_forces(cat, rested, "entente", 10)
    rested, _ = resolve(cat, rested, defaults(pending(cat, rested)), Rng("w", 2, "b"))
    assert rested.mission is not None and "P1" not in rested.mission.planes
    ended = rested.mission.model_copy(update={"finished": True})
    after_next, _ = _debrief(
        cat, rested.model_copy(update={"mission": ended}), Rng("w", 3, "m"), []
    )
    assert after_next.pilots["P1"].state == "active"


def test_a_pursuer_flying_a_declared_maneuver_flies_it_as_written() -> None:
    """A rocket attack (or a landing) is one declaration: the pursuer may not reorder it,
    is asked all the same (the round must not tell the enemy what he declared), and a
    missed deadline keeps it, so the round resolves."""
    cat, state, hunter, prey = _first_mission()
    assert state.mission is not None
    mission = state.mission
    programs = {pid: parse_program("S S S") for pid in mission.planes}
    programs[hunter.id] = parse_program("LP S S S")
    held = mission.model_copy(
        update={"programs": programs, "round": "reorder", "pursuits": {hunter.id: prey.id}}
    )
    state = state.model_copy(update={"mission": held})
    (decision,) = pending(cat, state)
    assert [o.id for o in decision.options] == ["LP S S S"] == [decision.default]
    assert [(e.id, e.reason) for e in decision.excluded] == [("reorder", "declared-maneuver")]
    with pytest.raises(IllegalChoice, match="not-a-reordering"):
        resolve(cat, state, {"entente": {hunter.id: "S S S"}}, Rng("tail", 3, "m"))
    state, _ = resolve(cat, state, defaults(pending(cat, state)), Rng("tail", 3, "m"))
    assert state.mission is None or state.mission.round == "program"
