"""A choice built in steps as the panel draws it (``bot.panel``): the parts of its decision
each page shows, its steps' names in the game's words, what each pick and each step left
out reads as. Pure, like the composer."""

from __future__ import annotations

from typing import Any

from bot.i18n import t, word
from bot.rulesets import Plugin
from bot.service_model import StepsDraft
from engine.ruleset import Decision, family_of

SMALL = "-# "  # small print under a field (``bot.panel.fit`` cuts these lines first)


def quick_part(decision: Decision) -> Decision:
    """A choice built in steps as the side's first pages show it: its quick picks alone."""
    return decision.model_copy(update={"steps": 0}) if decision.input == "steps" else decision


def steps_part(decision: Decision) -> Decision:
    """A choice built in steps as its own page shows it: one select per step."""
    return decision.model_copy(update={"options": ()})


def by_steps(decision: Decision) -> bool:
    """Whether a page's decision is drawn as its steps (``steps_part``)."""
    return decision.input == "steps" and decision.steps > 0 and not decision.options


def step_name(decision: Decision, step: int, loc: str) -> str:
    """A step by its number in the game's words ("Card 2"), else "Step 2"."""
    family = family_of(decision.field)
    default = t("inputs.step.default", loc, number=step + 1)
    key = f"inputs.step.{family}"
    return t(key, loc, number=step + 1) if word(key, "", loc) else default


def step_words(
    plugin: Plugin[Any, Any], decision: Decision, built: StepsDraft, loc: str
) -> list[str]:
    """Each pick made, as its step's select names it."""
    words = []
    for index, pick in enumerate(built.picks):
        menu = built.menus[index] if index < len(built.menus) else None
        option = next((o for o in menu.options if o.id == pick), None) if menu else None
        words.append(plugin.presenter.step_text(decision.field, option, loc) if option else pick)
    return words


def step_left_out(
    plugin: Plugin[Any, Any], decision: Decision, built: StepsDraft, loc: str
) -> list[str]:
    """The options the next step to pick leaves out, grouped by their reason: a select
    cannot show an option it refuses, so the panel says why it is not there."""
    if len(built.menus) <= len(built.picks):
        return []
    step = len(built.picks)
    menu = built.menus[step]
    grouped: dict[str, list[str]] = {}
    for excluded in menu.excluded:
        reason = word(f"service.reason.{excluded.reason}", excluded.reason, loc)
        grouped.setdefault(reason, []).append(excluded.label)
    name = step_name(decision, step, loc)
    return [
        SMALL + t("inputs.steps.left-out", loc, step=name, options=" · ".join(names), reason=why)
        for why, names in grouped.items()
    ]
