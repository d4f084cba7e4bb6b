"""``python -m bot verify --rules``: the campaign checked against the rules, from its export.

Belongs here: reading a finished carrier campaign's export (``docs/export-format.md``,
version 2) and the authored data files, and checking every turn against the rules text
(``zero-campaign.md`` 25.x and the authored data it relies on). Written from the rules, not
from the engine: nothing here imports ``engine`` (``tests/test_layering.py`` holds it to
that), so an engine bug is not copied into its own check. Each finding cites its rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.rulesets.carrier.rulecheck.bombing import CHECKS as BOMBING
from engine.rulesets.carrier.rulecheck.core import Campaign, Finding, Findings
from engine.rulesets.carrier.rulecheck.data import GameData, load
from engine.rulesets.carrier.rulecheck.forces import CHECKS as FORCES
from engine.rulesets.carrier.rulecheck.orders import CHECKS as ORDERS
from engine.rulesets.carrier.rulecheck.recovery import CHECKS as RECOVERY
from engine.rulesets.carrier.rulecheck.tracks import CHECKS as TRACKS

CHECKS: tuple[Callable[[Campaign, Findings], None], ...] = (
    *ORDERS,
    *RECOVERY,
    *BOMBING,
    *FORCES,
    *TRACKS,
)

__all__ = ["CHECKS", "RuleCheck", "check_export"]


@dataclass
class RuleCheck:
    passed: int = 0
    problems: list[Finding] = field(default_factory=list)
    refused: str | None = None  # why the file cannot be checked at all

    @property
    def ok(self) -> bool:
        return self.refused is None and not self.problems

    def lines(self) -> list[str]:
        if self.refused is not None:
            return [f"NOT CHECKED: {self.refused}"]
        if self.problems:
            return [p.line() for p in self.problems]
        return [f"OK: {self.passed} checks passed"]


def _refusal(export: Any) -> str | None:
    if not isinstance(export, Mapping) or export.get("format") != "sortie-campaign-export":
        return "not a sortie-campaign-export file"
    if export.get("version") not in (2, 3):  # 3 adds the sealed events: none for the carrier
        return (
            f"export version {export.get('version')!r}: the rules check needs version 2 or"
            " later, which records every draw and tick; export the campaign again with this"
            " release"
        )
    campaign = export.get("campaign") or {}
    if campaign.get("ruleset") != "carrier":
        return f"the rules check covers the carrier campaigns, not {campaign.get('ruleset')!r}"
    if campaign.get("scenario") not in ("coral-sea", "midway", "midway-historical"):
        return f"unknown scenario {campaign.get('scenario')!r}"
    if not isinstance(export.get("final_state"), Mapping):
        return "the campaign is not finished: its export carries no final state yet"
    return None


def check_export(export: Mapping[str, Any], data: GameData | None = None) -> RuleCheck:
    refused = _refusal(export)
    if refused is not None:
        return RuleCheck(refused=refused)
    findings = Findings()
    try:
        campaign = Campaign.read(export, data or load())
        for check in CHECKS:
            check(campaign, findings)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, StopIteration) as exc:
        return RuleCheck(refused=f"malformed export: {type(exc).__name__}: {exc}"[:300])
    return RuleCheck(passed=findings.passed, problems=findings.problems)
