"""Rounds deep into real campaigns, for the generated secrecy tests.

The recorded games of ``tests/golden_rulesets`` (every ruleset, its variants) are replayed
once; every round they reach is kept with the state it starts from and the choices that
were locked in it. A test draws a round from here instead of playing a campaign up to it.

A *case* is one secret decision of one round: a side, a field it was asked, and the round.
Cases are grouped in buckets (ruleset, round kind, field family, what the resolution leads
to) so that a rare situation (a flak gunner's order in a turn a pursuer may reorder) is
drawn as often as a common one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.rng import Rng
from engine.ruleset import Decision, Progress, Rules
from tests import golden_rulesets


@dataclass(frozen=True)
class Round:
    ruleset: str
    scenario: str
    seed: str  # the game's seed (``Rng`` streams)
    index: int  # the round's place in its game
    state: Any = field(repr=False)  # the state the round starts from
    progress: Progress
    choices: Mapping[str, Mapping[str, str]]  # what was locked in it
    after: Progress  # where its resolution left the game
    next_asks: bool  # whether the round after it asked anyone anything


@dataclass(frozen=True)
class Case:
    round: Round
    side: str
    field: str

    @property
    def bucket(self) -> tuple[str, str, str, str]:
        return bucket_of(self.round, self.field)


def family(field: str) -> str:
    """A field's family: "plane2" -> "plane", "program:P3" -> "program"."""
    return re.sub(r"[:\d].*$", "", field) or field


def leads_to(round_: Round) -> str:
    """What resolving the round leads to: another round of the same turn, or the turn's end."""
    after = round_.after
    if after.finished:
        return "end"
    if after.turn == round_.progress.turn:
        return f"then {after.round}" + ("" if round_.next_asks else " (nobody asked)")
    return "turn closed"


def bucket_of(round_: Round, field: str) -> tuple[str, str, str, str]:
    return (round_.ruleset, round_.progress.round, family(field), leads_to(round_))


def rules_of(key: str) -> Rules[Any, Any]:
    return golden_rulesets._registry().get(key).rules


@cache
def rounds() -> tuple[Round, ...]:
    found: list[Round] = []
    for game in golden_rulesets.load():
        rules = rules_of(game["ruleset"])
        seed = f"golden-{game['seed']}"
        state = rules.new(game["scenario"], seed)
        played = game["rounds"]
        for index, recorded in enumerate(played):
            progress = rules.progress(state)
            choices = recorded["choices"]
            after, _events = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
            found.append(
                Round(
                    game["ruleset"],
                    game["scenario"],
                    seed,
                    index,
                    state,
                    progress,
                    choices,
                    rules.progress(after),
                    index + 1 < len(played) and any(played[index + 1]["choices"].values()),
                )
            )
            state = after
    return tuple(found)


def asked(round_: Round) -> list[Decision]:
    """The round's decisions that have something to choose (two options or more)."""
    rules = rules_of(round_.ruleset)
    return [d for d in rules.pending(round_.state) if len(d.options) >= 2]


@cache
def buckets() -> dict[tuple[str, str, str, str], tuple[Case, ...]]:
    grouped: dict[tuple[str, str, str, str], list[Case]] = {}
    for round_ in rounds():
        for decision in asked(round_):
            case = Case(round_, decision.side, decision.field)
            grouped.setdefault(case.bucket, []).append(case)
    return {key: tuple(cases) for key, cases in sorted(grouped.items())}
