"""The secrecy gate: the one place that decides what a viewer may see, and when.

Rulesets *declare*: when each decision field opens (``engine.ruleset.FieldSpec.opens``),
and who owns each piece of their state and events (labels, ``engine.sight``). This module
*applies* those declarations for every output: the reveal posted in the channel, the salts
that open receipts (reveal, ``/receipt``, export), the views drawn into images and panels
(``engine.sight.keep`` through ``Rules.view``), the events published as they happen and
those kept sealed until the campaign ends, and the GM's peek. Nothing else in the
application compares a field name, a side or a round kind to decide visibility.

Viewers: a side's player (their own side's view and drafts), the GM (the public view; the
drafts and secrets of every side only in a campaign created with ``gm_sees_secrets``), a
spectator or the public channel (the public view), and an export (locked choices and salts
only once opened; the sealed events and every secret of the final state once the campaign
is over).

What nobody declared is secret: a decision field with no ``FieldSpec`` opens when the
campaign ends, a state field with no label is its owner's, an event kind with no label is
sealed. A forgotten declaration costs a late reveal, never an early one.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.ruleset import Event, Rules
from engine.sight import Eyes, keep_json


class _Round(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def branch(self) -> int: ...

    @property
    def resolved_at(self) -> int | None: ...


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a side's player, the GM, or anyone (``side`` None, not GM).
    ``peek``: the GM of a campaign created with ``gm_sees_secrets``."""

    side: str | None = None
    gm: bool = False
    peek: bool = False

    @classmethod
    def public(cls) -> Viewer:
        return cls()

    @classmethod
    def player(cls, side: str) -> Viewer:
        return cls(side=side)

    @classmethod
    def game_master(cls, gm_sees_secrets: bool) -> Viewer:
        return cls(gm=True, peek=gm_sees_secrets)

    @property
    def eyes(self) -> Eyes:
        """The engine's gate's name for this viewer."""
        return Eyes(side=self.side, peek=self.gm and self.peek)


def view_for(rules: Rules[Any, Any], state: Any, viewer: Viewer) -> Any:
    """The view of ``state`` this viewer may see: what the state's labels let the engine's
    gate keep for them (a GM without the right to peek, and a spectator, see the public's)."""
    return rules.view(state, viewer.eyes)


def published(rules: Rules[Any, Any], events: Sequence[Event]) -> list[Event]:
    """The events anyone may read as they happen: the log, the channel, the export."""
    return [e for e in events if rules.event_sight(e).public]


def sealed(rules: Rules[Any, Any], events: Sequence[Event]) -> list[Event]:
    """The events kept from everyone until the campaign ends (then opened into the export);
    one that opens never is not kept at all."""
    return [
        e
        for e in events
        if not rules.event_sight(e).public and rules.event_sight(e).opens != "never"
    ]


def sealed_json(rules: Rules[Any, Any], events: Sequence[Event]) -> str | None:
    """A round's sealed events as the store keeps them (None: it has none)."""
    kept = [
        {"kind": e.kind, "turn": e.turn, "data": e.data, "owner": e.owner}
        for e in sealed(rules, events)
    ]
    if not kept:
        return None
    return json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sealed_of(text: str | None, finished: bool) -> list[dict[str, Any]] | None:
    """A round's sealed events as an export shows them: all of them once the campaign is
    over, nothing (None) before."""
    if not finished:
        return None
    events: list[dict[str, Any]] = json.loads(text) if text else []
    return events


def final_state(rules: Rules[Any, Any], state: Any) -> Any:
    """A finished campaign's state as the export carries it: everything but what its
    labels say never opens."""
    return keep_json(state, Eyes.public(), finished=True)


def opens_at_reveal(rules: Rules[Any, Any], field: str) -> bool:
    spec = rules.field_spec(field)
    # A field a ruleset forgot to declare stays closed until the campaign ends: a mistake
    # in a declaration must cost a late reveal, never an early one.
    return spec is not None and spec.opens == "reveal"


def opens_before_the_end(rules: Rules[Any, Any], fields: Collection[str]) -> bool:
    """Whether a lock holding these fields may open before the campaign ends: one receipt
    commits to the whole choice, so a single field sealed to the end holds it all back."""
    specs = [rules.field_spec(field) for field in fields]
    return all(spec is not None and spec.opens != "campaign-end" for spec in specs)


def shown_at_reveal(rules: Rules[Any, Any], choice: Mapping[str, str]) -> dict[str, str]:
    """The part of a locked choice the round's reveal may publish."""
    return {field: value for field, value in choice.items() if opens_at_reveal(rules, field)}


def round_opens_at_reveal(rules: Rules[Any, Any], kind: str) -> bool:
    """Every field of this kind of round opens at its reveal (so its salts may, too)."""
    fields = [f for f in rules.fields if f.round == kind]
    return all(opens_at_reveal(rules, f.name) for f in fields)


def receipt_opened(
    rules: Rules[Any, Any],
    finished: bool,
    row: _Round,
    rounds: Collection[_Round],
    fields: Collection[str] = (),
) -> bool:
    """Whether a lock of round ``row`` holding ``fields`` may show its salt and choice.

    Once the campaign is over, everything; before, never a lock holding a field that opens
    at the campaign's end (or that nobody declared); the others when the round is resolved
    if all its fields open at the reveal, else when the round that closes the same turn
    (on the same branch) is resolved.
    """
    if finished:
        return True
    if row.resolved_at is None or not opens_before_the_end(rules, fields):
        return False
    if round_opens_at_reveal(rules, row.kind):
        return True
    same = [r for r in rounds if r.turn == row.turn and r.branch == row.branch]
    return any(rules.closes_turn(r.kind) and r.resolved_at is not None for r in same) and all(
        # An optional round still open in the turn (an Ace's last card) holds its end back.
        r.resolved_at is not None
        for r in same
        if rules.optional_round(r.kind)
    )


def opened_by(
    rules: Rules[Any, Any],
    resolved: _Round,
    rounds: Collection[_Round],
    ends_turn: bool | None = None,
) -> list[_Round]:
    """The rounds whose receipts the resolution of ``resolved`` opens (for its reveal).
    ``ends_turn`` is what the state after it says (an optional round may follow a
    closing one); without it the round's kind decides."""
    if rules.closes_turn(resolved.kind) if ends_turn is None else ends_turn:
        return [
            r
            for r in rounds
            if r.turn == resolved.turn and r.branch == resolved.branch and r.resolved_at
        ]
    return [resolved] if round_opens_at_reveal(rules, resolved.kind) else []


def may_peek(gm_sees_secrets: bool, viewer: Viewer) -> bool:
    """The GM reads the sides' unrevealed drafts only where the campaign allows it."""
    return viewer.gm and gm_sees_secrets


def may_read_drafts(viewer: Viewer, side: str) -> bool:
    """A side's drafts and panel are for that side's players."""
    return viewer.side == side
