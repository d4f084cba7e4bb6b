"""The air war on the seam: rounds, fields and how a side's picks become orders.

This is the one module that knows both the engine's orders (``orders``, ``flow``) and the
seam's rounds and fields, so a change to the seam is a change here only.

A Memoir '44 turn is one player's turn at the table, and the sides alternate:

- ``command`` (the side whose turn it is): the Command card it plays, the Air Combat card
  it adds (from its own hand), what its plane does, and what its ground units fire at the
  enemy plane (typed: ``inf, art``);
- ``flight`` (optional, when its plane deploys or is ordered): the path with its tokens
  and how the move ends, typed as one line (``E6 inf, E7 bomb arm, D8 dogfight``), and
  Their Finest Hour's markers;
- ``reaction`` (optional, the other side only, a short deadline): Ambush on a token, an
  Air Combat reaction card. It opens on public facts only (a token placed, a dogfight or
  ground fire declared, the enemy plane ending near one's fighter), never on what the
  asked side holds, so being asked tells nobody anything.

The dice are rolled when the turn's last round resolves (battle.py), from the ``Rng`` the
application hands over; every roll names its own stream, so ``verify`` replays them.

Every value a side can lock has been checked where the seam lets us: menus list only legal
options; typed text is read and checked by ``read_text``; the picks of one round together
by ``check_choice``. Should an illegal combination still reach ``resolve``, it is played
as the table would: the named card is spent with no effect and the plane does nothing, and
the log says why (``m44-refused``), so a revealed card is always a played card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import engine.rulesets.memoir44.board as board
import engine.rulesets.memoir44.dice as dice
import engine.rulesets.memoir44.skirmish as skirmish
import engine.sight as sight
from engine.rng import Rng
from engine.ruleset import (
    Decision,
    Event,
    Excluded,
    FieldSpec,
    HistorySplit,
    Option,
    Progress,
    Refusal,
    RoundSpec,
    Rules,
    ScenarioSpec,
    SideSpec,
    StoredInRows,
    SwitchSpec,
)
from engine.rulesets.memoir44.catalog import PLANE_TYPES, THEATRES, Catalog, default_catalog
from engine.rulesets.memoir44.deck import Refused, play
from engine.rulesets.memoir44.flow import fly, give_command, react
from engine.rulesets.memoir44.orders import (
    ACTIONS,
    VICTORY,
    CommandOrder,
    FlightOrder,
    Reaction,
    check_command,
    check_flight,
    check_reaction,
    flight_text,
    move_allowance,
    parse_flight,
    parse_shots,
)
from engine.rulesets.memoir44.setup import Setup, new_game, opening_hand, table_set
from engine.rulesets.memoir44.state import SIDES, GameState, Shot, other
from engine.rulesets.memoir44.view import DERIVED, AirView, project

KEY = "memoir44"
EVENT_KINDS = (
    "m44-setup",
    "m44-drew",
    "m44-reshuffled",
    "m44-command",
    "m44-card",
    "m44-deployed",
    "m44-flew",
    "m44-ambush",
    "m44-no-reaction",
    "m44-roll",
    "m44-shot-down",
    "m44-forced-off",
    "m44-landed",
    "m44-attack-ended",
    "m44-withdrawn",
    "m44-rearmed",
    "m44-restored",
    "m44-victory",
    "m44-ended",
    "m44-refused",
)
NONE = "none"
REACTION_SECONDS = 6 * 3600  # an Ambush is a quick answer; the campaign's own if shorter
UNITS = ("infantry", "armour", "artillery")  # the Ambusher's dice: 3, 3, 4

SIDE_SPECS = (
    SideSpec("allies", {"en": "Allies", "fr": "Alliés"}, "#0072b2"),
    SideSpec("axis", {"en": "Axis", "fr": "Axe"}, "#d55e00"),
)


ROUNDS = (
    RoundSpec("command", closes_turn=True),
    RoundSpec("flight", closes_turn=True, optional=True),
    RoundSpec(
        "reaction",
        closes_turn=True,
        optional=True,
        reaction=True,
        reaction_seconds=REACTION_SECONDS,
    ),
)
FIELDS = (
    FieldSpec("command", "command"),
    FieldSpec("card", "command"),
    FieldSpec("plane", "command"),
    FieldSpec("fire", "command"),
    FieldSpec("flight", "flight"),
    FieldSpec("markers", "flight"),
    FieldSpec("ambush", "reaction"),
    FieldSpec("reaction", "reaction"),
)

SCENARIOS: dict[str, tuple[str, Setup]] = {
    "western-1944": ("Western Front, 1944", Setup("western", 1944, False, "usa", "germany")),
    "d-day": ("D-Day landings, 1944", Setup("western", 1944, True, "usa", "germany")),
    "eastern-1942": ("Eastern Front, 1942", Setup("eastern", 1942, False, "ussr", "germany")),
    "desert-1941": ("North Africa, 1941", Setup("mediterranean", 1941, False, "britain", "italy")),
    "pacific-1944": ("Pacific island landing, 1944", Setup("pacific", 1944, True, "usa", "japan")),
}
TURN_CAPS = ("20", "30", "40", "60", "80")


def refusal(refused: Refused) -> Refusal:
    params = {k: v if isinstance(v, int) else str(v) for k, v in refused.data.items()}
    return Refusal(f"m44-{refused.reason}", params)


def _menu(
    side: str, field: str, options: Sequence[Option], excluded: Sequence[Excluded] = ()
) -> Decision:
    """A choice among ``options`` that may be left at nothing (the default)."""
    return Decision(
        side=side, field=field, options=tuple(options), excluded=tuple(excluded), default=NONE
    )


class Memoir44Rules(StoredInRows[GameState], Rules[GameState, AirView]):
    stored = HistorySplit(GameState, ("history",))
    key = KEY
    sides = SIDE_SPECS
    rounds = ROUNDS
    fields = FIELDS
    version = "1"

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or default_catalog()

    # ------------------------------------------------------------------ set-up

    def scenarios(self) -> Mapping[str, ScenarioSpec]:
        return {
            key: ScenarioSpec(key, name, setup.turns) for key, (name, setup) in SCENARIOS.items()
        }

    def switches(self, scenario: str) -> Sequence[SwitchSpec]:
        setup = self._setup(scenario)
        nations = self.catalog.side_nations
        return (
            SwitchSpec("theatre", THEATRES, setup.theatre),
            SwitchSpec("year", tuple(str(y) for y in range(1939, 1946)), str(setup.year)),
            SwitchSpec("beach", ("yes", "no"), "yes" if setup.beach else "no"),
            SwitchSpec("allies", nations("allies"), setup.allies),
            SwitchSpec("axis", nations("axis"), setup.axis),
            SwitchSpec("first", SIDES, setup.first),
            SwitchSpec("turns", TURN_CAPS, str(setup.turns)),
        )

    def _setup(self, scenario: str) -> Setup:
        if scenario not in SCENARIOS:
            raise KeyError(f"unknown Memoir '44 scenario {scenario!r}")
        return SCENARIOS[scenario][1]

    def new(self, scenario: str, seed: str) -> GameState:
        return self.new_switched(scenario, seed, {})

    def new_switched(self, scenario: str, seed: str, switches: Mapping[str, str]) -> GameState:
        base = self._setup(scenario)
        setup = Setup(
            theatre=switches.get("theatre", base.theatre),  # type: ignore[arg-type]
            year=int(switches.get("year", base.year)),
            beach=switches.get("beach", "yes" if base.beach else "no") == "yes",
            allies=switches.get("allies", base.allies),
            axis=switches.get("axis", base.axis),
            first=switches.get("first", base.first),  # type: ignore[arg-type]
            turns=int(switches.get("turns", base.turns)),
        )
        state, _events = new_game(self.catalog, setup, Rng(seed, 0, "setup"))
        return state

    def opening(self, state: GameState) -> list[Event]:
        """The table as set: theatre, superiority, trios, hand sizes (never the cards)."""
        events = [table_set(self.catalog, state)]
        for side in SIDES:
            count = opening_hand(self.catalog, side, state.superiority, state.beach)
            events.append(
                Event(
                    kind="m44-drew", turn=0, data={"side": side, "cards": count, "why": "opening"}
                )
            )
        return [for_log(self.catalog, event) for event in events]

    # ------------------------------------------------------------------ what is asked

    def pending(self, state: GameState) -> list[Decision]:
        if state.finished:
            return []
        if state.phase == "command":
            return self._command_decisions(state)
        if state.phase == "flight":
            return self._flight_decisions(state)
        if state.phase == "reaction":
            return self._reaction_decisions(state)
        return []

    def _command_decisions(self, state: GameState) -> list[Decision]:
        side = state.active
        mine = state.side(side)
        commands = tuple(
            Option(id=command.key, label=command.key) for command in self.catalog.commands
        )
        out = [
            Decision(
                side=side,
                field="command",
                options=(*commands, Option(id=VICTORY, label=VICTORY)),
                default="other-tactic",
            )
        ]
        cards: list[Option] = [Option(id=NONE, label=NONE)]
        for key in sorted({c.split("#")[0] for c in mine.hand}):
            cards.append(Option(id=key, label=key))
        out.append(_menu(side, "card", cards))
        allowed: list[Option] = []
        excluded: list[Excluded] = []
        for action in ACTIONS:
            why = self._action_refused(state, action)
            if why is None:
                allowed.append(Option(id=action, label=action))
            elif why != "":
                excluded.append(Excluded(id=action, label=action, reason=f"m44-{why}"))
        out.append(_menu(side, "plane", allowed, excluded))
        enemy = state.side(other(side)).plane
        if enemy is not None:
            picks = (NONE, "inf", "arm", "art") if enemy.status != "carrier" else (NONE, "sunk")
            out.append(
                Decision(
                    side=side,
                    field="fire",
                    input="text",
                    options=tuple(Option(id=p, label=p) for p in picks),
                    default=NONE,
                )
            )
        return out

    def _action_refused(self, state: GameState, action: str) -> str | None:
        """Why ``action`` is out for the side to play, from what the state alone shows;
        "" for an action not worth listing (ordering a plane one does not have)."""
        mine = state.side(state.active)
        if action in ("fly", "withdraw"):
            return None if mine.plane is not None else ""
        if action.startswith("deploy-"):
            kind = action.removeprefix("deploy-")
            if mine.plane is not None:
                return "one-plane-a-side"
            if kind in mine.lost:
                return "type-lost"
            if mine.withdrew:
                return "deploy-after-withdrawal"
        return None

    def _flight_decisions(self, state: GameState) -> list[Decision]:
        plan = state.plan
        assert plan is not None
        picks = self._quick_flights(state)
        out = [
            Decision(
                side=plan.side,
                field="flight",
                input="text",
                options=tuple(Option(id=p, label=p) for p in picks),
                default=picks[0],
            )
        ]
        if self.catalog.command(plan.command).air == "finest-hour":
            markers = tuple(Option(id=str(n), label=str(n)) for n in range(0, 5))
            out.append(Decision(side=plan.side, field="markers", options=markers, default="0"))
        return out

    def _quick_flights(self, state: GameState) -> list[str]:
        """A few legal flights with no token (the typed line says the rest): one step, then
        as far as the plane goes, each toward the enemy's edge first."""
        plan = state.plan
        assert plan is not None
        side = plan.side
        enemy = state.side(other(side)).plane
        blocked = {enemy.hex} if enemy is not None and enemy.status == "airborne" else set()
        forward = 1 if side == "allies" else -1  # the Allies fly toward row A, the Axis edge
        most = move_allowance(self.catalog, plan.effect)

        def ahead(hexlabel: str) -> tuple[int, str]:
            spot = board.parse(hexlabel)
            assert spot is not None
            return (spot[0] * forward, hexlabel)

        starts: list[tuple[str, ...]]
        if plan.action == "deploy":
            sections = self.catalog.command(plan.command).sections
            entries = [h for h in board.every_hex() if board.in_sections(h, side, sections)]
            entries = sorted((h for h in entries if h not in blocked), key=ahead)
            middle = sorted(entries, key=lambda h: (abs(board.parse(h)[0] - 4), ahead(h)))  # type: ignore[index]
            starts = [(h,) for h in middle[:3]]
        else:
            assert state.side(side).plane is not None
            starts = [()]
        found: list[str] = []
        for head in starts:
            here = head[-1] if head else state.side(side).plane.hex  # type: ignore[union-attr]
            seen = {here, *head}
            path = list(head)
            for _ in range(most - len(head)):
                steps = sorted(
                    (h for h in board.neighbours(here) if h not in seen and h not in blocked),
                    key=ahead,
                )
                if not steps:
                    break
                here = steps[0]
                seen.add(here)
                path.append(here)
                if len(path) >= 1 + len(head) or plan.action != "deploy":
                    text = flight_text(FlightOrder(tuple(path)))
                    if self._flight_ok(state, text) and text not in found:
                        found.append(text)
        if not found:
            raise RuntimeError("no legal flight: the board cannot be that full")
        return found[:4]

    def _flight_ok(self, state: GameState, text: str) -> bool:
        return not isinstance(self._read_flight(state, text), Refusal)

    def _reaction_decisions(self, state: GameState) -> list[Decision]:
        plan = state.plan
        assert plan is not None
        side = other(plan.side)
        out: list[Decision] = []
        if plan.tokens:
            options = [Option(id=NONE, label=NONE)]
            for number, token in enumerate(plan.tokens, 1):
                for unit in UNITS:
                    options.append(Option(id=f"{number}-{unit}", label=f"{token.hex} {unit}"))
            out.append(_menu(side, "ambush", options))
        options = [Option(id=NONE, label=NONE)]
        excluded: list[Excluded] = []
        for key in sorted({c.split("#")[0] for c in state.side(side).hand}):
            card = self.catalog.card(key)
            aims = [0] if card.trigger != "token_on_unit" else range(1, len(plan.tokens) + 1)
            why = "reaction-not-now"
            offered = False
            for aim in aims:
                try:
                    check_reaction(self.catalog, state, Reaction(card=key, card_token=aim))
                except Refused as refused:
                    why = refused.reason
                    continue
                offered = True
                option_id = f"{key}@{aim}" if aim else key
                options.append(Option(id=option_id, label=option_id))
            if not offered:
                excluded.append(Excluded(id=key, label=key, reason=f"m44-{why}"))
        out.append(_menu(side, "reaction", options, excluded))
        return out

    # ------------------------------------------------------------------ reading typed text

    def read_text(self, state: GameState, decision: Decision, text: str) -> Any:
        if decision.field == "flight":
            return self._read_flight(state, text)
        if decision.field == "fire":
            return self._read_fire(state, text)
        return Refusal("unknown-option")

    def _plane_kind(self, state: GameState) -> str:
        plan = state.plan
        assert plan is not None
        if plan.deploy is not None:
            return plan.deploy
        plane = state.side(plan.side).plane
        assert plane is not None
        return plane.type

    def _read_flight(self, state: GameState, text: str) -> str | Refusal:
        if state.phase != "flight":
            return Refusal("m44-not-now")
        try:
            order = parse_flight(text, self._plane_kind(state))  # type: ignore[arg-type]
            check_flight(self.catalog, state, order)
        except Refused as refused:
            return refusal(refused)
        return flight_text(order)

    def _read_fire(self, state: GameState, text: str) -> str | Refusal:
        cleaned = text.strip().lower()
        if cleaned in ("", "-", NONE, "aucun", "rien"):
            return NONE  # a select option needs a value: "none" says no fire
        enemy = state.side(other(state.active)).plane
        if enemy is None:
            return Refusal("m44-no-enemy-plane")
        try:
            shots = parse_shots(text, enemy.status == "airborne", close_assault=True)
        except Refused as refused:
            return refusal(refused)
        return shots_text(shots, enemy.status == "airborne")

    def check_choice(
        self, state: GameState, side: str, choice: Mapping[str, str]
    ) -> Refusal | None:
        """The picks of one round together: what no single field can judge alone."""
        try:
            if state.phase == "command":
                check_command(self.catalog, state, self._command_order(state, choice))
            elif state.phase == "flight":
                self._flight_order(state, choice)
            elif state.phase == "reaction":
                check_reaction(self.catalog, state, self._reaction_order(choice))
        except Refused as refused:
            return refusal(refused)
        return None

    def demo_choice(
        self, view: AirView, decisions: Sequence[Decision], pick: random.Random
    ) -> Mapping[str, Sequence[str]]:
        """The offline demo's scripted commander (``skirmish``): a keen table's picks."""
        return skirmish.picks(self.catalog, view, decisions, pick)

    # ------------------------------------------------------------------ picks to orders

    def _command_order(self, state: GameState, choice: Mapping[str, str]) -> CommandOrder:
        command = choice.get("command", "other-tactic")
        card = choice.get("card", NONE)
        fire = choice.get("fire", NONE)
        enemy = state.side(other(state.active)).plane
        shots: tuple[Shot, ...] = ()
        if fire not in ("", NONE) and enemy is not None:
            shots = parse_shots(fire, enemy.status == "airborne", command == "close-assault")
        return CommandOrder(
            command=command,
            card=None if card == NONE else card,
            action=choice.get("plane", NONE),
            shots=shots,
        )

    def _flight_order(self, state: GameState, choice: Mapping[str, str]) -> FlightOrder:
        text = choice.get("flight") or self._quick_flights(state)[0]
        order = parse_flight(text, self._plane_kind(state))  # type: ignore[arg-type]
        markers = int(choice.get("markers", "0") or 0)
        order = FlightOrder(order.path, order.tokens, order.finish, markers)
        check_flight(self.catalog, state, order)
        return order

    @staticmethod
    def _reaction_order(choice: Mapping[str, str]) -> Reaction:
        ambush, unit = 0, None
        picked = choice.get("ambush", NONE)
        if picked != NONE:
            number, _, unit_word = picked.partition("-")
            ambush, unit = int(number), unit_word
        card, card_token = None, 0
        answer = choice.get("reaction", NONE)
        if answer != NONE:
            key, _, token = answer.partition("@")
            card, card_token = key, int(token or 0)
        return Reaction(ambush, unit, card, card_token)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ play

    def resolve(
        self, state: GameState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[GameState, list[Event]]:
        state, events = self._resolve(state, choices, rng)
        return state, [for_log(self.catalog, event) for event in events]

    def _resolve(
        self, state: GameState, choices: Mapping[str, Mapping[str, str]], rng: Rng
    ) -> tuple[GameState, list[Event]]:
        if state.finished:
            raise ValueError("the game is over")
        if state.phase == "command":
            return self._resolve_command(state, choices.get(state.active, {}), rng)
        plan = state.plan
        assert plan is not None
        if state.phase == "flight":
            choice = choices.get(plan.side, {})
            try:
                order = self._flight_order(state, choice)
            except Refused as refused:
                order = parse_flight(self._quick_flights(state)[0], self._plane_kind(state))  # type: ignore[arg-type]
                state, events = fly(self.catalog, _mark_refused(state, refused), order, rng)
                return state, [_refused(state, plan.side, refused), *events]
            return fly(self.catalog, state, order, rng)
        choice = choices.get(other(plan.side), {})
        try:
            return react(self.catalog, state, self._reaction_order(choice), rng)
        except Refused as refused:
            state, events = react(self.catalog, _mark_refused(state, refused), Reaction(), rng)
            return state, [_refused(state, other(plan.side), refused), *events]

    def _resolve_command(
        self, state: GameState, choice: Mapping[str, str], rng: Rng
    ) -> tuple[GameState, list[Event]]:
        side = state.active
        try:
            order = self._command_order(state, choice)
            return give_command(self.catalog, state, order, rng)
        except Refused as refused:
            # Played as the table would: the card named is spent, the plane does nothing.
            events = [_refused(state, side, refused)]
            card = choice.get("card", NONE)
            if card != NONE and card in {c.split("#")[0] for c in state.side(side).hand}:
                state, _instance = play(state, side, card, own_turn=True)
                events.append(
                    Event(
                        kind="m44-card",
                        turn=state.turn,
                        data={"side": side, "card": card, "when": "own", "in_force": False},
                    )
                )
            command = choice.get("command", "other-tactic")
            if command not in {c.key for c in self.catalog.commands}:
                command = "other-tactic"
            plain = CommandOrder(command, refused=f"m44-{refused.reason}")
            state, more = give_command(self.catalog, state, plain, rng)
            return state, events + more

    def roll_dice(self, count: int, stream: random.Random) -> tuple[str, ...]:
        """Battle dice for the ground game (``/roll 3``): the same die as the air's."""
        return tuple(f"m44-{face}" for face in dice.roll(stream, count))

    # Every event is told to all as it happens: draws say who and how many, never what.
    event_sights = sight.kinds(public=EVENT_KINDS)

    def derived(self) -> Sequence[sight.Derived]:
        return DERIVED

    def project(self, kept: Any, eyes: sight.Eyes) -> AirView:
        return project(kept, eyes)

    def progress(self, state: GameState) -> Progress:
        return Progress(
            turn=state.turn if not state.finished else max(1, min(state.turn, state.turns)),
            round=state.phase if state.phase != "over" else "command",
            finished=state.finished,
            winner=state.winner,
            vp={side: len(state.sides[side].medals) for side in SIDES},
        )

    # ------------------------------------------------------------------ storage

    def resolves_from_snapshot(self, state: GameState) -> bool:
        return True  # a turn appends its record to the history and reads none of it

    def view_records(self, state: GameState) -> int | None:
        # The turn just played (its report, the panels' last lines), finished or not: the
        # after-action report, which reads them all, is drawn from the whole state apart.
        return 1


def shots_text(shots: Sequence[Shot], airborne: bool) -> str:
    """The canonical line of ground fire, the one ``parse_shots`` reads back the same."""
    short = {"infantry": "inf", "armour": "arm", "artillery": "art", "destroyer": "dd"}
    parts = []
    for shot in shots:
        if shot.unit == "sunk":
            parts.append("sunk")
            continue
        word = short[shot.unit]
        if shot.close_assault:
            word += "+"
        if not airborne:
            word += f" {shot.dice - (1 if shot.close_assault else 0)}"
        parts.append(word)
    return ", ".join(parts)


# Event fields whose values are words of the game: the log words them through its
# ``log.value`` table, so they are given there with this ruleset's prefix (``m44-recon``)
# and never meet another game's word of the same spelling.
_WORDED = frozenset(
    {
        "why",
        "purpose",
        "outcome",
        "action",
        "type",
        "on",
        "card",
        "command",
        "faces",
        "unit",
        "theatre",
        "superiority",
        "finish",
        "kind",
        "target",
        "removed",
        "when",
    }
)


def _said(value: object) -> object:
    if isinstance(value, str):
        return f"m44-{value.lower().replace(' ', '-')}" if value else value
    if isinstance(value, list):
        return [_said(item) for item in value]
    return value


def for_log(catalog: Catalog, event: Event) -> Event:
    """An engine event as the application logs it: game words tagged for the log's word
    table, plane figures by their names (names read the same in every language)."""
    data: dict[str, object] = {}
    for key, value in event.data.items():
        if key == "model" and isinstance(value, str) and value in catalog.models:
            data[key] = catalog.models[value].name
        elif key in _WORDED or (event.kind == "m44-setup" and key in SIDES):
            data[key] = _said(value)
        else:
            data[key] = value
    return event.model_copy(update={"data": data})


def _mark_refused(state: GameState, refused: Refused) -> GameState:
    """The turn's record says an order was refused, so the table sees it in the report."""
    if state.plan is None:
        return state
    plan = state.plan.model_copy(update={"refused": f"m44-{refused.reason}"})
    return state.model_copy(update={"plan": plan})


def _refused(state: GameState, side: str, refused: Refused) -> Event:
    data: dict[str, object] = {"side": side, "reason": refused.reason}
    return Event(kind="m44-refused", turn=state.turn, data=data)


__all__ = ["KEY", "PLANE_TYPES", "Memoir44Rules"]
