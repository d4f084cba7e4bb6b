"""The Wings scenarios (authored, see docs/wings-data.md): each one's squadrons, first
mission, optional rules and front, and the switches a GM may change on ``/campaign new``."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import get_args

import engine.rulesets.wings.campaign as wings
import engine.rulesets.wings.front as front
from engine.ruleset import SwitchSpec
from engine.rulesets.wings.catalog import SideName
from engine.rulesets.wings.state import MissionRules

Scenario = tuple[str, str, int, dict[SideName, wings.SquadronSetup]]


# Who flies for each squadron (authored data, read once).
_SQUADRONS = {
    key: wings.SquadronSetup.model_validate(entry)
    for key, entry in tomllib.loads(
        (Path(__file__).parent / "data" / "squadrons.toml").read_text(encoding="utf-8")
    ).items()
}


def _sides(entente: str, central: str) -> dict[SideName, wings.SquadronSetup]:
    """Each side's squadron, by its key in ``data/squadrons.toml``."""
    return {"entente": _SQUADRONS[entente], "central": _SQUADRONS[central]}


# The first mission of each scenario (authored): the later ones are chosen at the debrief.
FIRST_MISSION = {"wings-1917": "balloon", "wings-1918": "bombing"}

SCENARIOS: dict[str, Scenario] = {
    "wings-1917": ("Autumn 1917: two pilots a side", "1917-09", 3, _sides("no-56", "jasta-11")),
    "wings-1918": ("Summer 1918: three pilots a side", "1918-06", 3, _sides("spa-3", "jasta-2")),
}


# Scenario switches for the optional rules (B, and the flak option of A.IV.h): a scenario
# not listed plays them all. "Base rules only" keeps the A rules (tailing included).
BASE_RULES_ONLY = MissionRules(
    collisions=False,
    friendly_collisions=False,
    dive_shot=False,
    fire_prohibition=False,
    shot_down_rule=False,
    doubled_specials=False,
    flak_near=False,
    ammunition=False,
    twin_guns=False,
    real_ceiling=False,
    come_back=False,
)
SCENARIOS["wings-1917-basic"] = (
    "Autumn 1917, base rules only (optional rules off)",
    *SCENARIOS["wings-1917"][1:],
)
FIRST_MISSION["wings-1917-basic"] = FIRST_MISSION["wings-1917"]
# Seed F.III.c-d and F.I: a longer campaign where the major objectives matter, the enemy
# airfield bombed ends it (the F.III.d option) and the period's side starts with its 1D10
# (I.I, the digest's tentative reading). Authored scenario: 1917's squadrons, six missions.
# Each squadron adds a two-seater crew, without which no major objective can be
# photographed (seed E.I.a).
_FRONT = SCENARIOS["wings-1917"][3]
_TWO_SEATERS: dict[SideName, tuple[str, str, str]] = {
    "entente": ("Andrew McKeever", "soldier", "bristol_f2b"),
    "central": ("Friedrich Huffzky", "soldier", "halberstadt_cl2"),
}
SCENARIOS["wings-1917-front"] = (
    "Autumn 1917, the long campaign: period bonus, the airfield decides",
    SCENARIOS["wings-1917"][1],
    6,
    {
        side: _FRONT[side].model_copy(
            update={
                "pilots": (
                    *_FRONT[side].pilots,
                    wings.PilotSetup(name=who, behaviour=behaviour, plane=plane),
                )
            }
        )
        for side, (who, behaviour, plane) in _TWO_SEATERS.items()
    },
)
# It opens on the first step against a major objective (seed F.III.c): photographing the
# enemy's railway station, which the next mission may bomb.
FIRST_MISSION["wings-1917-front"] = "photography:station"
CAMPAIGN_SWITCHES: dict[str, dict[str, bool]] = {
    "wings-1917-front": {"airfield_assault": True, "period_bonus": True},
}
# Seed B.V's cloud cover is "by agreement": the full-rules scenarios agree to it, and to
# the sun position (F.VI.e, which replaces the efficient alert of F.VI.d, played only by the
# balloons' surveillance role, below). Summer 1918 is flown over the hills (seed F.V's
# relief, relief.py).
SCENARIO_RULES: dict[str, MissionRules] = {
    "wings-1917": MissionRules(cloud_cover=True, sun=True),
    "wings-1918": MissionRules(cloud_cover=True, sun=True, relief=True),
    "wings-1917-basic": BASE_RULES_ONLY,
    # Seed A.IV.i.2: the long campaign's balloons hang a protective ring, not a barrage.
    "wings-1917-front": MissionRules(cloud_cover=True, net_shape="ring"),
}
# Seed A.IV.i's optional strategic roles of balloons: 1917's squadrons opening on balloon
# busting, each balloon mission given a role. No sun: F.VI.d's efficient alert, which the
# surveillance role grants, is the rule the sun position replaces.
SCENARIOS["wings-1917-balloons"] = (
    "Autumn 1917, balloons with strategic roles",
    *SCENARIOS["wings-1917"][1:],
)
FIRST_MISSION["wings-1917-balloons"] = "balloon"
SCENARIO_RULES["wings-1917-balloons"] = MissionRules(cloud_cover=True, balloon_roles=True)
# Seed F.VI.e, K.1: the Eastern Front, summer 1917 (the Kerensky offensive), authored: a
# Russian corps detachment against an Austro-Hungarian company, the 1917 squadrons' planes
# and behaviours, so only the front and the season differ. The sun is played, and in
# medium cloudiness too (the missions flown above the layer, front).
SCENARIOS["wings-1917-east"] = (
    "Summer 1917 on the Eastern Front: the sun's sides swapped",
    "1917-07",
    3,
    _sides("19th-corps", "flik-41j"),
)
FIRST_MISSION["wings-1917-east"] = "balloon"
SCENARIO_RULES["wings-1917-east"] = MissionRules(cloud_cover=True, sun=True, sun_above_clouds=True)
SCENARIO_FRONT: dict[str, str] = {"wings-1917-east": "eastern"}
# The switches a GM may set on ``/campaign new`` (seed K.1's optional rules and front), in
# the order they are shown: the campaign's own first, then every optional mission rule.
CAMPAIGN_FLAGS = ("airfield_assault", "period_bonus")
FIRST_FLAGS = ("sun", "sun_above_clouds")
ON, OFF = "on", "off"
# Mission rules that are not on/off, with the values a GM may give them.
_CHOICE_RULES: dict[str, tuple[str, ...]] = {
    name: tuple(str(v) for v in get_args(field.annotation))
    for name, field in MissionRules.model_fields.items()
    if field.annotation is not bool
}


def switches(scenario: str) -> Sequence[SwitchSpec]:
    """A squadron campaign's switches, each at its scenario's value."""
    rules = SCENARIO_RULES.get(scenario) or MissionRules()
    camp = CAMPAIGN_SWITCHES.get(scenario, {})
    flags = [(name, getattr(rules, name)) for name in FIRST_FLAGS]
    flags += [(name, camp.get(name, False)) for name in CAMPAIGN_FLAGS]
    flags += [
        (name, getattr(rules, name))
        for name in MissionRules.model_fields
        if name not in FIRST_FLAGS and name not in _CHOICE_RULES
    ]
    front_spec = SwitchSpec("front", front.FRONTS, SCENARIO_FRONT.get(scenario, "western"))
    # A mission rule with named values (the net's shape, seed A.IV.i.2) offers those.
    choices = [
        SwitchSpec(name, values, str(getattr(rules, name)))
        for name, values in _CHOICE_RULES.items()
    ]
    return (
        front_spec,
        *(SwitchSpec(n, (ON, OFF), ON if v else OFF) for n, v in flags),
        *choices,
    )


def switched(scenario: str, given: Mapping[str, str]) -> tuple[MissionRules, dict[str, bool], str]:
    """The mission rules, the campaign's own flags and the front a GM's switches set (each
    one not given at its scenario's value); a switch the scenario lacks is refused."""
    specs = {spec.name: spec for spec in switches(scenario)}
    for name, value in given.items():
        if name not in specs or value not in specs[name].values:
            raise ValueError(f"switch {name}={value} is not one of {scenario}'s")
    values = {name: given.get(name, spec.default) for name, spec in specs.items()}
    rules = MissionRules.model_validate(
        {n: values[n] if n in _CHOICE_RULES else values[n] == ON for n in MissionRules.model_fields}
    )
    return rules, {n: values[n] == ON for n in CAMPAIGN_FLAGS}, values["front"]
