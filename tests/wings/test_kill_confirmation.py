"""Confirming dogfight victories (seed E.III.b): a kill over the killer's own lines is
confirmed, one over the enemy's or no-man's land needs a surviving witness of his side, a
balloon needs none; the roundel is all it changes, never the VP."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rng import Rng
from engine.rulesets.wings import WingsView
from engine.rulesets.wings.campaign import _debrief, new_campaign, recruit
from engine.rulesets.wings.pilots import replacement
from engine.rulesets.wings.state import CampaignState, GroundElement, Objective, PlaneState
from rendering.i18n import t
from rendering.rulesets import wings as wings_render
from tests.test_french import problems
from tests.wings.helpers import catalog
from tests.wings.helpers import mission as make_mission
from tests.wings.helpers import plane as make_plane
from tests.wings.test_pilots_campaign import squadrons

# The helpers' table is 22.2 wide: the Entente's zone below x 5.55, the Central's above 16.65.
ENTENTE_X, MIDDLE_X, CENTRAL_X = 3.0, 11.0, 19.0


def _killer(**extra: Any) -> PlaneState:
    return make_plane("P1", type_="nieuport17", side="entente", pilot="P1", x=MIDDLE_X,
                      kills=("P3",), **extra)  # fmt: skip


def _victim(crash_zone: str | None, x: float = MIDDLE_X, status: str = "shot_down") -> PlaneState:
    return make_plane("P3", type_="albatros_d3", side="central", pilot="P3", status=status,
                      pilot_lp=4 if crash_zone else -1, destroyed_by="P1", damage=14,
                      crash_zone=crash_zone, x=x)  # fmt: skip


def _wingman(status: str = "flying", x: float = MIDDLE_X) -> PlaneState:
    return make_plane("P2", type_="spad7", side="entente", pilot="P2", status=status, x=x)


def _enemy_home() -> PlaneState:
    return make_plane("P4", type_="albatros_d3", side="central", pilot="P4", status="left",
                      x=CENTRAL_X)  # fmt: skip


def _debriefed(*planes: PlaneState, **update: Any) -> tuple[CampaignState, CampaignState]:
    cat = catalog()
    state = new_campaign(cat, "k", squadrons())  # type: ignore[arg-type]
    flown = make_mission(*planes).model_copy(
        update={"finished": True, "active": "entente", **update}
    )
    state = state.model_copy(update={"mission": flown, "phase": "mission", "active": "entente"})
    after, _ = _debrief(cat, state, Rng("k", 9, "m"), [])
    return state, after


def test_a_kill_over_the_killers_own_lines_is_confirmed_without_a_witness() -> None:
    # The wreck fell in the Central's enemy zone: the Entente killer's own lines.
    _, after = _debriefed(_killer(), _victim("enemy"), _enemy_home())
    assert (after.pilots["P1"].kills, after.pilots["P1"].confirmed) == (1, 1)
    [victory] = after.history[-1]["victories"]
    assert victory["zone"] == "friendly" and victory["confirmed"] is True


def test_an_exploded_victim_is_judged_where_it_was() -> None:
    # No crash zone after an explosion: its place over the Entente's lines decides.
    _, home = _debriefed(_killer(), _victim(None, ENTENTE_X, "exploded"), _enemy_home())
    _, away = _debriefed(_killer(), _victim(None, CENTRAL_X, "exploded"), _enemy_home())
    assert home.pilots["P1"].confirmed == 1
    assert away.pilots["P1"].confirmed == 0
    assert away.history[-1]["victories"][0]["zone"] == "enemy"


@pytest.mark.parametrize("zone", ["friendly", "no_mans_land"])  # the victim's point of view
def test_a_kill_over_enemy_or_no_mans_land_needs_a_surviving_witness(zone: str) -> None:
    _, alone = _debriefed(_killer(), _victim(zone), _enemy_home())
    _, seen = _debriefed(_killer(), _wingman("flying"), _victim(zone), _enemy_home())
    _, home = _debriefed(_killer(), _wingman("left", ENTENTE_X), _victim(zone), _enemy_home())
    _, lost = _debriefed(_killer(), _wingman("shot_down"), _victim(zone), _enemy_home())
    _, strayed = _debriefed(_killer(), _wingman("left", CENTRAL_X), _victim(zone), _enemy_home())
    assert [s.pilots["P1"].confirmed for s in (alone, seen, home, lost, strayed)] == [0, 1, 1, 0, 0]
    assert all(s.pilots["P1"].kills == 1 for s in (alone, seen, home, lost, strayed))
    assert alone.history[-1]["victories"][0]["confirmed"] is False


def test_a_ground_element_of_his_side_witnesses_while_it_stands() -> None:
    def trench(destroyed: bool) -> dict[str, GroundElement]:
        post = GroundElement(id="G1", kind="trench", side="entente", x=MIDDLE_X, y=5.0,
                             destroyed=destroyed)  # fmt: skip
        return {"G1": post}

    _, standing = _debriefed(_killer(), _victim("friendly"), _enemy_home(), ground=trench(False))
    _, gone = _debriefed(_killer(), _victim("friendly"), _enemy_home(), ground=trench(True))
    assert (standing.pilots["P1"].confirmed, gone.pilots["P1"].confirmed) == (1, 0)


def test_a_balloon_is_confirmed_without_a_witness() -> None:
    balloon = Objective(id="B1", kind="balloon", side="central", x=CENTRAL_X, y=10.0,
                        level=1, destroyed=True, hit_by="P1", fire=1, fired_by="P1")  # fmt: skip
    killer = make_plane("P1", type_="nieuport17", side="entente", pilot="P1", x=CENTRAL_X)
    _, after = _debriefed(killer, _enemy_home(), objectives={"B1": balloon})
    [victory] = after.history[-1]["victories"]
    assert victory == {"pilot": "P1", "name": after.pilots["P1"].name, "victim": "balloon",
                       "zone": "enemy", "confirmed": True}  # fmt: skip
    # A balloon is no plane: the kills and their roundels count planes (the Ace's five).
    assert (after.pilots["P1"].kills, after.pilots["P1"].confirmed) == (0, 0)


def test_confirmation_changes_no_vp() -> None:
    # The same kill, witnessed or not (the wingman home, or strayed over the enemy's lines).
    before, seen = _debriefed(_killer(), _wingman("left", ENTENTE_X), _victim("friendly"),
                              _enemy_home())  # fmt: skip
    _, unseen = _debriefed(_killer(), _wingman("left", CENTRAL_X), _victim("friendly"),
                           _enemy_home())  # fmt: skip
    assert (seen.pilots["P1"].confirmed, unseen.pilots["P1"].confirmed) == (1, 0)
    for pid in ("P1", "P2", "P3"):
        assert seen.pilots[pid].vp == unseen.pilots[pid].vp
        assert seen.pilots[pid].kills == unseen.pilots[pid].kills
    for side in ("entente", "central"):
        assert seen.squadrons[side].score == unseen.squadrons[side].score
        assert seen.squadrons[side].reserve == unseen.squadrons[side].reserve
    # The kill still paid: a squadron VP for the Entente (a Rookie's kill counts for it).
    assert seen.squadrons["entente"].score > before.squadrons["entente"].score
    assert seen.history[-1]["vp"] == unseen.history[-1]["vp"]


def _view(after: CampaignState) -> WingsView:
    data = after.model_dump(mode="json")
    number = after.history[-1]["number"]
    return WingsView(viewer=None, turn=5, finished=False, stage="debrief", scenario="wings-1917",
                     data=data, reports={5: number},
                     plane_types={"albatros_d3": ("Albatros D.III", 14)})  # fmt: skip


def test_the_report_says_which_kills_are_confirmed_in_both_languages() -> None:
    killer = _killer().model_copy(update={"kills": ("P3", "P5")})
    _, after = _debriefed(killer, _wingman("shot_down"), _victim("enemy"), _victim_two(),
                          _enemy_home())  # fmt: skip
    view = _view(after)
    name = after.pilots["P1"].name
    presenter = wings_render.WingsPresenter()
    for locale in ("en", "fr"):
        lines = presenter.turn_summary(view, 5, locale)
        yes = t("kill-confirm.victory", locale, name=name, victim="Albatros D.III",
                zone=t("kill-confirm.zone.friendly", locale),
                verdict=t("kill-confirm.confirmed", locale))  # fmt: skip
        no = t("kill-confirm.victory", locale, name=name, victim="Albatros D.III",
               zone=t("kill-confirm.zone.enemy", locale),
               verdict=t("kill-confirm.unconfirmed", locale))  # fmt: skip
        assert yes in lines and no in lines, lines
        if locale == "fr":
            assert problems([("turn_summary", line) for line in lines]) == []
    assert "unconfirmed: no witness" in " ".join(presenter.turn_summary(view, 5, "en"))
    assert "non homologuée\u00a0: aucun témoin" in " ".join(presenter.turn_summary(view, 5, "fr"))


def _victim_two() -> PlaneState:
    # A second victim of P1, fallen over the Central's own lines (the Entente's enemy zone).
    return make_plane("P5", type_="albatros_d3", side="central", pilot=None, status="shot_down",
                      destroyed_by="P1", damage=14, crash_zone="friendly", x=CENTRAL_X)  # fmt: skip


def test_the_roster_line_counts_kills_and_roundels(monkeypatch: pytest.MonkeyPatch) -> None:
    killer = _killer().model_copy(update={"kills": ("P3", "P5")})
    _, after = _debriefed(killer, _victim("enemy"), _victim_two(), _enemy_home())
    assert (after.pilots["P1"].kills, after.pilots["P1"].confirmed) == (2, 1)
    drawn: list[str] = []

    def capture(title: str, lines: Any, board: Any = None) -> bytes:
        drawn.extend(text for text, _, _ in lines)
        return b""

    monkeypatch.setattr(wings_render, "_render", capture)
    presenter = wings_render.WingsPresenter()
    for locale, words in (("en", "kills 2 (1 confirmed)"), ("fr", "victoires 2 (homologuées")):
        drawn.clear()
        presenter.after_action("wings-1917", _view(after), locale)
        line = next(text for text in drawn if text.startswith(after.pilots["P1"].name + " · "))
        assert words in line, line
        if locale == "fr":
            assert problems([("after-action", text) for text in drawn]) == []


def test_an_ace_bought_or_heir_to_a_veteran_comes_with_his_roundels() -> None:
    cat = catalog()
    state = new_campaign(cat, "k", squadrons())  # type: ignore[arg-type]
    bought = recruit(cat, state, "entente", "ace", "P9")
    rookie = recruit(cat, state, "entente", "rookie", "P10")
    veteran = state.pilots["P3"].model_copy(update={"kills": 8, "vp": 90, "confirmed": 6})
    heir = replacement(cat, veteran, "P11")
    assert (bought.kills, bought.confirmed) == (5, 5)
    assert (rookie.kills, rookie.confirmed) == (0, 0)
    assert (heir.kills, heir.confirmed) == (5, 5)
