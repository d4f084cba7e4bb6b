"""The secrecy gate: the one place that decides what a viewer may see, and when.

Rulesets *declare* when each decision field opens (``engine.ruleset.FieldSpec.opens``);
this module *applies* those declarations for every output: the reveal posted in the
channel, the salts that open receipts (reveal, ``/receipt``, export), the views drawn
into images and panels, and the GM's peek. Nothing else in the application compares a
field name, a side or a round kind to decide visibility.

Viewers: a side's player (their own side's view and drafts), the GM (the public view;
the drafts of every side only in a campaign created with ``gm_sees_secrets``), a
spectator or the public channel (the public view), and an export (locked choices and
salts only once opened).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.ruleset import Rules


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
    """Who is looking: a side's player, the GM, or anyone (``side`` None, not GM)."""

    side: str | None = None
    gm: bool = False

    @classmethod
    def public(cls) -> Viewer:
        return cls()

    @classmethod
    def player(cls, side: str) -> Viewer:
        return cls(side=side)


def view_for(rules: Rules[Any, Any], state: Any, viewer: Viewer) -> Any:
    """The view of ``state`` this viewer may see; the GM and spectators get the public one."""
    return rules.view(state, viewer.side)


def opens_at_reveal(rules: Rules[Any, Any], field: str) -> bool:
    spec = rules.field_spec(field)
    # A field a ruleset forgot to declare stays closed until the turn ends: a mistake in a
    # declaration must cost a late reveal, never an early one.
    return spec is not None and spec.opens == "reveal"


def shown_at_reveal(rules: Rules[Any, Any], choice: Mapping[str, str]) -> dict[str, str]:
    """The part of a locked choice the round's reveal may publish."""
    return {field: value for field, value in choice.items() if opens_at_reveal(rules, field)}


def round_opens_at_reveal(rules: Rules[Any, Any], kind: str) -> bool:
    """Every field of this kind of round opens at its reveal (so its salts may, too)."""
    fields = [f for f in rules.fields if f.round == kind]
    return all(opens_at_reveal(rules, f.name) for f in fields)


def receipt_opened(
    rules: Rules[Any, Any], finished: bool, row: _Round, rounds: Collection[_Round]
) -> bool:
    """Whether a lock of round ``row`` may show its salt and choice to anyone.

    Once the campaign is over, everything; before, a round's locks open when the round is
    resolved if all its fields open at the reveal, else when the round that closes the
    same turn (on the same branch) is resolved.
    """
    if finished:
        return True
    if row.resolved_at is None:
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
