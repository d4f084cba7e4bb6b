"""What a ruleset shows people: its images and the words for its options, boards and reports.

The application composes messages (round message, reveal, DM panel, summaries) the same way
for every ruleset and asks the ruleset's ``Presenter`` for the parts only that game knows.
Presenters receive *views* (what one viewer may see) and already-public facts, never a
state: the secrecy gate decides what reaches them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from engine.ruleset import Decision, Option, View

V = TypeVar("V", bound=View, contravariant=True)

# A side's drafts when it has none yet (an order panel drawn before any pick).
NO_DRAFTS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class RevealLine:
    """One side's revealed choice for the reveal image: (field, option) words and receipt."""

    side: str
    pairs: tuple[tuple[str, str], ...]
    receipt: str


@dataclass(frozen=True)
class Report:
    """A follow-up announcement of a resolution (a ZERO! strike, a Wings mission...)."""

    text: str
    image_name: str | None = None
    image: bytes | None = None


@dataclass(frozen=True)
class TurnTold:
    """A turn shown in the channel as it was played (issue 27): its lines (the orders or
    programs flown and what came of them, in words) and its pictures (name, bytes, alt
    text; a still and an animation, say). Drawn from the public view after the turn and
    the turn's public events only."""

    lines: tuple[str, ...]
    images: tuple[tuple[str, bytes, str], ...] = ()


# A turn's public events as the log keeps them: (kind, data), in the order they happened.
TurnEvents = Sequence[tuple[str, Mapping[str, Any]]]


class Presenter(Protocol[V]):
    """A ruleset's images and words; every method is pure (images are PNG bytes).

    Presenters subclass it: a method with a body here is a default a game may keep.
    """

    # Whether ``turn_told`` shows each turn with the choices it flew (Wings): the reveal of
    # a round that closes a turn would then repeat them, and is not posted (its receipts go
    # with the turn). By default the reveal is posted.
    tells_turns: bool = False

    # -- words
    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: V | None = None
    ) -> str:
        """A chosen option in the reader's words. ``view``: the public view it was chosen
        in, where the caller has one (a reveal, the replay page, the after-action report),
        for an option that names a unit by the engine's id (Wings' flak order over "P4"):
        the words then name it as players know it."""
        ...

    def option_description(self, field: str, option: Option, locale: str) -> str: ...

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]: ...

    def sealed_option(self, field: str, option: Option) -> bool:
        """Whether its owner's menu names ``option`` in its own words (``option_lines``)
        rather than as it reads once opened: a seal ("Flak order 585a660a60" says nothing to
        the gunner's side), a purchase whose menu line carries its price. None by default."""
        return False

    def step_text(self, field: str, option: Option, locale: str) -> str:
        """One option of a step of a choice built in steps (a maneuver card), as its select
        names it in ``locale``. By default the ruleset's label."""
        return option.label

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]: ...

    def panel_notes(
        self, scenario: str, view: V, side: str, drafts: Mapping[str, str], locale: str
    ) -> tuple[list[str], list[str]]:
        """Lines above the decisions (what restricts them) and below (what a pick does)."""
        ...

    def board_summary(self, view: V, locale: str) -> str: ...

    def names(self, view: V) -> Mapping[str, str]:
        """What the game's events name by id, as players know it ("P3" -> "Kurt Wolff"),
        from the public view: ``/log`` reads these names. Empty by default: events that
        name their places and units in words already."""
        return {}

    def panel_summary(self, view: V, side: str, locale: str) -> str: ...

    def turn_summary(self, view: V, turn: int, locale: str) -> list[str]: ...

    def turn_happenings(self, view: V, events: TurnEvents, locale: str) -> list[str]:
        """What a turn did, said before its summary where a line can tell it (planes down,
        balloons burnt), from the public view after it and its public events. None by
        default."""
        return []

    def campaign_length(self, scenario: str, view: V | None, locale: str) -> str | None:
        """How long the campaign is, in the game's own words ("3 missions of up to 9
        turns; mission 1 lasted 6"), from the public view once there is one; None where the
        scenario's turns say it (the campaign card then counts turns): the default."""
        return None

    def status_lines(self, view: V, locale: str) -> list[str]:
        """The text beside the status board (``/status``): where the campaign stands."""
        ...

    # -- images
    def status_board(
        self, view: V, locked: Mapping[str, bool], deadline: str | None, locale: str
    ) -> bytes:
        """The public board. ``locked``: each side the open round waits on and whether it
        has locked; empty where no round waits (a played turn on the replay page), and then
        the board shows no lock at all."""
        ...

    def panel_image(self, view: V, locale: str, drafts: Mapping[str, str] = NO_DRAFTS) -> bytes:
        """A side's order panel picture: its own view and its own drafts of the open round
        (where a game can show a choice before it is locked: Wings' ghost paths). The
        caller hands only that side's drafts; nothing of another side's may reach it."""
        ...

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes: ...

    def after_action(self, scenario: str, view: V, locale: str) -> bytes: ...

    # -- what a resolution that closes a turn posts after the reveal
    def report_count(self, view: V, turn: int) -> int: ...

    def report(self, scenario: str, view: V, turn: int, index: int, locale: str) -> Report: ...

    def turn_told(
        self, scenario: str, view: V, events: TurnEvents, turn: int, locale: str
    ) -> TurnTold | None:
        """The turn just played, shown: what each side did and what came of it, in words and
        pictures, or None where the game tells its turns otherwise (its reports, or the
        plain summary: the default). ``view`` is the public view after the turn; ``events``
        its public events."""
        return None

    def after_action_turn(
        self, scenario: str, view: V, turn: int, locale: str, images: Mapping[str, str]
    ) -> list[str]:
        """Markdown lines for one played turn of the after-action report (reports, score)."""
        ...

    # -- the log: every game's events are said with the shared templates (``bot.logtext``);
    # these say what only this game knows of its own events
    def log_sentence(self, kind: str, data: Mapping[str, Any], locale: str) -> str | None:
        """One of this game's events said its own way (a strike's detail line), or None:
        the shared template says it."""
        return None

    def log_variant(self, kind: str, data: Mapping[str, Any]) -> str | None:
        """Which template says one of this game's events, as the suffix of its key
        (``log.<kind><suffix>``: ``-unaided`` for a plane lost to no named shooter), or None:
        the plain one."""
        return None

    def log_words(self, name: str, value: Any, locale: str, *, opening: bool = False) -> str | None:
        """A value of this game's events as words, named by its data field (``place``,
        ``doctrine``…; ``""`` for a value on its own), or None: the shared words say it.
        ``opening``: the value opens its sentence (a place is then said as its label)."""
        return None
