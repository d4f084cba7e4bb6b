"""A scripted commander for the offline demo: plays the air war the way a keen table would,
so one short game shows deployments, attacks, Ambushes, dogfights, landings and losses.

It sees what its side sees (its view and its decisions, as a player's panel does) and
offers, field by field, values in order of preference: the demo drafts the first one the
rules accept. The board facts it asserts (which hexes hold enemy units) are made up, as a
player's word would be.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import engine.rulesets.memoir44.board as board
from engine.ruleset import Decision
from engine.rulesets.memoir44.catalog import Catalog
from engine.rulesets.memoir44.orders import move_allowance
from engine.rulesets.memoir44.state import other
from engine.rulesets.memoir44.view import AirView

VICTORY_TURN = 14  # the demo's table counts its medals after this many turns
TARGETS = ("inf", "inf", "arm", "art")
Picks = dict[str, list[str]]


def _section_of(hexlabel: str, side: str) -> str:
    found = sorted(board.sections(hexlabel, side))
    return "centre" if "centre" in found else found[0]


def picks(catalog: Catalog, view: AirView, asked: Sequence[Decision], pick: random.Random) -> Picks:
    if not asked:
        return {}
    if view.phase == "command":
        return _command(catalog, view, asked, pick)
    if view.phase == "flight":
        return _flight(catalog, view, asked, pick)
    return _reaction(asked, pick)


def _command(
    catalog: Catalog, view: AirView, asked: Sequence[Decision], pick: random.Random
) -> Picks:
    side = view.active
    mine, theirs = view.sides[side], view.sides[other(side)]
    fields = {d.field: d for d in asked}
    if view.turn >= VICTORY_TURN and len(mine.medals) >= len(theirs.medals):
        return {"command": ["victory"]}
    hand = [o.id for o in fields["card"].options if o.id != "none"]
    actions = [o.id for o in fields["plane"].options]
    chosen: Picks = {}
    if mine.plane is None:
        deploys = [a for a in actions if a.startswith("deploy-")]
        if deploys and hand:
            matching = [
                (card, f"deploy-{catalog.card(card).icon}")
                for card in hand
                if f"deploy-{catalog.card(card).icon}" in deploys
            ]
            card, action = pick.choice(matching) if matching else (pick.choice(hand), deploys[0])
            chosen.update(card=[card], plane=[action])
            chosen["command"] = [pick.choice(["probe-centre", "attack-centre", "recon-centre"])]
        else:
            chosen["command"] = [pick.choice(["probe-left", "attack-right", "recon-left"])]
    else:
        plane = mine.plane
        section = _section_of(plane.hex, side)
        chosen["command"] = [pick.choice([f"attack-{section}", f"recon-{section}"])]
        if plane.status == "airborne" and plane.mg + plane.bombs <= 1 and pick.random() < 0.5:
            chosen["plane"] = ["withdraw"]
        else:
            chosen["plane"] = ["fly"]
            boosts = [
                c
                for c in hand
                if catalog.card(c).icon == plane.type and catalog.card(c).timing == "attack"
            ]
            if boosts and pick.random() < 0.7:
                chosen["card"] = [pick.choice(boosts)]
    enemy = theirs.plane
    # Ground fire uses the card's orders too: only an Attack has one to spare.
    attacking = chosen.get("command", [""])[0].startswith("attack-")
    if "fire" in fields and enemy is not None and attacking and pick.random() < 0.6:
        airborne = enemy.status == "airborne"
        chosen["fire"] = [pick.choice(["inf", "art"]) if airborne else "inf 2"]
    return chosen


def _flight(
    catalog: Catalog, view: AirView, asked: Sequence[Decision], pick: random.Random
) -> Picks:
    plan = view.plan
    assert plan is not None
    fields = {d.field: d for d in asked}
    side = plan.side
    mine = view.sides[side].plane
    enemy = view.sides[other(side)].plane
    kind = plan.deploy or (mine.type if mine is not None else "fighter")
    most = move_allowance(catalog, plan.effect)
    chosen: Picks = {}
    if "markers" in fields:
        chosen["markers"] = [str(pick.randint(0, 2))]
    lines: list[str] = []
    for _ in range(30):
        path = pick.choice(fields["flight"].options).id.split(", ")
        seen = set(path) | ({mine.hex} if plan.action == "fly" and mine is not None else set())
        while len(path) < most and pick.random() < 0.7:
            steps = [h for h in board.neighbours(path[-1]) if h not in seen]
            if enemy is not None and enemy.status == "airborne":
                steps = [h for h in steps if h != enemy.hex]
            if not steps:
                break
            path.append(pick.choice(steps))
            seen.add(path[-1])
        words = [[h] for h in path]
        if len(path) > 1 and pick.random() < 0.8:
            start = pick.randrange(len(path) - 1)
            for index in range(start, min(len(path) - 1, start + pick.randint(1, 3))):
                token = [pick.choice(TARGETS)]
                if kind == "fighter_bomber":
                    token.insert(0, pick.choice(["mg", "bomb"]))
                words[index] += token
        end = path[-1]
        if enemy is not None and enemy.status == "airborne" and board.adjacent(end, enemy.hex):
            words[-1].append("dogfight")
        elif kind != "fighter" and pick.random() < 0.25:
            words[-1].append("objective")
        elif pick.random() < 0.15:
            words[-1].append("airfield")
        lines.append(", ".join(" ".join(step) for step in words))
    chosen["flight"] = lines
    return chosen


def _reaction(asked: Sequence[Decision], pick: random.Random) -> Picks:
    chosen: Picks = {}
    for decision in asked:
        offered = [o.id for o in decision.options if o.id != "none"]
        chance = 0.35 if decision.field == "ambush" else 0.7
        use = offered and pick.random() < chance
        chosen[decision.field] = [pick.choice(offered) if use else "none"]
    return chosen
