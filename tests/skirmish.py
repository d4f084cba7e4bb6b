"""A small test game that asks for every input kind the seam knows (``engine.ruleset``).

Blue's two units and Red's one each write a path of hexes ("C4 D4", any case and any
separator) in a secret ``orders`` round (a per-unit ``move`` family), two of a side never
ending on one hex (a whole-choice check at Lock); Red also says whether it digs in (a
yes/no). Then Blue rolls its dice in the open (a ``public`` round: asked a
number of dice from a menu). When a Blue unit ends next to Red's, Red may spring an ambush
(an optional ``reaction`` round with a short deadline, asked of Red alone). Three turns.
On the ridge (scenario ``ridge``), Red's guns also fire a secret barrage of three salvoes,
chosen salvo by salvo (a choice built in steps): high explosive never twice running (the
barrels cool), one smoke shell a turn.

Registered only by tests (``register``), under the key ``skirmish``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from PIL import Image
from pydantic import BaseModel, ConfigDict

from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    Excluded,
    FieldSpec,
    Option,
    Progress,
    Refusal,
    RoundSpec,
    Rules,
    ScenarioSpec,
    SideSpec,
    Step,
    unit_field,
    unit_of,
)
from engine.sight import Eyes, Public, Sealed
from rendering.presenter import NO_DRAFTS, Presenter, Report, RevealLine, TurnTold

KEY = "skirmish"
HEX = re.compile(r"[A-I][1-9]")
REACTION_SECONDS = 600
UNITS = {"B1": "blue", "B2": "blue", "R1": "red"}
NAMES = {"B1": "Sherman · C4", "B2": "Stuart · C5", "R1": "Tiger · E5"}
SALVOES = {"he": "High explosive", "smoke": "Smoke", "rest": "Hold fire"}
BARRAGE_STEPS = 3
BARRAGE_PICKS = ("he rest he", "smoke he rest", "rest rest rest")


class SkirmishState(BaseModel):
    model_config = ConfigDict(frozen=True)

    turn: Public[int] = 1
    round: Public[str] = "orders"
    at: Public[dict[str, str]] = {"B1": "C4", "B2": "C5", "R1": "E5"}
    dug_in: Sealed[bool] = False  # Red's secret; no view shows it
    scenario: Public[str] = "hill"
    barrage: Sealed[str] = ""  # Red's last barrage, on the ridge
    rolled: Public[tuple[int, ...]] = ()

    @property
    def finished(self) -> bool:
        return self.turn > 3


class SkirmishView(BaseModel):
    model_config = ConfigDict(frozen=True)

    turn: int
    finished: bool
    at: dict[str, str]


def _adjacent(a: str, b: str) -> bool:
    return abs(ord(a[0]) - ord(b[0])) <= 1 and abs(int(a[1]) - int(b[1])) <= 1 and a != b


class SkirmishRules(Rules[SkirmishState, SkirmishView]):
    key = KEY
    sides = (
        SideSpec("blue", {"en": "Blue", "fr": "Bleus"}, "#2e6db4"),
        SideSpec("red", {"en": "Red", "fr": "Rouges"}, "#b42e2e"),
    )
    rounds = (
        RoundSpec("orders"),
        RoundSpec("dice", closes_turn=True, public=True),
        RoundSpec(
            "ambush",
            closes_turn=True,
            optional=True,
            reaction=True,
            reaction_seconds=REACTION_SECONDS,
        ),
    )
    fields = (
        FieldSpec("move", "orders", opens="reveal", per_unit=True),
        FieldSpec("dig", "orders", opens="turn-end"),
        FieldSpec("barrage", "orders", opens="turn-end"),
        FieldSpec("dice", "dice"),
        FieldSpec("ambush", "ambush"),
    )

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        return {
            "hill": ScenarioSpec("hill", "Hill 112", 3),
            "ridge": ScenarioSpec("ridge", "Ridge 310", 3),
        }

    def new(self, scenario: str, seed: str) -> SkirmishState:
        return SkirmishState(scenario=scenario)

    def pending(self, state: SkirmishState) -> list[Decision]:
        if state.finished:
            return []
        if state.round == "orders":
            moves = [
                Decision(
                    side=side,
                    field=unit_field("move", unit),
                    input="text",
                    label=NAMES[unit],
                    options=(Option(id=state.at[unit], label=state.at[unit]),),
                    default=state.at[unit],
                )
                for unit, side in UNITS.items()
            ]
            dig = Decision(
                side="red",
                field="dig",
                input="confirm",
                options=(Option(id="yes", label="Dig in"), Option(id="no", label="Stay mobile")),
                default="no",
            )
            if state.scenario != "ridge":
                return [*moves, dig]
            barrage = Decision(
                side="red",
                field="barrage",
                input="steps",
                steps=BARRAGE_STEPS,
                options=tuple(Option(id=p, label=p) for p in BARRAGE_PICKS),
                default="rest rest rest",
            )
            return [*moves, dig, barrage]
        if state.round == "dice":
            dice = tuple(Option(id=str(n), label=f"{n} dice") for n in (1, 2, 3))
            return [Decision(side="blue", field="dice", options=dice, default="1")]
        return [
            Decision(
                side="red",
                field="ambush",
                input="confirm",
                options=(Option(id="yes", label="Ambush"), Option(id="no", label="Hold fire")),
                default="no",
            )
        ]

    def read_text(self, state: SkirmishState, decision: Decision, text: str) -> str | Refusal:
        if decision.input != "text":
            return super().read_text(state, decision, text)
        tokens = [t for t in re.split(r"[\s,;/-]+", text.upper()) if t]
        if not tokens:
            return Refusal("empty-path")
        for position, token in enumerate(tokens, start=1):
            if not HEX.fullmatch(token):
                return Refusal("bad-hex", {"at": token, "position": position})
        if len(tokens) > 3:
            return Refusal("too-far", {"at": tokens[3], "position": 4})
        return " ".join(tokens)

    def next_step(
        self, state: SkirmishState, decision: Decision, picks: tuple[str, ...]
    ) -> Step | None:
        if decision.field != "barrage" or len(picks) >= BARRAGE_STEPS:
            return None
        options, excluded = [], []
        for salvo, label in SALVOES.items():
            if salvo == "he" and picks[-1:] == ("he",):
                excluded.append(Excluded(id=salvo, label=label, reason="barrels-hot"))
            elif salvo == "smoke" and "smoke" in picks:
                excluded.append(Excluded(id=salvo, label=label, reason="smoke-once"))
            else:
                options.append(Option(id=salvo, label=label))
        return Step(options=tuple(options), excluded=tuple(excluded))

    def check_choice(
        self, state: SkirmishState, side: str, choice: Mapping[str, str]
    ) -> Refusal | None:
        ends: dict[str, str] = {}
        for field, value in choice.items():
            if not unit_of(field):
                continue
            end = value.split()[-1]
            if end in ends:
                return Refusal("stacked", {"hex": end})
            ends[end] = field
        return None

    def resolve(
        self, state: SkirmishState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[SkirmishState, list[Event]]:
        for decision in self.pending(state):
            value = choices.get(decision.side, {}).get(decision.field)
            if value is None or self.accept(state, decision, value) is not None:
                raise ValueError(f"illegal {decision.field}={value!r}")
        for side, choice in choices.items():
            if self.check_choice(state, side, choice) is not None:
                raise ValueError(f"illegal choice of {side}: {dict(choice)}")
        events: list[Event] = []
        if state.round == "orders":
            at = dict(state.at)
            for unit, side in UNITS.items():
                path = choices[side][unit_field("move", unit)].split()
                at[unit] = path[-1]
                events.append(Event(kind="moved", turn=state.turn, data={"unit": unit}))
            dug = choices["red"]["dig"] == "yes"
            barrage = choices["red"].get("barrage", "")
            update = {"at": at, "dug_in": dug, "round": "dice", "barrage": barrage}
            return state.model_copy(update=update), events
        if state.round == "dice":
            dice = int(choices["blue"]["dice"])
            stream = rng.stream("dice")
            rolled = tuple(stream.randint(1, 6) for _ in range(dice))
            events.append(Event(kind="rolled", turn=state.turn, data={"dice": list(rolled)}))
            near = any(_adjacent(state.at[u], state.at["R1"]) for u in ("B1", "B2"))
            following = "ambush" if near else "orders"
            turn = state.turn if near else state.turn + 1
            return state.model_copy(
                update={"rolled": rolled, "round": following, "turn": turn}
            ), events
        sprung = choices["red"]["ambush"] == "yes"
        events.append(Event(kind="ambush", turn=state.turn, data={"sprung": sprung}))
        return state.model_copy(update={"round": "orders", "turn": state.turn + 1}), events

    def project(self, kept: Any, eyes: Eyes) -> SkirmishView:
        # The gate hands back a dict when it kept part of the state (dug_in is sealed).
        fact = kept.get if isinstance(kept, dict) else lambda key: getattr(kept, key)
        return SkirmishView(turn=fact("turn"), finished=fact("turn") > 3, at=dict(fact("at")))

    def progress(self, state: SkirmishState) -> Progress:
        return Progress(
            turn=min(state.turn, 3),
            round=state.round,
            finished=state.finished,
            winner="draw" if state.finished else None,
            vp={"blue": 0, "red": 0},
        )

    def load(self, text: str) -> SkirmishState:
        return SkirmishState.model_validate_json(text)

    def dump(self, state: SkirmishState) -> str:
        return state.model_dump_json()


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, "PNG")
    return out.getvalue()


class SkirmishPresenter(Presenter[SkirmishView]):
    tells_turns = False

    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: object = None
    ) -> str:
        return value

    def option_description(self, field: str, option: Any, locale: str) -> str:
        return option.detail

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        return [" · ".join(o.label for o in decision.options)]

    def excluded_lines(
        self, scenario: str, decision: Decision, locale: str
    ) -> list[tuple[str, str]]:
        return []

    def panel_notes(
        self, scenario: str, view: Any, side: str, drafts: Mapping[str, str], locale: str
    ) -> tuple[list[str], list[str]]:
        return [], []

    def board_summary(self, view: Any, locale: str) -> str:
        return "the hill"

    def names(self, view: Any) -> Mapping[str, str]:
        return {}

    def campaign_length(self, scenario: str, view: Any, locale: str) -> str | None:
        return None

    def panel_summary(self, view: Any, side: str, locale: str) -> str:
        return "the hill"

    def turn_summary(self, view: Any, turn: int, locale: str) -> list[str]:
        return []

    def status_lines(self, view: Any, locale: str) -> list[str]:
        return []

    def status_board(
        self, view: Any, locked: Mapping[str, bool], deadline: Any, locale: str
    ) -> bytes:
        return _png()

    def panel_image(self, view: Any, locale: str, drafts: Mapping[str, str] = NO_DRAFTS) -> bytes:
        return _png()

    def reveal_image(self, title: str, sides: Sequence[RevealLine], locale: str) -> bytes:
        return _png()

    def after_action(self, scenario: str, view: Any, locale: str) -> bytes:
        return _png()

    def report_count(self, view: Any, turn: int) -> int:
        return 0

    def report(self, scenario: str, view: Any, turn: int, index: int, locale: str) -> Report:
        raise IndexError(index)

    def turn_told(
        self, scenario: str, view: Any, events: Any, turn: int, locale: str
    ) -> TurnTold | None:
        return None

    def after_action_turn(
        self, scenario: str, view: Any, turn: int, locale: str, images: Any
    ) -> list[str]:
        return []


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``skirmish`` a ruleset of every registry built from now on."""
    from bot import rulesets

    factories = {
        **rulesets.FACTORIES,
        KEY: lambda: rulesets.Plugin(SkirmishRules(), SkirmishPresenter()),
    }
    monkeypatch.setattr(rulesets, "FACTORIES", factories)


__all__ = ["KEY", "REACTION_SECONDS", "SkirmishRules", "register", "unit_of"]
