"""A balloon mission's strategic role (seed A.IV.i) as the Wings boards and panels tell it:
public facts read from the view alone (the role, the artillery's last turn, the alert)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rendering.i18n import t


def role_lines(data: Mapping[str, Any], locale: str) -> list[str]:
    """One line while a balloon mission with a role is flown, else none."""
    mission = data.get("mission") or {}
    role = mission.get("balloon_role")
    if role is None or mission.get("finished"):
        return []
    balloons = [o for o in (mission.get("objectives") or {}).values() if o.get("kind") == "balloon"]
    if not balloons:
        return []
    side = t(f"service.side.{balloons[0].get('side')}", locale)
    if role == "spotting":
        if any(b.get("destroyed") or b.get("fire", 0) > 0 for b in balloons):
            return [t("wings.roles.spotting-blind", locale)]
        return [t("wings.roles.spotting", locale, turn=mission.get("artillery_turn", "?"))]
    if role == "surveillance":
        turns = mission.get("alert_turns") or []
        if not turns:
            key = "surveillance" if mission.get("weather") == "clear" else "surveillance-idle"
            return [t(f"wings.roles.{key}", locale, side=side)]
        if mission.get("turn", 0) <= turns[-1]:
            return [t("wings.roles.alert", locale, side=side, first=turns[0], last=turns[-1])]
        return []  # the alert's two turns are over
    return [t("wings.roles.air-defence", locale)]
