"""The seam every game system plugs into: what a ruleset declares and what it must answer.

The application (service, scheduler, export, cogs) knows campaigns, rounds, sides and
secret choices in the abstract; everything that is one game's business (Japanese and
Allied, Fleet Tactics, which round ends a turn, which field stays secret after its
reveal) is declared by a ``Rules`` object. A ruleset's rules are pure: state, choices and
a seeded ``Rng`` in, a new state and events out.

Secrecy is *declared* by the ruleset and *applied* by one gate: a decision field says when
its locked value opens (``FieldSpec.opens``); the state's fields and the events carry labels
(``engine.sight``), and ``Rules.view`` is the gate's answer (``engine.sight.keep``) handed to
the ruleset's ``project``, which only ever sees what was kept. The application's secrecy
module (``bot/secrecy.py``) says who is looking and when each locked choice opens.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Generic, Literal, Protocol, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine import sight
from engine.rng import Rng
from engine.sight import Derived, Eyes, Sight


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Option(_Model):
    id: str
    label: str
    detail: str = ""


class Excluded(_Model):
    id: str
    label: str
    reason: str  # a short key with data, e.g. "after-long", "large-twice"


# How a decision is asked (docs/rulesets.md, "Inputs"): picked from a menu of at most 25
# options, written as free text the ruleset reads (a Wings program "BL BL TR", a hex path),
# answered yes or no, or built in steps (card 1, 2, 3), each step's menu narrowed by the
# picks before it. The panel composer and the cogs draw each kind the same way for every
# game: a select, a modal with quick picks beside it, two buttons, one select per step.
InputKind = Literal["menu", "text", "confirm", "steps"]
INPUT_KINDS: tuple[InputKind, ...] = get_args(InputKind)
# A per-unit field is "<family>:<unit>" (``program:P3``): the family is declared once as a
# ``FieldSpec(per_unit=True)``, the units come and go with the state.
UNIT_SEPARATOR = ":"
# The picks of a choice built in steps, as one text: what the ruleset reads (``read_text``)
# once the choice is whole, and what a player may type instead ("BL TR S").
STEP_SEPARATOR = " "
MAX_STEPS = 3  # selects one choice may take on a panel (one row stays for its quick picks)


def unit_field(family: str, unit: str) -> str:
    """The field a per-unit family takes for one unit: ``unit_field("program", "P3")``."""
    return f"{family}{UNIT_SEPARATOR}{unit}"


def family_of(field: str) -> str:
    """The family a field belongs to: itself for a plain field, ``program`` for
    ``program:P3``. A unit id may hold the separator too: the family is what precedes the
    first one, so a field name always parses back the same way."""
    return field.partition(UNIT_SEPARATOR)[0]


def unit_of(field: str) -> str:
    """The unit a per-unit field names ("" for a plain field)."""
    return field.partition(UNIT_SEPARATOR)[2]


class Decision(_Model):
    """One field one side must fill this round.

    ``menu`` and ``confirm``: ``options`` are the legal options, the only valid ids (a
    confirm has two, yes first). ``text``: any text ``Rules.read_text`` accepts is valid;
    ``options`` are a few quick picks (each a text it accepts), and ``default`` too.
    ``steps``: any text ``Rules.read_text`` accepts is valid, as for a text, and the
    choice may also be built a step at a time (``Rules.next_step``), in at most ``steps``
    steps; ``options`` are quick picks of whole choices.
    ``label``: the unit a per-unit field is about, in public words ("Albert Ball ·
    Nieuport 17"), shown instead of the family's name.
    """

    side: str
    field: str
    options: tuple[Option, ...]
    excluded: tuple[Excluded, ...] = ()
    default: str
    input: InputKind = "menu"
    label: str = ""
    steps: int = Field(default=0, ge=0, le=MAX_STEPS)  # a ``steps`` decision's most steps

    @property
    def written(self) -> bool:
        """Whether any text the ruleset reads is a value (a text, or a choice built in
        steps, which may be typed whole as well): its Write button opens a modal."""
        return self.input in ("text", "steps")

    def allows(self, option_id: str) -> bool:
        """Whether ``option_id`` is one of the listed options (for a text decision, one of
        its quick picks: ``Rules.accept`` says whether any value is valid)."""
        return any(option.id == option_id for option in self.options)


@dataclass(frozen=True)
class Step:
    """The next step of a choice built in steps: the options legal after the picks made
    (at most 25, labelled in the ruleset's words; the presenter words them per language),
    and those left out with their reason, as a menu's."""

    options: tuple[Option, ...]
    excluded: tuple[Excluded, ...] = ()

    def allows(self, option_id: str) -> bool:
        return any(option.id == option_id for option in self.options)


def join_steps(picks: Sequence[str]) -> str:
    """The text a list of step picks makes, as a player would type it."""
    return STEP_SEPARATOR.join(picks)


@dataclass(frozen=True)
class Refusal:
    """Why a value or a text is refused: a reason key (``service.reason.<reason>``, worded
    by the shared code) and the parameters its words take."""

    reason: str
    params: Mapping[str, str | int] = dataclass_field(default_factory=dict)


class Event(_Model):
    """Something that happened, in the game's words, with the data to replay and explain it.

    ``sight`` labels this one event (else its ruleset's ``event_sights`` label its kind, and
    a kind with no label is secret); ``owner`` is the side whose secret it is. Neither is
    part of what the event says happened, so neither is written out with it.
    """

    kind: str
    turn: int
    data: dict[str, Any] = Field(default_factory=dict)
    sight: Sight | None = Field(default=None, exclude=True)
    owner: str | None = Field(default=None, exclude=True)


@dataclass(frozen=True)
class LogDetail:
    """What the log tells of one event beyond the event itself (a strike fought duel by
    duel: what no image has room for). ``events`` go right after the first of the round's
    events of kind ``under`` whose data holds ``key: value``, or after the round's last
    event when none does. The service writes them as its own events: verify, which replays
    the engine's events, is not asked to make them again."""

    under: str
    key: str
    value: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class RulesCheck:
    """A finished campaign checked against its game's rules from its export alone
    (``verify --rules``): how many checks passed and each violation as one line citing its
    rule, or why the file cannot be checked at all."""

    passed: int = 0
    problems: tuple[str, ...] = ()
    refused: str | None = None


@dataclass(frozen=True)
class SideSpec:
    """A side of the table: its id (stored in the database), names and colour."""

    id: str
    names: Mapping[str, str]  # locale -> name
    colour: str  # "#rrggbb", the colour images use for this side

    def name(self, locale: str) -> str:
        return self.names.get(locale) or self.names.get("en") or self.id


@dataclass(frozen=True)
class RoundSpec:
    """A kind of round; ``closes_turn`` marks the one whose resolution ends a turn.

    An ``optional`` round exists only in the turns whose state asks for it (``progress``
    names it as the next round, in the same turn): someone has something to decide there.
    A closing round followed by one leaves the closing to it; in every other turn nothing
    changes (no round, no message).

    A ``public`` round has nothing secret (a move made in the open, a dice roll asked for):
    no salt, no receipt, no reveal; a side's submission is final when made, the round
    resolves once every asked side has submitted, and the channel gets one short line.

    A ``reaction`` round waits on the sides ``pending`` asks (the one player who may react,
    an Ambush) with a deadline of its own, ``reaction_seconds`` (or the campaign's, if
    shorter); the other sides are neither asked nor pinged.
    """

    kind: str
    closes_turn: bool = False
    optional: bool = False
    public: bool = False
    reaction: bool = False
    reaction_seconds: int = 0


Opens = Literal["reveal", "turn-end", "campaign-end"]


@dataclass(frozen=True)
class FieldSpec:
    """A decision field and when its locked value becomes public.

    ``reveal``: with the round's reveal. ``turn-end``: only once the round that closes the
    turn is resolved (a carrier doctrine, committed with the orders but flown later).
    ``campaign-end``: when the campaign is over (a purchase, a flak gunner's order); the
    receipts of a round holding such a field open then, since one receipt commits to the
    round's whole choice. A field a ruleset does not declare opens at the campaign's end.

    ``per_unit``: ``name`` is a family, whose fields are one per unit in play
    (``program:P3``, ``unit_field``); every rule for the family holds for each of them.
    """

    name: str
    round: str
    opens: Opens = "reveal"
    per_unit: bool = False


@dataclass(frozen=True)
class ScenarioSpec:
    key: str
    name: str
    turns: int
    # False for a scenario kept only for the campaigns created with it before it moved (a
    # Dambuster raid began as a Wings scenario): it plays on, and is no longer offered.
    offered: bool = True


@dataclass(frozen=True)
class SwitchSpec:
    """A setting a GM may give a campaign as he creates it, instead of writing a scenario
    (seed 002 K.1's "enabled optional rules"): its name, the values it takes and the value
    the scenario gives it."""

    name: str
    values: tuple[str, ...]
    default: str


@dataclass(frozen=True)
class Progress:
    """Where a campaign stands, in the terms the application understands."""

    turn: int
    round: str
    finished: bool
    winner: str | None  # a side id, "draw", or None while it goes on
    vp: Mapping[str, int]

    @classmethod
    def of(cls, state: Any, round: str, vp: Mapping[str, int]) -> Progress:
        """The progress of a state that keeps its own ``turn``, ``finished`` and ``winner``."""
        return cls(
            turn=state.turn, round=round, finished=state.finished, winner=state.winner, vp=vp
        )


class View(Protocol):
    """What one viewer may see of a state; a ruleset's own view model satisfies this."""

    @property
    def turn(self) -> int: ...

    @property
    def finished(self) -> bool: ...


StateT = TypeVar("StateT")
ViewT = TypeVar("ViewT", bound=View)
ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class Stored:
    """A state as the store keeps it: the current position, and its history as records.

    ``current`` is the state with its history left out, so a round's snapshot does not grow
    with the campaign; ``records`` are the history entries from the ``since`` the caller
    asked for (older ones are already stored), each one JSON text; ``length`` is how many
    entries the whole history holds.
    """

    current: str
    records: tuple[str, ...]
    length: int


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model an attribute holds, looking through ``Model | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    models = [arg for arg in get_args(annotation) if isinstance(arg, type)]
    models = [arg for arg in models if issubclass(arg, BaseModel)]
    return models[0] if len(models) == 1 else None


class HistorySplit(Generic[ModelT]):
    """Cuts a pydantic state's history (a tuple field, possibly nested) out of its snapshot.

    ``path`` names the attributes from the state down to the tuple, e.g. ``("history",)`` or
    ``("campaign", "history")``. The records stay whatever JSON the ruleset's record model
    writes, so fields added to a record flow through storage untouched.
    """

    def __init__(self, model: type[ModelT], path: tuple[str, ...]) -> None:
        self._model = model
        self._path = path
        owner: type[BaseModel] = model
        for name in path[:-1]:
            inner = _model_of(owner.model_fields[name].annotation)
            assert inner is not None, name
            owner = inner
        annotation = owner.model_fields[path[-1]].annotation
        assert annotation is not None, path
        (item, _ellipsis) = get_args(annotation)  # tuple[Record, ...]
        self._item: TypeAdapter[Any] = TypeAdapter(item)
        self._items: TypeAdapter[Any] = TypeAdapter(annotation)

    def _history(self, state: BaseModel) -> tuple[Any, ...]:
        node: Any = state
        for name in self._path:
            node = getattr(node, name)
            if node is None:  # an optional part that is absent holds no history
                return ()
        return tuple(node)

    def _with(self, node: BaseModel, path: tuple[str, ...], history: tuple[Any, ...]) -> Any:
        head, rest = path[0], path[1:]
        if rest and getattr(node, head) is None:
            assert not history, path  # records cannot belong to an absent part
            return node
        value = history if not rest else self._with(getattr(node, head), rest, history)
        return node.model_copy(update={head: value})

    def dump(self, state: ModelT, since: int = 0) -> Stored:
        history = self._history(state)
        bare = self._with(state, self._path, ())
        records = tuple(self._item.dump_json(item).decode() for item in history[since:])
        return Stored(bare.model_dump_json(), records, len(history))

    def load(self, current: str, records: Sequence[str]) -> ModelT:
        return self.onto(self._model.model_validate_json(current), records)

    def onto(self, bare: ModelT, records: Sequence[str]) -> ModelT:
        """``bare`` (a snapshot's state parsed without its history) with its history
        ``records``; ``bare`` itself is left as it is and shared (states are frozen)."""
        if not records:
            return bare
        history = self._items.validate_json("[" + ",".join(records) + "]")
        result: ModelT = self._with(bare, self._path, tuple(history))
        return result


class StoredInRows(Generic[ModelT]):
    """Storage for a pydantic state whose history lives in append-only rows beside its
    snapshot (issue 13). Mixed in before ``Rules``, it writes ``load``, ``dump``,
    ``dump_stored`` and ``load_stored`` from the ruleset's ``stored`` split."""

    stored: HistorySplit[ModelT]

    def load(self, text: str) -> ModelT:
        return self.stored.load(text, ())

    def dump(self, state: ModelT) -> str:
        return state.model_dump_json()

    def dump_stored(self, state: ModelT, since: int = 0) -> Stored:
        return self.stored.dump(state, since)

    def load_stored(self, current: str, records: Sequence[str]) -> ModelT:
        return self.stored.load(current, records)

    def load_records(self, bare: ModelT, records: Sequence[str]) -> ModelT:
        return self.stored.onto(bare, records)


# A ``map`` over work that may run in other processes: the function and every item must
# pickle, and the results come back in the items' order.
Spread = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]


@dataclass(frozen=True)
class TargetOdds:
    """Expected boxes ticked on one damage track over the coming turn."""

    place: str  # the track's place key
    name: str  # the place's name in the game's data
    side: str  # who owns the place (the other side scores its boxes)
    boxes: float  # mean boxes ticked this turn, over the samples
    hit: float  # share of the samples in which at least one box was ticked


@dataclass(frozen=True)
class Odds:
    """A Monte Carlo preview of the coming turn for one side, from what it may know.

    ``win``/``draw``/``loss`` count the samples in which that side ticked more, as many,
    or fewer boxes on the other side's tracks than the other side ticked on its own.
    ``sampled`` names the asking side's own fields that were still unpicked (so drawn at
    random, like every choice of the other side).
    """

    side: str
    samples: int
    win: int
    draw: int
    loss: int
    targets: tuple[TargetOdds, ...]
    sampled: tuple[str, ...] = ()


@dataclass(frozen=True)
class Held:
    """What a game's parsed states and results take in memory, so the application's caches
    can charge each entry what it holds (issue 29). A state: bytes per character of the
    stored text it was parsed from (its snapshot and the history records read). A result,
    ``(fixed, per_char)``: fixed bytes plus bytes per character of its state's snapshot;
    ``pending`` the round's decisions, ``view`` a side's view, ``public_view`` the
    public's. Each is what the object holds once its state is gone (a view that shares a
    turn's records with its state keeps them then), measured per game with tracemalloc
    and object walks (``bench/caches.py``, ``tests/test_held_bytes.py``).
    The defaults: Coral Sea and Midway states of turns 0 to 6 measured in an earlier pass."""

    state: float = 9.0
    pending: tuple[int, float] = (12 * 1024, 4.0)
    view: tuple[int, float] = (8 * 1024, 11.0)
    public_view: tuple[int, float] = (8 * 1024, 11.0)

    def result(self, part: str, snapshot_chars: int) -> int:
        """Bytes of a result: ``part`` is "pending" (or "pending:<side>", one side's of it,
        charged as the whole round's), "view:public" or a side's view."""
        if part == "pending" or part.startswith("pending:"):
            fixed, per_char = self.pending
        elif part == "view:public":
            fixed, per_char = self.public_view
        else:
            fixed, per_char = self.view
        return int(fixed + per_char * snapshot_chars)


class Rules(ABC, Generic[StateT, ViewT]):
    """A game system's rules behind the one interface the application calls."""

    key: str
    sides: tuple[SideSpec, ...]
    rounds: tuple[RoundSpec, ...]
    fields: tuple[FieldSpec, ...]
    # Bumped whenever a change to the rules or their data alters what a given seed and
    # choices produce: a campaign records the version it was created under, and verify only
    # replays campaigns of the version this release plays.
    version: str = "1"
    # What its states and results hold in memory (the service's caches charge by it).
    held: Held = Held()

    # -- set-up
    @abstractmethod
    def scenarios(self) -> Mapping[str, ScenarioSpec]: ...

    @abstractmethod
    def new(self, scenario: str, seed: str) -> StateT: ...

    def opening(self, state: StateT) -> list[Event]:
        """The public events ``new`` played while setting the table (a first briefing's
        weather, say), logged with the campaign's creation; most rulesets have none."""
        return []

    # -- optional: switches a GM may set at creation. A ruleset without any declares none,
    # and the application refuses every switch for it.
    def switches(self, scenario: str) -> Sequence[SwitchSpec]:
        """The switches a campaign of ``scenario`` may be created with."""
        return ()

    def new_switched(self, scenario: str, seed: str, switches: Mapping[str, str]) -> StateT:
        """``new`` with the GM's switches (names and values already checked against
        ``switches``); with none it must give exactly what ``new`` gives."""
        if switches:
            raise ValueError(f"{self.key} declares no switches")
        return self.new(scenario, seed)

    # -- play
    @abstractmethod
    def pending(self, state: StateT) -> list[Decision]:
        """Who must decide what now, with the legal options and why the others are left out."""

    def side_pending(self, state: StateT, side: str) -> list[Decision]:
        """``pending``'s decisions of ``side`` alone, in their order: what that side's panel,
        drafts and Lock read. By default the whole round's, filtered; a game whose decisions
        cost much to work out (Wings: each plane's legal programs, quick picks and seals)
        works out only that side's. Always equal to the filtered whole
        (``tests/test_side_pending.py``)."""
        return [d for d in self.pending(state) if d.side == side]

    @abstractmethod
    def resolve(
        self, state: StateT, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[StateT, list[Event]]:
        """Apply one round of locked choices; all randomness comes from ``rng``."""

    def view(self, state: StateT, viewer: str | Eyes | None) -> ViewT:
        """What ``viewer`` may see of ``state``: a side's id, ``None`` for the public, or
        ``Eyes`` (the GM). The gate keeps what the state's labels allow; the ruleset's
        ``project`` builds its view from that alone. Not to be overridden."""
        eyes = viewer if isinstance(viewer, Eyes) else Eyes(side=viewer)
        kept = self.seen(state, eyes)
        return self.project(kept, eyes)

    def seen(self, state: StateT, eyes: Eyes) -> Any:
        """What the gate keeps of ``state`` for ``eyes`` (``engine.sight.keep``)."""
        assert isinstance(state, BaseModel), "a ruleset's state is a labelled pydantic model"
        finished = self.progress(state).finished
        return sight.keep(state, eyes, finished=finished, derived=self.derived())

    def derived(self) -> Sequence[Derived]:
        """Facts worked out from the state for its views, each labelled (``Derived``)."""
        return ()

    @abstractmethod
    def project(self, kept: Any, eyes: Eyes) -> ViewT:
        """The ruleset's view model, built from what the gate kept for ``eyes`` only."""

    # Labels of the events by kind (``engine.sight``); an event may carry its own instead.
    # A kind labelled nowhere is secret: kept sealed until the campaign ends.
    event_sights: Mapping[str, Sight] = sight.kinds()

    def event_sight(self, event: Event) -> Sight:
        return sight.event_sight(event.sight, event.kind, self.event_sights)

    def public_events(self, events: Sequence[Event]) -> list[Event]:
        """The events anyone may read as they happen."""
        return [e for e in events if self.event_sight(e).public]

    @abstractmethod
    def progress(self, state: StateT) -> Progress: ...

    # -- storage
    @abstractmethod
    def load(self, text: str) -> StateT: ...

    @abstractmethod
    def dump(self, state: StateT) -> str: ...

    # A ruleset whose state keeps a history overrides these two (``HistorySplit`` does it
    # for a pydantic state), so each round stores its new records only; by default the whole
    # state is the snapshot and there are no records.
    def dump_stored(self, state: StateT, since: int = 0) -> Stored:
        """The state cut for storage, with the history records from index ``since`` on."""
        return Stored(self.dump(state), (), 0)

    def load_stored(self, current: str, records: Sequence[str]) -> StateT:
        """The whole state back from a snapshot and every one of its history records."""
        return self.load(current)

    def load_records(self, bare: StateT, records: Sequence[str]) -> StateT:
        """``load_stored(current, records)`` for a state already read from ``current``
        alone (``bare``, ``load_stored(current, ())``): the snapshot is not parsed again
        when its history is read on top of it (the service keeps both)."""
        return self.load_stored(self.dump_stored(bare).current, records)

    def resolves_from_snapshot(self, state: StateT) -> bool:
        """Whether ``resolve`` plays ``state`` alike with its history left out
        (``load_stored(current, ())``): the same events, and the same new state once the
        records it adds are put after the stored ones. A campaign's history grows with
        every round; a resolution that never reads it costs the same at round 20 as at
        round 1. False, the safe answer, makes the application load the history first.
        ``tests/test_resolve_from_snapshot.py`` replays every recorded game both ways.

        ``log_detail(new_state, turn)`` must then also find what it tells among the
        records that resolution added (a turn's strikes are recorded when its closing
        round resolves)."""
        return False

    def view_records(self, state: StateT) -> int | None:
        """How many of the latest history records a view of ``state`` needs, None for all.

        A campaign's views (panels, the board, a turn's reports and summary, running or
        finished) read at most the record of the turn just played. The after-action report
        reads them all: it is not such a view, the bot draws it from the whole state, off
        its event loop (``bot.drawing.after_action``). Loading the few a view needs keeps a
        late round's views, and the last round's, as cheap as an early one's. None, the
        safe answer, loads the whole history.
        ``tests/test_view_records.py`` draws every recorded game's views both ways."""
        return None

    def side_view_records(self, state: StateT) -> int | None:
        """``view_records`` for a side's view (its order panel, its board), which may read
        fewer records than the public's: a game whose turn reports are drawn from the
        public view says 0 here while it runs, and a side's drafts, Locks and panels then
        parse no record at all, only the snapshot. By default as many as any view needs.
        ``tests/test_view_records.py`` compares every recorded game's side views both ways."""
        return self.view_records(state)

    # -- optional: the odds preview (issue 13). A ruleset without one shows no button.
    def odds(
        self,
        state: StateT,
        side: str,
        picks: Mapping[str, str],
        hidden: Sequence[str],
        *,
        samples: int,
        seed: str,
        spread: Spread | None = None,
        parts: int = 1,
    ) -> Odds | None:
        """Simulate the coming turn ``samples`` times for ``side``, or None if unsupported.

        ``spread``, a ``map`` that may run elsewhere (a process pool), may be handed up to
        ``parts`` pieces of the work; the figures must not depend on it.

        ``picks`` are that side's own drafts of the open round; ``hidden`` names the fields
        whose values the other side has not seen yet (the application's secrecy gate says
        which), so any such value the state holds for the other side must be replaced by a
        draw. ``seed`` must be built from public data only: never the campaign's seed.
        """
        return None

    # -- optional: what the log tells of a turn beyond its events (issue 16: the images cut
    # long lists and send the reader to the log). A ruleset with nothing more to tell has
    # none.
    def log_detail(self, state: StateT, turn: int) -> Sequence[LogDetail]:
        """What the log tells of ``turn`` once it is over (its last round resolved: what it
        tells then goes public), each under the event it belongs to."""
        return ()

    # -- optional: a check of a finished campaign against the rules, written from the rules
    # text rather than from these rules (so a bug here is not copied into its check).
    def rules_check(self, export: Mapping[str, Any]) -> RulesCheck | None:
        """``export`` (``docs/export-format.md``) checked against the game's rules, or None
        when the game has no such check."""
        return None

    # -- optional: the game's own dice, rolled on request for what is played at the table
    # (``/roll``), logged and replayed by verify like every other draw. A ruleset without
    # dice of its own returns None, and the application offers no such command for it.
    def roll_dice(self, count: int, stream: random.Random) -> tuple[str, ...] | None:
        """``count`` of the game's dice from ``stream``, each face a word of the log's word
        table (``log.value.<face>``), or None when the game has no dice of its own."""
        return None

    # -- optional: a scripted commander for the offline demo (``python -m bot demo``)
    def demo_choice(
        self, view: ViewT, decisions: Sequence[Decision], pick: random.Random
    ) -> Mapping[str, Sequence[str]] | None:
        """For each field, values in the order a scripted commander of this game prefers
        them, from its side's view and decisions; the demo drafts the first one accepted
        (the field's default failing all). None: a random offered option for each field."""
        return None

    @property
    def supports_odds(self) -> bool:
        return type(self).odds is not Rules.odds

    # -- derived, the same for every ruleset
    @property
    def side_ids(self) -> tuple[str, ...]:
        return tuple(side.id for side in self.sides)

    def side(self, side_id: str) -> SideSpec:
        for spec in self.sides:
            if spec.id == side_id:
                return spec
        raise KeyError(side_id)

    def closes_turn(self, kind: str) -> bool:
        return any(r.kind == kind and r.closes_turn for r in self.rounds)

    def optional_round(self, kind: str) -> bool:
        return any(r.kind == kind and r.optional for r in self.rounds)

    def ends_turn(self, kind: str, turn: int, after: Progress) -> bool:
        """Whether resolving a round of ``kind`` in ``turn``, the game then standing at
        ``after``, ended the turn: a closing round does unless an optional round of the
        same turn follows it."""
        if not self.closes_turn(kind):
            return False
        goes_on = after.turn == turn and self.optional_round(after.round)
        return after.finished or not goes_on

    @property
    def first_round(self) -> str:
        return self.rounds[0].kind

    def field_order(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def field_spec(self, name: str) -> FieldSpec | None:
        """The declaration of field ``name``; a per-unit field (``program:P3``) answers with
        its family's."""
        found = next((f for f in self.fields if f.name == name), None)
        if found is not None or UNIT_SEPARATOR not in name:
            return found
        family = family_of(name)
        return next((f for f in self.fields if f.name == family and f.per_unit), None)

    def round_spec(self, kind: str) -> RoundSpec | None:
        return next((r for r in self.rounds if r.kind == kind), None)

    def public_round(self, kind: str) -> bool:
        spec = self.round_spec(kind)
        return spec is not None and spec.public

    # -- inputs (docs/rulesets.md, "Inputs")
    def read_text(self, state: StateT, decision: Decision, text: str) -> str | Refusal:
        """The value a text written for ``decision`` stands for, or why it is refused.

        Called for a ``text`` decision with what a player typed and, at Lock and at the
        round's end, with the value it returned (which must come back unchanged): the value
        is what is stored, locked and opened. By default a text names one of the options,
        by id or by label, in any case; a choice built in steps is its picks, each one
        offered by its step (``walk_steps``).
        """
        if decision.input == "steps":
            picks = tuple(text.split())
            refusal = self.walk_steps(state, decision, picks)
            if refusal is not None:
                return refusal
            if self.next_step(state, decision, picks) is not None:
                return Refusal("steps-incomplete", {"count": len(picks) + 1})
            return join_steps(picks)
        wanted = " ".join(text.split()).casefold()
        for option in decision.options:
            if wanted in (option.id.casefold(), " ".join(option.label.split()).casefold()):
                return option.id
        for excluded in decision.excluded:
            if wanted in (excluded.id.casefold(), excluded.label.casefold()):
                return Refusal(excluded.reason)
        return Refusal("unknown-option")

    def text_of(self, state: StateT, decision: Decision, value: str) -> str:
        """A stored value of a ``text`` decision as its own side writes it (a sealed value
        back to the text it seals): shown on that side's panel and in its modal only."""
        return value

    def accept(self, state: StateT, decision: Decision, value: str) -> Refusal | None:
        """None when ``value`` may be stored for ``decision`` now, else why not: an option
        of a menu or confirm, a value ``read_text`` gives back unchanged for a text."""
        if decision.written:
            read = self.read_text(state, decision, value)
            if isinstance(read, Refusal):
                return read
            return None if read == value else Refusal("unknown-option")
        if decision.allows(value):
            return None
        return Refusal(
            next((e.reason for e in decision.excluded if e.id == value), "unknown-option")
        )

    def next_step(self, state: StateT, decision: Decision, picks: tuple[str, ...]) -> Step | None:
        """The menu of the step after ``picks`` of a ``steps`` decision (the first step's
        for none), or None once ``picks`` make a whole choice. Each step offers only what
        the picks before it allow, so the choice built is legal as it is made; a step with
        no option left says the picks before it lead nowhere (the player goes back). The
        default: a choice with no step to it, whole at once (a ruleset that asks for steps
        implements it)."""
        return None

    def walk_steps(self, state: StateT, decision: Decision, picks: Sequence[str]) -> Refusal | None:
        """None when each of ``picks`` is offered by its step (whole or not yet), else why
        not: the first pick refused, with its step's reason, its text and position."""
        for position, pick in enumerate(picks, start=1):
            step = self.next_step(state, decision, tuple(picks[: position - 1]))
            where: dict[str, str | int] = {"at": pick, "position": position}
            if step is None or position > max(decision.steps, 1):
                return Refusal("steps-too-many", {**where, "count": position - 1})
            if not step.allows(pick):
                reason = next((e.reason for e in step.excluded if e.id == pick), "unknown-option")
                return Refusal(reason, where)
        return None

    def steps_of(self, state: StateT, decision: Decision, value: str) -> tuple[str, ...]:
        """The picks a stored value of a ``steps`` decision was built of, as its side's
        panel shows them in its selects; none when the value was written otherwise than
        in steps (a Wings complex maneuver): its selects then start empty."""
        picks = tuple(self.text_of(state, decision, value).split())
        if self.walk_steps(state, decision, picks) is not None:
            return ()
        return picks if self.next_step(state, decision, picks) is None else ()

    def check_choice(self, state: StateT, side: str, choice: Mapping[str, str]) -> Refusal | None:
        """None when ``side`` may lock ``choice`` (every field it is asked this round, each
        already accepted on its own), else why not: what no single field can judge alone (a
        card that needs the plane another field leaves idle). Asked when the side locks; a
        refusal refuses the Lock and changes nothing. The default takes every choice."""
        return None

    def defaults(self, decisions: Sequence[Decision]) -> dict[str, dict[str, str]]:
        """The choice each side gets for a field it did not fill before the deadline."""
        result: dict[str, dict[str, str]] = {}
        for decision in decisions:
            result.setdefault(decision.side, {})[decision.field] = decision.default
        return result

    def drawn(
        self, decisions: Sequence[Decision], pick: random.Random
    ) -> dict[str, dict[str, str]]:
        """An offered option for each field drawn from ``pick``, one draw a decision in their
        order: how the offline sweeps, benchmarks and tests play a campaign through."""
        result: dict[str, dict[str, str]] = {}
        for decision in decisions:
            result.setdefault(decision.side, {})[decision.field] = pick.choice(decision.options).id
        return result
