"""What a reader of the log and of the after-action report sees, in English and French:
a sentence never says "turn ?", an airfield strike does not say "strike" twice, a French
sentence names a fleet in lower case with its article (a label keeps its capital), and the
report of a French campaign is French throughout."""

from __future__ import annotations

from typing import Any

from bot.export import after_action_markdown
from bot.logtext import describe
from tests.service.conftest import Env
from tests.service.test_rollback_export import finished_export
from tests.test_french import problems

__all__ = ["finished_export"]  # the fixture, shared with the export's own tests

STRIKE = {
    "strike": "T2-AM",
    "kind": "airfield",
    "attacker": "allied",
    "target": "japanese-fleet",
    "points": 8,
}


def test_a_round_opened_without_a_known_turn_says_no_turn() -> None:
    for lang, opened in (("en", "Round opened: Orders"), ("fr", "Manche ouverte\u00a0: Ordres")):
        line = describe("round-opened", {"round": "orders", "deadline": 1}, lang)
        assert line.startswith(opened) and "?" not in line, line
        numbered = describe("round-opened", {"round": "orders"}, lang, turn=3)
        assert "3" in numbered and "?" not in numbered, numbered


def test_an_airfield_strike_names_its_kind_once() -> None:
    english = describe("strike-flown", STRIKE, "en", turn=2)
    assert english.startswith("Strike T2-AM (from the airfield): Allied against"), english
    assert english.lower().count("strike") == 1
    french = describe("strike-flown", STRIKE, "fr", turn=2)
    assert french.startswith("Frappe T2-AM (depuis l'aérodrome)\u00a0: Alliés contre"), french
    assert french.lower().count("frappe") == 1


def test_a_french_sentence_lowers_a_common_place_name_but_not_a_proper_one() -> None:
    french = describe("strike-flown", STRIKE, "fr", turn=2)
    assert "contre la flotte aéronavale japonaise," in french, french
    cap = describe(
        "cap-drawn",
        {"place": "allied-fleet", "card": 3, "result": "HIT", "cap": "2 L/W A6M2"},
        "fr",
        turn=1,
    )
    assert cap.startswith("PC au-dessus de la flotte aéronavale alliée\u00a0:"), cap
    # A sentence that opens on the place keeps its capital.
    ticked = describe("losses-ticked", {"place": "allied-fleet", "boxes": 1}, "fr", turn=1)
    assert ticked.startswith("Flotte aéronavale alliée\u00a0: 1 case cochée"), ticked
    moresby = describe("strike-flown", {**STRIKE, "target": "port-moresby"}, "fr", turn=2)
    assert "contre Port Moresby," in moresby, moresby
    # English names them as it always did.
    english = describe("strike-flown", STRIKE, "en", turn=2)
    assert "against Japanese carrier fleet," in english, english


def test_the_after_action_report_is_in_the_campaigns_language(
    finished_export: dict[str, Any], env: Env
) -> None:
    english = after_action_markdown(finished_export)
    assert english.startswith("# After-action report — Coral Sea")
    assert "## Turn 1" in english and "- VP after the turn: " in english
    french_campaign = {
        **finished_export,
        "campaign": {**finished_export["campaign"], "locale": "fr"},
    }
    french = after_action_markdown(french_campaign)
    assert french.startswith("# Rapport après action — Mer de Corail"), french[:60]
    assert "## Tour 1" in french and "- PV après le tour\u00a0: " in french
    assert "**Résultat\u00a0:**" in french and "## Vérification" in french
    # The strike headlines put the target mid-sentence, in lower case.
    assert "sur la flotte aéronavale" in french and "sur Flotte" not in french
    lines = [(f"after-action.md:{n}", line) for n, line in enumerate(french.splitlines(), 1)]
    assert problems(lines) == []
    # Told a language, the report takes it.
    assert after_action_markdown(french_campaign, locale="en") == english


def test_a_land_missions_vp_lines_read_in_french_and_stay_as_recorded_in_english() -> None:
    from rendering.rulesets.land.vp_words import vp_reason

    recorded = {
        "Ki-43 damaged": "Ki-43 endommagé",
        "Buffalo-I destroyed": "Buffalo-I détruit",
        "skilled pilot of Ki-27 shot down": "pilote chevronné du Ki-27 abattu",
        "Docks Light (4 pts)": "Port (Dégâts légers, 4\u00a0pts)",
        "Ki-21 came home not Damaged": "Ki-21 rentré sans dégâts",
    }
    for english, french in recorded.items():
        assert vp_reason(english, "en") == english
        assert vp_reason(english, "fr") == french
