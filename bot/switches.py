"""Switches a GM sets on ``/campaign new`` instead of writing a scenario.

A ruleset declares its switches (``Rules.switches``); this module reads the GM's text
("front=eastern sun=off"), checks it against them and starts the campaign with them, so the
cog stays a pass-through and a ruleset never parses Discord input. The checked switches are
kept in the campaign's creation event, which the export carries and ``verify`` replays.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.service_model import ServiceError
from db.repository import Transaction
from engine.ruleset import Rules

MAX_SWITCHES = 40  # more than any ruleset declares: a longer text is a mistake


def parse(text: str) -> dict[str, str]:
    """ "front=eastern, sun = off" -> {"front": "eastern", "sun": "off"}; names and values
    lower-cased, separated by spaces or commas. Refuses a piece without "=" and a name
    given twice."""
    pieces = re.sub(r"\s*=\s*", "=", text).replace(",", " ").split()
    if len(pieces) > MAX_SWITCHES:
        raise ServiceError("too-many-switches", max=MAX_SWITCHES)
    given: dict[str, str] = {}
    for piece in pieces:
        name, sep, value = piece.partition("=")
        name, value = name.strip().lower().replace("-", "_"), value.strip().lower()
        if not sep or not name or not value:
            raise ServiceError("bad-switch", value=piece)
        if name in given:
            raise ServiceError("switch-twice", switch=name)
        given[name] = value
    return given


def checked(rules: Rules[Any, Any], scenario: str, given: Mapping[str, str]) -> dict[str, str]:
    """The GM's switches as the ruleset declares them for ``scenario``, or a refusal that
    says which one is wrong and what would do."""
    if not given:
        return {}
    specs = {spec.name: spec for spec in rules.switches(scenario)}
    if not specs:
        raise ServiceError("no-switches", ruleset=rules.key, scenario=scenario)
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            raise ServiceError("unknown-switch", switch=name, known=", ".join(specs))
        if value not in spec.values:
            raise ServiceError(
                "bad-switch-value", switch=name, value=value, values=", ".join(spec.values)
            )
    return {name: given[name] for name in specs if name in given}


def completions(rules: Rules[Any, Any], scenario: str, current: str) -> list[str]:
    """What the GM's text may become as he types: the text so far with its last piece
    completed into each switch (and value) it may still be, for Discord's autocomplete."""
    done, _, last = current.rpartition(" ")
    given = {piece.partition("=")[0] for piece in done.replace(",", " ").split()}
    name, sep, value = last.lower().partition("=")
    head = f"{done} " if done else ""
    return [
        f"{head}{spec.name}={option}"
        for spec in rules.switches(scenario)
        if spec.name not in given and spec.name.startswith(name.replace("-", "_"))
        for option in spec.values
        if not sep or option.startswith(value)
    ]


def replayable(rules: Rules[Any, Any], scenario: str, given: Any) -> dict[str, str] | None:
    """The switches an export's creation event holds, if they are ones the scenario takes
    (none given: none); None for anything else."""
    if given is None:
        return {}
    if not isinstance(given, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in given.items()
    ):
        return None
    try:
        return checked(rules, scenario, given)
    except ServiceError:
        return None


def begin(rules: Rules[Any, Any], scenario: str, seed: str, switches: Mapping[str, str]) -> Any:
    """The campaign's first state: with switches through ``new_switched``, else ``new``."""
    if switches:
        return rules.new_switched(scenario, seed, switches)
    return rules.new(scenario, seed)


def described(
    rules: Rules[Any, Any], scenario: str, switches: Mapping[str, str], locale: Any
) -> str:
    """What the GM set, in the reader's words: "front=eastern (the scenario: western)"."""
    defaults = {spec.name: spec.default for spec in rules.switches(scenario)}
    return ", ".join(
        t("switches.set", locale, name=name, value=value)
        if defaults.get(name) == value
        else t("switches.changed", locale, name=name, value=value, default=defaults.get(name))
        for name, value in switches.items()
    )


async def created_switches(tx: Transaction, campaign_id: int) -> dict[str, str]:
    """The switches a campaign plays with: those it was created with (its first event holds
    them), or the last the GM set with ``/campaign settings`` before its start; or none."""
    first = await tx.events(campaign_id, limit=1)
    if not first or first[0].kind != "campaign-created":
        return {}
    given = first[0].data.get("switches")
    # A change is only allowed before the start, so it was logged in the creation's turn.
    for event in await tx.events(campaign_id, turn=first[0].turn):
        if event.kind == CHANGED and SWITCHES in event.data:
            given = event.data[SWITCHES]
    return {str(k): str(v) for k, v in given.items()} if isinstance(given, dict) else {}


# --- changing them before the start (``/campaign settings switches:``) -------------------

CHANGED = "settings-changed"  # the event that carries the new set under SWITCHES
SWITCHES = "switches"
BACK_TO_SCENARIO = ("none", "-", "aucun")  # the text that drops every switch


def changed_set(
    rules: Rules[Any, Any], scenario: str, current: Mapping[str, str], text: str
) -> dict[str, str]:
    """The campaign's switches once the GM's text is applied: the names given take their
    new values (checked as at creation), the others keep theirs; "none" drops them all,
    back to the scenario's values."""
    if text.strip().lower() in BACK_TO_SCENARIO:
        return {}
    given = checked(rules, scenario, parse(text))
    merged = {**current, **given}
    return {
        spec.name: merged[spec.name] for spec in rules.switches(scenario) if spec.name in merged
    }


def as_text(switches: Mapping[str, str]) -> str:
    """The set as the GM writes it ("front=eastern sun=off"), empty for none."""
    return " ".join(f"{name}={value}" for name, value in switches.items())


def start_switches(events: list[dict[str, Any]]) -> list[tuple[Any, list[dict[str, Any]]]]:
    """An export's starts, in order: the switches each one was drawn with (the creation's,
    then each change before the start) and the set-up events (engine, no round) it logged,
    so ``verify`` replays every one and plays the campaign from the last."""
    starts: list[tuple[Any, list[dict[str, Any]]]] = []
    started = False
    for event in events:
        if event["kind"] == "campaign-created":
            starts.append((event["data"].get(SWITCHES), []))
        elif event["kind"] == "campaign-started":
            started = True
        elif event["kind"] == CHANGED and SWITCHES in event["data"]:
            # Refused by the service once the campaign runs: a file saying otherwise lies.
            starts.append((event["data"][SWITCHES] if not started else [], []))
        elif event["source"] == "engine" and event["round_id"] is None:
            if not starts:
                starts.append((None, []))
            starts[-1][1].append(event)
    return starts or [(None, [])]
