"""The DM panel's text: options left out for one reason share a line, so a long list of
refusals cannot push the fields after it past Discord's 2,000 characters."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.panel import decision_lines
from engine.ruleset import Decision, Excluded, Option


class Words:
    def option_text(
        self, scenario: str, field: str, value: str, locale: str, view: object = None
    ) -> str:
        return value

    def option_lines(self, scenario: str, decision: Decision, locale: str) -> list[str]:
        return [" · ".join(o.id for o in decision.options)]

    def excluded_lines(self, scenario: str, decision: Decision, locale: str) -> Any:
        return [(e.label, e.reason) for e in decision.excluded]


def test_refusals_sharing_a_reason_share_a_line() -> None:
    refused = [Excluded(id=f"photo-{b}", label=f"photo of the {b}", reason="needs a two-seater")
               for b in ("station", "depot", "factory")]  # fmt: skip
    refused.append(Excluded(id="rescue", label="rescue", reason="nobody to rescue"))
    decision = Decision(
        side="entente",
        field="mission",
        options=(Option(id="patrol", label="patrol"),),
        excluded=tuple(refused),
        default="patrol",
    )
    plugin: Any = SimpleNamespace(presenter=Words())
    lines = decision_lines(plugin, "s", (decision,), {}, "en")
    refusals = [line for line in lines if "Not offered" in line]
    assert refusals == [
        "Not offered: photo of the station · photo of the depot · photo of the factory"
        " — needs a two-seater",
        "Not offered: rescue — nobody to rescue",
    ]
