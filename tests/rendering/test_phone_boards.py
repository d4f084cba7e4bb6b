"""The status board and the order panel on a phone: nothing cut, nothing covered.

``test_phone_text`` checks the size of every word; these check what a player saw go wrong
on a phone in issue 16: names cut ("· Unto…", "Shoho and transpo…") and labels covering
each other. Real place names are long, so the views here carry the data's names.
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.rulesets.carrier.view import LevelView, TrackView, View
from engine.zero.types import Side
from rendering.rulesets.carrier.panel import render_order_panel
from rendering.rulesets.carrier.status import render_status_board
from rendering.rulesets.carrier.track import arrange, clashes, level_labels
from rendering.text import level_name, track_level_name
from tests.rendering.fixtures import (
    CARRIER_LEVELS,
    INVASION_LEVELS,
    MIDWAY_AIRFIELD_LEVELS,
    MORESBY_LEVELS,
    RESOURCE_NAMES,
    after_action_view,
    coral_status,
    french_resource_names,
    midway_status,
)
from tests.rendering.phone import recording

J, A = Side.JAPANESE, Side.ALLIED
LONG_NAMES = {
    "japanese-fleet": "Carrier Striking Force (Shokaku, Zuikaku)",
    "allied-fleet": "TF 17 (Lexington, Yorktown)",
    "invasion-force": "Port Moresby Invasion Force (Shoho and transports)",
}
MIDWAY_NAMES = {
    "japanese-fleet": "Mobile Force (Akagi, Kaga, Soryu, Hiryu)",
    "allied-fleet": "TF 16 and TF 17 (Enterprise, Hornet, Yorktown)",
}
ALL_LEVELS = (CARRIER_LEVELS, INVASION_LEVELS, MORESBY_LEVELS, MIDWAY_AIRFIELD_LEVELS)
LEVEL_NAMES = sorted({level.name for levels in ALL_LEVELS for level in levels})


def _named(view: View, names: dict[str, str]) -> View:
    tracks = tuple(
        track.model_copy(update={"name": names.get(track.place, track.name)})
        for track in view.tracks
    )
    return view.model_copy(update={"tracks": tracks})


def _texts(render: object) -> list[str]:
    with recording() as images:
        data = render()  # type: ignore[operator]
    assert Image.open(io.BytesIO(data)).width == 800
    return [text.text for image in images for text in image.texts]


def _boards() -> dict[str, tuple[View, object]]:
    coral = _named(coral_status(), LONG_NAMES)
    midway = _named(midway_status(), MIDWAY_NAMES)
    over = _named(after_action_view(), LONG_NAMES)
    return {
        f"{name}-{locale}": (
            view,
            lambda view=view, locale=locale: render_status_board(
                view, locked={J: True}, deadline_text="Fri 9 May, 18:00 UTC", locale=locale
            ),
        )
        for name, view in (("coral", coral), ("midway", midway), ("over", over))
        for locale in ("en", "fr")
    }


def test_no_word_on_a_board_is_cut_and_each_track_names_its_level_and_the_next() -> None:
    for name, (view, render) in _boards().items():
        texts = _texts(render)
        cut = [text for text in texts if text.endswith("…")]
        assert not cut, (name, cut)
        locale = name.rsplit("-", 1)[1]
        for track in view.tracks:
            shown = track_level_name(track.level, track.boxes, locale)
            assert shown in texts, (name, track.place)
            later = [level for level in track.levels if level.min_boxes > track.effective]
            if later and later[0].min_boxes <= track.max_boxes:
                following = level_name(min(later, key=lambda lv: lv.min_boxes).name, locale)
                assert any(following in text for text in texts), (name, track.place, following)


def test_no_word_on_a_panel_is_cut() -> None:
    for side, names, locale in ((J, RESOURCE_NAMES, "en"), (A, french_resource_names(), "fr")):
        view = _named(coral_status(viewer=side, japanese_doctrine="balanced"), LONG_NAMES)
        texts = _texts(
            lambda view=view, names=names, locale=locale: render_order_panel(
                view, resource_names=names, locale=locale
            )
        )
        cut = [text for text in texts if text.endswith("…")]
        assert not cut, (locale, cut)


def test_a_track_says_what_its_level_costs_now_and_what_comes_next() -> None:
    texts = _texts(
        lambda: render_status_board(coral_status(), locked={}, deadline_text=None, locale="en")
    )
    # The Japanese fleet has 12 of 30 boxes: Damaged now, Heavy from 15 boxes.
    assert "Next, Heavy at 15:" in texts
    assert "Damaged" in texts
    panel = _texts(
        lambda: render_order_panel(
            coral_status(viewer=J), resource_names=RESOURCE_NAMES, locale="en"
        )
    )
    said = " ".join(panel)  # a long line wraps
    assert "Now: strike −1 aircraft, CAP −1 aircraft" in said
    assert "Next, Heavy at 15: strike −2 aircraft, CAP −1 aircraft, no Large Strike" in said


@st.composite
def crowded_tracks(draw: st.DrawFn) -> TrackView:
    """Tracks as the data could make them: up to eight levels, thresholds at least an
    eighth of the track apart, any of the data's level names."""
    max_boxes = draw(st.integers(5, 60))
    # Thresholds an eighth of the track apart, and never on level 0's pole (box 1): no
    # track in the data has a level that starts after a single box.
    step = max(2, -(-max_boxes // 8))
    slots = max_boxes // step
    count = draw(st.integers(1, min(7, slots)))
    starts = sorted(draw(st.sets(st.integers(1, slots), min_size=count, max_size=count)))
    names = draw(st.lists(st.sampled_from(LEVEL_NAMES), min_size=len(starts) + 1))
    levels = (
        LevelView(name=names[0], min_boxes=0, vp=0, effects=()),
        *(
            LevelView(name=names[i + 1], min_boxes=start * step, vp=i, effects=())
            for i, start in enumerate(starts)
        ),
    )
    return TrackView(
        place="somewhere",
        name="Somewhere",
        side=J,
        carrier_fleet=False,
        boxes=0,
        effective=0,
        damage_points=0,
        losses=0,
        max_boxes=max_boxes,
        level=levels[0].name,
        levels=levels,
    )


@settings(max_examples=150, deadline=None)
@given(track=crowded_tracks(), locale=st.sampled_from(["en", "fr"]), width=st.sampled_from([760]))
def test_level_names_never_collide_nor_hang_across_each_other(
    track: TrackView, locale: str, width: int
) -> None:
    labels = level_labels(track, 20, width, locale)
    rows = arrange(labels)
    assert not clashes(labels, rows), [
        (label.name, row) for label, row in zip(labels, rows, strict=True)
    ]


def test_the_levels_the_board_does_not_draw_are_told_in_the_status_text() -> None:
    """The board draws a track's cost now and at the next level; /status tells them all."""
    from engine.zero.loader import default_catalog
    from rendering.rulesets.carrier import CarrierPresenter

    presenter = CarrierPresenter(default_catalog())
    english = presenter.status_lines(coral_status(), "en")
    french = presenter.status_lines(coral_status(), "fr")
    fleet = english.index("Japanese carrier fleet: 12/30 boxes, Damaged")
    ladder = english[fleet + 1]
    assert ladder.startswith("-# Levels: Light at 5 (strike −1 aircraft)")
    assert "Crippled at 20 (strike −3 aircraft, CAP −2 aircraft, no Large Strike)" in ladder
    assert ladder.endswith("Out of Action at 30")
    assert any(
        "Désemparé à 20 (Frappe −3\u00a0av., PC −2\u00a0av., pas de Frappe Massive)" in line
        for line in french
    )
    # A track whose levels cost nothing lists them plainly.
    airfield = presenter.status_lines(midway_status(), "en")[-1]
    assert (
        airfield == "-# Levels: Damaged at 5 · Heavy at 10 · Crippled at 15 · Out of Action at 20"
    )


def test_a_track_with_boxes_ticked_below_its_first_level_is_not_called_untouched() -> None:
    """Port Moresby with 3 of 15 boxes ticked, first level at 5: "Untouched" beside "3/15"
    read as a contradiction on the after-action; the span keeps its name only at 0 boxes."""
    from engine.zero.loader import default_catalog
    from rendering.rulesets.carrier import CarrierPresenter

    presenter = CarrierPresenter(default_catalog())
    view = coral_status()
    english = presenter.status_lines(view, "en")
    assert "Port Moresby: 3/15 boxes, No effect yet" in english
    assert not any("Untouched" in line for line in english)
    french = presenter.status_lines(view, "fr")
    assert "Port Moresby\u00a0: 3/15 cases, Pas encore d'effet" in french
    fresh = view.model_copy(
        update={
            "tracks": tuple(
                track.model_copy(update={"boxes": 0, "effective": 0})
                if track.place == "port-moresby"
                else track
                for track in view.tracks
            )
        }
    )
    assert "Port Moresby: 0/15 boxes, Untouched" in presenter.status_lines(fresh, "en")


def test_the_after_action_names_the_level_the_ticked_boxes_reached() -> None:
    """The Allied fleet ticked 15 boxes (Heavy, whose victory points the score counts,
    25.83) and repaired 2 (its penalties read from 13, Damaged): its final damage reads
    Heavy, not "Damaged · 15/30" beside a score counted at Heavy."""
    from rendering.rulesets.carrier.report import render_after_action

    view = after_action_view()
    allied = next(track for track in view.tracks if track.place == "allied-fleet")
    assert (allied.boxes, allied.effective, allied.level) == (15, 13, "Damaged")
    english = _texts(lambda: render_after_action(view, place_names={}, locale="en"))
    assert "Heavy · 15/30" in english and "Damaged · 15/30" not in english
    french = _texts(lambda: render_after_action(view, place_names={}, locale="fr"))
    assert f"{level_name('Heavy', 'fr')} · 15/30" in french


def test_a_repaired_track_says_how_many_boxes_repairs_took_back() -> None:
    """15 boxes ticked and 2 repaired: the level beside the count is the one the 13 boxes
    left put in force (Damaged), while the ladder puts 15 at Heavy. /status, the turn
    summary and the order panel's description say "2 repaired" so the pair adds up."""
    from engine.zero.loader import default_catalog
    from rendering.rulesets.carrier import CarrierPresenter

    presenter = CarrierPresenter(default_catalog())
    view = after_action_view()
    assert "Allied carrier fleet: 15/30 boxes, 2 repaired, Damaged" in presenter.status_lines(
        view, "en"
    )
    assert "• Allied carrier fleet: 15/30 boxes, 2 repaired (Damaged)" in presenter.turn_summary(
        view, view.turn, "en"
    )
    french = presenter.status_lines(view, "fr")
    assert any("15/30 cases, 2 réparées, " in line for line in french), french
    board = presenter.board_summary(view, "en")
    assert "Allied carrier fleet 15/30 (2 repaired), " in board, board
    panel = presenter.panel_summary(view, "allied", "en")
    assert "15/30 damage boxes, 2 repaired (Damaged)" in panel, panel
    # No repairs, no note: the Japanese fleet's line is as before.
    coral = presenter.status_lines(coral_status(), "en")
    assert "Japanese carrier fleet: 12/30 boxes, Damaged" in coral
    assert "Allied carrier fleet: 7/30 boxes, 2 repaired, Light" in coral


def test_the_pictures_print_how_many_boxes_repairs_took_back() -> None:
    """The status board heads the Allied fleet "7/30" with two grey boxes on its ruler and
    reads the level from 5 boxes: the picture itself says "2 repaired" beside the next
    threshold, in the board's language, and says nothing for a track without repairs."""
    coral = coral_status()
    allied = next(track for track in coral.tracks if track.place == "allied-fleet")
    assert (allied.boxes, allied.effective) == (7, 5)
    unlocked = {J: False, A: False}

    def board(view: View, locale: str) -> list[str]:
        return _texts(
            lambda: render_status_board(view, locked=unlocked, deadline_text=None, locale=locale)
        )

    english = board(coral, "en")
    assert english.count("2 repaired") == 1, english
    assert "2 réparées" in board(coral, "fr")
    untouched = coral.model_copy(
        update={"tracks": [t.model_copy(update={"effective": t.boxes}) for t in coral.tracks]}
    )
    assert not [text for text in board(untouched, "en") if "repaired" in text]
    # The order panel, with its penalties in words, says it too.
    own = coral_status(viewer=A)
    panel = _texts(lambda: render_order_panel(own, resource_names=RESOURCE_NAMES, locale="en"))
    assert "2 repaired" in panel, panel
