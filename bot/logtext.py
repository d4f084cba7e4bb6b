"""One readable sentence per log event, in the reader's language.

The log stores events as a kind plus data; this module is the only place that turns them
into sentences, so ``/log`` and whatever else shows the log read the same. Data is made
readable before it reaches a template: players become mentions (Discord shows their names
and, with mentions disabled, pings nobody), sides, rounds, places and options their names
in the reader's language, receipts and commitments their first characters (``/receipt``
shows a whole one), counts agree with their nouns. Some kinds have variants, chosen from
the data (``player-joined-commander``). An event kind without a template still shows, as
its kind and its readable data, so nothing is ever hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from bot.i18n import _catalog, normalize, t, word

if TYPE_CHECKING:
    from bot.rulesets import Registry
    from rendering.presenter import Presenter

SHORT = 12  # characters of a receipt or a commitment shown in the log
USER_KEYS = frozenset({"user", "by", "gm", "old", "new", "new_commander"})
SIDE_KEYS = frozenset({"side", "attacker", "defender", "active"})
HASH_KEYS = frozenset({"receipt", "seed_commitment", "commitment"})
PLACE_KEYS = ("place", "target")


def _known(key: str, lang: str) -> bool:
    return key in _catalog(lang) or key in _catalog("en")


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_")


def _count(unit: str, n: Any, lang: str) -> str:
    """ "1 box", "3 boxes" (the language's plural rules; French "0 case")."""
    try:
        number = int(n)
    except (TypeError, ValueError):
        return str(n)
    return t(f"log.unit.{unit}", lang, count=number)


def _user(value: Any, lang: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"<@{value}>"
    if value is None:
        return t("log.word.nobody", lang)
    return str(value)


def _side(value: Any, lang: str) -> str:
    if value == "draw":
        return t("log.word.draw", lang)
    return word(f"service.side.{value}", str(value), lang)


def _result(winner: Any, lang: str) -> str:
    if winner in (None, "draw"):
        return t("log.word.draw", lang)
    return t("log.word.wins", lang, side=_side(winner, lang))


def settings_changes_text(changes: Any, locale: Any) -> str:
    """``/campaign settings`` changes, [(option, old, new), ...] in the setting's own values,
    as "time per round 1 d → 2 d; missing orders the default order → ..." in the reader's
    language (an event written before the values were kept holds its words already)."""
    lang = normalize(locale)
    if isinstance(changes, str):
        return changes
    return t("log.word.list", lang).join(
        t(
            "archive.settings.change",
            lang,
            name=word(f"archive.settings.name.{name}", str(name), lang),
            old=_setting_value(str(name), old, lang),
            new=_setting_value(str(name), new, lang),
        )
        for name, old, new in changes
    )


def _setting_value(name: str, value: Any, lang: str) -> str:
    if name == "deadline":
        return _duration(value, lang)
    if name == "reminders":
        offsets = value if isinstance(value, list | tuple) else [value]
        return ", ".join(_duration(o, lang) for o in offsets) or t(
            "archive.settings.value.none", lang
        )
    if name == "missing":
        return word(f"service.policy.{value}", str(value), lang)
    if name == "language":
        return word(f"archive.settings.value.{value}", str(value), lang)
    if name == "switches":  # "front=eastern sun=off", or none: the scenario's own
        return str(value) or t("archive.settings.value.scenario-switches", lang)
    return _value(value, lang)


def duration_words(seconds: Any, locale: Any) -> str:
    """A span in the reader's units: "1 d 12 h", "1 j 12 h"."""
    return _duration(seconds, normalize(locale))


def _duration(seconds: Any, lang: str) -> str:
    try:
        total = max(0, int(seconds))
    except (TypeError, ValueError):
        return str(seconds)
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [
        t(f"log.unit.{unit}", lang, n=n)
        for unit, n in (("day", days), ("hour", hours), ("minute", minutes))
        if n
    ]
    return " ".join(parts) or t("log.unit.minute", lang, n=0)


@cache
def _scenario_names() -> dict[str, str]:
    registry = _registry()
    names: dict[str, str] = {}
    for key in registry.keys():  # noqa: SIM118 (a registry, not a dict)
        for scenario in registry.get(key).rules.scenarios().values():
            names.setdefault(scenario.key, scenario.name)
    return names


@cache
def _registry() -> Registry:
    from bot.rulesets import Registry

    return Registry()


@cache
def _games() -> dict[str, Presenter[Any]]:
    registry = _registry()
    return {key: registry.get(key).presenter for key in registry.keys()}  # noqa: SIM118


def presenters(ruleset: str | None) -> tuple[Presenter[Any], ...]:
    """Whose words the log asks for: the campaign's game, or (no game named: a line read
    on its own) every game's, the first that knows a value saying it."""
    games = _games()
    if ruleset in games:
        return (games[ruleset],)
    return tuple(games.values())


def _game(
    games: Sequence[Presenter[Any]], name: str, value: Any, lang: str, *, opening: bool = False
) -> str | None:
    for game in games:
        found = game.log_words(name, value, lang, opening=opening)
        if found is not None:
            return found
    return None


def _value(value: Any, lang: str, games: Sequence[Presenter[Any]] = ()) -> str:
    """A value with no known meaning: lists joined, words of the game translated."""
    if isinstance(value, bool):
        return t(f"log.word.{'yes' if value else 'no'}", lang)
    if isinstance(value, list | tuple):
        return ", ".join(_value(v, lang, games) for v in value) or "—"
    if isinstance(value, Mapping):
        return ", ".join(f"{_side(k, lang)} {_value(v, lang, games)}" for k, v in value.items())
    if isinstance(value, str):
        for key in (f"log.value.{value}", f"service.side.{value}"):
            if _known(key, lang):
                return t(key, lang)
        found = _game(games, "", value, lang)
        if found is not None:
            return found
    return str(value)


def _params(
    data: Mapping[str, Any],
    lang: str,
    games: Sequence[Presenter[Any]],
    names: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Every data field as words; a mapping also gives ``<key>_<inner>`` fields. An id the
    game names things by ("P3") reads as its name in ``names`` ("Kurt Wolff")."""
    params: dict[str, str] = {}
    names = names or {}
    for key, value in data.items():
        if isinstance(value, str) and value in names:
            params[key] = names[value]
            continue
        if isinstance(value, list) and value and all(str(v) in names for v in value):
            params[key] = ", ".join(names[str(v)] for v in value)
            continue
        if isinstance(value, Mapping):
            for inner, item in value.items():
                params[f"{key}_{inner}"] = _value(item, lang, games)
        if key in USER_KEYS and not isinstance(value, str):
            params[key] = _user(value, lang)
        elif key in SIDE_KEYS or key == "winner":
            params[key] = _side(value, lang)
        elif key == "sides":
            params[key] = ", ".join(_side(s, lang) for s in value or ()) or "—"
        elif key in HASH_KEYS:
            params[key] = str(value)[:SHORT] + ("…" if len(str(value)) > SHORT else "")
        elif key == "round":
            params[key] = word(f"service.round.{value}", str(value), lang)
        elif key in PLACE_KEYS or key == "location":
            # A place the game names, else a word of its own ("shore-2", a raid's AA gun).
            params[key] = _game(games, key, value, lang) or _value(value, lang, games)
        elif key == "scenario":
            name = _scenario_names().get(str(value), str(value))
            params[key] = word(f"log.scenario.{value}", name, lang)
        elif key == "group":
            params[key] = word(f"service.field.{value}", str(value), lang)
        elif key == "reason":
            params[key] = str(value)
        elif key == "changes" and isinstance(value, list):
            params[key] = settings_changes_text(value, lang)
        else:
            # A field the game words itself (a doctrine), else the shared words.
            params[key] = _game(games, key, value, lang) or _value(value, lang, games)
    params["because"] = (
        t("log.word.because", lang, reason=data["reason"])
        if data.get("reason") not in (None, "", "completed", "ended")
        else ""
    )
    return params


def _sides_first(data: Mapping[str, Any]) -> list[str]:
    """The data's keys, the two sides of the two-sided games first."""
    order = ("japanese", "allied")
    return [s for s in order if s in data] + [s for s in data if s not in order]


def _special(
    kind: str,
    data: Mapping[str, Any],
    lang: str,
    params: dict[str, str],
    games: Sequence[Presenter[Any]],
) -> str:
    """Fields some kinds need worked out from several values; returns the variant key."""
    key = f"log.{kind}"
    for game in games:  # the game's own events say which of their templates fits
        variant = game.log_variant(kind, data)
        if variant is not None:
            return key + variant
    if kind == "player-joined" and data.get("commander"):
        key += "-commander"
    elif kind == "player-removed" and data.get("new_commander"):
        key += "-promoted"
    elif kind == "player-substituted" and data.get("kept_old"):
        key += "-kept"
    elif kind == "round-opened":
        deadline = data.get("deadline")
        if isinstance(deadline, int | float):
            params["deadline"] = f"<t:{int(deadline)}:f>"
        else:
            key += "-open"
    elif kind == "campaign-created" and isinstance(data.get("switches"), Mapping):
        key += "-switches"  # the GM's switches (bot.switches), as he typed them
        params["switches"] = ", ".join(f"{k}={v}" for k, v in data["switches"].items())
    elif kind == "side-locked" and data.get("defaulted"):
        key += "-defaulted"
    elif kind == "side-locked" and data.get("idle"):
        key += "-idle"
    elif kind == "defaults-applied":
        params["policy"] = word(f"service.policy.{data.get('policy')}", "?", lang)
        if data.get("why") == "resolve-now":
            key += "-resolve-now"
    elif kind == "deadline-extended":
        params["duration"] = _duration(data.get("seconds"), lang)
        deadline = data.get("deadline")
        params["deadline"] = f"<t:{int(deadline)}:f>" if isinstance(deadline, int) else "?"
    elif kind == "resumed":
        params["duration"] = _duration(data.get("shift"), lang)
    elif kind == "rollback":
        params["rounds"] = _count("round", data.get("void_rounds", 0), lang)
    elif kind in ("campaign-finished", "campaign-ended"):
        params["result"] = _result(data.get("winner"), lang)
        if kind == "campaign-finished" and data.get("reason") != "completed":
            key += "-ended"
    elif kind == "orders-revealed":
        parts = []
        for side in _sides_first(data):
            orders = data[side]
            if isinstance(orders, Mapping):
                words = [
                    _game(games, f"order.{field}", value, lang) or _value(value, lang, games)
                    for field, value in orders.items()
                ]
                parts.append(f"{_side(side, lang)} {', '.join(words)}")
        params["orders"] = t("log.word.list", lang).join(parts) or t("log.word.no-orders", lang)
    elif kind == "resources-revealed":
        params["resources"] = t("log.word.list", lang).join(
            f"{_side(side, lang)} {_game(games, 'resource', data[side], lang) or data[side]}"
            for side in _sides_first(data)
        )
    elif kind == "pilots-drafted":
        purpose = data.get("purpose")
        params["purpose"] = _game(games, "purpose", purpose, lang) or str(purpose)
        placed = data.get("placed") or {}
        params["placed"] = ", ".join(str(v) for v in placed.values())
        if not placed:
            key += "-none"
    elif kind == "cap-drawn" and data.get("cap") in (None, "", "—"):
        key += "-none"
    elif kind == "strike-cut":
        params["size"] = word(f"render.size.{data.get('size')}", str(data.get("size")), lang)
        params["reason"] = _reason(data.get("reason"), lang)
    elif kind == "strike-recalled":
        params["reason"] = _reason(data.get("reason"), lang)
    elif kind == "scout-mission" and not data.get("success"):
        key += "-failed"
    elif kind == "out-of-sight" and data.get("outcome") in ("hidden", "partial", "spotted"):
        key += f"-{data['outcome']}"
    elif kind == "strike-flown":
        params["kind"] = word(f"log.strike-kind.{data.get('kind')}", str(data.get("kind")), lang)
        params["points"] = _count("point", data.get("points"), lang)
        if data.get("hidden"):
            key += "-hidden"
    elif kind == "submarine":
        params["points"] = _count("point", data.get("points"), lang)
    elif kind == "recovery":
        params["tests"] = _count("aircraft", data.get("tests"), lang)
        params["lost"] = _count("lost", len(data.get("lost") or ()), lang)
    elif kind == "losses-ticked":
        params["boxes"] = _count("box", data.get("boxes"), lang)
    elif kind == "damage-control":
        params["repaired"] = _count("repair", data.get("boxes"), lang)
    return key


def _reason(reason: Any, lang: str) -> str:
    text = str(reason)
    if _known(f"log.reason.{text}", lang):
        return t(f"log.reason.{text}", lang)
    return word(f"service.reason.{text}", text, lang)


def describe(
    kind: str,
    data: Mapping[str, Any],
    locale: Any = None,
    *,
    turn: int | None = None,
    ruleset: str | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """The event as a sentence. ``turn`` is the event's own turn (a column, not in ``data``),
    which some templates name; without it (and none in ``data``) they are said without.
    ``ruleset``: the campaign's game, whose presenter words what only it knows (see
    ``presenters``). ``names``: how a player knows what the game's events name by id (a
    pilot for a plane's "P3", from the public view: ``Presenter.names``)."""
    lang = normalize(locale)
    games = presenters(ruleset)
    for game in games:
        own = game.log_sentence(kind, data, lang)
        if own is not None:
            return own
    params = _params(data, lang, games, names)
    if turn is None and isinstance(data.get("turn"), int):
        turn = data["turn"]
    if turn is not None:
        params["turn"] = str(turn)
    key = _special(kind, data, lang, params, games)
    if turn is None and _known(f"{key}-unnumbered", lang):
        # A caller that knows no turn gets the sentence without one, never "turn ?".
        key += "-unnumbered"
    # The count a template declines (a table of plural forms): damage points, or the cards
    # of a shot.
    points = data.get("points", data.get("cards"))
    count = points if isinstance(points, int) and not isinstance(points, bool) else None
    if not _known(key, lang):
        key = f"log.{kind}"
    if _known(key, lang):
        template = _catalog(lang).get(key) or _catalog("en").get(key) or ""
        for name in PLACE_KEYS:
            # A sentence that opens on the place names it as its label, capital and all.
            if name in data and template.startswith(f"{{{name}}}"):
                label = _game(games, name, data[name], lang, opening=True)
                params[name] = label or str(data[name])
        if count is not None and "count" not in params:
            return t(key, lang, count=count, **params)
        return t(key, lang, **params)
    details = "; ".join(f"{k}: {params.get(k, _value(v, lang, games))}" for k, v in data.items())
    return f"{kind} ({details})" if details else kind
