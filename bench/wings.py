"""Wings of War engine benchmark: turn time, whole-mission time and the win rates of the
generated missions, each played by two stand-in players: uniformly random legal programs,
and the rookie (``engine.rulesets.wings.rookie``: random legal programs weighed for heading to his
goal). Both bring back a plane that flew off the table by accident (seed A.IV.c); a third
player, ``coin``, flies random programs and tosses a coin for it. Not a test.

Times are printed both in milliseconds and as a ratio to a floor measured in the same run
(a fixed pure-Python loop), so figures from different machines can be compared.

    python bench/wings.py [missions, default 200]
    python bench/wings.py 200 --line balloon:net3 --line recon:rookie --why

``--line KIND:POLICY`` (repeatable) prints only those balance lines; ``--why`` adds, to each
balance line, how the attacker's planes ended (net, shot down, crashed, left...) and how
long the missions ran. ``--help`` lists the kinds and policies.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rng import Rng
from engine.rulesets.wings import WingsRules, exits, majors, reinforcements, winch, zones
from engine.rulesets.wings import dambuster as db
from engine.rulesets.wings.campaign import (
    PilotSetup,
    SquadronSetup,
    buy,
    buy_planes,
    new_campaign,
    recruit,
)
from engine.rulesets.wings.catalog import Catalog, default_catalog
from engine.rulesets.wings.exits import may_come_back
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.missions import Sortie, new_mission
from engine.rulesets.wings.objectives import NEEDS_TWO_SEATER, awards
from engine.rulesets.wings.program import random_program
from engine.rulesets.wings.rookie import rookie_program
from engine.rulesets.wings.state import SIDES, CampaignState, MissionRules, MissionState, other
from engine.rulesets.wings.sun import at_start
from engine.rulesets.wings.turn import play_turn

POLICIES = ("random", "rookie")
RELIEF_CRASHES: Counter[str] = Counter()  # seed F.V: planes flown into the relief, this line
# ``--why``: how each mission's planes ended, by the attacker's and the defender's side.
FATES: Counter[str] = Counter()
KINDS = ("patrol", "recon", "photography", "bombing", "balloon", "strafing")
# Seed F.III.c: the two missions against a major objective (the station stands for all four:
# they differ only in their spot across the table).
MAJOR_KINDS = ("photography:station", "bombing:station")
# Seed E.I.b: the missions flown in the enemy zone, a deep objective first.
ENEMY_KINDS = tuple(f"{kind}{zones.ENEMY_ZONE}" for kind in zones.IN_ENEMY_ZONE)


def floor_ms(repeats: int = 30) -> float:
    """The calibration workload: 20,000 float multiply-adds in a plain loop."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        total = 0.0
        for i in range(20_000):
            total += i * 0.5
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def even_mission(catalog: Catalog, seed: int, size: int = 4) -> MissionState:
    """``size`` planes a side, types drawn among each side's WW1 fighters."""
    stream = Rng(str(seed), 0, "bench").stream("types")
    pool = {
        side: sorted(
            key
            for key, plane in catalog.planes.items()
            if plane.side == side and plane.deck != "XD"
        )
        for side in ("entente", "central")
    }
    sorties = [
        Sortie(id=f"{side[0]}{i}", type=stream.choice(pool[side]), side=side)  # type: ignore[arg-type]
        for side in ("entente", "central")
        for i in range(size)
    ]
    return new_mission(catalog, sorties, Rng(str(seed), 0, "setup"))


def programs_for(catalog: Catalog, state: MissionState, seed: int, policy: str = "random"):  # type: ignore[no-untyped-def]
    """Every flying plane's program: uniformly random among legal programs, or the rookie's
    (random legal programs weighed for heading to his goal, ``engine.rulesets.wings.rookie``)."""
    rng = Rng(str(seed), state.turn, "ai")
    programs = {}
    for plane in state.planes.values():
        if plane.status != "flying":
            continue
        stream = rng.stream(f"ai:{plane.id}")
        if policy.startswith("rookie"):
            programs[plane.id] = rookie_program(catalog, state, plane, stream)
        else:
            programs[plane.id] = random_program(catalog, plane, state.rules, state.turn, stream)
    return programs


def returning_for(state: MissionState, seed: int, policy: str) -> tuple[str, ...]:
    """Seed A.IV.c: which planes off the table their players bring back. A stand-in never
    means to leave, so every exit is an accident and it comes back; the ``coin`` player
    (random programs too) tosses a coin instead, to show how much the choice weighs."""
    rng = Rng(str(seed), state.turn, "ai-exit")
    back = []
    for pid in sorted(state.planes):
        if not may_come_back(state, state.planes[pid], state.turn):
            continue
        if policy == "coin" and rng.stream(f"exit:{pid}").random() < 0.5:
            continue
        back.append(pid)
    return tuple(back)


def reinforce_for(
    catalog: Catalog, campaign: CampaignState, state: MissionState, seed: int
) -> MissionState:
    """Seed E.IV: a stand-in who does not think orders each reinforcement offered to him
    uniformly at random among the legal options ("no" among them), as he programs."""
    rng = Rng(str(seed), state.turn, "ai-reinforce")
    orders = {}
    for decision in reinforcements.decisions(catalog, campaign, state):
        pick = rng.stream(f"reinforce:{decision.field}").choice(decision.options).id
        if pick != reinforcements.NO:
            orders[decision.field] = pick.removeprefix(reinforcements.PREFIX)
    return state.model_copy(update={"reinforcing": orders}) if orders else state


def fly(
    catalog: Catalog,
    state: MissionState,
    seed: int,
    policy: str = "random",
    campaign: CampaignState | None = None,
) -> tuple[MissionState, list[float]]:
    """``campaign``: the squadrons behind a generated mission, whose reserve (seed E.IV)
    the stand-ins spend on reinforcements."""
    turn_times = []
    while not state.finished:
        programs = programs_for(catalog, state, seed, policy)
        returning = returning_for(state, seed, policy)
        if returning:
            state = state.model_copy(update={"returning": returning})
        if any(plane.status == "waiting" for plane in state.planes.values()):
            # Seed F.VI.e: a stand-in in the sun tosses a coin each turn to come out of it.
            enter = Rng(str(seed), state.turn, "ai-sun").stream("sun").random() < 0.5
            state = state.model_copy(update={"sun_enter": enter})
        if policy == "winch":
            state = winch_for(state, seed)
        if campaign is not None:
            state = reinforce_for(catalog, campaign, state, seed)
        start = time.perf_counter()
        state, events = play_turn(catalog, state, programs, Rng(str(seed), state.turn, "turn"))
        turn_times.append(time.perf_counter() - start)
        if campaign is not None and not state.finished:
            # As the campaign does after a turn: the ordered planes stand on the table.
            campaign, state, sent = reinforcements.launch(catalog, campaign, state)
            events = [*events, *sent]
            for event in sent:
                if event.kind == "reserve-spent":
                    side = "att" if event.data["side"] == state.active else "def"
                    FATES[f"{side}:mp-spent"] += int(event.data["points"])  # type: ignore[call-overload]
                elif event.kind == "reinforcement":
                    FATES[f"{_role(state, event.data['plane'])}:reinforced"] += 1
        RELIEF_CRASHES["planes"] += sum(event.kind == "crashed-into-relief" for event in events)
        for event in events:
            if event.kind in ("net-crash", "net-contact", "crashed-into-relief", "balloon-cables"):
                FATES[f"{_role(state, event.data.get('plane'))}:{event.kind}"] += 1
    if state.objectives:
        for plane in state.planes.values():
            FATES[f"{_role(state, plane.id)}:{_fate(state, plane)}"] += 1
        for side, points in state.reserve.items():  # seed E.IV: lost with the mission's end
            FATES[f"{'att' if side == state.active else 'def'}:mp-lost"] += points
        FATES[f"turns:{state.turn - 1}"] += 1
    return state, turn_times


def _role(state: MissionState, pid: object) -> str:
    """The plane's side in the mission: the attacker's (active) or the defender's."""
    plane = state.planes.get(str(pid))
    return "att" if plane is not None and plane.side == state.active else "def"


def _fate(state: MissionState, plane) -> str:  # type: ignore[no-untyped-def]
    """How a plane ended its mission, in a word for ``--why``."""
    if plane.status in ("shot_down", "exploded"):
        return (
            "shot-by-plane"
            if plane.destroyed_by in state.planes
            else ("shot-by-ground" if plane.destroyed_by else "down-no-shooter")
        )
    if plane.status == "left":
        x = plane.exit_at[0] if plane.exit_at is not None else plane.x
        return "left-home" if exits.over_own_zone(state, plane.side, x) else "left-lost"
    return plane.status


def winch_for(state: MissionState, seed: int) -> MissionState:
    """Seed A.IV.i.3: the balloon owner, a stand-in, winches each balloon still up down on a
    one-in-four toss each turn (``winch`` lines)."""
    rng = Rng(str(seed), state.turn, "ai-winch")
    chosen = {
        side: "winch:" + "+".join(oids)
        for side in ("entente", "central")
        if (
            oids := [
                b.id
                for b in winch.balloons_up(state, side)  # type: ignore[arg-type]
                if not b.winching and rng.stream(f"winch:{b.id}").random() < 0.25
            ]
        )
    }
    return winch.with_orders(state, chosen)


# Seed A.IV.i.2: the balloon lines flown against three balloons: "net3" hangs the barrage,
# "ring" and "winch" the protective ring (and "winch" winches them down on a coin toss);
# "rookie-net3" and "rookie-ring" are flown by the rookie, who sees the nets.
THREE = {
    "net3": "barrage",
    "ring": "ring",
    "winch": "ring",
    "rookie-net3": "barrage",
    "rookie-ring": "ring",
}


def generated_with_squadrons(
    catalog: Catalog,
    seed: int,
    kind: str = "patrol",
    sun: bool = False,
    roles: bool = False,
    relief: bool = False,
    net: str = "",
) -> tuple[MissionState, CampaignState]:
    """The first mission the generator builds for two equal squadrons (same players, a roster
    of fighters that entered service the same month, so of the same Mission Point cost, plus
    a two-seater crew each for recon and photo), with the active side drawn by the campaign;
    and its squadrons at the airfield: each side's Mission Points left unspent are its
    reserve (seed E.II.b, E.IV), as the campaign sets them, and each squadron keeps spares
    to spend it on (``spares``)."""
    kind, enemy_zone = zones.split_zone(kind)
    against = majors.split_choice(kind)
    kind, major = against if against is not None else (kind, None)
    crews = {"entente": "bristol_f2b", "central": "halberstadt_cl2"}
    fighters = {"entente": "se5a", "central": "albatros_d3"}
    setup = {
        side: SquadronSetup(
            name=side,
            players=3,
            pilots=tuple(
                PilotSetup(
                    name=f"{side[0]}{i}",
                    behaviour="soldier",
                    plane=crews[side] if i == 0 and kind in NEEDS_TWO_SEATER else fighters[side],
                )
                for i in range(3)
            ),
        )
        for side in ("entente", "central")
    }
    # Seed A.IV.i roles: the ``roles`` lines; seed F.V: the ``relief`` lines; seed A.IV.i.2:
    # the three-balloon lines' net.
    rules = MissionRules(
        sun=sun,
        balloon_roles=roles,
        relief=relief,
        net_shape="ring" if net == "ring" else "barrage",
    )
    campaign = new_campaign(catalog, str(seed), setup, date="1917-09", rules=rules)  # type: ignore[arg-type]
    mission, points, forces = generate_mission(
        catalog,
        campaign,
        Rng(str(seed), 0, "briefing"),
        kind,
        objectives=3 if net else None,
        major=major,
        enemy_zone=enemy_zone,
    )
    if sun:
        # The ``sun`` lines: every mission in clear weather, the sun drawn as a campaign does.
        mission = mission.model_copy(update={"weather": "clear"})
        stream = Rng(str(seed), 0, "briefing").stream(f"sun:{mission.number}")
        mission, _ = at_start(catalog, mission, stream)
    # As the campaign starts a mission (``campaign._start_mission``): a net the defender
    # bought is paid first, the rest left over is the reserve, each plane takes a sortie.
    enemy = other(campaign.active)
    budgets = {campaign.active: points.active, enemy: points.enemy - mission.net_price}
    mission = mission.model_copy(
        update={"reserve": reinforcements.reserves(catalog, campaign, mission, budgets)}
    )
    squadrons = dict(campaign.squadrons)
    for side in SIDES:
        stock = dict(squadrons[side].stock)
        stock["fuel"] = stock.get("fuel", 0) - len(forces[side])
        stock["ammunition"] = stock.get("ammunition", 0) - len(forces[side])
        squadrons[side] = squadrons[side].model_copy(update={"stock": stock})
    return mission, spares(catalog, campaign.model_copy(update={"squadrons": squadrons}))


def spares(catalog: Catalog, campaign: CampaignState) -> CampaignState:
    """Each squadron buys, from the Campaign Points its roster left (seed F.I prices), a
    spare of every aircraft it owns and a spare Rookie for every pilot, the same on both
    sides, so a reinforcement (seed E.IV) has a plane and a man to send. They join once the
    forces are set, so the briefing fields the same planes as ever (spares there would be
    fielded with the Mission Points, a different bench)."""
    squadrons = dict(campaign.squadrons)
    pilots = dict(campaign.pilots)
    number = campaign.next_pilot
    for side in SIDES:
        squadron = squadrons[side]
        for key, count in sorted(squadron.stock.items()):
            if key.startswith("plane:"):
                plane = key.removeprefix("plane:")
                squadron = buy_planes(catalog, squadron, plane, count, campaign.date)
        roster = [pilot for pilot in campaign.pilots.values() if pilot.side == side]
        for _ in roster:
            squadron = buy(catalog, squadron, "rookie")
            squadrons[side] = squadron
            pid = f"P{number}"
            state = campaign.model_copy(update={"squadrons": squadrons})
            pilots[pid] = recruit(catalog, state, side, "rookie", pid)
            number += 1
    return campaign.model_copy(
        update={"squadrons": squadrons, "pilots": pilots, "next_pilot": number}
    )


def arguments() -> argparse.Namespace:
    policies = (*POLICIES, "coin", "sun", "roles", "relief", "rookie-relief", *THREE)
    parser = argparse.ArgumentParser(
        description="Wings of War engine benchmark: turn and mission times, balance lines.",
        epilog=(
            f"kinds: {', '.join((*KINDS, *MAJOR_KINDS, *ENEMY_KINDS))};"
            f" policies: {', '.join(policies)}"
        ),
    )
    parser.add_argument("count", nargs="?", type=int, default=200, help="missions a line")
    parser.add_argument(
        "--line",
        action="append",
        default=[],
        metavar="KIND:POLICY",
        help="print only this balance line (repeatable), e.g. balloon:net3",
    )
    parser.add_argument(
        "--why", action="store_true", help="add how the planes ended and how long missions ran"
    )
    return parser.parse_args()


def main() -> None:
    args = arguments()
    count = args.count
    catalog = default_catalog()
    floor = floor_ms()
    print(f"floor            {floor:8.3f} ms (20,000 float multiply-adds)")
    if args.line:
        for line in args.line:
            kind, _, policy = line.rpartition(":")
            print(balance_line(catalog, kind, policy, count, floor, why=args.why))
        return

    first_turns = []
    for seed in range(count):
        state = even_mission(catalog, seed)
        programs = programs_for(catalog, state, seed)
        start = time.perf_counter()
        play_turn(catalog, state, programs, Rng(str(seed), 1, "turn"))
        first_turns.append(time.perf_counter() - start)
    turn_ms = statistics.median(first_turns) * 1000
    print(
        f"turn, 8 planes   {turn_ms:8.3f} ms  = {turn_ms / floor:6.1f} x floor"
        f" (first turn, median of {count}) [target <= 2 ms: {verdict(turn_ms <= 2)}]"
    )

    for policy in POLICIES:
        winners: Counter[str] = Counter()
        mission_times = []
        all_turns: list[float] = []
        lengths: Counter[int] = Counter()
        for seed in range(count):
            state = even_mission(catalog, seed)
            state, turn_times = fly(catalog, state, seed, policy)
            mission_times.append(sum(turn_times))
            all_turns.extend(turn_times)
            winners[str(state.winner)] += 1
            lengths[state.turn - 1] += 1
        any_turn, turn_p99 = percentiles(all_turns)
        mission_ms, mission_p99 = percentiles(mission_times)
        print(
            f"any turn, {policy:<6} {any_turn:8.3f} ms  = {any_turn / floor:6.1f} x floor median,"
            f" p99 {turn_p99:.3f} ms = {turn_p99 / floor:.1f} x floor ({len(all_turns)} turns,"
            f" 8 planes at the start) [target <= 2 ms: {verdict(any_turn <= 2)}]"
        )
        print(
            f"mission, {policy:<6}  {mission_ms:8.3f} ms  = {mission_ms / floor:6.1f} x floor"
            f" median, p99 {mission_p99:.3f} ms = {mission_p99 / floor:.1f} x floor"
            f" (4 v 4, {count} missions, engine time)"
            f" [target <= 50 ms: {verdict(mission_ms <= 50)}]"
        )
        print(f"turns played     {dict(sorted(lengths.items()))}")
        split = ", ".join(f"{k} {v / count:.1%}" for k, v in sorted(winners.items()))
        print(f"4 v 4 winners    {split} (random fighter types, {policy} programs, n={count})")

    seam_rounds(count, floor)

    # Seed E.I.a: the patrol is won by the side left flying; beyond it, the attacker wins by
    # achieving every objective, the defender by holding both the objectives and the air,
    # else it is a draw (``objectives.mission_result``). Target: neither side above 65 % at
    # equal Mission Points.
    for policy in (*POLICIES, "coin"):
        for kind in KINDS:
            print(balance_line(catalog, kind, policy, count, floor))
    for policy in POLICIES:
        for kind in (*MAJOR_KINDS, *ENEMY_KINDS):
            print(balance_line(catalog, kind, policy, count, floor))
    # Seed F.VI.e: random programs with the sun rule on, every mission in clear weather, the
    # side in the sun coming out of it on a coin toss each turn (forced after turn 3).
    for kind in KINDS:
        print(balance_line(catalog, kind, "sun", count, floor))
    # Seed A.IV.i: balloon busting with the balloons' strategic roles on, random programs.
    print(balance_line(catalog, "balloon", "roles", count, floor))
    # Seed F.V: random programs over the relief the generator lays with the switch on.
    for kind in KINDS:
        print(balance_line(catalog, kind, "relief", count, floor))
    # Seed A.IV.i.2-3: random programs against three balloons, behind a barrage or a ring, the
    # owner winching each down on a one-in-four toss a turn in the ``winch`` line.
    for policy in THREE:
        print(balance_line(catalog, "balloon", policy, count, floor))
    dambusters(catalog, count, floor)


def seam_rounds(count: int, floor: float) -> None:
    """A round as the bot plays it: the ruleset's legal options asked, then the round
    resolved, through ``engine.rulesets.wings`` (the wings-1917 scenario, options picked at
    random from the legal ones), until ``count`` program rounds have been timed."""
    rules = WingsRules(default_catalog())
    timed: dict[str, list[float]] = {"program": [], "other": []}
    seed = 0
    while len(timed["program"]) < count:
        state = rules.new("wings-1917", f"seam{seed}")
        stream = Rng(str(seed), 0, "bench").stream("seam")
        index = 0
        while not rules.progress(state).finished and index < 400:
            start = time.perf_counter()
            decisions = rules.pending(state)
            choices: dict[str, dict[str, str]] = {}
            for decision in decisions:
                pick = stream.choice(decision.options).id if decision.options else decision.default
                choices.setdefault(decision.side, {})[decision.field] = pick
            kind = "program" if rules.progress(state).round == "program" else "other"
            state, _ = rules.resolve(state, choices, Rng(f"seam{seed}", index, "round"))
            timed[kind].append(time.perf_counter() - start)
            index += 1
        seed += 1
    for kind, samples in timed.items():
        median, p99 = percentiles(samples)
        print(
            f"seam round, {kind:<7} {median:7.3f} ms = {median / floor:5.1f} x floor median,"
            f" p99 {p99:.3f} ms ({len(samples)} rounds, legal options + resolve)"
        )


def balance_line(
    catalog: Catalog, kind: str, policy: str, count: int, floor: float, why: bool = False
) -> str:
    outcome: Counter[str] = Counter()
    sunny: Counter[str] = Counter()
    by_role: Counter[str] = Counter()
    vp: Counter[str] = Counter()
    achieved: Counter[str] = Counter()
    times = []
    RELIEF_CRASHES.clear()
    FATES.clear()
    for seed in range(count):
        mission, campaign = generated_with_squadrons(
            catalog,
            seed,
            kind,
            sun=policy == "sun",
            roles=policy == "roles",
            relief=policy in ("relief", "rookie-relief"),
            net=THREE.get(policy, ""),
        )
        state, turn_times = fly(catalog, mission, seed, policy, campaign)
        times.append(sum(turn_times))
        attacker = state.active
        won = state.winner
        outcome["attacker" if won == attacker else "draw" if won == "draw" else "defender"] += 1
        if state.balloon_role is not None:  # seed A.IV.i: the attacker's wins by role
            by_role[state.balloon_role] += 1
            by_role[f"{state.balloon_role}:won"] += won == attacker
        if state.sun_side is not None:  # seed F.VI.e: how often the side in the sun won
            sunny["drawn"] += 1
            sunny["won"] += won == state.sun_side
            sunny["lost"] += won not in (state.sun_side, "draw", None)
        if kind == "patrol":
            continue
        scored = awards(catalog, state)
        achieved["any"] += any(side == attacker for side, *_ in scored.lines)
        vp["attacker"] += scored.team[attacker]
        vp["defender"] += sum(v for side, v in scored.team.items() if side != attacker)
    top = max(outcome["attacker"], outcome["defender"]) / count
    shares = ", ".join(f"{side} {outcome[side] / count:.1%}" for side in sorted(outcome))
    detail = (
        f"; objective VP {vp['attacker'] / count:.2f} v {vp['defender'] / count:.2f} a mission,"
        f" the attacker scoring on one at least {achieved['any'] / count:.1%}"
        if kind != "patrol"
        else ""
    )
    roles = sorted(role for role in by_role if ":" not in role)
    if roles:
        detail += "; attacker won " + ", ".join(
            f"{by_role[f'{role}:won'] / by_role[role]:.1%} of {by_role[role]} {role}"
            for role in roles
        )
    if sunny["drawn"]:
        drawn = sunny["drawn"]
        detail += (
            f"; the side in the sun ({drawn} missions) won {sunny['won'] / drawn:.1%},"
            f" lost {sunny['lost'] / drawn:.1%}"
        )
    if policy in ("relief", "rookie-relief"):
        detail += f"; {RELIEF_CRASHES['planes'] / count:.2f} planes a mission flew into the relief"
    if why:
        detail += "; why, planes a mission: " + ", ".join(
            f"{key} {FATES[key] / count:.2f}"
            for key in sorted(FATES)
            if not key.startswith("turns")
        )
        turns = {int(key[6:]): n for key, n in FATES.items() if key.startswith("turns:")}
        detail += "; turns played " + str(dict(sorted(turns.items())))
    mission_ms = statistics.median(times) * 1000
    return (
        f"{kind:<11} {policy:<6} {shares} (n={count}) [neither side above 65 %:"
        f" {verdict(top <= 0.65)}]{detail};"
        f" {mission_ms:.2f} ms = {mission_ms / floor:.1f} x floor a mission (median)"
    )


def verdict(met: bool) -> str:
    return "meets target" if met else "MISSES target"


def percentiles(samples: list[float]) -> tuple[float, float]:
    """Median and 99th percentile, in milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


def dambusters(catalog: Catalog, count: int, floor: float) -> None:
    # The Dambuster raids with random legal orders for the Lancaster on its run.
    for kind in ("eder", "mohne"):
        results: Counter[str] = Counter()
        raid_times, turn_times = [], []
        for seed in range(count):
            state = db.new_dam(kind)  # type: ignore[arg-type]
            stream = Rng(str(seed), 0, "bench").stream(f"dam:{kind}")
            start = time.perf_counter()
            index = 0
            while not state.finished:
                legal, _ = db.legal_orders(catalog, state)
                order = stream.choice(legal)
                turn_start = time.perf_counter()
                state, _ = db.play(catalog, state, order, Rng(str(seed), index, "dam"))
                turn_times.append(time.perf_counter() - turn_start)
                index += 1
            raid_times.append(time.perf_counter() - start)
            results[str(db.result(state)["result"])] += 1
        raid_ms = statistics.median(raid_times) * 1000
        turn_ms = statistics.median(turn_times) * 1000
        split = ", ".join(f"{k} {v / count:.1%}" for k, v in sorted(results.items()))
        print(
            f"dambuster {kind:<6} {split}; turn {turn_ms:.3f} ms = {turn_ms / floor:.2f} x floor,"
            f" raid {raid_ms:.1f} ms = {raid_ms / floor:.1f} x floor (median)"
        )


if __name__ == "__main__":
    main()
