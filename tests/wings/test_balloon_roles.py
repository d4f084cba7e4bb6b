"""The optional strategic roles of balloons (seed A.IV.i): artillery spotting, battlefield
surveillance (F.VI.d.3's efficient alert) and air defence (the baskets' machine guns)."""

from __future__ import annotations

from collections import Counter

from engine.rng import Rng
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import balloon_roles as roles
from engine.rulesets.wings.objectives import awards
from engine.rulesets.wings.program import (
    check_program,
    default_program,
    legal_first_cards,
    parse_program,
)
from engine.rulesets.wings.state import MissionState, Objective, PlaneState
from engine.rulesets.wings.turn import Turn, play_turn
from tests.wings.helpers import catalog, mission, offered, plane
from tests.wings.test_turn import programs

SCENARIO = "wings-1917-balloons"


def balloon(x: float = 13.0, y: float = 10.0, level: int = 3, **extra: object) -> Objective:
    return Objective(
        id="c-B1",
        kind="balloon",
        side="central",
        x=x,
        y=y,
        level=level,
        **extra,  # type: ignore[arg-type]
    )


def with_role(role: str, e: PlaneState, **update: object) -> MissionState:
    far = plane("c", type_="dr1", side="central", x=20.0, y=20.0, heading=180.0)
    objectives = {"c-B1": update.pop("objective", balloon())}
    return mission(e, far).model_copy(
        update={"kind": "balloon", "objectives": objectives, "balloon_role": role, **update}
    )


def camel(**extra: object) -> PlaneState:
    return plane("e", type_="camel", side="entente", **extra)  # type: ignore[arg-type]


# --- the role, drawn at the briefing ----------------------------------------------------------


def test_the_scenario_gives_each_balloon_mission_a_public_role() -> None:
    rules = WingsRules(catalog())
    seen: Counter[str] = Counter()
    for seed in range(24):
        state = rules.new(SCENARIO, f"role{seed}")
        m = state.camp.mission
        assert m is not None and m.kind == "balloon" and m.balloon_role in roles.ROLES
        seen[m.balloon_role] += 1
        if m.balloon_role == roles.SPOTTING:
            assert m.artillery_turn is not None and 4 <= m.artillery_turn <= 8
        else:
            assert m.artillery_turn is None
        # Public: both sides' views and the public one say it.
        for viewer in ("entente", "central", None):
            assert rules.view(state, viewer).data["mission"]["balloon_role"] == m.balloon_role
    assert set(seen) == set(roles.ROLES)  # every role comes up


def test_without_the_switch_a_balloon_mission_has_no_role_and_the_rest_is_the_same() -> None:
    rules = WingsRules(catalog())
    on = rules.new(SCENARIO, "same").camp.mission
    off = rules.new("wings-1917", "same").camp.mission
    assert on is not None and off is not None
    assert off.balloon_role is None and on.balloon_role is not None
    # The role's own stream: the table, the decks and the weather are drawn alike.
    assert on.decks == off.decks and on.planes == off.planes and on.objectives == off.objectives


def test_the_same_seed_draws_the_same_role() -> None:
    rules = WingsRules(catalog())
    first = [rules.new(SCENARIO, f"d{n}").camp.mission for n in range(6)]
    again = [rules.new(SCENARIO, f"d{n}").camp.mission for n in range(6)]
    assert [(m.balloon_role, m.artillery_turn) for m in first if m] == [
        (m.balloon_role, m.artillery_turn) for m in again if m
    ]


def test_the_briefing_tells_the_role_in_both_languages() -> None:
    from bot.logtext import describe

    rules = WingsRules(catalog())
    for seed in range(24):
        state = rules.new(SCENARIO, f"role{seed}")
        m = state.camp.mission
        assert m is not None
        told = [e for e in rules.opening(state) if e.kind.startswith("balloon-role-")]
        assert len(told) == 1
        english = describe(told[0].kind, told[0].data, "en")
        french = describe(told[0].kind, told[0].data, "fr")
        assert english.startswith("Balloon role") and french.startswith("Rôle des ballons")
        if m.balloon_role == roles.SPOTTING:
            assert f"turn {m.artillery_turn}" in english and f"tour {m.artillery_turn}" in french


# --- artillery spotting --------------------------------------------------------------------


def spotting(turn_limit: int, **objective: object) -> MissionState:
    e = camel(x=3.0, y=3.0)
    return with_role(roles.SPOTTING, e, artillery_turn=turn_limit, objective=balloon(**objective))


def test_the_artillery_fires_when_no_balloon_burns_by_its_turn_and_the_attack_fails() -> None:
    after, events = play_turn(
        catalog(), spotting(1), programs(e="S S S", c="S S S"), Rng("a", 1, "t")
    )
    assert after.finished and after.turn == 2  # over after turn 1, not turn 8
    assert [e.data for e in events if e.kind == "artillery-fired"] == [
        {"side": "central", "against": "entente"}
    ]
    # The attack failed; the aggressor still flies, so the air is not the defender's: a draw
    # (seed E.I.a), and the intact balloon scores for its side.
    assert after.winner == "draw"
    scored = awards(catalog(), after)
    assert not scored.success and ("central", "defended_intact", "c-B1", 3) in scored.lines


def test_the_artillery_waits_for_its_turn_and_a_burning_balloon_blinds_it() -> None:
    early, events = play_turn(
        catalog(), spotting(2), programs(e="S S S", c="S S S"), Rng("a", 1, "t")
    )
    assert not early.finished and not any(e.kind == "artillery-fired" for e in events)
    burning, events = play_turn(
        catalog(), spotting(1, fire=1), programs(e="S S S", c="S S S"), Rng("a", 1, "t")
    )
    assert not burning.finished and not any(e.kind == "artillery-fired" for e in events)
    down, events = play_turn(
        catalog(), spotting(1, destroyed=True), programs(e="S S S", c="S S S"), Rng("a", 1, "t")
    )
    assert not down.finished and not any(e.kind == "artillery-fired" for e in events)


# --- battlefield surveillance: the efficient alert -------------------------------------------


def surveillance(x: float, weather: str = "clear") -> MissionState:
    return with_role(roles.SURVEILLANCE, camel(x=x, y=5.0, level=3), weather=weather)


def test_an_aggressor_seen_in_the_balloon_sides_zone_is_held_for_the_next_two_turns() -> None:
    after, events = play_turn(
        catalog(), surveillance(12.0), programs(e="S S S", c="S S S"), Rng("s", 1, "t")
    )
    assert after.planes["e"].status == "flying"
    assert after.planes["e"].x > 22.2 * 3 / 4  # in the Central zone at the turn's end
    assert after.alert_turns == (2, 3)
    assert after.planes["e"].surprised_turns == (2, 3)
    assert after.planes["c"].surprised_turns == ()  # the balloon side programs freely
    raised = [e.data for e in events if e.kind == "alert-raised"]
    assert raised == [
        {"side": "central", "against": "entente", "plane": "e", "first": 2, "last": 3}
    ]


def test_no_alert_short_of_the_zone_nor_out_of_clear_weather() -> None:
    short, _ = play_turn(
        catalog(), surveillance(3.0), programs(e="S S S", c="S S S"), Rng("s", 1, "t")
    )
    assert short.alert_turns == ()
    cloudy, _ = play_turn(
        catalog(),
        surveillance(12.0, weather="medium"),
        programs(e="S S S", c="S S S"),
        Rng("s", 1, "t"),
    )
    assert cloudy.alert_turns == () and cloudy.planes["e"].surprised_turns == ()


def refusals(text: str, turn: int = 2, **extra: object) -> list[str]:
    p = camel(surprised_turns=(2, 3), **extra)
    program = parse_program(text)
    return [r.reason for r in check_program(catalog(), p, program, mission(p).rules, turn)]


def test_under_the_alert_a_plane_flies_one_card_thrice_and_no_immelmann_nor_split_s() -> None:
    assert refusals("S S S") == []
    assert refusals("BL BL BL") == []  # one card flown thrice: the deck's copies do not bind
    assert refusals("S BL S") == ["alert-one-card"]
    assert set(refusals("S S IM")) == {"alert-one-card", "alert-no-immelmann"}
    assert "alert-no-immelmann" in refusals("split_s: ST IM S")
    assert refusals("ST ST ST") == ["steep-after-steep", "steep-after-steep"]  # diamonds still
    assert refusals("CL CL CL") == ["one-climb-per-turn", "one-climb-per-turn"]
    # Outside the two turns, the usual rules.
    assert refusals("S BL S", turn=4) == []
    assert refusals("BL BL BL", turn=4) == ["too-many-copies", "too-many-copies"]
    # A hit engine owes a stall no single card flies thrice: it is spared the alert.
    assert refusals("S S ST", engine_hits=1) == []


def test_the_panel_offers_the_cards_a_held_plane_may_fly_thrice_and_the_default_is_legal() -> None:
    p = camel(surprised_turns=(2,))
    rules = mission(p).rules
    legal, refused = legal_first_cards(catalog(), p, rules, 2)
    assert "BL" in legal and "TR" in legal and "S" in legal
    assert dict(refused)["IM"] == "alert-no-immelmann"
    assert check_program(catalog(), p, default_program(catalog(), p, rules, 2), rules, 2) == []
    # The quick picks are each one card thrice, none an Immelmann nor a diamond thrice.
    picks = offered(catalog(), p, mission(p).model_copy(update={"turn": 2}), legal)
    cards = [text.split() for text in picks]
    assert cards and all(len(set(c)) == 1 for c in cards)
    assert {c[0] for c in cards} >= {"S", "BL", "BR", "TL", "TR"}
    assert not {c[0] for c in cards} & {"IM", "ST", "CL", "DV"}


# --- air defence: the baskets' machine guns --------------------------------------------------


def basket_shot(level: int, x: float, y: float, **objective: object) -> tuple[bool, bool]:
    """(fired, short range) of the basket of a level-3 balloon at (13, 10) at the camel."""
    e = camel(x=x, y=y, level=level)
    work = Turn(catalog(), with_role(roles.AIR_DEFENCE, e, objective=balloon(**objective)),
                Rng("d", 1, "t"))  # fmt: skip
    shots = roles.basket_fire(work, work.flying())
    assert len(shots) <= 1 and all(s.shooter == "c-B1" and s.target == "e" for s in shots)
    return bool(shots), bool(shots and shots[0].short)


def test_the_basket_fires_all_round_at_its_level_and_one_below() -> None:
    assert basket_shot(3, 11.0, 10.0) == (True, True)  # same level, within R/2: short range
    assert basket_shot(3, 9.0, 10.0) == (True, False)  # same level, beyond R/2: long range
    assert basket_shot(3, 13.0, 6.0) == (True, False)  # all round: behind its card too
    assert basket_shot(3, 6.0, 10.0) == (False, False)  # out of the ruler's reach
    assert basket_shot(2, 11.0, 10.0) == (True, False)  # one below, within R/2: long range
    assert basket_shot(2, 9.0, 10.0) == (False, False)  # one below, beyond R/2
    assert basket_shot(1, 12.0, 10.0) == (False, False)  # two below: no shot


def test_one_level_above_only_beside_the_long_sides_within_half_a_ruler_at_long_range() -> None:
    assert basket_shot(4, 11.5, 10.0) == (True, False)  # beside a long side, short reach
    assert basket_shot(4, 14.5, 10.3) == (True, False)  # beside the other long side
    assert basket_shot(4, 13.0, 12.4) == (False, False)  # past a short side: not along
    assert basket_shot(4, 9.5, 10.0) == (False, False)  # beside it but beyond R/2
    assert basket_shot(5, 12.0, 10.0) == (False, False)  # two above


def test_a_burning_balloon_or_another_role_fires_nothing() -> None:
    assert basket_shot(3, 11.0, 10.0, fire=1) == (False, False)
    e = camel(x=11.0, y=10.0, level=3)
    for role in (roles.SPOTTING, roles.SURVEILLANCE, None):
        state = with_role(roles.AIR_DEFENCE, e).model_copy(update={"balloon_role": role})
        work = Turn(catalog(), state, Rng("d", 1, "t"))
        assert roles.basket_fire(work, work.flying()) == []


def test_the_basket_shot_is_dealt_like_a_caa_shot_from_the_caa_deck() -> None:
    e = camel(x=11.0, y=10.0, level=3, heading=180.0)  # flying away from the balloon
    state = with_role(roles.AIR_DEFENCE, e)
    work = Turn(catalog(), state, Rng("d", 1, "t"))
    work.phase = 1
    work.play_phase(programs(e="S S S", c="S S S"))
    fired = [ev.data for ev in work.events if ev.kind == "fire" and ev.data["shooter"] == "c-B1"]
    assert fired == [{"shooter": "c-B1", "gun": "basket", "target": "e", "range": "long",
                      "cards": 1}]  # fmt: skip
    assert [deck for deck, _card in work.planes["e"].cards] == [catalog().rules.fire.caa_deck]


def _campaign_dump(seed: str, rounds: int) -> str:
    """The scenario played ``rounds`` rounds, every side at its defaults, as stored."""
    rules = WingsRules(catalog())
    state = rules.new(SCENARIO, seed)
    for index in range(rounds):
        if rules.progress(state).finished:
            break
        choices = rules.defaults(rules.pending(state))
        state, _ = rules.resolve(state, choices, Rng(seed, index, "round"))
    return rules.dump(state)


def test_the_same_seed_and_choices_replay_a_mission_with_roles_byte_for_byte() -> None:
    # roles-3 spots for the artillery, roles-7 watches in clear weather, roles-1 shoots.
    for seed in ("roles-3", "roles-7", "roles-1"):
        first = _campaign_dump(seed, 10)
        assert first == _campaign_dump(seed, 10)
        assert '"balloon_role":"' in _campaign_dump(seed, 1)  # the role was played
