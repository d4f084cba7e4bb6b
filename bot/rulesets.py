"""The registry of rulesets: one line per game system, found by the campaign's ``ruleset``.

A ``Plugin`` pairs a ruleset's pure rules (``engine.rulesets.<key>``) with its presenter
(``rendering.rulesets.<key>``), each given its own game's data. Adding a ruleset is its two
packages, its locale keys and one line in ``FACTORIES``; nothing else in ``bot/``, ``cogs/``
or ``db/`` changes, and nothing else there names a game (``tests/test_layering.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from engine.ruleset import Rules, View
from engine.rulesets.carrier import CarrierRules
from engine.rulesets.land import LandRules
from engine.rulesets.memoir44 import Memoir44Rules
from engine.rulesets.pearl_harbor import PearlRules
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.catalog import DataError as WingsDataError
from engine.rulesets.wings.catalog import default_catalog as wings_catalog
from engine.rulesets.wings.raid import DambusterRules
from engine.zero import loader as zero_data
from engine.zero.catalog import DataError as ZeroDataError
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
    # Built by the registry from the packaged data, so another process building its own
    # registry draws the same pictures (``bot.drawing``); one made from other data (a
    # test's) is not.
    packaged: bool = False

    @property
    def key(self) -> str:
        return self.rules.key


def _zero(
    rules: Callable[[Any], Rules[Any, Any]], presenter: Callable[[Any], Any]
) -> Plugin[Any, Any]:
    """A ZERO! game: its rules and presenter on the ZERO! catalog (deck, aircraft, targets)."""
    catalog = zero_data.default_catalog()
    return Plugin(rules(catalog), presenter(catalog))


# Each ruleset with its own data: the ZERO! games (carrier, land, Pearl Harbor) share the
# ZERO! catalog, Wings of War and its Dambuster raids Wings' own. The first is the default
# game (``DEFAULT``): what a demo or a new campaign plays when none is named.
FACTORIES: Mapping[str, Callable[[], Plugin[Any, Any]]] = {
    "carrier": lambda: _zero(CarrierRules, CarrierPresenter),
    "land": lambda: _zero(LandRules, LandPresenter),
    "pearl-harbor": lambda: _zero(PearlRules, PearlPresenter),
    "wings": lambda: Plugin(WingsRules(wings_catalog()), WingsPresenter()),
    # The Dambuster raids (on Wings' data and rules), one player against the bot.
    "dambuster": lambda: Plugin(DambusterRules(wings_catalog()), WingsPresenter()),
    # Memoir '44's air rules have their own data too.
    "memoir44": lambda: Plugin(Memoir44Rules(), Memoir44Presenter()),
}
DEFAULT = next(iter(FACTORIES))

# A game's data that does not load: its file and entry are in the message.
DATA_ERRORS: tuple[type[Exception], ...] = (ZeroDataError, WingsDataError)


# Game systems of the seeds not registered yet; ``/sortie about`` lists them as "not yet".
PLANNED = ("land", "pearl-harbor", "wings", "memoir44")


class Registry:
    """Every game's plugin, built once; ``get`` refuses an unknown key."""

    def __init__(self) -> None:
        self._plugins = {key: replace(make(), packaged=True) for key, make in FACTORIES.items()}

    @property
    def default(self) -> str:
        """The game played when none is named."""
        return DEFAULT

    def keys(self) -> tuple[str, ...]:
        return tuple(self._plugins)

    def get(self, key: str) -> Plugin[Any, Any]:
        try:
            return self._plugins[key]
        except KeyError:
            raise KeyError(f"unknown ruleset {key!r}") from None

    def __contains__(self, key: object) -> bool:
        return key in self._plugins
