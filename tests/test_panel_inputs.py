"""The panel composer draws each input kind the same way for every game (``bot.panel``):
a text field as a Write button (its modal holds the page's text fields, five at most) with
a short select of quick picks, a yes/no as two buttons, a menu as a select; and the
controls' custom ids carry a per-unit field whole, within Discord's 100 characters."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot import panel as panels
from bot.rulesets import Plugin
from bot.service_model import PanelData
from cogs.orders import FieldSelect
from cogs.write import MODAL, ConfirmButton, WriteButton
from engine.ruleset import Decision, Option, unit_field
from engine.rulesets.wings import WingsRules
from engine.rulesets.wings.catalog import default_catalog
from rendering.rulesets.wings import WingsPresenter

WINGS = Plugin(WingsRules(default_catalog()), WingsPresenter())


def _panel(decisions: list[Decision], **changes: Any) -> PanelData:
    rules = WINGS.rules
    state = rules.new("wings-1917", "panel")
    base = PanelData(
        campaign_id=123456789,
        round_id=987654321,
        turn=1,
        kind="program",
        side="central",
        status="open",
        paused=False,
        deadline=datetime(2026, 1, 1, tzinfo=UTC),
        decisions=tuple(decisions),
        drafts={},
        locked=False,
        receipt=None,
        is_commander=True,
        can_unlock=False,
        view=rules.view(state, "central"),
    )
    return replace(base, **changes)


def _text(unit: str, picks: int = 2) -> Decision:
    options = tuple(Option(id=f"S S {n}", label=f"S S {n}") for n in range(picks))
    return Decision(
        side="central",
        field=unit_field("program", unit),
        input="text",
        label=f"Pilot {unit} · Albatros D.III",
        options=options,
        default=options[0].id if options else "S S S",
    )


def test_text_fields_share_a_modal_five_at_a_time_and_rows_stay_within_five() -> None:
    rowless = [_text(f"P{n}", picks=0) for n in range(7)]
    pages = panels.pages_of(tuple(rowless))
    assert [len(page) for page in pages] == [5, 2]  # a modal holds five text inputs
    rowed = [_text(f"P{n}") for n in range(6)]
    pages = panels.pages_of(tuple(rowed))
    assert [len(page) for page in pages] == [4, 2]  # four rows of quick picks, one of buttons
    spec = panels.compose(WINGS, _panel(rowed), scenario="wings-1917", locale="en",
                          commander_id=None)  # fmt: skip
    assert len(spec.selects) == 4 and spec.buttons[0].action == "write"
    assert any(b.action == "page" for b in spec.buttons) and len(spec.buttons) <= 5
    modal = panels.modal(WINGS, _panel(rowed), "en", page=1)
    assert [i.field for i in modal.inputs] == ["program:P4", "program:P5"]


def test_the_modal_fits_discord_s_limits_and_is_filled_with_what_was_written() -> None:
    long_label = _text("P1").model_copy(update={"label": "Manfred von Richthofen · " * 4})
    data = _panel([long_label, _text("P2")], drafts={"program:P2": "x"},
                  written={"program:P2": "BL BL TR"})  # fmt: skip
    modal = panels.modal(WINGS, data, "fr")
    assert len(modal.title) <= 45 and modal.title.startswith("Tour 1")
    assert all(len(i.label) <= 45 and len(i.placeholder) <= 100 for i in modal.inputs)
    assert {i.field: i.value for i in modal.inputs} == {"program:P1": "", "program:P2": "BL BL TR"}
    assert modal.inputs[0].placeholder.startswith("ex. BL BL TR")  # the game's example


def test_a_locked_panel_has_no_write_button_and_a_confirm_is_two_buttons() -> None:
    confirm = Decision(
        side="central",
        field="ambush",
        input="confirm",
        options=(Option(id="yes", label="Ambush"), Option(id="no", label="Hold")),
        default="no",
    )
    spec = panels.compose(WINGS, _panel([_text("P1"), confirm], drafts={"ambush": "no"}),
                          scenario="wings-1917", locale="en", commander_id=None)  # fmt: skip
    assert [(c.value, c.default) for c in spec.confirms[0].choices] == [
        ("yes", False),
        ("no", True),
    ]
    locked = panels.compose(WINGS, _panel([_text("P1")], locked=True, receipt="ab" * 32),
                            scenario="wings-1917", locale="en", commander_id=None)  # fmt: skip
    assert not any(b.action == "write" for b in locked.buttons)


def test_custom_ids_carry_a_per_unit_field_whole_within_100_characters() -> None:
    field = unit_field("program", "P1-2.reinforcement_x")
    ids = [
        FieldSelect(123456789012, 987654321098, "central", field).item.custom_id,
        WriteButton(123456789012, 987654321098, "central", page=3).item.custom_id,
        ConfirmButton(123456789012, 987654321098, "central", field=field, index=1).item.custom_id,
    ]
    assert all(len(custom_id) <= 100 for custom_id in ids), ids
    select = FieldSelect.__discord_ui_compiled_template__.fullmatch(ids[0])
    confirm = ConfirmButton.__discord_ui_compiled_template__.fullmatch(ids[2])
    assert select is not None and select["field"] == field
    assert confirm is not None and (confirm["field"], confirm["index"]) == (field, "1")
    assert MODAL.fullmatch("sortie:m:123456789012:987654321098:central:3")


def test_the_wings_panel_offers_quick_picks_and_never_prints_a_menu_of_programs() -> None:
    rules = WINGS.rules
    state = rules.new("wings-1917", "x")
    mine = tuple(d for d in rules.pending(state) if d.side == "central")
    data = _panel(list(mine), view=rules.view(state, "central"))
    for locale in ("en", "fr"):
        spec = panels.compose(WINGS, data, scenario="wings-1917", locale=locale,
                              commander_id=None)  # fmt: skip
        programs = [s for s in spec.selects if s.field.startswith("program:")]
        assert programs and all(len(s.options) <= 8 for s in programs)
        for select in programs:  # every quick pick said in words, none by the plane's id
            for choice in select.options:
                assert choice.description and choice.description != choice.label
                assert not choice.description.startswith("P"), choice
        assert not any(line.startswith("-# S S S") for line in spec.text.splitlines())
        assert spec.buttons[0].action == "write"
        lines = spec.text.splitlines()
        assert any(line.startswith("**Kurt Wolff · Albatros D.III**") for line in lines)
        # Said once, short: how to write (the Write button), the card legend in small print.
        assert spec.text.count("✎") == 1, spec.text
        assert all(line.startswith("-# ") for line in lines if "BL/BR" in line), spec.text
        assert len(spec.text) <= 1100 and len(lines) <= 12, (len(spec.text), len(lines))
