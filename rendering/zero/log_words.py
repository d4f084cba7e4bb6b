"""The log's words for the ZERO! games' events (carrier, land, Pearl Harbor).

The shared log (``bot.logtext``) says every game's events with one set of templates; what
only a ZERO! game knows is said here, through its presenter's ``log_sentence`` and
``log_words`` (``rendering.presenter``): a strike's duels, flak rows and bombing runs
(``engine.zero.strike_log``), the places of the ZERO! data, the carrier's orders and
resources, the land sheets' locations, resources and levels, Pearl Harbor's targets and
defences. Each in the reader's language, the English data as the fallback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from engine.zero.catalog import Catalog
from engine.zero.strike_log import BOMB_RUN, DUEL, FLAK, KINDS
from rendering.i18n import _catalog, t, word
from rendering.place_words import place_in_text

__all__ = ["ZeroLogWords", "aircraft_name"]


def _known(key: str, lang: str) -> bool:
    return key in _catalog(lang) or key in _catalog("en")


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_")


def _count(key: str, n: int, lang: str) -> str:
    """ "1 attack", "3 attacks": the key's plural forms, by the language's rules."""
    return t(key, lang, count=n)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# ------------------------------------------------------------------------------ places


# Names read from a catalog, kept with it (a catalog is not hashable; the id is not
# reused while the entry holds the catalog).
_names: dict[tuple[str, int], tuple[Catalog, dict[str, str]]] = {}


def _kept(what: str, catalog: Catalog, make: Callable[[Catalog], dict[str, str]]) -> dict[str, str]:
    hit = _names.get((what, id(catalog)))
    if hit is None or hit[0] is not catalog:
        hit = _names[(what, id(catalog))] = (catalog, make(catalog))
    return hit[1]


def _place_names(catalog: Catalog) -> dict[str, str]:
    """Every place key of the scenarios -> its English name (the fallback)."""

    def make(catalog: Catalog) -> dict[str, str]:
        names: dict[str, str] = {}
        for scenario in catalog.scenarios.values():
            for place in scenario.places:
                names.setdefault(place.key, place.name)
        return names

    return _kept("places", catalog, make)


@cache
def _sheet_name_keys() -> dict[str, str]:
    """A land location's or a Pearl Harbor target's English name (as its events keep it) ->
    its catalogue key, so the log names it in the reader's language."""
    return {
        value: key
        for key, value in _catalog("en").items()
        if key.startswith(("land.location.", "pearl.target."))
    }


def _sheet_name(value: Any, lang: str) -> str | None:
    key = _sheet_name_keys().get(str(value))
    return t(key, lang) if key is not None else None


@cache
def _land_resource_keys() -> dict[str, str]:
    """English land resource name → its catalogue key, to name it in the reader's language."""
    found: dict[str, str] = {}
    for key, text in _catalog("en").items():
        if key.startswith("land.resource.") and key.endswith(".name"):
            found.setdefault(text, key)
    return found


def _land_resource(value: str, lang: str) -> str | None:
    """A land resource as the mission event names it ("#7 Att.: Surprise"), translated."""
    number, _, name = value.partition(" ")
    key = _land_resource_keys().get(name) if number.startswith("#") else None
    return f"{number} {t(key, lang)}" if key and _known(key, lang) else None


def _value(value: Any, lang: str) -> str | None:
    """A bare value the ZERO! games' data names: a land level or resource, a Pearl Harbor
    defence or level."""
    if not isinstance(value, str):
        return None
    if _known(f"land.level.{value}", lang):
        return t(f"land.level.{value}", lang)
    resource = _land_resource(value, lang)
    if resource is not None:
        return resource
    dashed = value.replace(" ", "-")
    for key in (f"pearl.defence.{dashed}", f"pearl.level.{dashed}"):
        if _known(key, lang):
            return t(key, lang)
    return None


# ------------------------------------------------------------------------------ strikes


def _aircraft_names(catalog: Catalog) -> dict[str, str]:
    return _kept("aircraft", catalog, lambda c: {code: k.name for code, k in c.aircraft.items()})


def aircraft_name(catalog: Catalog, code: str, lang: str) -> str:
    """The type's name from the game's data: "D3A1 \"Val\"", in French D3A1 « Val »."""
    name = _aircraft_names(catalog).get(code, code)
    if lang == "fr":
        name = re.sub(r'"([^"]*)"', "«\u00a0\\1\u00a0»", name)
    return name


def _damage(n: int, lang: str) -> str:
    return _count("log.unit.point", n, lang)


class ZeroLogWords:
    """A ZERO! presenter's ``log_sentence`` and ``log_words``, on its catalog."""

    catalog: Catalog

    # -- a strike's detail lines
    def log_sentence(self, kind: str, data: Mapping[str, Any], locale: str) -> str | None:
        if kind not in KINDS:
            return None
        lang = locale
        strike = str(data.get("strike", "?"))
        if kind == DUEL:
            parts = []
            if _int(data.get("to_defender")):
                dealt = _damage(data["to_defender"], lang)
                parts.append(t("log.detail.dealt", lang, damage=dealt))
            if _int(data.get("to_attacker")):
                back = _damage(data["to_attacker"], lang)
                parts.append(t("log.detail.back", lang, damage=back))
            phases = [
                word(f"render.strike.phase.{p}", str(p), lang) for p in data.get("phases", ())
            ]
            return t(
                "log.strike-duel",
                lang,
                strike=strike,
                phases=", ".join(phases) or "?",
                attacking=self._aircraft(data.get("attacking"), lang),
                defending=self._aircraft(data.get("defending"), lang),
                attacks=_count("log.detail.attack", _int(data.get("attacks")), lang),
                result=", ".join(parts) or t("log.detail.no-damage", lang),
            )
        if kind == FLAK:
            parts = []
            if _int(data.get("damage")):
                parts.append(t("log.detail.dealt", lang, damage=_damage(data["damage"], lang)))
            if _int(data.get("spoils")):
                parts.append(_count("log.detail.spoil", data["spoils"], lang))
            phase = str(data.get("phase"))
            flak = str(data.get("flak"))
            return t(
                "log.strike-flak",
                lang,
                strike=strike,
                flak=word(f"render.strike.flak.{flak}", flak, lang),
                phase=word(f"render.strike.phase.{phase}", phase, lang),
                attacked=self._aircraft(data.get("against"), lang),
                cards=_count("log.detail.flak-card", _int(data.get("cards")), lang),
                result=", ".join(parts) or t("log.detail.no-damage", lang),
            )
        assert kind == BOMB_RUN
        results = [
            word(f"render.result.{r}", str(r), lang) for r in data.get("results") or ("miss",)
        ]
        cancelled = _int(data.get("cancelled"))
        band = str(data.get("band"))
        return t(
            "log.strike-bomb-run",
            lang,
            strike=strike,
            mode=word(f"log.detail.mode.{data.get('mode')}", str(data.get("mode")), lang),
            band=word(f"render.band_name.{band}", band, lang).lower(),
            bomber=self._aircraft(data.get("bomber"), lang),
            results=", ".join(results),
            points=_damage(_int(data.get("points")), lang),
            cancelled=_count("log.detail.cancelled", cancelled, lang) if cancelled else "",
        )

    def _aircraft(self, crew: Any, lang: str) -> str:
        """ "A6M2 Zero (leader 2, Honda, destroyed)"; an aircraft kept by id shows its id."""
        if not isinstance(crew, Mapping) or "aircraft" not in crew:
            return str(crew.get("uid", "?") if isinstance(crew, Mapping) else crew)
        code = str(crew["aircraft"])
        role = word(f"log.detail.role.{crew.get('role')}", str(crew.get("role", "")), lang)
        what = [f"{role} {crew.get('number') or ''}".strip()]
        if crew.get("pilot"):
            what.append(str(crew["pilot"]))
        if crew.get("fate") not in (None, "ok"):
            what.append(word(f"log.detail.fate.{crew['fate']}", str(crew["fate"]), lang))
        name = aircraft_name(self.catalog, code, lang)
        return t("log.detail.aircraft", lang, name=name, what=", ".join(what))

    # -- the words of the other events' fields
    def log_words(self, name: str, value: Any, locale: str, *, opening: bool = False) -> str | None:
        lang = locale
        if name in ("place", "target"):
            return self._place(value, lang, in_text=not opening)
        if name == "location":
            return _sheet_name(value, lang)
        if name.endswith("doctrine"):
            return self._option("doctrine", value, lang)
        if name.startswith("order."):  # a revealed order, by its field
            return self._option(name.removeprefix("order."), value, lang)
        if name == "resource":  # a revealed resource card, by its number
            return self._resource(value, lang)
        if name == "purpose":  # what a pilot draft is for
            return self._purpose(value, lang)
        if name == "":
            return _value(value, lang)
        return None

    def _place(self, key: Any, lang: str, *, in_text: bool = False) -> str | None:
        """A place's label ("Flotte aéronavale alliée"), or with ``in_text`` the form a
        sentence takes in its middle ("contre la flotte aéronavale alliée"); a land or Pearl
        Harbor sheet's name in the reader's language; None for a name the data lacks."""
        text = str(key)
        names = _place_names(self.catalog)
        if text not in names:
            return _sheet_name(text, lang)
        label = word(f"render.place.{_slug(text)}", names[text], lang)
        return place_in_text(text, label, lang) if in_text else label

    def _option(self, field: str, value: Any, lang: str) -> str | None:
        """A carrier order as the panel names it: "Long Range", "Small Strike → Port Moresby"."""
        text = str(value)
        if field == "fleet_tactic":
            return word(f"render.tactic.{text}", text, lang)
        if field == "doctrine":
            return word(f"render.doctrine.{text}", text, lang)
        if field != "flight_ops":
            return None
        size, _, target = text.partition(":")
        size_name = word(f"render.size.{size}", size, lang)
        if not target:
            return size_name
        return f"{size_name} → {self._place(target, lang) or target}"

    def _resource(self, number: Any, lang: str) -> str:
        from rendering import rulebook

        found = rulebook.entry("carrier", f"#{number}", lang)
        name = found.title if found is not None else ""
        return t("log.word.resource", lang, number=number, name=name).strip()

    def _purpose(self, purpose: Any, lang: str) -> str:
        """A pilot draft's purpose ("cap:allied-fleet", "strike:japanese") as words."""
        what, _, where = str(purpose).partition(":")
        if what == "cap":
            place = self._place(where, lang, in_text=True) or where
            return t("log.word.cap", lang, place=place)
        if where in _place_names(self.catalog) or where == "midway":
            place = self._place(where, lang, in_text=True) or where
            return t("log.word.strike-of", lang, place=place)
        return t("log.word.strike", lang)
