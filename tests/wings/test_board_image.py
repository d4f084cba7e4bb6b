"""The Wings board image: the barrage net drawn as a line of the board, and a long title
wrapped whole rather than cut (seed A.IV.i.2; phone-readable text)."""

from __future__ import annotations

from typing import Any

from engine.rulesets.wings import WingsRules, WingsState
from engine.rulesets.wings.state import Objective
from rendering.rulesets.wings import TITLE_SIZE, WingsPresenter
from tests.rendering.phone import MIN_PHONE_TEXT, recording
from tests.wings.helpers import catalog


def balloon(oid: str, y: float, **extra: Any) -> Objective:
    fields: dict[str, Any] = {"level": 3, **extra}
    return Objective(id=oid, kind="balloon", side="central", x=17.0, y=y, **fields)


def netted(**second: Any) -> tuple[WingsRules, WingsState]:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "board")
    mission = state.camp.mission
    assert mission is not None
    objectives = {"c-B1": balloon("c-B1", 7.0), "c-B2": balloon("c-B2", 15.0, **second)}
    mission = mission.model_copy(update={"nets": True, "objectives": objectives})
    camp = state.camp.model_copy(update={"mission": mission})
    return rules, state.model_copy(update={"campaign": camp})


def drawn(rules: WingsRules, state: WingsState, locale: str = "en", size: float = 0) -> list[str]:
    """The texts drawn on the public status board (of that size only, if given)."""
    with recording() as images:
        WingsPresenter().status_board(rules.view(state, None), {}, None, locale)
    (image,) = images
    assert image.smallest() >= MIN_PHONE_TEXT
    return [text.text for text in image.texts if not size or text.size == size]


def test_the_board_draws_the_net_section_by_section() -> None:
    rules, state = netted()
    texts = " ".join(drawn(rules, state))
    assert "Barrage net along x 17.0" in texts
    assert "edge–c-B1 alt 3 · c-B1–c-B2 alt 3 · c-B2–edge alt 3" in texts
    # A balloon shot down takes its two sections down with it; the lower balloon sets the
    # height of the section it frames.
    rules, state = netted(destroyed=True)
    assert "edge–c-B1 alt 3 · c-B1–c-B2 down · c-B2–edge down" in " ".join(drawn(rules, state))
    rules, state = netted(level=1)
    assert "c-B1–c-B2 alt 1 · c-B2–edge alt 1" in " ".join(drawn(rules, state))
    french = " ".join(drawn(*netted(), locale="fr"))
    assert "Filet de barrage le long de x 17.0" in french and "bord–c-B1 alt 3" in french


def test_no_net_no_line() -> None:
    rules, state = netted()
    mission = state.camp.mission
    assert mission is not None
    camp = state.camp.model_copy(update={"mission": mission.model_copy(update={"nets": False})})
    texts = " ".join(drawn(rules, state.model_copy(update={"campaign": camp})))
    assert "net" not in texts.lower()


def test_a_long_title_is_wrapped_whole_not_cut() -> None:
    # A three-balloon mission in its tailing round: the heading is half as wide again as
    # the card; its end, the round, must still be read.
    rules, state = netted()
    mission = state.camp.mission
    assert mission is not None
    long = mission.model_copy(update={"kind": "balloon", "turn": 8, "round": "reorder"})
    camp = state.camp.model_copy(update={"mission": long, "mission_number": 2})
    state = state.model_copy(update={"campaign": camp})
    for locale, end in (("en", "Tailing reorder"), ("fr", "réordonner")):
        title = " ".join(drawn(rules, state, locale, size=TITLE_SIZE))
        assert "…" not in title and end in title
