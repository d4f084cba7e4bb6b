"""A side's orders for the air war, as typed by players, and the checks the bot can make.

Three orders follow each other in a turn: the Command (which Command card, which Air Combat
card, what the plane does, what ground units fire at the enemy plane), the Flight (path,
ammunition tokens, how the move ends) and the other side's Reaction (Ambush, a reaction
card). Each check raises ``Refused`` with the rule's reason; it checks what the bot can
know (counts, repeats, ammunition, the plane types' rules, lost types, one plane a side,
board geometry, where the planes are) and takes the players' word for board facts it
cannot see (which hexes hold enemy units, which unit is adjacent to the plane).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import engine.rulesets.memoir44.board as board
from engine.rulesets.memoir44.catalog import PLANE_TYPES, Card, Catalog, PlaneType
from engine.rulesets.memoir44.deck import Refused, holding
from engine.rulesets.memoir44.dice import Target
from engine.rulesets.memoir44.state import (
    Finish,
    GameState,
    Plane,
    Shot,
    Token,
    Unit,
    other,
)

VICTORY = "victory"  # the active side says it has its medals: the game ends
ACTIONS = ("none", "fly", "withdraw", *(f"deploy-{kind}" for kind in PLANE_TYPES))
FINISHES: tuple[Finish, ...] = ("none", "bombing", "dogfight", "airfield", "carrier")
BASE_MOVE = 4
MAX_MARKERS = 4


@dataclass(frozen=True)
class CommandOrder:
    command: str
    card: str | None = None  # a card key from the hand
    action: str = "none"
    shots: tuple[Shot, ...] = ()
    refused: str = ""  # the reason the side's own picks were set aside, if they were


@dataclass(frozen=True)
class FlightOrder:
    path: tuple[str, ...]
    tokens: tuple[Token, ...] = ()
    finish: Finish = "none"
    markers: int = 0


@dataclass(frozen=True)
class Reaction:
    ambush: int = 0  # token number, 0 for none
    ambush_unit: Unit | None = None
    card: str | None = None  # a card key from the hand
    card_token: int = 0  # the token Flak answers


# ------------------------------------------------------------------ typed text


_SEPARATORS = re.compile(r"[\s,;>→]+|(?<=\d)-(?=[A-Za-z])")
_KINDS = {"mg": "mg", "mit": "mg", "mitrailleuse": "mg", "bomb": "bomb", "bombe": "bomb"}
# The ground units' words, as a target (a shot) and as a unit (an ambush, a fire order).
_GROUND: dict[str, Literal["infantry", "armour", "artillery"]] = {
    "inf": "infantry",
    "infantry": "infantry",
    "infanterie": "infantry",
    "arm": "armour",
    "armor": "armour",
    "armour": "armour",
    "blindé": "armour",
    "blindés": "armour",
    "bl": "armour",
    "art": "artillery",
    "artillery": "artillery",
    "artillerie": "artillery",
}
_TARGETS: dict[str, Target] = {
    **_GROUND,
    "tank": "armour",
    "blinde": "armour",
    "other": "other",
    "autre": "other",
}
_FINISHES: dict[str, Finish] = {
    "dogfight": "dogfight",
    "duel": "dogfight",
    "objective": "bombing",
    "objectif": "bombing",
    "bombing": "bombing",
    "bombardement": "bombing",
    "airfield": "airfield",
    "aérodrome": "airfield",
    "aerodrome": "airfield",
    "land": "airfield",
    "carrier": "carrier",
    "porte-avions": "carrier",
}
_UNITS: dict[str, Unit] = {
    **_GROUND,
    "dd": "destroyer",
    "destroyer": "destroyer",
    "destroyeur": "destroyer",
    "sunk": "sunk",
    "coulé": "sunk",
}


_LOOKS_LIKE_HEX = re.compile(r"^[a-z]\d+$")


def _words(text: str) -> list[str]:
    return [w for w in _SEPARATORS.split(text.strip().lower()) if w]


def parse_flight(text: str, plane: PlaneType) -> FlightOrder:
    """A flight as one line: the hexes of the path in order, each followed by the token
    it gets, if any (``E6 inf, E7 bomb arm``), and the last one by how the move ends
    (``D8 dogfight``). A fighter's tokens are MG and a bomber's bombs without saying so;
    a fighter-bomber names the kind. Commas are optional: a hex label starts a new step."""
    steps: list[list[str]] = []
    for word in _words(text):
        hexlabel = board.normal(word)
        if hexlabel is not None:
            steps.append([hexlabel])
        elif not steps or _LOOKS_LIKE_HEX.match(word):
            raise Refused("not-a-hex", hex=word)
        else:
            steps[-1].append(word)
    if not steps:
        raise Refused("path-empty")
    path: list[str] = []
    tokens: list[Token] = []
    finish: Finish = "none"
    for index, (hexlabel, *words) in enumerate(steps):
        path.append(hexlabel)
        kind: str | None = None
        target: Target | None = None
        for word in words:
            if word in _KINDS:
                kind = _KINDS[word]
            elif word in _TARGETS:
                target = _TARGETS[word]
            elif word in _FINISHES:
                if index != len(steps) - 1:
                    raise Refused("finish-not-last", word=word)
                finish = _FINISHES[word]
            else:
                raise Refused("flight-word", word=word)
        if kind is None and target is None:
            continue
        if target is None:
            raise Refused("token-target-needed", hex=hexlabel)
        kind = kind or {"fighter": "mg", "bomber": "bomb"}.get(plane)
        if kind is None:
            raise Refused("token-kind-needed", hex=hexlabel)
        tokens.append(Token(hex=hexlabel, kind=kind, target=target))
    return FlightOrder(path=tuple(path), tokens=tuple(tokens), finish=finish)


def flight_text(order: FlightOrder) -> str:
    """The canonical line of a flight, the one ``parse_flight`` reads back the same."""
    marks = {token.hex: token for token in order.tokens}
    steps = []
    for index, hexlabel in enumerate(order.path):
        words = [hexlabel]
        token = marks.get(hexlabel)
        if token is not None:
            words += [token.kind, _SHORT[token.target]]
        if index == len(order.path) - 1 and order.finish != "none":
            words.append(_FINISH_WORD[order.finish])
        steps.append(" ".join(words))
    return ", ".join(steps)


_SHORT = {"infantry": "inf", "armour": "arm", "artillery": "art", "other": "other"}
_FINISH_WORD = {"bombing": "objective", "dogfight": "dogfight", "airfield": "airfield"}
_FINISH_WORD["carrier"] = "carrier"


def parse_shots(text: str, airborne: bool, close_assault: bool) -> tuple[Shot, ...]:
    """``inf, art, arm+`` (``+``: Close Assault's extra die); ``inf 2`` at a landed plane,
    with the unit's dice at that range; ``sunk`` when the carrier holding it went down."""
    shots: list[Shot] = []
    for entry in re.split(r"[,;]", text):
        words = entry.strip().lower().split()
        if not words:
            continue
        word = words[0]
        plus = word.endswith("+") or "+" in words[1:]
        word = word.rstrip("+")
        unit = _UNITS.get(word)
        if unit is None:
            raise Refused("shot-word", word=word)
        numbers = [w for w in words[1:] if w.isdigit()]
        if plus and not close_assault:
            raise Refused("close-assault-needed")
        if plus and unit not in ("infantry", "armour"):
            raise Refused("close-assault-unit")
        if unit == "sunk":
            shots.append(Shot(unit="sunk", dice=0))
            continue
        if airborne:
            if numbers:
                raise Refused("shot-dice-airborne")
            dice = 4 if unit in ("artillery", "destroyer") else 3
        else:
            dice = int(numbers[0]) if numbers else (4 if unit == "destroyer" else 3)
            if not 1 <= dice <= 4:
                raise Refused("shot-dice", dice=dice)
        shots.append(Shot(unit=unit, dice=dice + (1 if plus else 0), close_assault=plus))
    return tuple(shots)


# ------------------------------------------------------------------ checks


def _card(catalog: Catalog, state: GameState, side: str, key: str) -> Card:
    try:
        card = catalog.card(key)
    except KeyError:
        raise Refused("unknown-card", card=key) from None
    if holding(state, side, key) is None:  # type: ignore[arg-type]
        raise Refused("card-not-in-hand", card=key)
    return card


def check_command(catalog: Catalog, state: GameState, order: CommandOrder) -> None:
    side = state.active
    mine, theirs = state.side(side), state.side(other(side))
    if order.command == VICTORY:
        return
    try:
        command = catalog.command(order.command)
    except KeyError:
        raise Refused("unknown-command", command=order.command) from None
    if order.action not in ACTIONS:
        raise Refused("unknown-action", action=order.action)
    card = _card(catalog, state, side, order.card) if order.card else None
    if card is not None and mine.card_own:
        raise Refused("card-own-turn-limit")
    if order.action.startswith("deploy-"):
        kind = order.action.removeprefix("deploy-")
        if mine.plane is not None:
            raise Refused("one-plane-a-side")
        if kind in mine.lost:
            raise Refused("type-lost", type=kind)
        if mine.withdrew:
            raise Refused("deploy-after-withdrawal")
        if command.kind != "section":
            raise Refused("deploy-needs-section")
        if card is None:
            raise Refused("deploy-needs-card")
    elif order.action in ("fly", "withdraw"):
        if mine.plane is None:
            raise Refused("no-plane")
        if order.action == "fly":
            _check_activation(catalog, state, order, mine.plane, card)
    elif card is not None and card.timing != "own_turn":
        raise Refused("card-needs-plane", card=card.key)
    airborne = mine.plane is not None and mine.plane.status == "airborne"
    rearming = card is not None and card.restore and not order.action.startswith("deploy-")
    if rearming and (not airborne or order.action == "withdraw"):
        raise Refused("rearm-needs-airborne")
    _check_shots(catalog, state, order, theirs.plane)


def _check_activation(
    catalog: Catalog, state: GameState, order: CommandOrder, plane: Plane, card: Card | None
) -> None:
    command = catalog.command(order.command)
    if command.kind == "section":
        if not board.in_sections(plane.hex, state.active, command.sections):
            raise Refused("plane-outside-section", hex=plane.hex)
    elif command.air in ("barrage",) or command.key == "armor-assault":
        raise Refused("tactic-orders-no-plane", command=command.key)
    if card is not None and card.timing == "attack" and card.icon != plane.type:
        raise Refused("card-icon", card=card.key, type=plane.type)
    if card is not None and card.timing == "reaction":
        raise Refused("card-needs-plane", card=card.key)


def _check_shots(
    catalog: Catalog, state: GameState, order: CommandOrder, target: Plane | None
) -> None:
    if not order.shots:
        return
    if target is None:
        raise Refused("no-enemy-plane")
    command = catalog.command(order.command)
    if command.orders:
        room = command.orders - (1 if order.action in ("fly",) or "deploy" in order.action else 0)
        if len(order.shots) > room:
            raise Refused("too-many-shots", orders=command.orders)
    if len(order.shots) > 9:
        raise Refused("too-many-shots", orders=9)
    for shot in order.shots:
        if shot.unit == "sunk":
            if target.status != "carrier":
                raise Refused("sunk-needs-carrier")
            continue
        if target.status == "carrier":
            raise Refused("plane-on-carrier")
        if target.status == "airborne" and command.air == "barrage":
            raise Refused("barrage-plane")
        if shot.close_assault and command.air != "close-assault":
            raise Refused("close-assault-needed")


def move_allowance(catalog: Catalog, effect: str | None) -> int:
    card = catalog.card(effect) if effect else None
    return card.move if card is not None and card.move else BASE_MOVE


def check_flight(catalog: Catalog, state: GameState, order: FlightOrder) -> None:
    plan = state.plan
    assert plan is not None and plan.action in ("fly", "deploy"), "no plane flies this turn"
    side = state.active
    mine, theirs = state.side(side), state.side(other(side))
    card = catalog.card(plan.effect) if plan.effect else None
    kind: PlaneType
    if plan.action == "deploy":
        assert plan.deploy is not None
        kind = plan.deploy
        mg, bombs = catalog.types[kind].mg, catalog.types[kind].bombs
        visited: list[str] = []
        if len(order.path) < 2:
            raise Refused("ends-where-began")
        command = catalog.command(plan.command)
        if not board.in_sections(order.path[0], side, command.sections):
            raise Refused("entry-outside-section", hex=order.path[0])
    else:
        assert mine.plane is not None
        kind, mg, bombs = mine.plane.type, mine.plane.mg, mine.plane.bombs
        visited = [mine.plane.hex]
        if not order.path:
            raise Refused("path-empty")
    allowance = move_allowance(catalog, plan.effect)
    if len(order.path) > allowance:
        raise Refused("path-too-long", most=allowance)
    last = len(order.path) - 1
    for index, step in enumerate(order.path):
        if visited and not board.adjacent(visited[-1], step):
            raise Refused("path-not-adjacent", frm=visited[-1], to=step)
        if step in visited:
            if index == last and step == visited[0]:
                raise Refused("ends-where-began")
            raise Refused("hex-twice", hex=step)
        visited.append(step)
    enemy = theirs.plane
    if enemy is not None and enemy.status == "airborne" and enemy.hex in order.path:
        raise Refused("through-enemy-plane", hex=enemy.hex)
    _check_tokens(catalog, order, kind, mg, bombs, card)
    _check_finish(catalog, state, order, kind, bombs - sum(t.kind == "bomb" for t in order.tokens))
    if order.markers and catalog.command(plan.command).air != "finest-hour":
        raise Refused("markers-need-finest-hour")
    if not 0 <= order.markers <= MAX_MARKERS:
        raise Refused("markers-count", most=MAX_MARKERS)


def _check_tokens(
    catalog: Catalog,
    order: FlightOrder,
    kind: PlaneType,
    mg: int,
    bombs: int,
    card: Card | None,
) -> None:
    tokens = order.tokens
    if not tokens:
        return
    if card is not None and card.no_ground_attack:
        raise Refused("card-no-ground-attack", card=card.key)
    most = card.max_tokens if card is not None else 3
    if len(tokens) > most:
        raise Refused("too-many-tokens", most=most)
    places = []
    for token in tokens:
        if token.hex not in order.path:
            raise Refused("token-off-path", hex=token.hex)
        places.append(order.path.index(token.hex))
    for index, place in enumerate(places):
        if place in places[:index]:
            raise Refused("token-twice", hex=tokens[index].hex)
    chain = card.chain if card is not None else "unbroken"
    ordered = sorted(places)
    if chain == "unbroken" and ordered != list(range(ordered[0], ordered[0] + len(ordered))):
        raise Refused("chain-broken")
    if len(order.path) - 1 in places:
        raise Refused("token-on-last-hex", hex=order.path[-1])
    kinds = {token.kind for token in tokens}
    if kind == "fighter" and "bomb" in kinds:
        raise Refused("fighter-no-bombs")
    if kind == "bomber" and "mg" in kinds:
        raise Refused("bomber-no-mg")
    if sum(t.kind == "mg" for t in tokens) > mg:
        raise Refused("out-of-mg", left=mg)
    if sum(t.kind == "bomb" for t in tokens) > bombs:
        raise Refused("out-of-bombs", left=bombs)


def _check_finish(
    catalog: Catalog, state: GameState, order: FlightOrder, kind: PlaneType, bombs_left: int
) -> None:
    side = state.active
    end = order.path[-1]
    enemy = state.side(other(side)).plane
    if order.finish == "bombing":
        if kind == "fighter":
            raise Refused("bombing-type")
        if bombs_left < 1:
            raise Refused("bombing-no-bomb")
        if state.bombed.get(end) is not None:
            raise Refused("bombing-done", hex=end)
    elif order.finish == "dogfight":
        if enemy is None or enemy.status != "airborne":
            raise Refused("dogfight-no-enemy")
        if not board.adjacent(end, enemy.hex):
            raise Refused("dogfight-not-adjacent", hex=enemy.hex)
    elif order.finish == "carrier" and not catalog.types[kind].carrier:
        raise Refused("carrier-type")


def reaction_triggers(state: GameState) -> frozenset[str]:
    """What the active side's orders, now public, let the other side answer. The window
    opens on these public facts only, never on what the other side holds, so being asked
    tells nobody anything."""
    plan = state.plan
    if plan is None:
        return frozenset()
    me, them = state.side(plan.side), state.side(other(plan.side))
    found: set[str] = set()
    flew = plan.action in ("fly", "deploy") and me.plane is not None
    if flew and plan.tokens:
        found.add("token_on_unit")
    enemy = them.plane
    if (
        flew
        and plan.finish not in ("airfield", "carrier")
        and me.plane is not None
        and enemy is not None
        and enemy.status == "airborne"
        and enemy.type == "fighter"
        and board.distance(enemy.hex, me.plane.hex) <= 2
    ):
        found.add("enemy_plane_near")
    if flew and plan.finish == "dogfight":
        found.add("dogfight_on_own_plane")
    airborne = enemy is not None and enemy.status == "airborne"
    if airborne and (plan.finish == "dogfight" or any(s.unit != "sunk" for s in plan.shots)):
        found.add("own_plane_attacked")
    return frozenset(found)


def check_reaction(catalog: Catalog, state: GameState, order: Reaction) -> None:
    plan = state.plan
    assert plan is not None
    side = other(plan.side)
    triggers = reaction_triggers(state)
    if order.ambush:
        if not 1 <= order.ambush <= len(plan.tokens):
            raise Refused("ambush-token", token=order.ambush)
        if order.ambush_unit not in ("infantry", "armour", "artillery", "destroyer"):
            raise Refused("ambush-unit")
    if order.card is None:
        return
    card = _card(catalog, state, side, order.card)
    if state.side(side).card_opp:
        raise Refused("card-opponent-turn-limit")
    if not card.reaction or card.trigger not in triggers:
        raise Refused("reaction-not-now", card=card.key)
    mine = state.side(side).plane
    if card.trigger == "token_on_unit" and not 1 <= order.card_token <= len(plan.tokens):
        raise Refused("reaction-token", token=order.card_token)
    if card.icon != "none" and (mine is None or mine.type != card.icon):
        raise Refused("card-icon", card=card.key, type=card.icon)
