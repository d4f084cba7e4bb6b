"""The registry of rulesets: one line per game system, found by the campaign's ``ruleset``.

A ``Plugin`` pairs a ruleset's pure rules (``engine.rulesets.<key>``) with its presenter
(``rendering.rulesets.<key>``). Adding a ruleset is its two packages, its locale keys and
one line in ``FACTORIES``; nothing else in ``bot/``, ``cogs/`` or ``db/`` changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.ruleset import Rules, View
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.land import LandRules
from engine.rulesets.memoir44 import Memoir44Rules
from engine.rulesets.pearl_harbor import PearlRules
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.catalog import default_catalog as wings_catalog
from engine.rulesets.wings.raid import DambusterRules
from engine.zero.catalog import Catalog
from rendering.presenter import Presenter
from rendering.rulesets.carrier import CarrierPresenter
from rendering.rulesets.land import LandPresenter
from rendering.rulesets.memoir44 import Memoir44Presenter
from rendering.rulesets.pearl_harbor import PearlPresenter
from rendering.rulesets.wings import WingsPresenter

S = TypeVar("S")
V = TypeVar("V", bound=View)


@dataclass(frozen=True)
class Plugin(Generic[S, V]):
    rules: Rules[S, V]
    presenter: Presenter[V]

    @property
    def key(self) -> str:
        return self.rules.key


def _carrier(catalog: Catalog) -> Plugin[Any, Any]:
    return Plugin(CarrierRules(catalog), CarrierPresenter(catalog))


# The ZERO! rulesets share the ZERO! data catalog (deck, aircraft, targets).
FACTORIES: Mapping[str, Callable[[Catalog], Plugin[Any, Any]]] = {
    "carrier": _carrier,
    "land": lambda catalog: Plugin(LandRules(catalog), LandPresenter(catalog)),
    "pearl-harbor": lambda catalog: Plugin(PearlRules(catalog), PearlPresenter(catalog)),
    # Wings of War has its own data; it does not use the ZERO! catalog.
    "wings": lambda _zero: Plugin(WingsRules(wings_catalog()), WingsPresenter()),
    # The Dambuster raids (on Wings' data and rules), one player against the bot.
    "dambuster": lambda _zero: Plugin(DambusterRules(wings_catalog()), WingsPresenter()),
    # Memoir '44's air rules have their own data too.
    "memoir44": lambda _zero: Plugin(Memoir44Rules(), Memoir44Presenter()),
}


# Game systems of the seeds not registered yet; ``/sortie about`` lists them as "not yet".
PLANNED = ("land", "pearl-harbor", "wings", "memoir44")


class Registry:
    """The plugins built once for a catalog; ``get`` refuses an unknown key."""

    def __init__(self, catalog: Catalog) -> None:
        self._plugins = {key: make(catalog) for key, make in FACTORIES.items()}

    def keys(self) -> tuple[str, ...]:
        return tuple(self._plugins)

    def get(self, key: str) -> Plugin[Any, Any]:
        try:
            return self._plugins[key]
        except KeyError:
            raise KeyError(f"unknown ruleset {key!r}") from None

    def __contains__(self, key: object) -> bool:
        return key in self._plugins
