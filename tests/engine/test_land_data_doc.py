"""docs/data.md lists every entry of the land and Pearl Harbor data files (issue 10).

The first test compares the page with what ``engine.rulesets.land.datadoc`` writes from the
files; the others read the TOML files directly (not through the generator) and look for
each entry in the page's section of that theatre, so a generator that left rows out would
fail them too.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.rulesets.land import datadoc

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "engine" / "zero" / "data"
DOC = ROOT / "docs" / "data.md"


def _doc_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert datadoc.BEGIN in text and datadoc.END in text, "docs/data.md lost its land section"
    return text[text.index(datadoc.BEGIN) : text.index(datadoc.END)]


def _theatre_part(name: str) -> str:
    """The part of the section about one theatre: from its heading to the next one."""
    section = _doc_section()
    start = section.index(f"#### {name} (")
    nxt = section.find("\n#### ", start + 1)
    return section[start : nxt if nxt > 0 else len(section)]


def _rows(part: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in part.splitlines()
        if line.startswith("| ") and not line.startswith("| ---")
    ]


def test_data_md_is_what_the_files_say() -> None:
    assert datadoc.section() in DOC.read_text(encoding="utf-8"), (
        "docs/data.md's land/Pearl Harbor section is stale: run "
        "`python -m engine.rulesets.land.datadoc --write`"
    )


@pytest.mark.parametrize("key", ["malaya", "philippines", "burma"])
def test_every_land_entry_is_listed_with_a_label(key: str) -> None:
    raw = tomllib.loads((DATA / f"{key}.toml").read_text(encoding="utf-8"))
    part = _theatre_part(raw["name"])
    rows = _rows(part)
    for period in raw["periods"]:
        assert period in part
    for target in raw["target"]:
        row = next((r for r in rows if r[0] == str(target["number"])), None)
        assert row is not None, f"{key} target #{target['number']} missing"
        assert row[2] == target["location"]
        assert row[7] == target["band"] and row[8] == target["turns"]
        label = row[-1]
        provenance = target.get("provenance", "authored-default")
        if provenance == "seed":
            assert label.startswith("seed ") and target["source"] in label
        elif provenance == "authored-change":
            assert label.startswith("authored change")
        else:
            assert label.startswith("authored 3.8.")
    for resource in raw["resource"]:
        matches = [
            r
            for r in rows
            if r[:3] == [resource["side"], str(resource["number"]), resource["name"]]
        ]
        assert matches, f"{key} resource {resource['side']} #{resource['number']} missing"
        assert matches[0][7] == resource["text"]
        assert matches[0][-1].startswith(
            "seed" if resource.get("provenance") == "seed" else "authored"
        )
    for card, numbers in raw["missions"].items():
        assert any(
            r[0] == card and r[1 : 1 + len(numbers)] == [str(n) for n in numbers] for r in rows
        )
    for row in raw["performance"]:
        assert any(r == [f"{row['min']:+d}", row["japanese"], row["allied"]] for r in rows)


def test_every_pearl_harbor_entry_is_listed() -> None:
    raw = tomllib.loads((DATA / "pearl-harbor.toml").read_text(encoding="utf-8"))
    rows = _rows(_theatre_part("Pearl Harbor"))
    for target in raw["target"]:
        assert [target["key"], target["name"], target["sheet"]] in [r[:3] for r in rows]
    for group in raw["group"]:
        per_wave = " / ".join(str(c) for c in group["count"])
        assert [group["key"], group["aircraft"], group["mode"], per_wave] in [r[:4] for r in rows]
    for defence in raw["defence"]:
        assert [defence["result"], defence["name"], str(defence["lost"])] in [r[:3] for r in rows]
    for row in raw["performance"]:
        assert [f"{row['min']:+d}", row["level"]] in [r[:2] for r in rows]


def test_every_aircraft_of_the_land_sheets_has_its_vp_listed() -> None:
    section = _doc_section()
    named: set[str] = set()
    for key in ("malaya", "philippines", "burma"):
        text = (DATA / f"{key}.toml").read_text(encoding="utf-8")
        named.update(re.findall(r'aircraft = "([^"]+)"', text))
    rows = {r[0]: r for r in _rows(section)}
    aircraft = tomllib.loads((DATA / "aircraft.toml").read_text(encoding="utf-8"))["aircraft"]
    vp = {entry["code"]: entry["vp"] for entry in aircraft}
    for code in named:
        assert code in rows, f"{code} has no VP row"
        assert rows[code][3] == str(vp[code])
