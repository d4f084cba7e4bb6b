"""The one panel composer: a commander's order panel as words and control specs.

Pure (no Discord): the DM the outbox sends, its edits after each click, ``/orders`` and
the demo's transcripts are all composed here, so they read exactly alike. The cogs turn a
``PanelSpec`` into Discord components (``bot.controls``); the game's own words (options,
what they give, why one is left out) come from the ruleset's presenter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.clock import epoch
from bot.i18n import field_word, t, word
from bot.panel_steps import (
    SMALL,
    by_steps,
    quick_part,
    step_left_out,
    step_name,
    step_words,
    steps_part,
)
from bot.rulesets import Plugin
from bot.service_model import PanelData, StepsDraft, short_receipt, steps_token
from engine.ruleset import Decision, Step, family_of
from rendering.text import scenario_name

TEXT_LIMIT = 2000
LABEL_LIMIT = 100  # select option label and description
MAX_OPTIONS = 25
MAX_SELECTS = 4  # one action row stays for the buttons
PAGE_NAME = 60  # a field's name on the page button (a button's label holds 80)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def deadline_text(deadline_at: int | None) -> str:
    """Discord timestamps: each reader sees their own local time."""
    if deadline_at is None:
        return "—"
    return f"<t:{deadline_at}:f> (<t:{deadline_at}:R>)"


def side_text(side: str, locale: str) -> str:
    """A side's name in the reader's language (every message and panel says it this way)."""
    return t(f"service.side.{side}", locale)


def field_text(name: str, locale: str, label: str = "") -> str:
    """A field's name in the reader's words; a per-unit field by its unit's label."""
    return field_word(name, locale, label)


def round_text(kind: str, locale: str) -> str:
    return t(f"service.round.{kind}", locale)


@dataclass(frozen=True)
class ChoiceSpec:
    label: str
    value: str
    description: str | None
    default: bool


@dataclass(frozen=True)
class SelectSpec:
    """A select: a menu, a text's quick picks, or one step of a choice built in steps
    (``step`` counts from 0; ``token`` fingerprints the picks before it)."""

    field: str
    options: tuple[ChoiceSpec, ...]
    placeholder: str
    disabled: bool
    step: int | None = None
    token: str = ""


@dataclass(frozen=True)
class ConfirmSpec:
    """A yes/no field: one button per answer (yes first), the drafted one marked."""

    field: str
    choices: tuple[ChoiceSpec, ...]
    disabled: bool


@dataclass(frozen=True)
class TextInputSpec:
    """One text field of a modal: its id is the field's name, so a submission carries
    back what each input was for (after a restart too)."""

    field: str
    label: str  # at most 45 characters (Discord)
    placeholder: str  # an example of what to write
    value: str  # what the side has drafted, as it writes it


@dataclass(frozen=True)
class ModalSpec:
    """The modal a Write button opens: the text fields of one panel page (at most five)."""

    campaign_id: int
    round_id: int
    side: str
    page: int
    title: str  # at most 45 characters
    inputs: tuple[TextInputSpec, ...]


@dataclass(frozen=True)
class ButtonSpec:
    action: Literal["lock", "unlock", "help", "odds", "page", "write", "restart"]
    label: str
    style: Literal["primary", "success", "secondary"]
    disabled: bool
    field: str = ""  # the choice a Start again button clears


@dataclass(frozen=True)
class PanelSpec:
    """A panel as data: its campaign/round/side (for the controls' ids), words, controls."""

    campaign_id: int
    round_id: int
    side: str
    text: str
    selects: tuple[SelectSpec, ...]
    buttons: tuple[ButtonSpec, ...]
    image_name: str
    version: str  # the drafts shown: Lock commits these or nothing
    image_alt: str = ""  # the picture in words, sent as its alt text
    page: int = 0  # which menus show when there are more fields than select rows
    next_page: int = 0  # the page the page button shows (the panel has one page: 0)
    confirms: tuple[ConfirmSpec, ...] = ()  # yes/no fields, a row of two buttons each


def where_line(plugin: Plugin[Any, Any], scenario: str, locale: str, channel_id: int) -> str:
    """ "Campaign: Coral Sea in #channel": which campaign a DM panel belongs to."""
    scenarios = plugin.rules.scenarios()
    name = scenario_name(
        scenario, scenarios[scenario].name if scenario in scenarios else scenario, locale
    )
    return t("service.panel.where", locale, scenario=name, channel=f"<#{channel_id}>")


MAX_WRITTEN = 5  # text inputs in one modal (Discord)
MODAL_LABEL = 45  # a modal's title and a text input's label (Discord)
PLACEHOLDER = 100


def rows_of(decision: Decision) -> int:
    """The select rows a field takes: a menu and a confirm one, a text one for its quick
    picks (none without), a choice built in steps one a step and one for its quick picks."""
    quick = int(bool(decision.options))
    if decision.input == "steps":
        return decision.steps + quick
    return quick if decision.input == "text" else 1


def pages_of(decisions: tuple[Decision, ...]) -> list[list[Decision]]:
    """The panel's fields a page at a time, ``MAX_SELECTS`` rows a page (``rows_of``; one
    row stays for the buttons); a page's written fields all go in its one modal, so at
    most ``MAX_WRITTEN`` of them share a page. A menu with no option is nothing to show
    (an ordering the rules already fixed). A choice built in steps shows its quick picks
    among the other fields, and its steps on a page of its own after them: the side's
    first page keeps every field at a glance, each choice is built where it has room."""
    pages = _paged([quick_part(d) for d in decisions])
    built = [steps_part(d) for d in decisions if d.input == "steps" and d.steps]
    if not pages[-1] and built:
        pages.pop()
    return pages + [[decision] for decision in built]


def _paged(decisions: list[Decision]) -> list[list[Decision]]:
    pages: list[list[Decision]] = [[]]
    rows = texts = 0
    for decision in decisions:
        row = rows_of(decision)
        if decision.input == "menu" and not decision.options:
            continue
        text = decision.written
        if (row and rows + row > MAX_SELECTS and pages[-1]) or (text and texts == MAX_WRITTEN):
            pages.append([])
            rows = texts = 0
        pages[-1].append(decision)
        rows += row
        texts += text
    return pages


def compose(
    plugin: Plugin[Any, Any],
    panel: PanelData,
    *,
    scenario: str,
    locale: str,
    commander_id: int | None,
    channel_id: int | None = None,
    page: int = 0,
) -> PanelSpec:
    """The panel's words and controls; ``commander_id`` is named to non-commanders.

    Each field is drawn by its kind, the same for every game: a menu as a select, a text
    as a Write button (a modal) with a select of quick picks, a confirm as two buttons.
    A panel with more fields than rows shows them a page at a time (``page``), with a
    button to the next page: every field stays reachable, and Lock needs them all.

    The campaign's scenario and channel are named under the title: a player in two
    campaigns tells their DM panels apart.
    """
    paged = pages_of(panel.decisions)
    pages = len(paged)
    page = page % pages
    shown = paged[page]
    buttons = _buttons(panel, locale, odds=plugin.rules.supports_odds)
    if any(d.written for d in shown) and not (panel.locked or panel.status != "open"):
        # The Write button opens the modal of this page's text fields; it goes first, the
        # way to answer what the panel asks.
        families = {family_of(d.field) for d in shown if d.written}
        (family, *others) = sorted(families)
        label = word(f"inputs.write.{family}", "", locale) if not others else ""
        write = ButtonSpec("write", label or t("inputs.button.write", locale), "primary", False)
        buttons = (write, *buttons)
        buttons = _restarts(panel, locale, shown, buttons)
    hint = None
    if pages > 1:
        # The button names the first field it shows ("Show Balloon winch ›"): "Menu 5 of
        # 5 ›" read as a page counter, not as a menu still to see.
        (first, *more) = paged[(page + 1) % pages]
        name = clip(field_text(first.field, locale, first.label), PAGE_NAME)
        key = "orders.button.page" if more else "orders.button.page-one"
        if by_steps(first):  # "Albert Ball · Nieuport 17: card by card ›"
            named = f"inputs.steps-page.{family_of(first.field)}"
            key = named if word(named, "", locale) else "inputs.steps.page"
        label = t(key, locale, field=name, more=len(more))
        buttons = (*buttons, ButtonSpec("page", label, "secondary", False))
        # A field still to choose whose menu is on another page: say which button shows it.
        here = {d.field for d in shown}
        if any(name not in here for name in panel.missing):
            hint = t("orders.other-page", locale, button=label)
    where = where_line(plugin, scenario, locale, channel_id) if channel_id is not None else None
    room = TEXT_LIMIT - (len(where) + 1 if where is not None else 0)
    text = _text(plugin, panel, scenario, locale, commander_id, room, hint)
    if where is not None:
        head, _, rest = text.partition("\n")
        text = clip(f"{head}\n{where}\n{rest}" if rest else f"{head}\n{where}", TEXT_LIMIT)
    readonly = panel.locked or panel.status != "open"
    return PanelSpec(
        campaign_id=panel.campaign_id,
        round_id=panel.round_id,
        side=panel.side,
        text=text,
        selects=_selects(
            plugin, panel, scenario, locale, [d for d in shown if d.options or d.steps]
        ),
        buttons=buttons,
        page=page,
        next_page=(page + 1) % pages,
        image_name=f"panel-t{panel.turn}-{panel.kind}-{panel.side}.png",
        version=panel.version,
        image_alt=plugin.presenter.panel_summary(panel.view, panel.side, locale),
        confirms=tuple(
            _confirm(plugin, panel, scenario, locale, d, readonly)
            for d in shown
            if d.input == "confirm"
        ),
    )


def modal(plugin: Plugin[Any, Any], panel: PanelData, locale: str, page: int = 0) -> ModalSpec:
    """The modal a page's Write button opens, each field filled with what the side has
    written: the page's written fields; on a page of a choice built in steps (a page of
    its own, most often), the five written fields of the part holding it, as ``/program``
    gives them: a side's programs are still written in one go."""
    paged = pages_of(panel.decisions)
    page %= len(paged)
    here = [d for d in paged[page] if d.written]
    if not any(by_steps(d) for d in here):
        return _modal(panel, locale, page, here)
    texts = [d for d in panel.decisions if d.written]
    part = [d.field for d in texts].index(here[0].field) // MAX_WRITTEN
    return _modal(panel, locale, page, texts[part * MAX_WRITTEN : (part + 1) * MAX_WRITTEN])


def text_modal(plugin: Plugin[Any, Any], panel: PanelData, locale: str, part: int = 0) -> ModalSpec:
    """The modal of the panel's text fields ``part`` (five at a time), wherever their page:
    ``/program``'s, which has no panel page to start from."""
    texts = [d for d in panel.decisions if d.written]
    fields = texts[part * MAX_WRITTEN : (part + 1) * MAX_WRITTEN]
    page = page_of(panel, fields[0].field) if fields else 0
    return _modal(panel, locale, page, fields)


def _modal(panel: PanelData, locale: str, page: int, fields: list[Decision]) -> ModalSpec:
    title = t("inputs.modal.title", locale, turn=panel.turn, round=round_text(panel.kind, locale))
    inputs = []
    for decision in fields[:MAX_WRITTEN]:
        family = family_of(decision.field)
        example = word(f"inputs.example.{family}", decision.default, locale)
        inputs.append(
            TextInputSpec(
                field=decision.field,
                label=clip(field_text(decision.field, locale, decision.label), MODAL_LABEL),
                placeholder=clip(
                    t("inputs.modal.placeholder", locale, example=example), PLACEHOLDER
                ),
                value=panel.written.get(decision.field, ""),
            )
        )
    return ModalSpec(
        campaign_id=panel.campaign_id,
        round_id=panel.round_id,
        side=panel.side,
        page=page,
        title=clip(title, MODAL_LABEL),
        inputs=tuple(inputs),
    )


def _confirm(
    plugin: Plugin[Any, Any],
    panel: PanelData,
    scenario: str,
    loc: str,
    decision: Decision,
    readonly: bool,
) -> ConfirmSpec:
    words = menu_words(plugin, scenario, decision, loc)
    picked = panel.drafts.get(decision.field)
    return ConfirmSpec(
        field=decision.field,
        choices=tuple(
            ChoiceSpec(clip(words[i], 80), option.id, None, option.id == picked)
            for i, option in enumerate(decision.options[:2])
        ),
        disabled=readonly,
    )


def title(plugin: Plugin[Any, Any], panel: PanelData, locale: str) -> str:
    return t(
        "service.panel.title",
        locale,
        turn=panel.turn,
        round=round_text(panel.kind, locale),
        side=side_text(panel.side, locale),
    )


def _text(
    plugin: Plugin[Any, Any],
    panel: PanelData,
    scenario: str,
    loc: str,
    commander_id: int | None,
    room: int = TEXT_LIMIT,
    hint: str | None = None,
) -> str:
    presenter = plugin.presenter
    is_open = panel.status == "open"
    lines = [title(plugin, panel, loc)]
    if is_open and not panel.locked and panel.deadline is not None:
        lines.append(
            t("service.round.deadline", loc, deadline=deadline_text(epoch(panel.deadline)))
        )
    if panel.paused and is_open:
        lines.append(t("orders.paused", loc))
    before, after = presenter.panel_notes(scenario, panel.view, panel.side, panel.drafts, loc)
    lines += before
    lines += decision_lines(
        plugin, scenario, panel.decisions, panel.drafts, loc, panel.written, panel.steps
    )
    lines += after
    if panel.locked and panel.public:
        lines.append(t("inputs.submitted", loc))  # nothing sealed: no receipt to keep
    elif panel.locked:
        lines.append(t("orders.locked", loc, receipt=short_receipt(panel.receipt or "")))
        if panel.status == "open":
            lines.append(t("orders.waiting", loc))
            if panel.can_unlock:
                lines.append(t("orders.can-unlock", loc))
        elif panel.status == "resolving":
            lines.append(t("orders.resolving", loc))
        else:
            lines.append(t("orders.all-locked", loc))
    elif panel.status != "open":
        lines.append(t("orders.resolving", loc))
    else:
        missing = panel.missing
        if missing and hint is None:
            # Each field is named above, "not chosen yet" beside those left: how many are
            # left is enough (their names again took three lines of a phone's screen).
            lines.append(t("orders.missing-count", loc, count=len(missing)))
        elif missing and hint is not None:  # some menus are on another page: which, where
            labels = {d.field: d.label for d in panel.decisions}
            fields = ", ".join(field_text(name, loc, labels.get(name, "")) for name in missing)
            lines += [t("orders.missing", loc, fields=fields), hint]
        else:
            lines.append(t("orders.ready", loc))
        if not panel.is_commander:
            who = f"<@{commander_id}>" if commander_id else "—"
            lines.append(t("orders.commander-locks", loc, commander=who))
        written = any(d.written for d in panel.decisions)
        lines.append(t("inputs.how" if written else "service.panel.how", loc))
    return fit(lines, room)


# SMALL ("-# "): an option list under its field, the menu below offering the same options.


def fit(lines: list[str], limit: int) -> str:
    """The panel's lines within Discord's limit. The small option lists are cut short first
    (each to the same length, the longest first): the menus hold every option anyway, and
    what must stay whole is each field's pick, what is left to choose and how to lock."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    small = [i for i, line in enumerate(lines) if line.startswith(SMALL)]

    def capped(cap: int) -> list[str]:
        return [clip(line, cap) if i in small else line for i, line in enumerate(lines)]

    low, high = len(SMALL) + 12, max((len(lines[i]) for i in small), default=0)
    if small and len("\n".join(capped(low))) <= limit:
        while low < high:  # the longest cap that fits
            middle = (low + high + 1) // 2
            if len("\n".join(capped(middle))) <= limit:
                low = middle
            else:
                high = middle - 1
        return "\n".join(capped(low))
    kept = [line for line in lines if not line.startswith(SMALL)]
    return clip("\n".join(kept), limit)


def decision_lines(
    plugin: Plugin[Any, Any],
    scenario: str,
    decisions: tuple[Decision, ...],
    drafts: Any,
    loc: str,
    written: Mapping[str, str] | None = None,
    steps: Mapping[str, StepsDraft] | None = None,
) -> list[str]:
    """Per field: what is picked, then (small) every option with what it gives now, then
    what is left out and why."""
    presenter = plugin.presenter
    lines: list[str] = []
    for decision in decisions:
        picked = drafts.get(decision.field)
        built = (steps or {}).get(decision.field)
        if built is not None and built.picks and picked is None:
            # Half built: the picks so far, and what the next step is.
            made = " · ".join(step_words(plugin, decision, built, loc))
            state = t(
                "inputs.steps.building",
                loc,
                picks=made,
                step=step_name(decision, len(built.picks), loc),
            )
        elif decision.written and picked is not None:
            # A text as its side wrote it (a sealed one as its cards), in the game's words.
            own = written.get(decision.field, picked) if written is not None else picked
            state = "✓ " + presenter.option_text(scenario, decision.field, own, loc)
        elif picked is not None and decision.allows(picked):
            state = "✓ " + picked_words(plugin, scenario, decision, picked, loc)
        else:
            state = t("orders.unchosen", loc)
        name = field_text(decision.field, loc, decision.label)
        lines.append(t("label.bold-pair", loc, label=name, detail=state))
        if decision.input == "menu":
            # A text's quick picks and a confirm's answers are in their controls: never
            # printed as a line of text under them.
            lines += ["-# " + line for line in presenter.option_lines(scenario, decision, loc)]
        # Options left out for the same reason share a line: a long list of refusals would
        # push the fields after it out of the message (Discord's 2,000 characters).
        grouped: dict[str, list[str]] = {}
        for option, reason in presenter.excluded_lines(scenario, decision, loc):
            grouped.setdefault(reason, []).append(option)
        for reason, names in grouped.items():
            option = " · ".join(names)
            lines.append(t("service.panel.excluded", loc, option=option, reason=reason).strip())
        if built is not None:
            lines += step_left_out(plugin, decision, built, loc)
    return lines


def menu_words(plugin: Plugin[Any, Any], scenario: str, decision: Decision, loc: str) -> list[str]:
    """Each option of the owner's menu in the public words, but where two options read the
    same (a Split-S begun late and the plain stall flying its cards, sealed alike): those
    as his own menu line names them, or he could not tell which one he picks. So also an
    option whose public words are a seal ("Flak order 585a660a60"): his own menu says what
    it does (the presenter's ``sealed_option`` tells them)."""
    presenter = plugin.presenter
    words = [presenter.option_text(scenario, decision.field, o.id, loc) for o in decision.options]
    alike = {w for w in words if words.count(w) > 1}
    for i, option in enumerate(decision.options):
        if words[i] in alike or presenter.sealed_option(decision.field, option):
            one = decision.model_copy(update={"options": (option,)})
            own = presenter.option_lines(scenario, one, loc)
            words[i] = own[0] if own else words[i]
    return words


def picked_words(
    plugin: Plugin[Any, Any], scenario: str, decision: Decision, picked: str, loc: str
) -> str:
    """The owner's pick as his menu words it (``menu_words``)."""
    ids = [o.id for o in decision.options]
    return menu_words(plugin, scenario, decision, loc)[ids.index(picked)]


def page_of(panel: PanelData, field: str, *, steps: bool = False) -> int:
    """The page whose controls hold ``field`` (0 for a field the panel does not show);
    ``steps``: the page of its steps, for a choice built in steps."""
    for index, page in enumerate(pages_of(panel.decisions)):
        if any(d.field == field and by_steps(d) == steps for d in page):
            return index
    return 0


def _selects(
    plugin: Plugin[Any, Any],
    panel: PanelData,
    scenario: str,
    loc: str,
    shown: list[Decision],
) -> tuple[SelectSpec, ...]:
    readonly = panel.locked or panel.status != "open"
    out: list[SelectSpec] = []
    for decision in shown:
        if decision.input == "confirm":
            continue  # two buttons (``_confirm``)
        if not decision.options:
            out += _step_selects(plugin, panel, loc, decision, readonly)
            continue
        picked = panel.drafts.get(decision.field)
        if decision.written:
            picked = panel.written.get(decision.field, picked)  # a quick pick is a text
        words = menu_words(plugin, scenario, decision, loc)
        # A select holds 25 options at most; rulesets keep their lists shorter than that.
        choices = tuple(
            ChoiceSpec(
                label=clip(words[i], LABEL_LIMIT),
                value=option.id,
                description=(
                    clip(described, LABEL_LIMIT)
                    if (
                        described := plugin.presenter.option_description(
                            decision.field, option, loc
                        )
                    )
                    and described != words[i]  # said once: the label already says it
                    else None
                ),
                default=option.id == picked,
            )
            for i, option in enumerate(decision.options[:MAX_OPTIONS])
        )
        out.append(
            SelectSpec(
                field=decision.field,
                options=choices,
                placeholder=t(
                    "inputs.quick" if decision.written else "orders.placeholder",
                    loc,
                    field=field_text(decision.field, loc, decision.label),
                ),
                disabled=readonly,
            )
        )
        out += _step_selects(plugin, panel, loc, decision, readonly)
    return tuple(out)


NOTHING_YET = "-"  # the one option of a step not reachable yet (a select needs one)


def _step_selects(
    plugin: Plugin[Any, Any], panel: PanelData, loc: str, decision: Decision, readonly: bool
) -> list[SelectSpec]:
    """One select per step of a choice built in steps: each step reached offers what the
    picks before it allow, its pick marked; a step not reached yet is shown greyed, saying
    which step comes first, so the rows stay where they are as the choice is built."""
    if decision.input != "steps":
        return []
    built = panel.steps.get(decision.field) or StepsDraft((), (), False)
    field = field_text(decision.field, loc, decision.label)
    out = []
    for index in range(decision.steps):
        name = step_name(decision, index, loc)
        menu: Step | None = built.menus[index] if index < len(built.menus) else None
        picked = built.picks[index] if index < len(built.picks) else None
        if menu is None or not menu.options:
            if menu is None and index < len(built.picks):
                continue  # the choice was whole in fewer steps
            key = "inputs.step.waiting" if menu is None else "inputs.step.dead-end"
            key = "inputs.step.none" if menu is not None and not index else key
            before = step_name(decision, index - 1, loc) if index else name
            placeholder = t(key, loc, field=field, step=name, before=before)
            choices: tuple[ChoiceSpec, ...] = (ChoiceSpec("—", NOTHING_YET, None, False),)
            disabled = True
        else:
            placeholder = t("inputs.step.placeholder", loc, field=field, step=name)
            choices = tuple(
                ChoiceSpec(
                    clip(plugin.presenter.step_text(decision.field, option, loc), LABEL_LIMIT),
                    option.id,
                    clip(option.detail, LABEL_LIMIT) if option.detail else None,
                    option.id == picked,
                )
                for option in menu.options[:MAX_OPTIONS]
            )
            disabled = readonly
        out.append(
            SelectSpec(
                field=decision.field,
                options=choices,
                placeholder=clip(placeholder, 150),
                disabled=disabled,
                step=index,
                token=steps_token(built.picks[:index]),
            )
        )
    return out


def _restarts(
    panel: PanelData, loc: str, shown: list[Decision], buttons: tuple[ButtonSpec, ...]
) -> tuple[ButtonSpec, ...]:
    """A Start again button for each choice of the page built in steps with a pick made,
    after the Write button, while the buttons' row has room (five a row)."""
    started = [
        d
        for d in shown
        if by_steps(d) and (panel.steps.get(d.field) or StepsDraft((), (), False)).picks
    ]
    out = list(buttons)
    for decision in started:
        if len(out) >= 4:  # the page button may still follow
            break
        label = t("inputs.steps.restart", loc)
        if len(started) > 1:
            name = clip(field_text(decision.field, loc, decision.label), PAGE_NAME)
            label = t("inputs.steps.restart-field", loc, field=name)
        out.insert(1, ButtonSpec("restart", label, "secondary", False, field=decision.field))
    return tuple(out)


def _buttons(panel: PanelData, loc: str, *, odds: bool = False) -> tuple[ButtonSpec, ...]:
    readonly = panel.locked or panel.status != "open"
    keys = ("inputs.button.submitted", "inputs.button.submit") if panel.public else ()
    locked, lock = keys or ("orders.button.locked", "orders.button.lock")
    buttons = [
        ButtonSpec(
            "lock",
            t(locked if panel.locked else lock, loc),
            "success" if panel.locked else "primary",
            readonly or not panel.is_commander,
        )
    ]
    if panel.locked and panel.can_unlock:
        buttons.append(ButtonSpec("unlock", t("orders.button.unlock", loc), "secondary", False))
    buttons.append(ButtonSpec("help", t("orders.button.help", loc), "secondary", False))
    if odds and panel.status == "open":
        # The odds preview (issue 13), for a ruleset that has one, while the round is open.
        buttons.append(ButtonSpec("odds", t("orders.button.odds", loc), "secondary", False))
    return tuple(buttons)
