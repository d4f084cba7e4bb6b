"""The secrecy of cloud cover (seed B.V) through the seam: two campaigns that differ only
in what a plane flies blind in the clouds look the same to the other side and the public,
views, events and images alike, until it comes out."""

from __future__ import annotations

from typing import Any

from engine.rng import Rng
from engine.ruleset import Event, Refusal
from engine.rulesets.wings import SEALED, WingsRules, WingsState
from engine.rulesets.wings.written import seal
from rendering.rulesets.wings import WingsPresenter
from tests.wings.helpers import catalog

SEED = "clouds"


def in_the_clouds() -> tuple[WingsRules, WingsState, str]:
    """Turn 1 of wings-1917 (cloud cover agreed) with the first Central plane in the clouds,
    two cards already written down."""
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", SEED)
    mission = state.camp.mission
    assert mission is not None and mission.rules.cloud_cover
    pid = next(p for p in sorted(mission.planes) if mission.planes[p].side == "central")
    blind = mission.planes[pid].model_copy(
        update={"in_cloud": True, "level": 4, "cloud_cards": ("S", "S"),
                "cloud_salt": "5eed5a1t00000000", "last_card": "S"}
    )  # fmt: skip
    mission = mission.model_copy(update={"planes": {**mission.planes, pid: blind}})
    camp = state.camp.model_copy(update={"mission": mission})
    return rules, state.model_copy(update={"campaign": camp}), pid


def defaults(rules: WingsRules, state: WingsState) -> dict[str, dict[str, str]]:
    picks: dict[str, dict[str, str]] = {"entente": {}, "central": {}}
    for decision in rules.pending(state):
        picks[decision.side][decision.field] = decision.default
    return picks


def turn(
    rules: WingsRules, state: WingsState, blind: str
) -> tuple[WingsState, list[Event], dict[str, str]]:
    """One seam turn (program, then reorder) with the first plane of the Central Powers
    flying ``blind``, written as a player writes it; every other plane takes its default."""
    picks = defaults(rules, state)
    field = "program:P3"
    menu = next(d for d in rules.pending(state) if d.side == "central" and d.field == field)
    token = rules.read_text(state, menu, blind.lower())
    assert not isinstance(token, Refusal), token
    assert rules.text_of(state, menu, token) == blind  # its own side reads it back
    picks["central"][field] = token
    labels = {o.id: o.label for o in menu.options}
    state, events = rules.resolve(state, picks, Rng(SEED, state.turn, "program"))
    state, flown = rules.resolve(state, defaults(rules, state), Rng(SEED, state.turn, "reorder"))
    return state, [*events, *flown], {"token": token, "label": labels.get(token, token)}


def seen(rules: WingsRules, state: WingsState, viewer: str | None) -> tuple[Any, bytes, bytes]:
    view = rules.view(state, viewer)
    presenter = WingsPresenter()
    board = presenter.status_board(view, {"entente": True, "central": True}, None, "en")
    return view.model_dump(), board, presenter.panel_image(view, "en")


def test_what_a_plane_flies_in_the_clouds_is_hidden_until_it_comes_out() -> None:
    rules, start, pid = in_the_clouds()
    left, left_events, left_pick = turn(rules, start, "HL S S")
    right, right_events, right_pick = turn(rules, start, "S S HR")
    # The two campaigns did differ: the Central Powers' own view says what was written down.
    own = (
        left.camp.mission.planes[pid].cloud_cards,  # type: ignore[union-attr]
        right.camp.mission.planes[pid].cloud_cards,  # type: ignore[union-attr]
    )
    assert own == (("S", "S", "HL", "S", "S"), ("S", "S", "S", "S", "HR"))
    assert seen(rules, left, "central")[0] != seen(rules, right, "central")[0]
    # The Entente and the public see the same views and the same images...
    for viewer in ("entente", None):
        assert seen(rules, left, viewer) == seen(rules, right, viewer)
    # ...and the same public events.
    assert [e.model_dump() for e in left_events] == [e.model_dump() for e in right_events]
    # The order opened at the turn's end is a sealed token, not the cards.
    for pick, cards in ((left_pick, "HL S S"), (right_pick, "S S HR")):
        assert pick["token"].startswith(SEALED) and pick["label"] == pick["token"]
        assert cards not in WingsPresenter().option_text(
            "wings-1917", "program:P3", pick["token"], "en"
        )
    # Sealed under the plane's own salt: the same program under another salt reads otherwise.
    plane = start.camp.mission.planes[pid]  # type: ignore[union-attr]
    other = plane.model_copy(update={"cloud_salt": "0000000000000000"})
    assert seal(plane.cloud_salt, 1, pid, "HL S S") != seal(other.cloud_salt, 1, pid, "HL S S")


def test_coming_out_shows_everything_written_down() -> None:
    rules, start, pid = in_the_clouds()
    state, _events, _pick = turn(rules, start, "HL S S")
    out, events, _pick = turn(rules, state, "DV S S")
    shown = [e for e in events if e.kind == "left-clouds"]
    assert shown and shown[0].data["cards"] == ["S", "S", "HL", "S", "S"]
    assert not out.camp.mission.planes[pid].in_cloud  # type: ignore[union-attr]


def test_the_boards_say_in_the_clouds_and_only_its_side_reads_the_cards() -> None:
    rules, state, pid = in_the_clouds()
    presenter = WingsPresenter()

    def text(state: WingsState, viewer: str | None) -> str:
        lines = presenter._plane_lines(rules.view(state, viewer), "en")
        return "\n".join(line for line, _colour, _bold in lines)

    assert "in the clouds, flown blind: S S" in text(state, "central")
    for viewer in ("entente", None):
        assert "in the clouds" in text(state, viewer) and "flown blind" not in text(state, viewer)
    # Out of the clouds but at their edge: its side is told why its menu reads sealed.
    mission = state.camp.mission
    assert mission is not None
    edge = mission.planes[pid].model_copy(update={"in_cloud": False, "cloud_cards": ()})
    camp = state.camp.model_copy(
        update={"mission": mission.model_copy(update={"planes": {**mission.planes, pid: edge}})}
    )
    state = state.model_copy(update={"campaign": camp})
    assert "at the edge of the clouds" in text(state, "central")
    assert "clouds" not in text(state, "entente") and "clouds" not in text(state, None)
    menu = next(d for d in rules.pending(state) if d.side == "central" and d.field == "program:P3")
    assert all(o.id.startswith(SEALED) for o in menu.options)
