"""Gibson's re-engagement over the Möhne (seed DB 8.e): AJ-G, not destroyed after dropping
its bomb, may come back beside a later Lancaster to draw the AA fire."""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import dam as dam_rules
from engine.rulesets.wings import dambuster as db
from tests.wings.helpers import catalog


def after_gibson(status: str = "done", stage: str = "exploded") -> db.DamState:
    state = db.new_dam("mohne")
    planes = dict(state.planes)
    planes["AJ-G"] = planes["AJ-G"].model_copy(
        update={"status": status, "bomb": db.Bomb(stage=stage, outcome="missed")}  # type: ignore[arg-type]
    )
    planes["AJ-M"] = planes["AJ-M"].model_copy(update={"status": "flying"})
    return state.model_copy(update={"planes": planes, "run": 1})


def test_gibson_is_offered_once_his_bomb_is_gone_and_he_is_still_flying() -> None:
    cat = catalog()
    fields = [d.field for d in dam_rules.pending(cat, after_gibson(), "program")]
    assert fields == ["plane1", "plane2", "heading", "lights"]  # four selects at most
    (offer,) = [d for d in dam_rules.pending(cat, after_gibson(), "program") if d.field == "plane2"]
    ids = [o.id for o in offer.options]
    assert ids[0] == "-" and offer.default == "-" and "SS" in ids
    assert "DV" not in ids  # altitude 1 is the lowest
    assert db.escort_orders(cat, after_gibson(status="shot_down")) == []
    assert db.escort_orders(cat, after_gibson(stage="kept")) == []
    assert db.escort_orders(cat, db.new_dam("mohne")) == []  # his own run
    assert db.escort_orders(cat, db.new_dam("eder")) == []  # no Gibson at the Eder


def test_gibson_comes_back_behind_the_start_and_then_must_fly_each_turn() -> None:
    cat = catalog()
    state, events = db.play(cat, after_gibson(), "SS", Rng("g", 1, "t"), "SS")
    gibson = state.planes["AJ-G"]
    assert state.escort == "AJ-G" and gibson.status == "flying"
    start_x = state.layout.start[0]
    assert gibson.x < state.planes["AJ-M"].x and gibson.x > start_x - db.ESCORT_BEHIND
    assert any(e["kind"] == "gibson-rejoins" for e in events)
    assert db.escort_orders(cat, state)[0] != "-"  # back on the table: no staying out
    held, _ = db.play(cat, after_gibson(), "SS", Rng("g", 1, "t"), "-")
    assert held.escort is None and held.planes["AJ-G"].status == "done"


def test_the_guns_take_the_distinctly_visible_plane_first_else_the_nearest() -> None:
    cat = catalog()
    state = after_gibson()
    gun = state.guns["dam-1"]
    planes = dict(state.planes)
    # AJ-M nearer the gun, dark; AJ-G farther with its searchlights on.
    planes["AJ-M"] = planes["AJ-M"].model_copy(update={"x": gun.x - 2.0, "y": gun.y + 1.0})
    planes["AJ-G"] = planes["AJ-G"].model_copy(
        update={"x": gun.x - 3.5, "y": gun.y + 1.0, "status": "flying", "searchlights": True}
    )
    lit = state.model_copy(update={"planes": planes, "escort": "AJ-G", "guns": {gun.id: gun}})
    work = db.Run(cat, lit, Rng("g", 1, "t"))
    work.aa_fire("AJ-M", "AJ-G")
    assert [e["plane"] for e in work.events if e["kind"] == "aa-fire"] == ["AJ-G"]
    planes["AJ-G"] = planes["AJ-G"].model_copy(update={"searchlights": False})
    dark = lit.model_copy(update={"planes": planes})
    work = db.Run(cat, dark, Rng("g", 1, "t"))
    work.aa_fire("AJ-M", "AJ-G")
    assert [e["plane"] for e in work.events if e["kind"] == "aa-fire"] == ["AJ-M"]


def test_the_mohne_raid_with_gibson_plays_through_the_ruleset_and_replays() -> None:
    rules = WingsRules(catalog())

    def play(seed: str) -> tuple[list[str], bool]:
        state = rules.new("dambuster-mohne", seed)
        picks = random.Random(seed)
        dumps, offered = [], False
        while not rules.progress(state).finished:
            progress = rules.progress(state)
            choices: dict[str, dict[str, str]] = {}
            for d in rules.pending(state):
                offered = offered or d.field == "plane2"
                # Gibson takes any offer to come back, to exercise two planes in play.
                pick = d.options[-1].id if d.field == "plane2" else picks.choice(d.options).id
                choices.setdefault(d.side, {})[d.field] = pick
            state, _ = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
            dumps.append(rules.dump(state))
            assert len(dumps) < 600
        return dumps, offered

    # Random orders seldom release a bomb: take the first seed whose AJ-G drops his.
    seed = next(f"gibson{n}" for n in range(40) if play(f"gibson{n}")[1])
    first, _offered = play(seed)
    assert first == play(seed)[0]
    final = rules.load(first[-1]).dam
    assert final is not None and final.escort is None  # the raid over, nobody left escorting


def test_gibsons_order_stays_sealed_until_the_turn_flies() -> None:
    rules = WingsRules(catalog())
    state = rules.new("dambuster-mohne", "seal").model_copy(update={"dam": after_gibson()})
    (offer,) = [d for d in rules.pending(state) if d.field == "plane2"]
    seen = []
    for pick in ("-", "SS"):
        choices = {"entente": {"plane1": "SS", "plane2": pick, "heading": "0", "lights": "auto"}}
        sealed, events = rules.resolve(state, choices, Rng("seal", 1, "program"))
        assert events == []
        views = [rules.view(sealed, viewer).model_dump_json() for viewer in (None, "central")]
        seen.append(views)
        flown, _ = rules.resolve(sealed, {"entente": {}, "central": {}}, Rng("seal", 1, "reorder"))
        seen[-1].append(rules.view(flown, None).model_dump_json())
    assert seen[0][:2] == seen[1][:2]  # sealed: nobody can tell "-" from "SS"
    assert seen[0][2] != seen[1][2]  # flown: Gibson is back on the table or not
    assert "-" in [o.id for o in offer.options]
