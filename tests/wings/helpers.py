"""Small builders for hand-placed Wings of War situations."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.rulesets.wings import WingsState
from engine.rulesets.wings.catalog import Catalog, default_catalog
from engine.rulesets.wings.missions import Sortie, new_mission
from engine.rulesets.wings.program import parse_program
from engine.rulesets.wings.state import (
    CampaignState,
    MissionRules,
    MissionState,
    Pilot,
    PlaneState,
)
from engine.rulesets.wings.turn import Turn
from engine.sight import Eyes, keep_json


def catalog() -> Catalog:
    return default_catalog()


def pilot(**kw: object) -> Pilot:
    """An Entente soldier flying a Camel, changed as asked."""
    base: dict[str, object] = {"id": "P1", "name": "Test", "side": "entente",
                               "behaviour": "soldier", "plane": "camel"}  # fmt: skip
    return Pilot(**{**base, **kw})  # type: ignore[arg-type]


def plane(
    pid: str = "p1",
    type_: str = "albatros_d3",
    side: str = "central",
    x: float = 10.0,
    y: float = 10.0,
    heading: float = 0.0,
    level: int = 2,
    **extra: Any,
) -> PlaneState:
    two_seater = default_catalog().planes[type_].two_seater
    extra.setdefault("observer_lp", 10 if two_seater else None)
    return PlaneState(
        id=pid, type=type_, side=side, x=x, y=y, heading=heading, level=level, **extra
    )  # type: ignore[arg-type]


def mission(*planes: PlaneState, seed: str = "test", **rules: bool) -> MissionState:
    """A mission holding exactly these planes, decks shuffled from ``seed``."""
    sorties = [Sortie(id=p.id, type=p.type, side=p.side) for p in planes]
    base = new_mission(default_catalog(), sorties, Rng(seed, 0, "setup"))
    return base.model_copy(
        update={
            "planes": {p.id: p for p in planes},
            "rules": MissionRules(**rules),
        }
    )


def stack(state: MissionState, letter: str, cards: list[int]) -> MissionState:
    """Put these card ids on top of a damage deck, so a test knows what will be drawn."""
    deck = state.decks[letter]
    rest = tuple(card for card in deck.pile if card not in cards)
    decks = dict(state.decks)
    decks[letter] = deck.model_copy(update={"pile": (*cards, *rest)})
    return state.model_copy(update={"decks": decks})


def card_id(letter: str, value: int, special: str) -> int:
    """The id of the first card in a deck with this value and special."""
    cards = default_catalog().damage_decks[letter].expanded
    return next(i for i, c in enumerate(cards) if c.value == value and c.special == special)


def random_raid(scenario: str, seed: str, cap: int) -> list[str]:
    """A raid (or campaign) of ``scenario`` played through the ruleset with every field picked
    at random from its options (seeded by ``seed``): the state dumped after each round."""
    import random

    from engine.rulesets.wings import WingsRules

    rules = WingsRules(catalog())
    state = rules.new(scenario, seed)
    picks = random.Random(seed)
    dumps: list[str] = []
    while not rules.progress(state).finished:
        progress = rules.progress(state)
        choices = rules.drawn(rules.pending(state), picks)
        state, _ = rules.resolve(state, choices, Rng(seed, progress.turn, progress.round))
        dumps.append(rules.dump(state))
        assert len(dumps) < cap, f"{scenario} did not end within {cap} rounds"
    return dumps


def menu_words(scenario: str, field: str, option: Any) -> dict[str, tuple[str, str]]:
    """How a panel option reads, per language: its label and its description."""
    from rendering.rulesets.wings import WingsPresenter

    presenter = WingsPresenter()
    return {
        locale: (
            presenter.option_text(scenario, field, option.id, locale),
            presenter.option_description(field, option, locale),
        )
        for locale in ("en", "fr")
    }


def program_reads(option: Any, english: tuple[str, str], french_label: str) -> None:
    """Albert Ball's program option (wings-1917) reads ``english`` (label, description) in
    English and ``french_label`` in French, every text within Discord's 100 characters."""
    words = menu_words("wings-1917", "program:P1", option)
    assert words["en"] == english
    assert words["fr"][0] == french_label
    assert all(len(text) <= 100 for pair in words.values() for text in pair)


def seen(state: CampaignState, side: str | None) -> dict[str, Any]:
    """What ``side`` (None: the public) may see of a squadron campaign, as the views hold it:
    the secrecy gate's answer (``engine.sight``), before the campaign's end."""
    data: dict[str, Any] = keep_json(state, Eyes(side=side), finished=state.phase == "ended")
    return data


def with_picks(
    rules: Any, state: Any, picks: dict[str, dict[str, str]] | None = None
) -> dict[str, dict[str, str]]:
    """The open round's choices: every field at its default but those ``picks`` names."""
    choices: dict[str, dict[str, str]] = rules.defaults(rules.pending(state))
    for side, fields in (picks or {}).items():
        choices.setdefault(side, {}).update(fields)
    return choices


def offered(cat: Catalog, plane_: PlaneState, state: MissionState, legal: list[str]) -> list[str]:
    """The quick picks beside a plane's Write button (``legal``: the cards that may open)."""
    from engine.rulesets.wings import quick_picks
    from engine.rulesets.wings.program import default_program, program_text

    first = program_text(default_program(cat, plane_, state.rules, state.turn))
    return quick_picks(cat, state, plane_, legal, first)


def with_planes(
    state: WingsState,
    planes: dict[str, dict[str, Any]],
    mission: dict[str, Any] | None = None,
    campaign: dict[str, Any] | None = None,
) -> WingsState:
    """The state with these planes' fields changed (and the mission's, the campaign's)."""
    current = state.camp.mission
    assert current is not None
    moved = dict(current.planes)
    for pid, changes in planes.items():
        moved[pid] = moved[pid].model_copy(update=changes)
    new_mission = current.model_copy(update={"planes": moved, **(mission or {})})
    camp = state.camp.model_copy(update={"mission": new_mission, **(campaign or {})})
    return state.model_copy(update={"campaign": camp})


def phase_one(state: MissionState, rng_seed: str, **texts: str) -> Turn:
    """Phase 1 of a turn flown with these programs (by plane id), its dice from
    ``Rng(rng_seed, 1, "t")``: each test file keeps the seed its cases were written with."""
    work = Turn(catalog(), state, Rng(rng_seed, 1, "t"))
    work.phase = 1
    work.play_phase({pid: parse_program(text) for pid, text in texts.items()})
    return work
