"""Setup (issue 28 point 1): the superiority chart decides the opening hands, beach landings
take one each, Air Power and Air Sortie are said removed, each side gets its nation's trio."""

from __future__ import annotations

import pytest

from engine.rulesets.memoir44.catalog import DataError, load_catalog
from engine.rulesets.memoir44.setup import Setup, new_game, superiority
from tests.memoir44.helpers import CATALOG, Loaded, start


@pytest.mark.parametrize(
    ("theatre", "year", "beach", "allies", "axis"),
    [
        ("western", 1944, False, 3, 2),  # Allies hold superiority: 3 against 2
        ("western", 1941, False, 2, 3),
        ("eastern", 1944, False, 2, 2),  # "--": nobody
        ("pacific", 1943, False, 2, 2),
        ("mediterranean", 1940, False, 2, 3),
        ("western", 1944, True, 2, 1),  # a beach landing: one fewer each
        ("eastern", 1943, True, 1, 1),
        ("pacific", 1937, False, 2, 3),  # before the chart: its first column
    ],
)
def test_opening_hands_follow_the_chart(
    theatre: str, year: int, beach: bool, allies: int, axis: int
) -> None:
    state = start(theatre=theatre, year=year, beach=beach)
    assert len(state.sides["allies"].hand) == allies
    assert len(state.sides["axis"].hand) == axis
    assert len(state.deck) == 30 - allies - axis


def test_chart_reads_every_cell_of_the_rulebook() -> None:
    western = [superiority(CATALOG, "western", y) for y in range(1939, 1946)]
    assert western == ["axis"] * 5 + ["allies"] * 2
    mediterranean = [superiority(CATALOG, "mediterranean", y) for y in range(1939, 1946)]
    assert mediterranean == ["none", "axis", "axis", "none", "none", "allies", "allies"]


def test_setup_event_says_air_power_and_air_sortie_are_removed() -> None:
    _state, events = new_game(CATALOG, Setup(), Loaded())
    assert events[0].kind == "m44-setup"
    assert events[0].data["removed"] == ["Air Power", "Air Sortie"]
    assert events[0].data["superiority"] == "allies"
    dealt = [e for e in events if e.kind == "m44-drew"]
    # A draw says who and how many, never which cards.
    assert [(e.data["side"], e.data["cards"]) for e in dealt] == [("allies", 3), ("axis", 2)]
    assert all(set(e.data) == {"side", "cards", "why"} for e in dealt)


def test_trios_by_nation_and_theatre() -> None:
    assert start().sides["allies"].trio == {
        "fighter": "p51",
        "fighter_bomber": "p47",
        "bomber": "b17",
    }
    assert start(theatre="pacific", axis="japan").sides["allies"].trio["fighter"] == "f4u"
    assert start(theatre="pacific", axis="japan").sides["axis"].trio["bomber"] == "g4m"
    # Authored: Italy flies the German trio, France the British one.
    assert start(axis="italy").sides["axis"].trio["fighter"] == "bf109"
    assert start(allies="france").sides["allies"].trio["bomber"] == "lancaster"


def test_authored_trios_say_so_in_the_data() -> None:
    for key in ("italy", "france", "commonwealth", "poland"):
        assert CATALOG.nations[key].provenance.startswith("authored")
        assert CATALOG.nations[key].borrows


def test_a_nation_on_the_wrong_side_is_refused() -> None:
    with pytest.raises(ValueError, match="not a nation of the axis"):
        new_game(CATALOG, Setup(axis="usa"), Loaded())


def test_deck_file_is_thirty_authored_cards_with_the_published_three() -> None:
    assert len(CATALOG.deck()) == 30
    assert len(set(CATALOG.deck())) == 30
    published = {c.key for c in CATALOG.cards if c.provenance.startswith("published")}
    assert published == {"fire-at-will", "heavy-fire", "saturation"}
    assert CATALOG.card("heavy-fire").mg_dice == 2
    assert CATALOG.card("heavy-fire").mg_faces == ("symbol", "star")


def test_a_deck_file_of_the_wrong_size_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.rulesets.memoir44 import catalog

    real = catalog._read

    def short(name: str) -> dict[str, object]:
        data = real(name)
        if name == "cards.toml":
            data["card"][0]["copies"] = 1  # type: ignore[index]
        return data

    monkeypatch.setattr(catalog, "_read", short)
    with pytest.raises(DataError, match="29 cards, not 30"):
        load_catalog()
