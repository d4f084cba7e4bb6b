"""The replay page of a finished campaign: whole, self-contained, the same bytes every time,
in the campaign's language, every text escaped; and the exports no page can be made of."""

from __future__ import annotations

import copy
import itertools
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.export import dumps
from bot.replay import Made, ReplayRefused, make_page
from rendering.replay.page import markdown
from tests.replay.html import read_page, text_lines
from tests.replay.play import play
from tests.test_french import problems

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


@pytest.fixture(scope="module")
def made(_played: dict[str, Any]) -> Made:
    return make_page(copy.deepcopy(_played))


def test_same_export_same_page_byte_for_byte(made: Made, export_file: Path) -> None:
    # Made again by the command line in a process of its own, with other hash seeds (a set's
    # order differs between processes): the same bytes, written next to the export.
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(export_file)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Page written to" in done.stdout and "6 turns" in done.stdout
    assert export_file.with_suffix(".html").read_bytes() == made.html.encode("utf-8")


def test_every_turn_has_its_heading_board_choices_and_story(
    export: dict[str, Any], made: Made
) -> None:
    page = read_page(made.html)
    turns = sorted({r["turn"] for r in export["rounds"]})
    assert turns == [1, 2, 3, 4, 5, 6] and made.turns == 6
    ids = [s.id for s in page.sections]
    assert ids == ["campaign"] + [f"turn-{n}" for n in turns] + ["after-action"]
    for number, section in zip(turns, page.sections[1:-1], strict=True):
        assert section.headings[0] == (2, f"Turn {number}")
        assert f"Coral Sea, turn {number} of 6, Orders" in section.text  # the game's words
        assert section.images, section.id
        assert "Fleet Tactic" in section.text and "Resource" in section.text  # the choices
        assert "VP:" in section.text  # the turn's story
    strikes = [s for s in page.sections if "Strike T" in s.text]
    assert strikes, "no strike report on any turn"
    end = page.sections[-1]
    assert end.headings[0] == (2, "After action") and len(end.images) == 2
    title = page.sections[0].text
    assert export["campaign"]["seed_commitment"] in title and export["campaign"]["seed"] in title
    assert "victory" in title or "draw" in title
    assert "Verified: every receipt and every event replayed" in made.html


def test_the_page_is_self_contained_and_accessible(made: Made) -> None:
    html = made.html
    page = read_page(html)
    assert page.lang == "en"
    assert {"http-equiv": "Content-Security-Policy", "content": CSP} in page.metas
    # Nothing to fetch: every image inline, every link inside the page.
    assert page.images and all(img["src"].startswith("data:image/") for img in page.images)
    assert all(url.startswith(("data:image/", "#")) for url in page.urls), page.urls
    assert "http://" not in html and "https://" not in html and "@import" not in html
    assert "url(" not in html  # no style that could load anything
    # Every image says what it shows, and sizes itself before it decodes.
    for img in page.images:
        assert img["alt"].strip(), img["alt"]
        assert int(img["width"]) > 0 and int(img["height"]) > 0
    # One h1, then no heading skips a level.
    levels = [level for level, _ in page.headings]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels)), levels
    # A few MB at most for a six-turn carrier campaign.
    assert len(html.encode("utf-8")) < 3 * 1024 * 1024


def test_a_french_campaign_reads_french(export: dict[str, Any]) -> None:
    export["campaign"]["locale"] = "fr"  # not part of what verify checks
    html = make_page(export).html
    page = read_page(html)
    assert page.lang == "fr"
    assert page.sections[1].headings[0] == (2, "Tour 1")
    assert "Vérifié\u00a0: chaque reçu et chaque événement rejoués" in html
    assert "Mer de Corail" in page.headings[0][1]
    for english in ("Turn 1", "Verified", "After action", "Previous", "replay."):
        assert english not in html, english
    # Read as the French demos are: no English left, no-break spaces, singulars.
    assert problems((f"line {n}", line) for n, line in enumerate(text_lines(html), 1)) == []


def test_campaign_text_is_escaped(export: dict[str, Any]) -> None:
    hostile = '<img src=x onerror="alert(1)">'
    export["audit"].append(
        {"who": 5, "what": "rollback", "why": hostile, "data": {"to_turn": 2}, "at": 0}
    )
    names = {int(p["user_id"]): f"<script>alert('{p['side']}')</script>" for p in export["players"]}
    html = make_page(export, names=names).html
    assert hostile not in html and "<script>alert" not in html
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html
    assert "&lt;script&gt;alert(&#39;allied&#39;)&lt;/script&gt;" in html
    page = read_page(html)
    assert page.scripts == 1 and len(page.images) == len([u for u in page.urls if u[:5] == "data:"])


async def test_a_rolled_back_campaign_shows_each_turn_once_as_played_last(tmp_path: Path) -> None:
    export = await play(tmp_path / "rolled.db", rollback=(5, 2))  # after turn 3's orders
    assert any(r["status"] == "void" for r in export["rounds"])
    made = make_page(export)
    page = read_page(made.html)
    assert [s.id for s in page.sections] == [
        "campaign",
        *(f"turn-{n}" for n in range(1, 7)),
        "after-action",
    ]
    assert "Rollback by player 5 to turn 2: a &lt;b&gt;misread&lt;/b&gt; card" in made.html
    assert "Verified" in made.html


def test_a_picture_that_fails_to_draw_leaves_only_itself_out(
    export: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rendering.rulesets.carrier import CarrierPresenter

    def broken(*args: object, **kwargs: object) -> bytes:
        raise ValueError("a drawing bug")

    monkeypatch.setattr(CarrierPresenter, "report", broken)
    monkeypatch.setattr(CarrierPresenter, "after_action", broken)
    page = read_page(make_page(export).html)
    assert len(page.sections) == 8 and all(s.images for s in page.sections[1:])
    assert any("report unavailable" in s.text for s in page.sections)
    assert len(page.sections[-1].images) == 1  # the final board, no chart


def test_a_played_turns_board_shows_it_as_it_opened(
    export: dict[str, Any], boards_drawn: list[tuple[dict[str, bool], str | None]]
) -> None:
    """Who had locked and the deadline are the waiting channel's words, not a reader's."""
    asked = boards_drawn
    make_page(export)
    assert len(asked) == 7  # six turns and the end
    assert asked == [({}, None)] * 7


def test_markdown_marks_up_only_what_it_escaped_first() -> None:
    assert markdown("**Strike** `abc` <b>x</b>") == (
        "<strong>Strike</strong> <code>abc</code> &lt;b&gt;x&lt;/b&gt;"
    )
    assert markdown("**<i>**") == "<strong>&lt;i&gt;</strong>"


def test_a_running_or_forged_export_makes_no_page(
    export: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    running = copy.deepcopy(export)
    running["campaign"]["seed"] = None
    running["campaign"]["status"] = "active"
    with pytest.raises(ReplayRefused) as refused:
        make_page(running)
    assert refused.value.key == "no-seed"
    forged = copy.deepcopy(export)
    flown = next(e for e in forged["events"] if e["kind"] == "strike-flown")
    flown["data"]["forged"] = True
    with pytest.raises(ReplayRefused) as refused:
        make_page(forged)
    assert refused.value.key == "unverified"
    for name, data in (("running", running), ("forged", forged)):
        path = tmp_path / f"{name}.json"
        path.write_text(dumps(data), encoding="utf-8")
        assert main(["replay", str(path), "--out", str(tmp_path / f"{name}.html")]) == 1
        assert not (tmp_path / f"{name}.html").exists()
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith("No page made: the campaign is still running"), said
    assert said[1].startswith("No page made: the export does not verify"), said
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    assert main(["replay", str(tmp_path / "broken.json")]) == 1
    assert capsys.readouterr().err.startswith("No page made: cannot read")
    assert not (tmp_path / "broken.html").exists()
