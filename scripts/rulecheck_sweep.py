"""``python scripts/rulecheck_sweep.py``: many random carrier campaigns, each checked by
``verify --rules``.

Each campaign is played by the engine between two commanders picking random legal options,
and written in the export's shape (``docs/export-format.md``: the rounds with their
committed choices, the engine events, the final state); the rules check then reads only
that. Prints one line per scenario and every violation found; exit 1 if any.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.export import FORMAT, VERSION
from bot.i18n import t
from bot.service_model import canonical_choice
from engine.rng import Rng, seed_commitment
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.carrier.rulecheck import RuleCheck, check_export
from engine.rulesets.carrier.rulecheck.data import GameData, load
from engine.zero.catalog import Catalog
from engine.zero.loader import default_catalog


def random_export(catalog: Catalog, scenario: str, seed: str, picks: int) -> dict[str, Any]:
    """A whole campaign between random legal commanders, as an export would hold it."""
    rules = CarrierRules(catalog)
    state = rules.new(scenario, seed)
    rnd = random.Random(picks)
    rounds: list[dict[str, Any]] = []
    # The creation event names the rules version the campaign is played under, as the
    # service's does: the checks follow the rules of that version.
    events: list[dict[str, Any]] = [
        {
            "round_id": None,
            "source": "service",
            "void": False,
            "kind": "campaign-created",
            "turn": 1,
            "data": {"scenario": scenario, "ruleset": "carrier", "rules_version": rules.version},
        }
    ]
    while not rules.progress(state).finished:
        progress = rules.progress(state)
        choices = rules.drawn(rules.pending(state), rnd)
        state, new = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
        round_id = len(rounds) + 1
        rounds.append(
            {
                "id": round_id,
                "turn": progress.turn,
                "kind": progress.round,
                "status": "resolved",
                "locks": [
                    {
                        "side": side,
                        "withdrawn_at": None,
                        "canonical": canonical_choice(
                            1, 1, progress.turn, progress.round, side, choice
                        ),
                    }
                    for side, choice in sorted(choices.items())
                ],
            }
        )
        events += [
            {
                "round_id": round_id,
                "source": "engine",
                "void": False,
                "kind": e.kind,
                "turn": e.turn,
                "data": json.loads(json.dumps(e.data, default=str)),
            }
            for e in new
        ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "ruleset": "carrier",
            "scenario": scenario,
            "seed": seed,
            "seed_commitment": seed_commitment(seed),
        },
        "rounds": rounds,
        "events": events,
        "final_state": json.loads(rules.dump(state)),
    }


def sweep(
    scenario: str, campaigns: int, *, first: int = 0, data: GameData | None = None
) -> list[tuple[int, RuleCheck]]:
    """Check ``campaigns`` random campaigns (seeds ``first``...); every result, in order."""
    catalog = default_catalog()
    data = data or load()
    results = []
    for number in range(first, first + campaigns):
        export = random_export(catalog, scenario, f"sweep-{number}", number)
        results.append((number, check_export(export, data)))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/rulecheck_sweep.py", description=__doc__)
    parser.add_argument("--campaigns", type=int, default=200, help="per scenario")
    parser.add_argument(
        "--scenario", choices=("coral-sea", "midway", "midway-historical"), action="append"
    )
    args = parser.parse_args(argv)
    failed_any = False
    data = load()
    for scenario in args.scenario or ["coral-sea", "midway"]:
        results = sweep(scenario, args.campaigns, data=data)
        failed = [(n, r) for n, r in results if not r.ok]
        for number, result in failed:
            for line in result.lines():
                print(f"seed sweep-{number}: {line}")
        print(
            t(
                "rulecheck.cli.sweep",
                None,
                scenario=scenario,
                campaigns=len(results),
                checks=sum(r.passed for _, r in results),
                failed=len(failed),
            )
        )
        failed_any = failed_any or bool(failed)
    return 1 if failed_any else 0


if __name__ == "__main__":
    sys.exit(main())
