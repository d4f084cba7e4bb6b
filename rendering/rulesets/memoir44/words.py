"""The air war in words: options, a turn told line by line, each side's state.

Everything here reads a view or a turn already played (public), never a state. Dice faces
are drawn as signs the picture's font holds: ♟ infantry, ▰ armour, ✹ grenade, ★ star,
⚑ flag.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rulesets.memoir44.view import AirView, Plan, Roll, SideView, TurnRecord, air_catalog
from rendering.i18n import t

FACE_SIGNS = {"infantry": "♟", "armour": "▰", "grenade": "✹", "star": "★", "flag": "⚑"}
SIDES = ("allies", "axis")


def w(key: str, locale: str, **params: object) -> str:
    return t(f"m44.{key}", locale, **params)


def side_word(side: str, locale: str) -> str:
    return w(f"side.{side}", locale)


def faces(items: Sequence[str]) -> str:
    return " ".join(FACE_SIGNS.get(face, face) for face in items) or "—"


def model_name(model: str) -> str:
    figure = air_catalog().models.get(model)
    return figure.name if figure is not None else model


def type_name(kind: str, locale: str) -> str:
    found = air_catalog().types.get(kind)  # type: ignore[call-overload]
    return found.name.get(locale).lower() if found is not None else kind


def card_title(key: str, locale: str) -> str:
    try:
        return air_catalog().card(key).title.get(locale)
    except KeyError:
        return key


def card_effect(key: str, locale: str) -> str:
    try:
        card = air_catalog().card(key)
    except KeyError:
        return ""
    icon = w(f"icon.{card.icon}", locale)
    return f"{icon} · {card.effect.get(locale)}"


def command_name(key: str, locale: str) -> str:
    return w(f"command.{key}", locale)


def nation_name(key: str, locale: str) -> str:
    found = air_catalog().nations.get(key)
    return found.name.get(locale) if found is not None else key


def option_words(field: str, value: str, locale: str) -> str:
    """How a menu or typed value reads on a panel, in the log and in the reveal."""
    if field == "command":
        return command_name(value, locale)
    if field in ("card", "reaction"):
        if value == "none":
            return w("no-card", locale)
        key, _, token = value.partition("@")
        title = card_title(key, locale)
        return w("on-token", locale, what=title, token=token) if token else title
    if field == "plane":
        return w(f"action.{value}", locale)
    if field == "ambush":
        if value == "none":
            return w("no-ambush", locale)
        number, _, unit = value.partition("-")
        dice = 4 if unit == "artillery" else 3
        return w("ambush-option", locale, token=number, unit=w(f"unit.{unit}", locale), dice=dice)
    if field == "markers":
        return w("markers", locale, count=int(value) if value.isdigit() else 0)
    if field == "fire":
        return fire_words(value, locale) if value not in ("", "none") else w("no-fire", locale)
    if field == "flight":
        return typed_line(value, locale)
    return value


# A stored ground-fire line's words (``seam`` writes them so) -> who fires.
SHOOTERS = {"inf": "infantry", "arm": "armour", "art": "artillery", "dd": "destroyer"}


def fire_words(value: str, locale: str) -> str:
    """A stored ground-fire line ("inf, art", "arm+", "inf 2", "sunk") in words: who fires
    and, where the line says it, with how many dice ("Ground fire: infantry, artillery").
    Unlike a flight, it is read beside the turn's other orders (a reveal, the report), where
    the typing words alone ("art") would not say what they are."""
    shots = []
    for entry in value.split(", "):
        head, *rest = entry.split(" ")
        key = SHOOTERS.get(head.rstrip("+"))
        if head == "sunk":
            shots.append(w("shot-sunk", locale))
        elif key is None:  # not a line the seam wrote: as it was typed
            shots.append(typed_line(entry, locale))
        else:
            unit = w(f"shooter.{key}", locale)
            if rest and rest[0].isdigit():  # at a landed plane: the dice at its range
                unit = w("shot-typed-dice", locale, unit=unit, count=int(rest[0]))
            shots.append(w("shot-typed-plus", locale, unit=unit) if head.endswith("+") else unit)
    return w("fire-typed", locale, shots=", ".join(shots))


def typed_line(value: str, locale: str) -> str:
    """A stored flight or ground-fire line in the reader's own typing words (``E7 bomb arm``
    reads ``E7 bombe bl`` in French): the words players type, which the parser reads in
    either language, so what a player reads he may type back. Hex labels and dice stay."""

    def said(word: str) -> str:
        bare = word.rstrip("+")
        known = t(f"m44.typed.{bare}", locale)
        return word if known == f"m44.typed.{bare}" else known + word[len(bare) :]

    return ", ".join(" ".join(said(x) for x in step.split(" ")) for step in value.split(", "))


# ------------------------------------------------------------------ a side's state


def plane_line(mine: SideView, locale: str) -> str:
    plane = mine.plane
    if plane is None:
        return w("withdrew", locale) if mine.withdrew else w("no-plane", locale)
    status = w(f"status.{plane.status}", locale, hex=plane.hex)
    return w(
        "plane-line",
        locale,
        plane=model_name(plane.model),
        type=type_name(plane.type, locale),
        status=status,
        mg=plane.mg,
        bombs=plane.bombs,
    )


def side_line(view: AirView, side: str, locale: str) -> str:
    mine = view.sides[side]  # type: ignore[index]
    lost = ", ".join(type_name(k, locale) for k in mine.lost) or "—"
    return w(
        "side-line",
        locale,
        side=side_word(side, locale),
        nation=nation_name(mine.nation, locale),
        plane=plane_line(mine, locale),
        hand=w("cards-in-hand", locale, count=mine.hand_size),
        medals=len(mine.medals),
        lost=lost,
    )


def medals_line(view: AirView, locale: str) -> str:
    return w(
        "medals-line",
        locale,
        allies=len(view.sides["allies"].medals),
        axis=len(view.sides["axis"].medals),
    )


def hand_lines(view: AirView, side: str, locale: str) -> list[str]:
    """The viewer's own hand with what each card does (its view alone carries it)."""
    mine = view.sides[side]  # type: ignore[index]
    if mine.hand is None:
        return []
    if not mine.hand:
        return [w("hand-empty", locale)]
    lines = [w("hand-title", locale, count=len(mine.hand))]
    for key in sorted(mine.hand):
        lines.append(f"• **{card_title(key, locale)}** — {card_effect(key, locale)}")
    return lines


# ------------------------------------------------------------------ a turn told


def _plan_lines(plan: Plan, locale: str, model: str | None) -> list[str]:
    side = side_word(plan.side, locale)
    lines = []
    if plan.refused:
        reason = t(f"service.reason.{plan.refused}", locale)
        lines.append(w("refused", locale, side=side, reason=reason))
    played = command_name(plan.command, locale)
    if plan.card:
        title = card_title(plan.card.split("#")[0], locale)
        key = "played-card" if plan.effect else "played-card-dead"
        lines.append(w(key, locale, side=side, command=played, card=title))
    else:
        lines.append(w("played", locale, side=side, command=played))
    plane = model_name(model) if model else w("its-plane", locale)
    route = " → ".join(([plan.start] if plan.start else []) + list(plan.path))
    if plan.action == "deploy" and plan.path:
        lines.append(w("deployed", locale, plane=plane, entry=plan.path[0], route=route))
    elif plan.action == "fly" and plan.path:
        lines.append(w("flew", locale, plane=plane, route=route))
    elif plan.action == "withdraw":
        lines.append(w("withdrawn", locale, side=side))
    if plan.tokens:
        marks = ", ".join(
            w(
                "token",
                locale,
                number=n,
                kind=w(f"kind.{tok.kind}", locale),
                hex=tok.hex,
                target=w(f"target.{tok.target}", locale),
            )
            for n, tok in enumerate(plan.tokens, 1)
        )
        lines.append(w("tokens", locale, tokens=marks))
    if plan.finish != "none" and plan.path:
        lines.append(w(f"finish.{plan.finish}", locale, hex=plan.path[-1]))
    if plan.shots:
        shots = ", ".join(
            w("shot-sunk", locale)
            if s.unit == "sunk"
            else w("shot", locale, unit=w(f"shooter.{s.unit}", locale), dice=s.dice)
            for s in plan.shots
        )
        lines.append(w("fire", locale, side=side, shots=shots))
    enemy = side_word("axis" if plan.side == "allies" else "allies", locale)
    if plan.ambush:
        unit = w(f"unit.{plan.ambush_unit}", locale)
        lines.append(w("ambush", locale, side=enemy, token=plan.ambush, unit=unit))
    if plan.reaction:
        title = card_title(plan.reaction.split("#")[0], locale)
        if plan.reaction_token:
            lines.append(
                w("reaction-token", locale, side=enemy, card=title, token=plan.reaction_token)
            )
        else:
            lines.append(w("reaction", locale, side=enemy, card=title))
    return lines


def roll_line(roll: Roll, locale: str) -> str:
    shown = faces(roll.faces)
    side = side_word(roll.side, locale)
    if roll.purpose == "confirm":
        return w(
            "roll.confirm",
            locale,
            side=side,
            faces=shown,
            outcome=w(f"outcome.{roll.outcome}", locale),
        )
    if roll.purpose == "token":
        return w(
            "roll.token",
            locale,
            token=roll.token,
            faces=shown,
            hits=w("hits", locale, count=roll.hits),
            flags=w("flags", locale, count=roll.flags),
        )
    if roll.purpose == "bombing":
        return w(
            "roll.bombing",
            locale,
            faces=shown,
            result=w(f"bombing.{bool(roll.hits)}".lower(), locale),
        )
    return w(
        "roll.plane",
        locale,
        side=side,
        purpose=w(f"purpose.{roll.purpose}", locale),
        dice=len(roll.faces),
        faces=shown,
        hits=w("hits", locale, count=roll.hits),
    )


def turn_lines(record: TurnRecord, locale: str, models: dict[str, str] | None = None) -> list[str]:
    """A played turn, public: what was ordered, each roll with its faces, the draws."""
    model = (models or {}).get(record.plan.side)
    lines = _plan_lines(record.plan, locale, model)
    lines += [roll_line(roll, locale) for roll in record.rolls]
    down_early = any(f.side == record.plan.side for f in record.fallen) and not any(
        r.purpose == "token" for r in record.rolls
    )
    if down_early and record.plan.tokens:
        lines.append(w("attack-ended", locale))
    for side in SIDES:
        count = record.drawn.get(side, 0)  # type: ignore[call-overload]
        if count:
            lines.append(w("drew", locale, side=side_word(side, locale), count=count))
    return lines


def record_models(view: AirView, record: TurnRecord) -> dict[str, str]:
    """Which figure flew in a turn: the one deployed then, else the side's plane now (a
    plane lost that turn is named by its kill marker or its type)."""
    plan = record.plan
    mine = view.sides[plan.side]
    if plan.deploy is not None:
        return {plan.side: mine.trio[plan.deploy]}
    if mine.plane is not None:
        return {plan.side: mine.plane.model}
    return {}
