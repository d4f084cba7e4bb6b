"""Which history records a view reads, and a new round's views worked out where its round
was resolved (issue 29).

The bot makes every view of a running campaign from the snapshot and the few latest
history records the ruleset names (``Rules.view_records``, ``Rules.side_view_records``).
Both the bot's cache (``bot.service_states``) and the resolution's worker (``bot.resolver``,
when asked: ``bot.service_plan.VIEWS_FROM_WORKER``, off since sending the views back
cost the bot more than making them) choose those records and build the state through this
module, so a view the worker sends back is the one the bot would make from storage, by
construction: the same text, the same records, the same calls.
``tests/test_round_views.py`` compares them byte for byte for every round of every
recorded game, each side and the public.

Secrets: a side's view is made for that side's player through the bot's own gate
(``bot.secrecy.view_for``), the public one for the public: what each is sent to is
decided where it is kept, by the same part names as any view (``bot.service_states``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import secrecy
from engine.ruleset import Rules

AnyRules = Rules[Any, Any]

# What a parsed state holds of its history: none (``BARE``: decisions only), the latest
# records its views read (``RECENT``, ``Rules.view_records``), or every record (``WHOLE``);
# ``SIDE``: the records a side's own view reads (``Rules.side_view_records``), for the
# players' views only (its drafts, Locks and panels parse no turn report where a game's
# side views read none).
BARE, RECENT, WHOLE, SIDE = 0, 1, 2, 3

# One view worked out with a resolution: (the side, None for the public; the kind of
# state it was made from, as the bot's cache keys it; the view).
SentView = tuple[str | None, int, Any]


def span(rules: AnyRules, bare: Any, history_len: int, *, own_side: bool) -> tuple[int, int]:
    """(kind, first record): the state a view of a snapshot is made from, for a side's own
    player (``own_side``) or anyone else; ``bare``: the snapshot parsed alone, holding
    ``history_len`` records on its branch. The records read are ``first`` to the end."""
    if history_len == 0:
        return WHOLE, 0  # before its first record the snapshot is the whole state
    wanted = rules.view_records(bare)
    kind = RECENT
    if own_side:
        sides = rules.side_view_records(bare)
        if sides != wanted:  # else the public's state serves
            kind, wanted = SIDE, sides
    if wanted is None or wanted >= history_len:
        return WHOLE, 0
    return kind, history_len - wanted


def state_for(
    rules: AnyRules, current: str, bare: Any | None, records: Sequence[str], kind: int
) -> Any:
    """The state a view is made from: the snapshot ``current`` (``bare``, parsed already,
    when at hand) with ``records``, the ones ``span`` chose."""
    if kind in (RECENT, SIDE) and not records:
        # No record: the snapshot's own state, as a new object sharing every part of it
        # (the bot marks a parsed snapshot as never viewed).
        assert bare is not None
        return bare.model_copy()
    if bare is not None and records:
        return rules.load_records(bare, records)
    return rules.load_stored(current, records)


def viewer_of(side: str | None) -> secrecy.Viewer:
    """A side's player, or the public (None)."""
    return secrecy.Viewer.public() if side is None else secrecy.Viewer.player(side)


def views_after(
    rules: AnyRules,
    current: str,
    bare: Any,
    history_len: int,
    known: Sequence[str],
    sides: Sequence[str],
) -> tuple[SentView, ...]:
    """The public's view and each of ``sides``' of a new snapshot: ``current`` (``bare``,
    parsed alone), its branch holding ``history_len`` records of which ``known`` are the
    last. A view whose records are not all known is left out (the bot makes it from
    storage)."""
    first_known = history_len - len(known)
    out: list[SentView] = []
    for side in (None, *sides):
        kind, first = span(rules, bare, history_len, own_side=side is not None)
        if first < first_known:
            continue
        records = known[first - first_known :]
        # As the bot's cache would: with no history, the snapshot parsed afresh.
        state = state_for(rules, current, bare if history_len else None, records, kind)
        out.append((side, kind, secrecy.view_for(rules, state, viewer_of(side))))
    return tuple(out)
