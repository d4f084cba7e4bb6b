"""The replay page in a real browser: headless Chromium pages through every turn with the
keyboard alone, each turn's heading and images shown, the turn list, the slider and a swipe
move too, and nothing is fetched from any network (the page's requests, its content
security policy and Chromium's own net log all say so).

Needs Debian's ``chromium``; skipped without it, except in CI (``CI`` set), where
``scripts/test.sh`` installs it.
"""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from bot.replay import make_page
from tests.browser import Tab, browser, chromium, on_ci
from tests.replay.test_page import CSP

MISSING = (
    "chromium is not installed: the replay page's browser test is skipped"
    " (bash scripts/chromium.sh installs it; CI does, and fails without it)"
)
if chromium() is None and not on_ci():
    # A skip alone is one letter in pytest's line of dots: the warning names what was left out.
    warnings.warn(MISSING, stacklevel=1)
pytestmark = pytest.mark.skipif(chromium() is None and not on_ci(), reason=MISSING)

# What the page shows now: the one section not hidden, its heading, whether that heading
# has the focus, and each of its images as the reader sees it (decoded, laid out, wide).
SHOWN = """(() => {
  const shown = [...document.querySelectorAll("main > section")].filter(s => !s.hidden);
  return shown.map(s => ({
    id: s.id,
    heading: s.querySelector("h2").textContent,
    focused: document.activeElement === s.querySelector("h2"),
    images: [...s.querySelectorAll("img")].map(i => ({
      alt: i.alt,
      loaded: i.complete && i.naturalWidth > 0,
      width: i.getBoundingClientRect().width,
    })),
    where: document.getElementById("where").textContent,
    slider: document.getElementById("slider").value,
  }));
})()"""

# Recorded from the first script the page runs: any content security policy violation.
WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push(
  e.violatedDirective + " " + e.blockedURI));"""


FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

# Whether the turn list's link to the page shown lies within the list's visible width.
IN_SIGHT = """(() => {
  const link = document.querySelector("nav#turns a[aria-current]");
  const list = link.closest("ol").getBoundingClientRect();
  const box = link.getBoundingClientRect();
  return box.left >= list.left - 1 && box.right <= list.right + 1;
})()"""


async def shown(tab: Tab) -> dict[str, Any]:
    sections = await tab.evaluate(SHOWN)
    assert len(sections) == 1, sections
    return dict(sections[0])


def fetched_by_pages(path: Path) -> list[str]:
    """Every URL a page asked Chromium's network stack for, from its net log. The browser's
    own requests (clock, accounts: refused by the resolver rule anyway) carry no initiator;
    a page's carry its origin (``null`` for a file). File and data URLs never reach it."""
    text = path.read_text(encoding="utf-8").rstrip().rstrip(",")
    if not text.endswith("}"):
        text += "]}"  # a log cut at exit: its events list is still readable
    log = json.loads(text)
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    return [
        str(event["params"].get("url"))
        for event in log.get("events", [])
        if event["type"] == start
        and event.get("params", {}).get("initiator", "not an origin") != "not an origin"
    ]


async def test_a_reader_pages_through_every_turn_with_the_keyboard(
    _played: dict[str, Any], tmp_path: Path
) -> None:
    html = make_page(copy.deepcopy(_played)).html
    page = tmp_path / "campaign.html"
    page.write_text(html, encoding="utf-8")
    turns = sorted({r["turn"] for r in _played["rounds"]})
    net_log = tmp_path / "net-log.json"
    async with browser(net_log) as tab:
        await tab.send("Page.addScriptToEvaluateOnNewDocument", source=WATCH)
        await tab.send(
            "Emulation.setDeviceMetricsOverride",
            width=1280,
            height=900,
            deviceScaleFactor=1,
            mobile=False,
        )
        await tab.send("Page.navigate", url=page.as_uri())
        await tab.wait_for("Page.loadEventFired")

        now = await shown(tab)
        assert now["id"] == "campaign" and now["heading"] == "The campaign"
        assert await tab.evaluate("window.scrollY") == 0  # the page opens at its top
        assert now["where"] == "The campaign · 1/8" and now["slider"] == "1"
        # The right arrow, and nothing else, through every turn to the end.
        for number in turns:
            await tab.key("ArrowRight", 39)
            now = await shown(tab)
            assert now["id"] == f"turn-{number}" and now["heading"] == f"Turn {number}"
            assert now["focused"], "the turn's heading takes the focus (read aloud)"
            assert now["images"], f"turn {number} shows no image"
            for image in now["images"]:
                assert image["loaded"] and image["width"] > 300 and image["alt"], image
            assert now["slider"] == str(number + 1)
        await tab.key("ArrowRight", 39)
        now = await shown(tab)
        assert now["id"] == "after-action" and len(now["images"]) == 2
        assert all(image["loaded"] for image in now["images"])
        await tab.key("ArrowRight", 39)  # the last page stays
        assert (await shown(tab))["id"] == "after-action"
        await tab.key("ArrowLeft", 39 - 2)
        assert (await shown(tab))["id"] == f"turn-{turns[-1]}"

        # The turn list by keyboard: focus its link to turn 2, press Enter.
        await tab.evaluate("document.querySelector(\"nav#turns a[href='#turn-2']\").focus()")
        await tab.key("Enter", 13)
        assert (await shown(tab))["id"] == "turn-2"
        # The slider: its arrow keys move it, and the page with it (not twice).
        await tab.evaluate('document.getElementById("slider").focus()')
        await tab.key("ArrowRight", 39)
        assert (await shown(tab))["id"] == "turn-3"

        # On a phone: one column, and a swipe to the left turns the page.
        await tab.send(
            "Emulation.setDeviceMetricsOverride",
            width=400,
            height=800,
            deviceScaleFactor=1,
            mobile=True,
        )
        await tab.send("Emulation.setTouchEmulationEnabled", enabled=True)
        # Two frames: the touches are hit-tested on the phone's layout, not the last wide one
        # (where the swipe's start can fall in the turn list's column, beside the page).
        await tab.evaluate(FRAMES)
        columns = await tab.evaluate(
            'getComputedStyle(document.querySelector(".layout")).gridTemplateColumns'
        )
        assert len(columns.split()) == 1, columns
        # Where the swipe starts must be the pages' on the phone's layout: on a loaded
        # machine the layout can settle a few frames late (a swipe started beside the
        # pages turns nothing, and the test would fail for the machine, not the page).
        start = None
        for _ in range(60):
            top = await tab.evaluate('document.getElementById("pages").getBoundingClientRect().top')
            at = (300, int(top) + 60)
            hit = f"document.elementFromPoint({at[0]}, {at[1]})?.closest('#pages') !== null"
            if await tab.evaluate(hit):
                start = at
                break
            await tab.evaluate(FRAMES)
        assert start is not None, "the pages never came under the swipe's start"
        await tab.swipe(start, (60, start[1] + 10))
        await tab.evaluate(FRAMES)
        assert (await shown(tab))["id"] == "turn-4"
        # The turn list scrolls sideways on a phone: the page shown keeps its link in sight.
        for _ in range(len(turns) - 4 + 1):
            await tab.key("ArrowRight", 39)
        assert (await shown(tab))["id"] == "after-action"
        assert await tab.evaluate(IN_SIGHT), "the turn list hides the page shown"

        assert await tab.evaluate("window.__violations") == []
        errors = [e for e in tab.events if e["method"] == "Runtime.exceptionThrown"]
        assert errors == []
        asked = tab.requests()
        assert asked and asked[0] == page.as_uri()
        assert all(url.startswith(("file:", "data:")) for url in asked), asked
    # Chromium's own record of its network stack, written as it closed.
    assert fetched_by_pages(net_log) == []


LEAKY = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>leak</title>
<meta http-equiv="Content-Security-Policy" content="{csp}"></head><body><h1>leak</h1>
<img src="http://replay-test.invalid/board.png" alt="a board from elsewhere">
<script>fetch("https://replay-test.invalid/data.json").catch(() => null);</script>
</body></html>"""


async def test_the_checks_see_a_page_that_fetches(tmp_path: Path) -> None:
    """The same three checks, on pages that do ask the network: none of them stays quiet."""
    open_page = tmp_path / "open.html"
    open_page.write_text(LEAKY.format(csp="default-src *; script-src 'unsafe-inline'"))
    strict_page = tmp_path / "strict.html"
    strict_page.write_text(LEAKY.format(csp=CSP))
    net_log = tmp_path / "net-log.json"
    async with browser(net_log) as tab:
        await tab.send("Page.addScriptToEvaluateOnNewDocument", source=WATCH)
        await tab.send("Page.navigate", url=open_page.as_uri())
        await tab.wait_for("Page.loadEventFired")
        await tab.evaluate("new Promise(done => setTimeout(done, 300))")
        asked = tab.requests()
        assert "http://replay-test.invalid/board.png" in asked, asked
        tab.events.clear()
        await tab.send("Page.navigate", url=strict_page.as_uri())
        await tab.wait_for("Page.loadEventFired")
        await tab.evaluate("new Promise(done => setTimeout(done, 300))")
        violations = await tab.evaluate("window.__violations")
        assert any("replay-test.invalid" in v for v in violations), violations
    assert any("replay-test.invalid" in url for url in fetched_by_pages(net_log))
