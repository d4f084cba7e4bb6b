"""The page replays a finished campaign of every registered game: each played turn with its
heading and its board, the end with its chart, nothing to fetch. A game added to the
registry is covered as soon as it is registered."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.replay import make_page
from bot.rulesets import FACTORIES, Registry
from tests.replay.html import read_page
from tests.replay.play import play


# The carrier's page is read closely in test_page.py, from the session's campaign.
@pytest.mark.parametrize("ruleset", [key for key in FACTORIES if key != "carrier"])
async def test_a_finished_campaign_of_every_game_makes_its_page(
    ruleset: str, tmp_path: Path
) -> None:
    scenario = next(iter(Registry().get(ruleset).rules.scenarios()))
    export = await play(tmp_path / "campaign.db", ruleset, scenario, seed=4)
    assert export["campaign"]["status"] == "finished"
    made = make_page(export)
    page = read_page(made.html)
    closed = sorted({r["turn"] for r in export["rounds"] if r["status"] == "resolved"})
    assert [s.id for s in page.sections] == [
        "campaign",
        *(f"turn-{n}" for n in closed),
        "after-action",
    ]
    for section in page.sections[1:]:
        assert section.headings and section.headings[0][0] == 2, section.id
        assert section.images and all(i["alt"].strip() for i in section.images), section.id
    assert all(url.startswith(("data:image/", "#")) for url in page.urls)
    if Registry().get(ruleset).presenter.tells_turns:
        # A game that shows its turns played: the page shows them too, beside the board.
        assert any(len(s.images) >= 2 for s in page.sections[1:-1])
    if ruleset == "wings":  # its turns flown as the channel showed them: still and animation
        # and each turn named as its table names it, the mission and its own turn
        assert all("Mission " in s.text for s in page.sections[1:-1])
        # a plane's program named by its pilot and plane, as the reveal names it, never by
        # the engine's id for the plane ('P3')
        fields = re.findall(r'<span class="field">([^<]*)</span>', made.html)
        assert fields and not [f for f in fields if re.search(r"\bP\d+\b", f)], fields
        gifs = [i for i in page.images if i["src"].startswith("data:image/gif")]
        assert gifs and all(i["alt"].strip() for i in gifs)
    assert "Verified: every receipt and every event replayed" in made.html
