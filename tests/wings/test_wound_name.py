"""The debrief's wound choice names the pilot it is about (seed D.IV), as the skill choice
does: two wounded pilots' fields otherwise read "Wounded pilot 1" and "Wounded pilot 2"."""

from __future__ import annotations

from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.pilots import after_mission
from rendering.i18n import t
from rendering.rulesets.wings import WingsPresenter
from tests.test_french import problems
from tests.wings.helpers import catalog
from tests.wings.helpers import plane as make_plane


def test_the_wound_choice_names_its_pilot_in_both_languages() -> None:
    rules = WingsRules(catalog())
    state = rules.new("wings-1917", "wound")
    camp = state.camp
    pid = sorted(p.id for p in camp.pilots.values() if p.side == "entente")[0]
    guy = camp.pilots[pid]
    hurt = after_mission(catalog(), guy, make_plane(pid, side="entente", pilot_lp=5), 0)
    assert hurt.state == "wounded"
    camp = camp.model_copy(
        update={"pilots": {**camp.pilots, pid: hurt}, "phase": "debrief", "mission": None}
    )
    state = state.model_copy(update={"campaign": camp})
    wound = next(d for d in rules.pending(state) if d.field.startswith("wound"))
    presenter = WingsPresenter()
    for locale in ("en", "fr"):
        line = presenter.option_lines("wings-1917", wound, locale)[0]
        rest = t("wings.wound.rest", locale)
        assert line.startswith(
            t("wings.debrief.wound-for", locale, pilot=guy.name, choices=rest)
        ), line
        if locale == "fr":
            assert problems([("wound", line)]) == []
