"""The air war through the seam: rounds and fields, typed text, defaults, storage."""

from __future__ import annotations

import random
from collections.abc import Mapping

from hypothesis import given
from hypothesis import strategies as st

from engine.rng import Rng
from engine.ruleset import Event
from engine.rulesets.memoir44 import Memoir44Rules
from engine.rulesets.memoir44.seam import Refusal
from engine.rulesets.memoir44.state import GameState

RULES = Memoir44Rules()


def decisions(state: GameState, side: str | None = None) -> dict[str, object]:
    return {d.field: d for d in RULES.pending(state) if side is None or d.side == side}


def step(
    state: GameState, picks: Mapping[str, str], seed: str = "s"
) -> tuple[GameState, list[Event]]:
    """One round as the service plays it: the asked side's picks over its defaults."""
    progress = RULES.progress(state)
    choices: dict[str, dict[str, str]] = {}
    for decision in RULES.pending(state):
        value = picks.get(decision.field, decision.default)
        choices.setdefault(decision.side, {})[decision.field] = value
    return RULES.resolve(state, choices, Rng(seed, progress.turn, progress.round))


def test_scenarios_and_switches() -> None:
    assert "d-day" in RULES.scenarios()
    plain = RULES.new("western-1944", "seed")
    assert RULES.new_switched("western-1944", "seed", {}) == plain
    pacific = RULES.new_switched("western-1944", "seed", {"theatre": "pacific", "axis": "japan"})
    assert pacific.sides["allies"].trio["fighter"] == "f4u"
    names = [s.name for s in RULES.switches("d-day")]
    assert names == ["theatre", "year", "beach", "allies", "axis", "first", "turns"]
    beach = next(s for s in RULES.switches("d-day") if s.name == "beach")
    assert beach.default == "yes"


def test_opening_says_the_hand_sizes_never_the_cards() -> None:
    state = RULES.new("d-day", "seed")
    events = RULES.opening(state)
    assert events[0].data["superiority"] == "m44-allies"  # a word for the log
    drawn = {e.data["side"]: e.data["cards"] for e in events if e.kind == "m44-drew"}
    assert drawn == {"allies": 2, "axis": 1}
    assert drawn == {side: len(state.sides[side].hand) for side in ("allies", "axis")}


def test_only_the_active_side_is_asked_for_orders() -> None:
    state = RULES.new("western-1944", "seed")
    assert {d.side for d in RULES.pending(state)} == {"allies"}
    fields = decisions(state)
    assert set(fields) == {"command", "card", "plane"}  # no enemy plane: no ground fire
    plane = fields["plane"]
    assert [o.id for o in plane.options] == [  # type: ignore[attr-defined]
        "none",
        "deploy-fighter",
        "deploy-fighter_bomber",
        "deploy-bomber",
    ]


def test_a_deploy_without_a_card_is_refused_as_a_whole() -> None:
    state = RULES.new("western-1944", "seed")
    refusal = RULES.check_choice(
        state, "allies", {"command": "probe-centre", "card": "none", "plane": "deploy-fighter"}
    )
    assert refusal == Refusal("m44-deploy-needs-card", {})
    card = next(o.id for o in decisions(state)["card"].options if o.id != "none")  # type: ignore[attr-defined]
    ok = {"command": "probe-centre", "card": card, "plane": "deploy-fighter"}
    assert RULES.check_choice(state, "allies", ok) is None


def test_a_turn_through_the_seam() -> None:
    state = RULES.new("western-1944", "seed")
    card = sorted(c.split("#")[0] for c in state.sides["allies"].hand)[0]
    state, events = step(state, {"command": "probe-centre", "card": card, "plane": "deploy-bomber"})
    assert RULES.progress(state).round == "flight" and RULES.progress(state).turn == 1
    flight = decisions(state)["flight"]
    text = RULES.read_text(state, flight, "e6 inf e7 arm, e8 objective")  # type: ignore[arg-type]
    assert text == "E6 bomb inf, E7 bomb arm, E8 objective"
    bad = RULES.read_text(state, flight, "E6 E8")  # type: ignore[arg-type]
    assert bad == Refusal("m44-path-not-adjacent", {"frm": "E6", "to": "E8"})
    state, events = step(state, {"flight": text})
    assert RULES.progress(state).round == "reaction"
    asked = RULES.pending(state)
    assert {d.side for d in asked} == {"axis"}
    ambush = decisions(state)["ambush"]
    assert "2-armour" in [o.id for o in ambush.options]  # type: ignore[attr-defined]
    state, events = step(state, {"ambush": "2-armour"})
    kinds = [e.kind for e in events]
    assert kinds[0] == "m44-ambush" and "m44-roll" in kinds
    assert RULES.progress(state).turn == 2 and RULES.progress(state).round == "command"


def test_ground_fire_is_asked_when_the_enemy_plane_is_up() -> None:
    state = RULES.new("western-1944", "seed")
    card = sorted(c.split("#")[0] for c in state.sides["allies"].hand)[0]
    state, _ = step(state, {"command": "probe-centre", "card": card, "plane": "deploy-fighter"})
    state, _ = step(state, {"flight": "E6 E7"})
    fire = decisions(state)["fire"]
    assert RULES.read_text(state, fire, "Inf, ART") == "inf, art"  # type: ignore[arg-type]
    assert RULES.read_text(state, fire, "") == "none"  # type: ignore[arg-type]
    assert RULES.read_text(state, fire, "tank 3") == Refusal("m44-shot-word", {"word": "tank"})  # type: ignore[arg-type]
    refusal = RULES.check_choice(state, "axis", {"command": "probe-left", "fire": "inf+"})
    assert refusal == Refusal("m44-close-assault-needed", {})


def test_storage_keeps_the_history_apart_and_rebuilds_the_same_state() -> None:
    state = RULES.new("western-1944", "seed")
    for _ in range(5):
        state, _ = step(state, {})
    stored = RULES.dump_stored(state)
    assert stored.length == len(state.history) == 5
    assert RULES.load_stored(stored.current, stored.records) == state
    assert RULES.dump(RULES.load(RULES.dump(state))) == RULES.dump(state)


def test_each_side_sees_its_own_hand_only() -> None:
    state = RULES.new("western-1944", "seed")
    allies, axis, public = (RULES.view(state, v) for v in ("allies", "axis", None))
    assert allies.sides["allies"].hand is not None
    assert allies.sides["axis"].hand is None
    assert axis.sides["allies"].hand is None and public.sides["allies"].hand is None
    assert public.sides["allies"].hand_size == 3


@given(st.integers(0, 10_000))
def test_any_offered_pick_plays_without_refusal(seed: int) -> None:
    """Menus offer only legal options and every quick pick reads back as itself: whatever a
    side picks among them (checked together by check_choice), resolve never refuses."""
    pick = random.Random(seed)
    state = RULES.new(pick.choice(list(RULES.scenarios())), f"s{seed}")
    for _ in range(40):
        if state.finished:
            break
        for _attempt in range(20):
            choice: dict[str, dict[str, str]] = {}
            for decision in RULES.pending(state):
                assert decision.allows(decision.default)
                value = pick.choice([o.id for o in decision.options])
                if decision.field in ("flight", "fire"):
                    assert RULES.read_text(state, decision, value) == value
                if decision.field == "command" and value == "victory" and pick.random() < 0.9:
                    value = "probe-left"
                choice.setdefault(decision.side, {})[decision.field] = value
            if all(RULES.check_choice(state, side, c) is None for side, c in choice.items()):
                break
        else:
            choice = {d.side: {} for d in RULES.pending(state)}
            for decision in RULES.pending(state):
                choice[decision.side][decision.field] = decision.default
        progress = RULES.progress(state)
        state, events = RULES.resolve(state, choice, Rng(f"s{seed}", progress.turn, progress.round))
        assert all(e.kind != "m44-refused" for e in events), events


def test_an_illegal_combination_reaching_resolve_is_played_as_the_table_would() -> None:
    """Until the seam checks a round's picks together at Lock, an illegal combination is
    played out: the card named is spent (it was revealed), the plane does nothing, and the
    turn's record says why."""
    state = RULES.new("western-1944", "seed")
    card = sorted(c.split("#")[0] for c in state.sides["allies"].hand)[0]
    state, events = step(
        state, {"command": "close-assault", "card": card, "plane": "deploy-fighter"}
    )
    assert events[0].kind == "m44-refused" and events[0].data["reason"] == "deploy-needs-section"
    assert state.sides["allies"].plane is None
    assert [c.split("#")[0] for c in state.discard] == [card]
    assert state.history[-1].plan.refused == "m44-deploy-needs-section"
