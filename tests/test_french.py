"""French done properly (issue 16): what a French table actually reads, for every ruleset.

Each ruleset's demo is played with the campaign in French; everything posted in the channel
and in the commanders' DMs (``channel.md``, ``dm-*.md``), the campaign log of the same game
and the rules help are scanned for

- words that only the English catalogue uses (the detector is built from the catalogues:
  a word of ``rendering/locales/en`` that no French string uses is English left over),
- French typography: a no-break space before ``: ; ! ?`` and inside « guillemets », no
  straight quotes in prose,
- agreement: 0 and 1 take the singular in French ("1 passes", "0 perdus" are wrong).

Discord markup (``<@…>``, ``<#…>``, ``<t:…:f>``), inline code and links are not prose and
are left out; so are proper names (aircraft types, ships, places), which the catalogue
spells the same in both languages.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from bot.demo import run
from bot.i18n import _catalog
from bot.logtext import describe, settings_changes_text
from engine.zero.loader import default_catalog
from rendering.zero.log_words import _aircraft_names, aircraft_name
from tests.demos import ZERO_DEMOS

DEMOS = (
    *ZERO_DEMOS,
    ("wings", None),
    ("dambuster", "dambuster-mohne"),
    ("memoir44", None),
)
# Keys whose French value may be the English one because it is a name: places, scenarios,
# map labels and targets read the same in French ("Port Moresby", "Midway", "Hickam").
NAME_KEYS = (
    "render.place.",
    "render.map.",
    "render.scenario.",
    "log.scenario.",
    "pearl.target.",
    "pearl.short.",
    "land.location.",
    "land.theatre.",
    "wings.plane.",
    "m44.model.",
)
# Words French writes as English does.
SAME_IN_FRENCH = frozenset(
    {
        "tests",
        "collision",
        "sortie",
        "intact",
        "solo",
        "change",
        "forces",
        "second",
        "part",
        "grenade",
        "saturation",
        "interception",
    }
)
# A word, accents included: "détails" is not "tails".
WORD = re.compile(r"[A-Za-zÀ-ÿ][a-zà-ÿ]{3,}")
# Not prose: mentions, channels, timestamps, inline code, links, image lines, file paths.
NOT_PROSE = re.compile(
    r"<[@#t][^>]*>|`[^`]*`|https?://\S+|!\[[^\]]*\]\([^)]*\)|\b[\w.-]+/[\w.-]+/[\w./-]+"
    r"|\b(?:docs|engine|rendering)/[\w./-]+"
)
# A mark that needs a no-break space before it, preceded by a plain space or by nothing.
BAD_SPACE = re.compile(r"(?<=\S)( ?)([:;!?])(?=\s|$)")
# "0 perdus", "1 passes": French counts 0 and 1 in the singular.
ZERO_ONE_PLURAL = re.compile(r"(?<![\d,.])\b[01] ([a-zéèêà]+s)\b")
PLURAL_WORDS_OK = frozenset({"fois", "pas", "mois", "dos"})


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def english_only() -> set[str]:
    """Words of the English catalogue that no French string uses, except as a name."""
    en, fr = _catalog("en"), _catalog("fr")

    def words(value: str) -> set[str]:  # a placeholder's name is not a word of the text
        return _words(re.sub(r"\{[^}]*\}", " ", value))

    english = set().union(*(words(v) for v in en.values()))
    french = set().union(
        *(
            words(value)
            for key, value in fr.items()
            if value != en.get(key) or key.startswith(NAME_KEYS)
        )
    )
    # A word with an accent is not English ("Système D" is a French name in both catalogues).
    english = {word for word in english if word.isascii()}
    return english - french - SAME_IN_FRENCH


def problems(lines: Iterable[tuple[str, str]]) -> list[str]:
    """Each French line (where, text) that keeps English, misses a no-break space or a
    singular; empty when the French reads right."""
    found: list[str] = []
    leftovers = english_only()
    for where, line in lines:
        prose = NOT_PROSE.sub("", line).replace("ZERO!", "ZERO")  # the game's name
        english = _words(prose) & leftovers
        if english:
            found.append(f"English {sorted(english)} — {where}: {line}")
        for match in BAD_SPACE.finditer(prose):
            found.append(f"no no-break space before {match.group(2)!r} — {where}: {line}")
        if '"' in prose:
            found.append(f"straight quotes (use « ») — {where}: {line}")
        if re.search(r"«(?!\u00a0)|(?<!\u00a0)»", prose):
            found.append(f"no no-break space inside « » — {where}: {line}")
        if re.search(r"\b\d+d(\d+h)?\b", prose):  # "1d", "1d12h": English day units
            found.append(f"English duration — {where}: {line}")
        for match in ZERO_ONE_PLURAL.finditer(prose):
            if match.group(1) not in PLURAL_WORDS_OK:
                found.append(f"plural after 0 or 1 ({match.group(0)}) — {where}: {line}")
    return found


def _posted_lines(out: Path) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    for path in sorted(out.glob("*.md")):
        # after-action.md is the report /campaign export attaches: in the campaign's
        # language too, so it is read like everything posted.
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("### Message"):  # the demo's own heading, not Discord's
                continue
            lines.append((f"{out.name}/{path.name}:{number}", line))
    return lines


@pytest.fixture(scope="module")
def french_demos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    outs: dict[str, Path] = {}
    for ruleset, scenario in DEMOS:
        out = tmp_path_factory.mktemp(f"fr-{ruleset}-{scenario or 'first'}")
        asyncio.run(run(scenario, 1942, out, ruleset=ruleset, locale="fr"))
        outs[f"{ruleset}/{scenario or 'first'}"] = out
    return outs


def test_the_demo_plays_in_french() -> None:
    """``--locale fr`` reaches the campaign: its card and panels are French."""
    assert "cases de dégâts" not in english_only()


def test_every_french_table_reads_french(french_demos: dict[str, Path]) -> None:
    lines: list[tuple[str, str]] = []
    for out in french_demos.values():
        posted = _posted_lines(out)
        assert any("Tour 1" in text for _, text in posted), out  # played in French
        lines += posted
    assert len(lines) > 1000
    assert problems(lines) == []


def test_every_french_campaign_log_reads_french(french_demos: dict[str, Path]) -> None:
    lines: list[tuple[str, str]] = []
    for name, out in french_demos.items():
        export = json.loads((out / "export.json").read_text(encoding="utf-8"))
        for event in export["events"]:
            text = describe(event["kind"], event["data"], "fr", turn=event["turn"])
            for code in _aircraft_names(
                default_catalog()
            ):  # a type's name is a name: "B-17E Flying Fortress"
                text = text.replace(aircraft_name(default_catalog(), code, "fr"), code)
            lines.append((f"{name} log {event['kind']}", text))
    assert len(lines) > 100
    assert problems(lines) == []


def test_the_french_rules_help_reads_french() -> None:
    from rendering import rulebook

    lines: list[tuple[str, str]] = []
    for entry in rulebook.entries("fr"):
        where = f"/rules {entry.ruleset} {entry.number}"
        lines += [(where, entry.title), (where, entry.short)]
        lines += [(where, line) for line in entry.text.splitlines()]
    assert len(lines) > 20
    assert problems(lines) == []


def test_the_settings_line_reads_in_the_readers_language() -> None:
    changes = [
        ["deadline", 86_400, 2 * 86_400],
        ["missing", "default", "drafts"],
        ["reminders", [6 * 3600], []],
        ["language", "en", "fr"],
        ["allow_unlock", True, False],
    ]
    english = settings_changes_text(changes, "en")
    assert english.startswith("time per round 1 d → 2 d; missing orders the default order")
    assert "language English → French" in english and "unlock allowed yes → no" in english
    french = settings_changes_text(changes, "fr")
    assert french.startswith("durée par manche\u00a0: 1 j → 2 j\u00a0; ordres manquants\u00a0: ")
    assert "rappels\u00a0: 6 h → aucun" in french and "langue\u00a0: anglais → français" in french
    assert problems([("settings", french)]) == []
    # A line written before the values were kept still shows as it was written.
    assert settings_changes_text("deadline 1d → 2d", "fr") == "deadline 1d → 2d"


def test_the_detector_catches_what_it_should() -> None:
    """The scan is not blind: English words, plain spaces, straight quotes and plurals."""
    assert problems([("x", "Ordres révélés\u00a0: Japonais Longue Distance")]) == []
    for wrong in (
        "Ordres révélés\u00a0: Japonais Long Range",  # English option name
        "• Port Moresby\u00a0: 4/15 cases (Untouched)",  # English level
        "Ordres révélés : Japonais",  # plain space
        "Ordres révélés: Japonais",  # no space
        'Voir la section "Jouer"',  # straight quotes
        "Passes de bombardement\u00a0: 1 passes",  # plural after 1
        "Rythme\u00a0: 1d par tour",  # English day unit
    ):
        assert problems([("x", wrong)]), wrong
    # Discord markup is not prose: a timestamp's colons are fine.
    assert problems([("x", "Échéance\u00a0: <t:1746446400:f> (<t:1746446400:R>)")]) == []


def test_sheet_dates_and_names_read_in_french() -> None:
    """The words the images and posts take from the game data: turn labels, scenarios,
    track levels, Pearl Harbor targets, Wings skills."""
    from rendering.rulesets.pearl_harbor import PearlPresenter
    from rendering.rulesets.wings import WingsPresenter
    from rendering.text import level_name, scenario_name, turn_label

    assert turn_label("6 May PM", "fr") == "6 mai après-midi"
    assert turn_label("4 June dawn", "fr") == "4 juin à l'aube"
    assert turn_label("5 June", "fr") == "5 juin"
    assert turn_label("6 May PM", "en") == "6 May PM"
    assert scenario_name("coral-sea", "Coral Sea", "fr") == "Mer de Corail"
    assert scenario_name("wings-1917", "Autumn 1917", "fr").startswith("Automne 1917")
    assert scenario_name("coral-sea", "Coral Sea", "en") == "Coral Sea"
    assert level_name("Untouched", "fr") == "Intact"
    pearl = PearlPresenter(default_catalog())
    assert pearl.target_name("kaneohe", "fr") == "Base aéronavale de Kaneohe"
    assert pearl.target_name("kaneohe", "en") == "Kaneohe naval air station"
    wings = WingsPresenter()
    assert wings.option_text("", "skill1", "grass_snake", "fr") == "Couleuvre"
    assert wings.option_text("", "purchase", "spare_parts", "fr") == "Pièces détachées"
    assert wings.option_text("", "purchase", "plane:camel", "fr") == "Sopwith Camel"  # a name


def test_every_scenario_has_a_french_name() -> None:
    """A French campaign's card, boards and log name its scenario in French, for every
    scenario of every ruleset a GM can pick (Midway is a name in both languages)."""
    from bot.rulesets import Registry
    from rendering.text import scenario_name

    registry = Registry()
    rulesets = registry.keys()  # a Registry is not iterable
    untranslated = [
        f"{key}/{spec.key}"
        for key in rulesets
        for spec in registry.get(key).rules.scenarios().values()
        if scenario_name(spec.key, spec.name, "fr") == spec.name and spec.key != "midway"
    ]
    assert untranslated == []
