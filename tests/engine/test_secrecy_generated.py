"""Generated differential secrecy tests, engine side (issue 26).

Hypothesis draws a round deep into a recorded campaign of any ruleset (``tests.secrecy_pool``)
and either

- a secret *decision* of one side there and two of its options: both runs resolve the round,
  and the turn's other rounds, with every other choice the same. Until the field opens
  (its turn's end, or the campaign's for a field that opens then or that nobody declared)
  everything the others receive must be the same: the other sides' and the public's views,
  the game's progress, the events published, the others' own decisions and options, and
  what the round's reveal and its opened receipts would show; or
- a secret *piece of the state* (any field its labels keep from a viewer, a field with no
  label included) and a second value for it: the viewer's view, progress and decisions must
  not change.

Which decision fields and state fields are secret is read here from the declarations
themselves (``FieldSpec``, the fields' ``Annotated`` labels), never from the gate under
test: a gate that opened too much could not hide its own mistake by calling the field
public.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot import secrecy
from engine.rng import Rng
from engine.ruleset import Event, Rules
from engine.sight import OWNER, SIDE, Eyes, Sight, is_public_record
from tests.secrecy_pool import Case, Round, buckets, rounds, rules_of

# --- what others receive ------------------------------------------------------------------


def _dump(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def received(
    rules: Rules[Any, Any], state: Any, events: list[Event], viewers: list[Eyes]
) -> dict[str, Any]:
    """Everything ``viewers`` are shown of ``state`` and of the events that led to it."""
    sides = {eyes.side for eyes in viewers}
    return {
        "views": [_dump(rules.view(state, eyes)) for eyes in viewers],
        "progress": _dump(rules.progress(state)),
        "events": [e.model_dump() for e in rules.public_events(events)],
        "asked": [_dump(d) for d in rules.pending(state) if d.side in sides],
    }


def others(rules: Rules[Any, Any], side: str | None) -> list[Eyes]:
    """Who must not learn ``side``'s secrets: the other sides, the channel and spectators
    (the public), and a GM who may not peek (the public's view too)."""
    return [Eyes.of(s) for s in rules.side_ids if s != side] + [Eyes.public()]


# --- decisions ----------------------------------------------------------------------------


def declared_opening(rules: Rules[Any, Any], field: str) -> str:
    """When a field opens as its ruleset declares it; a field nobody declared opens with
    the campaign's end."""
    spec = rules.field_spec(field)
    return "campaign-end" if spec is None else spec.opens


def play_varied(case: Case, value: str) -> list[Any]:
    """Resolve the case's round with ``value`` for its field, then the rest of its turn,
    and record what the others received up to the field's opening."""
    rules, round_ = rules_of(case.round.ruleset), case.round
    choices = {side: dict(picks) for side, picks in round_.choices.items()}
    choices.setdefault(case.side, {})[case.field] = value
    opens = declared_opening(rules, case.field)
    mine = choices[case.side]
    shown = secrecy.shown_at_reveal(rules, mine)
    if opens == "reveal":
        shown.pop(case.field, None)
    record: list[Any] = [
        # What the round's reveal posts, and whether its receipt opens before the end (the
        # receipt opens the whole choice, this field with it).
        shown,
        secrecy.opens_before_the_end(rules, mine) if opens == "campaign-end" else None,
    ]
    if opens == "reveal":
        return record  # it opens as the round resolves: nothing after is a secret
    viewers = others(rules, case.side)
    state, turn = round_.state, round_.progress.turn
    progress = round_.progress
    while True:
        state, events = rules.resolve(
            state, choices, Rng(round_.seed, progress.turn, progress.round)
        )
        after = rules.progress(state)
        if rules.closes_turn(progress.round) or after.finished or after.turn != turn:
            # The turn is flown (a closing round flies it, even one an optional round
            # follows, an Ace's last card): the choice acted in the open.
            return record
        record.append(received(rules, state, events, viewers))
        progress = after
        choices = rules.defaults(rules.pending(state))


def _cases() -> st.SearchStrategy[Case]:
    keys = sorted(buckets())
    return st.sampled_from(keys).flatmap(lambda key: st.sampled_from(buckets()[key]))


def opened_early(case: Case, option: str) -> str | None:
    """The part of a choice the rules open before its field does, to someone who acts on it
    in the same turn; two options compared must agree on it.

    Wings of War [A.IV.d]: when a plane is tailed, its first card is shown to the pursuer
    as the reorder round asks him, before the programs open with the turn. (The pursuer's
    own view says so; the public's does not.)"""
    wings = case.round.ruleset in ("wings", "dambuster")
    if wings and case.round.next_asks and case.field.startswith(("plane", "program")):
        return option.split()[0] if option.split() else option
    return None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(case=_cases(), data=st.data())
def test_a_secret_choice_is_the_same_to_everyone_else_until_it_opens(
    case: Case, data: st.DataObject
) -> None:
    rules = rules_of(case.round.ruleset)
    decision = next(
        d for d in rules.pending(case.round.state) if (d.side, d.field) == (case.side, case.field)
    )
    first = data.draw(st.sampled_from([o.id for o in decision.options]), label="first option")
    early = opened_early(case, first)
    alike = [o.id for o in decision.options if o.id != first and opened_early(case, o.id) == early]
    assume(alike)
    second = data.draw(st.sampled_from(alike), label="second option")
    seen = [play_varied(case, first), play_varied(case, second)]
    assert seen[0] == seen[1], (
        f"{case.round.ruleset} {case.round.scenario} round {case.round.index}:"
        f" {case.side}'s {case.field} ({first!r} or {second!r}) shows before it opens"
    )


# --- the state ----------------------------------------------------------------------------

Path = tuple[Any, ...]


_RECORD = Sight("public")  # an unlabelled field of a public record


def _label(info: Any, record: bool) -> tuple[Sight | None, bool]:
    sights = [m for m in info.metadata if isinstance(m, Sight)]
    owner = any(m is OWNER for m in info.metadata)
    if not sights:
        return (_RECORD if record else None), owner
    return sights[0], owner


def _owner_field(model: type[BaseModel]) -> str | None:
    for name, info in model.model_fields.items():
        if any(m is OWNER for m in info.metadata):
            return name
    return None


def _entry_owner(obj: BaseModel, rule: str, ident: Any) -> str | None:
    if rule == SIDE:
        return str(ident)
    entry = getattr(obj, rule, {}).get(ident)
    field = _owner_field(type(entry)) if isinstance(entry, BaseModel) else None
    return None if field is None else str(getattr(entry, field))


def hidden_paths(value: Any, viewer: str | None, owner: str | None = None) -> list[Path]:
    """Paths of the values the labels keep from ``viewer`` now, read from the labels."""
    found: list[Path] = []
    if isinstance(value, BaseModel):
        cls = type(value)
        field = _owner_field(cls)
        if field is not None and getattr(value, field) is not None:
            owner = str(getattr(value, field))
        record = is_public_record(cls)
        for name, info in cls.model_fields.items():
            if info.exclude is True:
                continue
            sight, is_owner = _label(info, record)
            inner = getattr(value, name)
            if is_owner:
                continue  # who owns what is public
            here = (sight.side if sight else None) or owner
            if sight is None or sight.audience == "sealed":
                if sight is None and here is not None and here == viewer:
                    found += [(name, *p) for p in hidden_paths(inner, viewer, here)]
                else:
                    found.append((name,))
                continue
            if sight.audience == "public":
                if sight.unless is None:
                    found += [(name, *p) for p in hidden_paths(inner, viewer, here)]
                continue
            if sight.glimpse is not None or sight.unless is not None:
                continue  # shown to some besides the owner: not drawn here
            if sight.key is not None:
                for key in inner:
                    if _entry_owner(value, sight.key, key) != viewer:
                        found.append((name, key))
                continue
            if sight.item is not None:
                for index, item in enumerate(inner):
                    if _entry_owner(value, sight.item, item) != viewer:
                        found.append((name, index))
                continue
            if sight.by is not None:
                here = getattr(value, sight.by)
            if here is None or here != viewer:
                found.append((name,))
            else:
                found += [(name, *p) for p in hidden_paths(inner, viewer, here)]
    elif isinstance(value, Mapping):
        for key, item in value.items():
            found += [(key, *p) for p in hidden_paths(item, viewer, owner)]
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            found += [(index, *p) for p in hidden_paths(item, viewer, owner)]
    return found


class Unchangeable(Exception):
    """An empty box: there is no content to vary (whether it is empty is public)."""


def changed(value: Any) -> Any:
    """Another value of the same kind and shape: what a secret could have been instead
    (a container keeps its keys and length; how many things a side holds is public)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.25
    if isinstance(value, str):
        return value + "~"
    if value is None:
        return "~"
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            try:
                return value.model_copy(update={name: changed(getattr(value, name))})
            except Unchangeable:
                continue
        raise Unchangeable
    if isinstance(value, Mapping):
        for key, item in value.items():
            try:
                return {**value, key: changed(item)}
            except Unchangeable:
                continue
        raise Unchangeable
    if isinstance(value, tuple | list):
        for index, item in enumerate(value):
            try:
                items = list(value)
                items[index] = changed(item)
                return type(value)(items)
            except Unchangeable:
                continue
        raise Unchangeable
    raise Unchangeable


def replaced(value: Any, path: Path, change: Callable[[Any], Any]) -> Any:
    if not path:
        return change(value)
    head, rest = path[0], path[1:]
    if isinstance(value, BaseModel):
        return value.model_copy(update={head: replaced(getattr(value, head), rest, change)})
    if isinstance(value, Mapping):
        return {**value, head: replaced(value[head], rest, change)}
    items = list(value)
    items[head] = replaced(items[head], rest, change)
    return type(value)(items) if isinstance(value, tuple) else items


def _live_rounds() -> list[Round]:
    return [r for r in rounds() if not r.progress.finished]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_secret_of_the_state_is_the_same_to_those_it_is_kept_from(data: st.DataObject) -> None:
    round_ = data.draw(st.sampled_from(_live_rounds()), label="round")
    rules = rules_of(round_.ruleset)
    viewer = data.draw(st.sampled_from([*rules.side_ids, None]), label="viewer")
    paths = hidden_paths(round_.state, viewer)
    if not paths:
        return
    path = data.draw(st.sampled_from(paths), label="secret")
    try:
        other = replaced(round_.state, path, changed)
    except Unchangeable:
        return
    eyes = [Eyes(side=viewer)]
    before = received(rules, round_.state, [], eyes)
    after = received(rules, other, [], eyes)
    assert before == after, f"{round_.ruleset}: {path} shows to {viewer or 'the public'}"
