"""Balance of the land campaigns (24.0) between random legal commanders.

    python bench/land.py [campaigns per period, default 200] [--only malaya-dec41 ...]

For every theatre and period (not the whole-theatre scenarios) it plays ``count`` campaigns, seeds
0..count-1, each side picking a random legal resource and doctrine every mission, and prints:

- the winner split (neither side should win more than 65 %, issue 10);
- **open before the last third**: the share of campaigns whose winner was not yet decided
  when the last third of the missions started. "Decided" means the leader's margin was
  larger than the VP still available to the trailing side: the missions left times the
  largest swing one mission gives in nine missions out of ten (the 90th percentile of
  |Japanese VP - Allied VP| over every mission of that period in the same run). A trailing
  side can still win only by having better-than-that missions every time, so a campaign
  past that margin is, in practice, over.
- for comparison, the older and stricter figure: within 10 VP before the last third.
- the median and 90th percentile of one mission's swing, and the mean VP per mission of
  each side.

Figures only, no timing: this script is about outcomes, which are deterministic per seed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import percentile
from engine.rng import Rng
from engine.zero.loader import default_catalog
from engine.zero.types import Side

CLOSE_GAP = 10  # the older figure: "within 10 VP"
SWING_SHARE = 0.9  # a mission's swing at this percentile is "what one mission can give"


@dataclass
class Played:
    winner: str
    margins_before_last_third: int  # Japanese - Allied when the last third starts
    missions_left: int  # missions still to fly at that moment
    swings: list[int] = field(default_factory=list)  # |J - A| of each mission
    vp: dict[Side, int] = field(default_factory=dict)
    missions: int = 0


def play(rules: object, scenario: str, seed: int) -> Played:
    rnd = random.Random(seed)
    state = rules.new(scenario, str(seed))  # type: ignore[attr-defined]
    last_third = state.missions - state.missions // 3 + 1
    margin = 0
    swings: list[int] = []
    while not state.finished:
        if state.turn == last_third:
            margin = state.vp[Side.JAPANESE] - state.vp[Side.ALLIED]
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):  # type: ignore[attr-defined]
            choices.setdefault(decision.side, {})[decision.field] = rnd.choice(decision.options).id
        state, _ = rules.resolve(state, choices, Rng(str(seed), state.turn, "mission"))  # type: ignore[attr-defined]
        record = state.history[-1]
        swings.append(abs(record.vp[Side.JAPANESE] - record.vp[Side.ALLIED]))
    return Played(
        winner=str(state.winner),
        margins_before_last_third=margin,
        missions_left=state.missions - last_third + 1,
        swings=swings,
        vp=dict(state.vp),
        missions=state.missions,
    )


@dataclass
class Balance:
    scenario: str
    count: int
    winners: Counter[str]
    open_share: float  # not decided before the last third (see the module's text)
    close_share: float  # within CLOSE_GAP VP before the last third
    swing_median: float
    swing_p90: int
    mean_vp: dict[Side, float]


def measure(rules: object, scenario: str, count: int) -> Balance:
    games = [play(rules, scenario, seed) for seed in range(count)]
    swings = [s for game in games for s in game.swings]
    p90 = int(percentile(swings, SWING_SHARE))
    open_count = sum(
        abs(game.margins_before_last_third) <= game.missions_left * p90 for game in games
    )
    close = sum(abs(game.margins_before_last_third) <= CLOSE_GAP for game in games)
    missions = sum(game.missions for game in games)
    return Balance(
        scenario=scenario,
        count=count,
        winners=Counter(game.winner for game in games),
        open_share=open_count / count,
        close_share=close / count,
        swing_median=statistics.median(swings),
        swing_p90=p90,
        mean_vp={side: sum(g.vp[side] for g in games) / missions for side in Side},
    )


def land_scenarios(rules: object) -> list[str]:
    # One period each: not "<theatre>-all" nor the bare "<theatre>" (every period in order).
    return [
        key
        for key in rules.scenarios()  # type: ignore[attr-defined]
        if "-" in key and not key.endswith("-all")
    ]


def report(balance: Balance) -> str:
    n = balance.count
    share = {k: balance.winners.get(k, 0) / n for k in ("japanese", "allied", "draw")}
    return (
        f"{balance.scenario:24} JP {share['japanese']:6.1%}  AL {share['allied']:6.1%}  "
        f"draw {share['draw']:5.1%}  open {balance.open_share:6.1%}  "
        f"within {CLOSE_GAP} {balance.close_share:6.1%}  swing median "
        f"{balance.swing_median:g} p90 {balance.swing_p90}  VP/mission JP "
        f"{balance.mean_vp[Side.JAPANESE]:.1f} AL {balance.mean_vp[Side.ALLIED]:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    from engine.rulesets.land import LandRules

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=None, help="scenario keys")
    args = parser.parse_args(argv)
    rules = LandRules(default_catalog())
    print(f"{args.count} campaigns per period, random legal commanders (seeds 0..{args.count - 1})")
    for scenario in args.only or land_scenarios(rules):
        print(report(measure(rules, scenario, args.count)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
