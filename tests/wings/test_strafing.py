"""The strafing mission (seed E.I.a): the active squadron picks it at the briefing, the
generator mans a trench on each post to strafe, the attacker's guns destroying every post
win it, and anything less loses it or draws."""

from __future__ import annotations

from engine.rng import Rng
from engine.ruleset import Option
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings import campaign as wings
from engine.rulesets.wings.campaign import new_campaign
from engine.rulesets.wings.generator import generate_mission
from engine.rulesets.wings.objectives import awards, mission_result
from engine.rulesets.wings.state import MissionState, Objective, PlaneState
from engine.rulesets.wings.strafing import fit_menu, man_posts
from engine.rulesets.wings.turn import play_turn
from rendering.i18n import t
from rendering.rulesets.wings import WingsPresenter
from rendering.rulesets.wings.map import SIDE_INK, table_map
from tests.test_french import english_only
from tests.wings.helpers import catalog, mission, plane, stack
from tests.wings.test_mission_kinds import with_recon_crew
from tests.wings.test_pilots_campaign import squadrons
from tests.wings.test_reinforcements import _with
from tests.wings.test_turn import programs

# An Entente Camel hedge-hopping at level 1 straight at a Central post (test_ground's
# strafing run); the Central fighter far away, out of sight.
CAMEL = plane("c", type_="camel", side="entente", x=6.0, y=10.0, level=1, jams={})
FAR = plane("f", type_="dr1", side="central", x=20.0, y=20.0, heading=180, level=3)


def strafing_run(*planes: PlaneState, card: int, damage: int = 3) -> MissionState:
    """A strafing mission against one Central post at (11, 10) that has taken ``damage``,
    the A deck opening with six copies of the drawn card's kind (any draw gives ``card``)."""
    site = Objective(id="c-G1", kind="post", side="central", x=11.0, y=10.0)
    objectives, ground = man_posts({site.id: site}, {})
    post = next(iter(ground.values())).model_copy(update={"damage": damage})
    state = mission(*planes).model_copy(
        update={"kind": "strafing", "objectives": objectives, "ground": {post.id: post}}
    )
    deck = catalog().damage_decks["A"].expanded
    same = [i for i, c in enumerate(deck) if c.value == card and c.special == "none"]
    return stack(state, "A", same)


def test_the_briefing_offers_strafing_without_a_two_seater_and_prices_it() -> None:
    state = new_campaign(catalog(), "s", squadrons())  # type: ignore[arg-type]
    offered = [o.id for o in wings.mission_decision(catalog(), state).options]
    assert {"strafing", "strafing-2", "strafing-3"} <= set(offered)
    made, points, _ = generate_mission(catalog(), state, Rng("s", 1, "b"), "strafing", 2)
    assert made.kind == "strafing"
    assert ("mission:strafing", 0) in points.lines and ("extra objectives", 1) in points.lines
    sites = sorted(made.objectives.values(), key=lambda o: o.id)
    assert [s.kind for s in sites] == ["post", "post"]
    ruler = catalog().rules.units.ruler
    for site in sites:
        trench = made.ground[site.post or ""]
        assert (trench.kind, trench.side, trench.x, trench.y) == (
            "trench",
            site.side,
            site.x,
            site.y,
        )
        border = made.table[0] * (3 / 4 if site.side == "central" else 1 / 4)
        assert abs(site.x - border) <= ruler / 2  # seed E.I.b: within R/2 of the border
    # Seed E.I.b: every other element R/2 clear of the posts.
    for element in made.ground.values():
        if element.id in {s.post for s in sites}:
            continue
        for site in sites:
            assert (
                (element.x - site.x) ** 2 + (element.y - site.y) ** 2
            ) ** 0.5 >= ruler / 2 - 1e-6


def test_destroying_the_post_with_the_guns_wins_the_mission() -> None:
    state = strafing_run(CAMEL, FAR.model_copy(update={"status": "shot_down"}), card=2)
    after, _ = play_turn(catalog(), state, programs(c="S S S"), Rng("s", 1, "t"))
    post = after.ground["c-I1"]
    assert post.destroyed and post.destroyed_by == "c"
    site = after.objectives["c-G1"]
    assert site.destroyed and site.hit_by == "c"  # the board and the list show it
    assert after.finished and after.winner == "entente"
    scored = awards(catalog(), after)
    assert scored.success and scored.team["entente"] == 3
    assert ("entente", "post_destroyed", "c-G1", 3) in scored.lines


def test_a_post_left_standing_loses_or_draws() -> None:
    # Blank cards: the Camel's pass leaves the post standing, its own fighter gone home.
    state = strafing_run(CAMEL, FAR, card=0, damage=0)
    after, _ = play_turn(catalog(), state, programs(c="S S S", f="S S S"), Rng("s", 1, "t"))
    assert not after.ground["c-I1"].destroyed
    fled = after.planes["c"].model_copy(update={"status": "left", "x": 22.5})
    lost = after.model_copy(update={"planes": {**after.planes, "c": fled}})
    assert mission_result(lost) == "central"
    scored = awards(catalog(), lost)
    assert not scored.success and scored.team["entente"] == 0
    # Still in the air at the end, the post standing: neither side met its goals.
    assert mission_result(after) == "draw"


def test_a_post_destroyed_by_anything_but_the_attacker_s_fire_is_not_strafed() -> None:
    state = strafing_run(CAMEL, FAR, card=0)
    post = state.ground["c-I1"]
    for by in (None, "f"):  # no plane, or the defender's own
        wrecked = post.model_copy(update={"destroyed": True, "destroyed_by": by})
        site = state.objectives["c-G1"].model_copy(update={"destroyed": True})
        shot = state.model_copy(
            update={"ground": {post.id: wrecked}, "objectives": {site.id: site}}
        )
        assert mission_result(shot) != "entente"


def test_strafing_reads_in_french_without_english() -> None:
    presenter = WingsPresenter()
    english = english_only()
    for value in ("strafing", "strafing-2", "strafing-3"):
        words = presenter.option_text("wings-1917", "mission", value, "fr")
        assert words != value and not set(words.lower().split()) & english, words
    assert presenter.option_text("wings-1917", "mission", "strafing", "en") == "strafing"


def test_the_board_rings_each_post_to_strafe() -> None:
    state = strafing_run(CAMEL, FAR, card=0)
    width = 768
    scale = (width - 36 - 8) / state.table[0]
    ring = 0.55 * scale - 1  # inside the ring's 3-pixel stroke, above the trench
    top = state.table[1]  # the table's y grows upwards (authored 3.1)
    at = (round(36 + 11.0 * scale), round(36 + (top - 10.0) * scale - ring))
    ringed = table_map(state.model_dump(mode="json"), {}, width, "en")
    bare = table_map(
        state.model_copy(update={"objectives": {}}).model_dump(mode="json"), {}, width, "en"
    )
    assert ringed.getpixel(at) == SIDE_INK["central"] != bare.getpixel(at)


def test_the_briefing_menu_keeps_within_a_select_s_25_options() -> None:
    # With every mission open (a crew, a pilot to rescue, four major objectives), strafing's
    # counts give way, the highest first; its single-post option stays.
    state = new_campaign(catalog(), "s", squadrons())  # type: ignore[arg-type]
    offered = list(wings.mission_decision(catalog(), state).options)
    padding = [Option(id=f"pad{i}", label="x") for i in range(26 - len(offered))]
    fitted = [o.id for o in fit_menu([*offered, *padding])]
    assert len(fitted) == 25
    assert "strafing" in fitted and "strafing-2" in fitted and "strafing-3" not in fitted
    assert [o.id for o in fit_menu(offered)] == [o.id for o in offered]  # room: unchanged


def test_the_key_under_the_table_says_what_a_posts_ring_is() -> None:
    """Every mark on the table has its key: a post to strafe is a ring round a trench."""
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "key")
    made, _points, _forces = generate_mission(
        catalog(), with_recon_crew(), Rng("key", 1, "b"), "strafing", 2
    )
    fields = ("kind", "objectives", "ground", "planes")
    state = _with(state, **{k: getattr(made, k) for k in fields})
    for locale in ("en", "fr"):
        key = " ".join(
            text for text, _c, _b in WingsPresenter()._map_key(rules.view(state, None), locale)
        )
        assert t("strafing.key.post", locale) in key, key
