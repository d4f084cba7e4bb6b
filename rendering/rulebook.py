"""The rules digests and the glossary behind ``/rules``: loading them and finding an entry.

Each ruleset that has one keeps a short digest of its rules in ``rendering/rules/<lang>/
<ruleset>.toml`` (our own words, numbered like the game's rules, authored parts labelled),
and ``glossary.toml`` explains the abbreviations the panels and images use. Pure and
without Discord, so the cog, the panel's Help and the tests read the same entries.

A query is a rule number ("25.71", "25.7" for the whole section, "#3" for a resource,
"A.II.a" or "DB5" for Wings of War) or
words ("recovery", "out of sight"): numbers match exactly or by section, words match the
title, the keywords and then the text; a query that matches nothing gets near misses.
"""

from __future__ import annotations

import difflib
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULES_DIR = Path(__file__).parent / "rules"
LANGS = ("en", "fr")
GLOSSARY = "glossary"
# A glossary term that names no games is a ZERO! term: the card and strike words of the
# carrier, land and Pearl Harbor campaigns.
ZERO_GAMES = ("carrier", "land", "pearl-harbor")


@dataclass(frozen=True)
class RuleEntry:
    ruleset: str  # the ruleset key ("carrier"), or "glossary"
    number: str  # "25.71", "#3", "PH2"; a glossary term's key
    title: str
    text: str
    keywords: tuple[str, ...]
    short: str = ""  # one line (at most 100 characters) for a select menu, when given
    games: tuple[str, ...] = ()  # a glossary term's games (the rulesets whose words it is)

    def serves(self, ruleset: str | None) -> bool:
        """Whether this entry answers in a campaign of ``ruleset`` (None: anywhere)."""
        if ruleset is None:
            return True
        if self.ruleset == GLOSSARY:
            return ruleset in self.games
        return self.ruleset == ruleset

    @property
    def heading(self) -> str:
        if self.ruleset == GLOSSARY:
            return self.title
        return f"{self.number} {self.title}"


def _fold(text: str) -> str:
    """Lower case without accents, so "recuperation" finds "récupération"."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


@cache
def rulesets(lang: str) -> dict[str, str]:
    """Ruleset key -> the digest's title, for the rulesets that have a digest."""
    out: dict[str, str] = {}
    for path in sorted((RULES_DIR / _lang(lang)).glob("*.toml")):
        if path.stem != GLOSSARY:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            out[str(data["ruleset"])] = str(data["title"])
    return out


@cache
def entries(lang: str) -> tuple[RuleEntry, ...]:
    """Every rule of every digest, then the glossary, in file order."""
    found: list[RuleEntry] = []
    for path in sorted((RULES_DIR / _lang(lang)).glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if path.stem == GLOSSARY:
            continue
        for rule in data.get("rule", []):
            found.append(
                RuleEntry(
                    ruleset=str(data["ruleset"]),
                    number=str(rule["number"]),
                    title=str(rule["title"]),
                    text=str(rule["text"]),
                    keywords=tuple(str(k) for k in rule.get("keywords", ())),
                    short=str(rule.get("short", "")),
                )
            )
    return (*found, *_glossary(lang))


def entry(ruleset: str, number: str, lang: str) -> RuleEntry | None:
    """One rule of one ruleset's digest by its exact number ("#3"), or None."""
    return _by_number(_lang(lang)).get((ruleset, number))


@cache
def _by_number(lang: str) -> dict[tuple[str, str], RuleEntry]:
    # An order panel names every resource through its rule, a few hundred look-ups per
    # panel: one dictionary instead of a walk over every rule each time. The first of a
    # number wins, as the walk's did.
    found: dict[tuple[str, str], RuleEntry] = {}
    for rule in entries(lang):
        found.setdefault((rule.ruleset, rule.number), rule)
    return found


def warm() -> None:
    """Read every digest now: the first panel a player opens would otherwise pay for
    parsing them all (tens of milliseconds with the event loop held)."""
    for lang in LANGS:
        _by_number(lang)
        rulesets(lang)


def glossary(lang: str, ruleset: str | None = None) -> tuple[RuleEntry, ...]:
    """The glossary's terms, or those of one game's words (a Wings campaign's channel reads
    Wings terms, not the carrier's)."""
    return tuple(term for term in _glossary(lang) if term.serves(ruleset))


@cache
def _glossary(lang: str) -> tuple[RuleEntry, ...]:
    path = RULES_DIR / _lang(lang) / f"{GLOSSARY}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(
        RuleEntry(
            ruleset=GLOSSARY,
            number=str(term["key"]),
            title=str(term["term"]),
            text=str(term["text"]),
            keywords=tuple(str(k) for k in term.get("keywords", ())),
            games=tuple(str(g) for g in term.get("games", ZERO_GAMES)),
        )
        for term in data.get("term", [])
    )


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


_NUMBER = re.compile(
    r"^(#\s*\d+|n°\s*\d+|ph\s*\d+|db\s*\d*(\.[a-e])?|\d+(\.\d+)?|[a-g](\.[ivx]+(\.[a-j])?)?)$",
    re.IGNORECASE,
)
# Wings of War's sections are lettered ("A.II.a"): a section's rules are those under it,
# so "A.II" is A.II.a to A.II.c and never A.III.
_LETTERED = re.compile(r"^[a-g](\.[ivx]+)*$")


def _number_key(query: str) -> str | None:
    """The query as a rule number ("25.71", "#3", "PH2"), or None if it is words."""
    text = query.strip().lower().replace(" ", "")
    if not _NUMBER.match(text):
        return None
    if text.startswith("n°"):
        text = "#" + text[2:]
    return text


def _rules(lang: str, ruleset: str | None) -> list[RuleEntry]:
    return [e for e in entries(lang) if e.ruleset != GLOSSARY and ruleset in (None, e.ruleset)]


def find(query: str, lang: str, ruleset: str | None = None) -> list[RuleEntry]:
    """The entries answering ``query``, best first; empty when nothing matches.

    ``ruleset`` narrows rules to one game (the campaign's), the glossary always answers.
    """
    key = _number_key(query)
    if key is not None:
        rules = _rules(lang, ruleset)
        while key:
            found = _numbered(rules, key)
            if found:
                return found
            # A rule the digest leaves out ("24.42") answers with its section (24.4).
            key = _parent(key)
        return []
    words = _fold(query)
    if not words:
        return []
    pool = [e for e in entries(lang) if e.serves(ruleset)]
    scored: list[tuple[int, int, RuleEntry]] = []
    for index, entry in enumerate(pool):
        title = _fold(entry.title)
        keywords = [_fold(k) for k in entry.keywords]
        # An entry's first keyword is its subject: "recovery" is 25.71's, while 25.33
        # only mentions it.
        if words in (title, _fold(entry.number)) or keywords[:1] == [words]:
            score = 0
        elif words in keywords:
            score = 1
        elif title.startswith(words) or (keywords[:1] and keywords[0].startswith(words)):
            score = 2
        elif words in title:
            score = 3
        elif any(words in k for k in keywords):
            score = 4
        elif all(w in _fold(entry.text) for w in words.split()):
            score = 5
        else:
            continue
        scored.append((score, index, entry))
    return [entry for _, _, entry in sorted(scored, key=lambda s: (s[0], s[1]))]


def _numbered(rules: list[RuleEntry], key: str) -> list[RuleEntry]:
    """The rules numbered ``key``, or the rules of section ``key``."""
    exact = [e for e in rules if e.number.lower() == key]
    if exact:
        return exact
    if _LETTERED.match(key):
        return [e for e in rules if e.number.lower().startswith(key + ".")]
    # "25.7" is the section: its rules in order ("25.71", "25.72"), not "25.70x".
    return [e for e in rules if e.number.lower().startswith(key) and "." in key] or [
        e for e in rules if e.number.lower().startswith(key + ".")
    ]


def _parent(key: str) -> str:
    """The section a rule number belongs to: "24.42" -> "24.4", "b.v.a" -> "b.v", "db5.a" ->
    "db5"; "" once there is none left (a chapter, "24", is not a rule)."""
    if key.startswith(("#", "ph")):
        return ""
    if "." in key and key[0] in "abcdefg":
        return key.rsplit(".", 1)[0]
    if key.startswith("db") and "." in key:
        return key.split(".", 1)[0]
    head, _, tail = key.partition(".")
    if head.isdigit() and len(tail) > 1:
        return f"{head}.{tail[:-1]}"
    return ""


def suggestions(query: str, lang: str, ruleset: str | None = None, limit: int = 5) -> list[str]:
    """Near misses for a query that matched nothing: headings to try instead."""
    pool = [e for e in entries(lang) if e.serves(ruleset)]
    words: dict[str, RuleEntry] = {}
    for entry in pool:
        for name in (entry.title, entry.number, *entry.keywords):
            words.setdefault(_fold(name), entry)
    close = difflib.get_close_matches(_fold(query), list(words), n=limit * 3, cutoff=0.5)
    out: list[str] = []
    for name in close:
        entry = words[name]
        if entry.number not in out:
            out.append(entry.number if entry.ruleset != GLOSSARY else entry.title)
        if len(out) == limit:
            break
    return out


def complete(
    current: str, lang: str, ruleset: str | None = None, limit: int = 25
) -> list[RuleEntry]:
    """Autocomplete: what the user is typing, as entries; the section list when empty."""
    if not current.strip():
        rules = _rules(lang, ruleset)
        return [*rules[: limit - 1], *glossary(lang, ruleset)[:1]][:limit]
    key = _number_key(current)
    if key is not None:
        rules = _rules(lang, ruleset)
        return [e for e in rules if e.number.lower().startswith(key)][:limit]
    return find(current, lang, ruleset)[:limit]
