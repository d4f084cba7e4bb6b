"""The land and Pearl Harbor pictures drawn for a phone (issue 16) still tell everything.

The 800 px mission report stacks what the 1200 px strike report put side by side; it must
not lose a flak row or a card on the way. A Pearl Harbor wave report shows the map as
that wave left it and what the wave added; the stacked reveal shows each side's choices
and receipt, the Japanese above the Allies.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.rng import Rng
from engine.rulesets.land import LandRules
from engine.rulesets.land.state import LandState
from engine.rulesets.pearl_harbor import PearlRules
from engine.zero.loader import default_catalog
from rendering.presenter import RevealLine
from rendering.rulesets.land import LandPresenter
from rendering.rulesets.pearl_harbor import PearlPresenter
from rendering.zero.strike import aircraft_labels
from tests.rendering.phone import DrawnImage, recording

SCENARIO = "malaya-dec41"


def _land_game(seed: str) -> tuple[LandRules, LandState]:
    rules = LandRules(default_catalog())
    state = rules.new(SCENARIO, seed)
    picker = random.Random(seed)
    while not state.finished:
        choices: dict[str, dict[str, str]] = {}
        for decision in rules.pending(state):
            options = decision.options
            choices.setdefault(decision.side, {})[decision.field] = picker.choice(options).id
        state, _ = rules.resolve(state, choices, Rng(seed, state.turn, "mission"))
    return rules, state


def _drawn(render: object) -> DrawnImage:
    with recording() as images:
        assert callable(render)
        render()
    (image,) = images
    return image


@pytest.mark.parametrize("seed", ["phone-1", "phone-2"])
def test_a_mission_report_shows_every_flak_row_run_and_card(seed: str) -> None:
    rules, state = _land_game(seed)
    catalog = default_catalog()
    presenter = LandPresenter(catalog)
    view = rules.view(state, None)
    faces = {card.id: card.title.value for card in catalog.deck.cards}
    flak_rows_seen = 0
    for record in state.history:
        report = record.report
        with recording() as images:
            presenter.report(SCENARIO, view, record.mission, 0, "en")
        (image,) = images
        assert image.width == 800
        texts = Counter(text.text for text in image.texts)
        assert not [text for text in texts if "more in the log" in text]
        # Every card of every flak shot, answer and bombing run is drawn as a badge.
        wanted: Counter[str] = Counter()
        for shot in report.flak:
            wanted.update(faces[card] for card in shot.cards)
            if shot.answer_card is not None:
                wanted[faces[shot.answer_card]] += 1
        for run in report.bomb_runs:
            wanted.update(faces[card] for card in run.cards)
        assert wanted - texts == Counter(), record.mission
        # The legend names each kind of card shown.
        names = {
            "MAN": "Maneuvering",
            "TT": "Tight Turn",
            "IMS": "In My Sights",
            "OTS": "Out of the Sun",
        }
        for code, name in names.items():
            assert (name in texts) == (code in wanted), (record.mission, code)
        # Each aircraft is named in its own row, and again in each of its flak rows.
        labels = aircraft_labels(report.aircraft, "en")
        rows = {(shot.phase, shot.kind, shot.against) for shot in report.flak}
        for uid, label in labels.items():
            against = sum(1 for row in rows if row[2] == uid)
            assert texts[label] >= 1 + against, (record.mission, label)
        flak_rows_seen += len(rows)
    assert flak_rows_seen > 10  # the games flew real missions, not empty ones


def test_a_wave_report_shows_the_map_as_the_wave_left_it() -> None:
    catalog = default_catalog()
    rules, presenter = PearlRules(catalog), PearlPresenter(catalog)
    state = rules.new("pearl-harbor", "phone")
    wave_one = {"japanese": {"level": "wheeler", "fighters": "kaneohe"}}
    state, _ = rules.resolve(state, wave_one, Rng("phone", 1, "wave"))
    state, _ = rules.resolve(
        state, {"japanese": {"level": "wheeler", "dive": "hickam"}}, Rng("phone", 2, "wave")
    )
    first = state.history[0]
    assert first.damage != state.damage  # the second wave added damage
    view = rules.view(state, None)
    image = _drawn(lambda: presenter.report("pearl-harbor", view, 1, 0, "en"))
    texts = [text.text for text in image.texts]
    gained = {a.target: a.points for a in first.attacks if a.points}
    assert gained, "wave 1 scored nothing: pick another seed"
    for target, points in gained.items():
        assert f"+{points}" in texts, target
    # Each target's mark holds its points after wave 1, not after the game.
    shown = [text for text in texts if text.isdigit()]
    assert shown == [str(first.damage.get(t.key, 0)) for t in rules.sheet.targets]
    assert "Solitaire · wave 1 of 2" in texts


def test_the_reveal_stacks_each_side_with_its_choices_and_receipt() -> None:
    presenter = LandPresenter(default_catalog())
    sides = [
        RevealLine("allied", (("Doctrine", "Balanced"), ("Resource", "#7 AA")), "c14aeff1…"),
        RevealLine("japanese", (("Doctrine", "Aggressive"),), "af0cbf6d…"),
    ]
    image = _drawn(lambda: presenter.reveal_image("Turn 1 · Mission revealed", sides, "en"))
    texts = [text.text for text in image.texts]
    assert image.width == 800
    order = [texts.index(word) for word in ("Japanese", "Aggressive", "af0cbf6d…", "Allied")]
    assert order == sorted(order)  # the Japanese side first, whole, above the Allies
    assert {"Balanced", "#7 AA", "c14aeff1…", "Resource"} <= set(texts)
    assert not image.too_small()


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_coming_targets_name_hides_no_other_target(locale: str) -> None:
    """On every theatre's map, whichever target comes next, its name plate covers no
    other target's mark (its number would be lost under the plate)."""
    from engine.rulesets.land.view import THEATRES, public_sheet
    from rendering.rulesets.land import _label_box, location_text, plate_frame, target_places

    top = 120
    checked = 0
    for key in THEATRES:
        sheet = public_sheet(key)
        places = target_places(sheet, top)
        for target, (cx, cy) in zip(sheet.targets, places, strict=True):
            others = [place for place in places if place != (cx, cy)]
            label = location_text(sheet, target, locale)
            (x0, y0, x1, y1), lines = _label_box((cx, cy), label, plate_frame(top), others)
            assert " ".join(lines) == label  # the whole name, never cut
            hidden = [(x, y) for x, y in others if x0 - 20 < x < x1 + 20 and y0 - 20 < y < y1 + 20]
            assert not hidden, (key, target.number, label)
            assert not (x0 - 20 < cx < x1 + 20 and y0 - 20 < cy < y1 + 20), label  # nor its own
            checked += 1
    assert checked >= 50
