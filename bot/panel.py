"""The one panel composer: a commander's order panel as words and control specs.

Pure (no Discord): the DM the outbox sends, its edits after each click, ``/orders`` and
the demo's transcripts are all composed here, so they read exactly alike. The cogs turn a
``PanelSpec`` into Discord components (``bot.controls``); the game's own words (options,
what they give, why one is left out) come from the ruleset's presenter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.clock import epoch
from bot.i18n import t
from bot.rulesets import Plugin
from bot.service_model import PanelData, short_receipt
from engine.ruleset import Decision
from rendering.text import scenario_name

TEXT_LIMIT = 2000
LABEL_LIMIT = 100  # select option label and description
MAX_OPTIONS = 25
MAX_SELECTS = 4  # one action row stays for the buttons


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


def field_text(name: str, locale: str) -> str:
    return t(f"service.field.{name}", locale)


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
    field: str
    options: tuple[ChoiceSpec, ...]
    placeholder: str
    disabled: bool


@dataclass(frozen=True)
class ButtonSpec:
    action: Literal["lock", "unlock", "help", "odds", "page"]
    label: str
    style: Literal["primary", "success", "secondary"]
    disabled: bool


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


def where_line(plugin: Plugin[Any, Any], scenario: str, locale: str, channel_id: int) -> str:
    """ "Campaign: Coral Sea in #channel": which campaign a DM panel belongs to."""
    scenarios = plugin.rules.scenarios()
    name = scenario_name(
        scenario, scenarios[scenario].name if scenario in scenarios else scenario, locale
    )
    return t("service.panel.where", locale, scenario=name, channel=f"<#{channel_id}>")


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

    A panel with more fields than select rows shows its menus a page at a time (``page``),
    with a button to the next page: every field stays reachable, and Lock needs them all.

    The campaign's scenario and channel are named under the title: a player in two
    campaigns tells their DM panels apart.
    """
    fields = [d for d in panel.decisions if d.options]
    pages = max(1, -(-len(fields) // MAX_SELECTS))
    page = page % pages
    shown = fields[page * MAX_SELECTS : (page + 1) * MAX_SELECTS]
    buttons = _buttons(panel, locale, odds=plugin.rules.supports_odds)
    hint = None
    if pages > 1:
        after = (page + 1) % pages
        first, last = after * MAX_SELECTS + 1, min(len(fields), (after + 1) * MAX_SELECTS)
        key = "orders.button.page" if last > first else "orders.button.page-one"  # not "5–5"
        label = t(key, locale, first=first, last=last, total=len(fields))
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
    return PanelSpec(
        campaign_id=panel.campaign_id,
        round_id=panel.round_id,
        side=panel.side,
        text=text,
        selects=_selects(plugin, panel, scenario, locale, shown),
        buttons=buttons,
        page=page,
        next_page=(page + 1) % pages,
        image_name=f"panel-t{panel.turn}-{panel.kind}-{panel.side}.png",
        version=panel.version,
        image_alt=plugin.presenter.panel_summary(panel.view, panel.side, locale),
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
    lines += decision_lines(plugin, scenario, panel.decisions, panel.drafts, loc)
    lines += after
    if panel.locked:
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
        if missing:
            fields = ", ".join(field_text(name, loc) for name in missing)
            lines.append(t("orders.missing", loc, fields=fields))
            if hint is not None:  # some of those menus are on another page
                lines.append(hint)
        else:
            lines.append(t("orders.ready", loc))
        if not panel.is_commander:
            who = f"<@{commander_id}>" if commander_id else "—"
            lines.append(t("orders.commander-locks", loc, commander=who))
        lines.append(t("service.panel.how", loc))
    return fit(lines, room)


SMALL = "-# "  # an option list under its field: the menu below offers the same options


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
) -> list[str]:
    """Per field: what is picked, then (small) every option with what it gives now, then
    what is left out and why."""
    presenter = plugin.presenter
    lines: list[str] = []
    for decision in decisions:
        picked = drafts.get(decision.field)
        if picked is not None and decision.allows(picked):
            state = "✓ " + picked_words(plugin, scenario, decision, picked, loc)
        else:
            state = t("orders.unchosen", loc)
        lines.append(t("label.bold-pair", loc, label=field_text(decision.field, loc), detail=state))
        lines += ["-# " + line for line in presenter.option_lines(scenario, decision, loc)]
        # Options left out for the same reason share a line: a long list of refusals would
        # push the fields after it out of the message (Discord's 2,000 characters).
        grouped: dict[str, list[str]] = {}
        for option, reason in presenter.excluded_lines(scenario, decision, loc):
            grouped.setdefault(reason, []).append(option)
        for reason, names in grouped.items():
            option = " · ".join(names)
            lines.append(t("service.panel.excluded", loc, option=option, reason=reason).strip())
    return lines


def menu_words(plugin: Plugin[Any, Any], scenario: str, decision: Decision, loc: str) -> list[str]:
    """Each option of the owner's menu in the public words, but where two options read the
    same (a Split-S begun late and the plain stall flying its cards, sealed alike): those
    as his own menu line names them, or he could not tell which one he picks. So also an
    option whose public words are a seal ("Flak order 585a660a60"): his own menu says what
    it does (the presenter's ``sealed_option``, if it has one, tells them)."""
    presenter = plugin.presenter
    words = [presenter.option_text(scenario, decision.field, o.id, loc) for o in decision.options]
    alike = {w for w in words if words.count(w) > 1}
    sealed = getattr(presenter, "sealed_option", None)  # public words that hide the option
    for i, option in enumerate(decision.options):
        if words[i] in alike or (sealed is not None and sealed(decision.field, option)):
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


def page_of(panel: PanelData, field: str) -> int:
    """The page whose menus hold ``field`` (0 for a field the panel does not show)."""
    fields = [d.field for d in panel.decisions if d.options]
    return fields.index(field) // MAX_SELECTS if field in fields else 0


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
        picked = panel.drafts.get(decision.field)
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
                placeholder=t("orders.placeholder", loc, field=field_text(decision.field, loc)),
                disabled=readonly,
            )
        )
    return tuple(out)


def _buttons(panel: PanelData, loc: str, *, odds: bool = False) -> tuple[ButtonSpec, ...]:
    readonly = panel.locked or panel.status != "open"
    buttons = [
        ButtonSpec(
            "lock",
            t("orders.button.locked" if panel.locked else "orders.button.lock", loc),
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
