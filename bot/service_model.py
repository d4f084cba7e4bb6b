"""What the turn service hands out and accepts: settings, results, errors and receipts.

Belongs here: the frozen dataclasses the cogs read (``PanelData``, ``LockResult``,
``SideStatus``...), ``ServiceError``, and the receipt arithmetic that ``bot.export`` must
reproduce exactly when it verifies a campaign. No database, no Discord.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from engine.ruleset import Decision, Step, View

MISSING_POLICIES = ("default", "drafts")
MIN_ROUND_SECONDS = 60
MAX_ROUND_SECONDS = 60 * 86400
# A role id no Discord role has (snowflakes are positive): the cogs add it to the roles of a
# server administrator, and the service treats its holder as a GM of every campaign there.
ADMIN_ROLE = -1


class SeedSource(Protocol):
    """Where seeds and salts come from: the ``secrets`` module, or a seeded stand-in (demo)."""

    def token_hex(self, nbytes: int = ...) -> str: ...


class ServiceError(Exception):
    """A refusal: nothing was changed. ``message_key`` + ``params`` translate with ``bot.i18n.t``.

    ``code`` is stable for programs (tests, cogs); the message is for people.
    """

    def __init__(self, code: str, message_key: str | None = None, **params: Any) -> None:
        self.code = code
        self.message_key = message_key or f"service.error.{code}"
        self.params = params
        super().__init__(f"{code}: {params}" if params else code)

    def message(self, locale: Any = None) -> str:
        """The refusal in the reader's language, short enough for Discord to deliver.

        Values typed by people are quoted back clipped (a 6000-character option would make the
        answer too long to send, and the user would get none); a field, side or reason with no
        translation shows as itself rather than as a translation key.
        """
        from bot.i18n import field_word, normalize, t, word
        from bot.limits import MESSAGE_LIMIT, clip

        params = {
            name: clip(value) if isinstance(value, str) else value
            for name, value in self.params.items()
        }
        # An option is named as the panel names it, in the reader's language.
        names = self.params.get("names")
        if isinstance(names, Mapping) and "value" in params:
            params["value"] = clip(str(names.get(normalize(locale)) or params["value"]))
        # Engine reason keys and field names are words too.
        if "reason" in params:
            key = f"service.reason.{params['reason']}"
            # A ruleset's refusal of a text carries the values its words name (the card
            # refused, how many copies): the reason is worded with them.
            given = self.params.get("reason_params")
            if isinstance(given, Mapping) and given:
                values = {k: clip(v) if isinstance(v, str) else v for k, v in given.items()}
                worded = t(key, locale, **values)
                params["reason"] = params["reason"] if worded == key else worded
            else:
                params["reason"] = word(key, params["reason"], locale)
        if "field" in params:
            label = self.params.get("field_label")
            params["field"] = field_word(str(params["field"]), locale, clip(str(label or "")))
        for name in ("side", "panel_side"):
            if name in params:
                params[name] = word(f"service.side.{params[name]}", params[name], locale)
        labels = self.params.get("labels") or {}
        if "missing" in params:
            params["fields"] = clip(
                ", ".join(
                    field_word(clip(str(f)), locale, str(labels.get(f, "")))
                    for f in params["missing"]
                ),
                MESSAGE_LIMIT // 2,
            )
        return clip(t(self.message_key, locale, **params), MESSAGE_LIMIT)


@dataclass(frozen=True)
class Pace:
    """How a campaign moves: time per round, reminders, what happens to a missing order."""

    round_seconds: int = 86_400
    reminder_offsets: tuple[int, ...] = (6 * 3600,)  # seconds before the deadline
    missing_policy: Literal["default", "drafts"] = "default"
    gm_sees_secrets: bool = False
    allow_unlock: bool = True


@dataclass(frozen=True)
class PlayerInfo:
    user_id: int
    side: str
    commander: bool
    dm_ok: bool
    last_active: datetime


@dataclass(frozen=True)
class CampaignInfo:
    id: int
    guild_id: int
    channel_id: int
    gm_id: int
    ruleset: str
    scenario: str
    locale: str
    status: str
    branch: int
    seed_commitment: str
    seed: str | None  # only once revealed (the campaign has ended)
    pace: Pace
    players: tuple[PlayerInfo, ...]
    created_at: datetime
    ended_at: datetime | None = None


@dataclass(frozen=True)
class RoundInfo:
    id: int
    turn: int
    kind: str  # orders / resource
    status: str  # open / resolving / resolved / void
    branch: int
    opened_at: datetime
    deadline: datetime | None


# A draft row holding a choice built in steps that is not whole yet: the field's name and
# this mark ('#' never occurs in a field's name, so it never meets a real field). Only the
# side's own panel reads it; a lock, a deadline and the odds read choices alone.
BUILDING = "#steps"


def building_key(field: str) -> str:
    return f"{field}{BUILDING}"


def choices_of(drafts: Mapping[str, str]) -> dict[str, str]:
    """A side's drafted choices, without its choices still being built in steps."""
    return {name: value for name, value in drafts.items() if not name.endswith(BUILDING)}


def builds_of(drafts: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The picks made so far of each choice still being built in steps, by field."""
    return {
        name.removesuffix(BUILDING): tuple(value.split())
        for name, value in drafts.items()
        if name.endswith(BUILDING)
    }


def text_refused(decision: Decision, text: str, refusal: Any) -> ServiceError:
    """A written value refused (a text, or the picks of a choice built in steps): quoted
    back with the ruleset's reason (a ``Refusal``) and the unit it was for."""
    return ServiceError(
        "illegal-text",
        reason=refusal.reason,
        reason_params=dict(refusal.params),
        field=decision.field,
        field_label=decision.label,
        text=" ".join(text.split()),
    )


@dataclass(frozen=True)
class StepsDraft:
    """A choice built in steps as its side's panel shows it: the picks made (of a whole
    choice, or of one still being built), and the menu of each step up to the next one to
    pick (``menus[i]`` offers step ``i + 1``; a whole choice has one per pick)."""

    picks: tuple[str, ...]
    menus: tuple[Step, ...]
    whole: bool

    def prefix(self, step: int) -> tuple[str, ...]:
        return self.picks[:step]


def steps_token(picks: tuple[str, ...]) -> str:
    """A short fingerprint of the picks before a step: a step's select carries it, so a
    click on a select drawn over other picks (an older copy of the panel) changes nothing."""
    text = "\x1f".join(picks)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


@dataclass(frozen=True)
class PanelData:
    """Everything a commander's order panel shows, for the round their side is in."""

    campaign_id: int
    round_id: int
    turn: int
    kind: str
    side: str
    status: str  # the round's status
    paused: bool
    deadline: datetime | None
    decisions: tuple[Decision, ...]  # this side's fields: legal options + excluded with reasons
    drafts: Mapping[str, str]
    locked: bool
    receipt: str | None
    is_commander: bool
    can_unlock: bool
    view: View  # this side's view, through the secrecy gate
    # Each drafted text field as its side writes it (``Rules.text_of``: a sealed program
    # back to its cards), for this side's panel and modal only.
    written: Mapping[str, str] = field(default_factory=dict)
    public: bool = False  # a round with nothing secret: submitted, not sealed
    # Each choice built in steps, its picks and the menus of its steps (this side's only).
    steps: Mapping[str, StepsDraft] = field(default_factory=dict)

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(d.field for d in self.decisions if d.field not in self.drafts)

    @property
    def version(self) -> str:
        return drafts_version(self.drafts)


@dataclass(frozen=True)
class LockResult:
    round_id: int
    side: str
    receipt: str
    resolved: bool  # this call also resolved the round (every side had locked)
    already_locked: bool = False  # a repeated click: the standing receipt is returned
    panel: PanelData | None = None  # the locker's panel as the lock left it


@dataclass(frozen=True)
class SideStatus:
    side: str
    locked: bool
    receipt: str | None
    defaulted: bool
    commander_id: int | None
    players: tuple[int, ...]
    dm_ok: bool
    last_active: datetime | None
    deadline: datetime | None


@dataclass(frozen=True)
class StatusData:
    campaign: CampaignInfo
    round: RoundInfo | None
    view: View  # the public view, through the secrecy gate
    locked: Mapping[str, bool]


@dataclass(frozen=True)
class LogEntry:
    seq: int
    turn: int
    kind: str
    source: str  # engine / service
    branch: int
    void: bool
    data: Mapping[str, Any]
    at: datetime


@dataclass(frozen=True)
class LogPage:
    entries: tuple[LogEntry, ...]
    page: int
    per_page: int
    total: int
    # How a player knows what the events name by id ("P3" -> "Kurt Wolff"), from the
    # public view: the log reads pilots' names, not the engine's ids.
    names: Mapping[str, str] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True)
class ReceiptInfo:
    round_id: int
    turn: int
    kind: str
    branch: int
    side: str
    receipt: str
    locked_at: datetime
    defaulted: bool
    withdrawn: bool
    opened: bool  # the choice is public: salt and canonical JSON below let anyone check
    salt: str | None = None
    canonical: str | None = None


@dataclass(frozen=True)
class TickResult:
    reminders: int = 0
    deadlines: int = 0
    resolved: int = 0
    failures: tuple[str, ...] = field(default_factory=tuple)


# ------------------------------------------------------------------------------ receipts


# ``canonical_choice``'s ``by`` when the text names no locker: locks committed before
# receipts named one (their ``by_user`` is covered by nothing, and ``verify`` says so).
UNNAMED: Any = object()


def canonical_choice(
    campaign_id: int,
    branch: int,
    turn: int,
    kind: str,
    side: str,
    choice: Mapping[str, str],
    *,
    by: int | None = UNNAMED,
) -> str:
    """The exact text a receipt commits to: sorted keys, no spaces, UTF-8 as is.

    Campaign, branch, turn, round and side are inside the commitment so that a receipt
    cannot be replayed for another round; so is who locked (``by``: the commander's user
    id, or null when the deadline or the round filled the choice), so that an export's
    ``by_user`` cannot be changed without breaking the receipt published in the channel.
    """
    text: dict[str, Any] = {
        "branch": branch,
        "campaign": campaign_id,
        "choice": dict(choice),
        "round": kind,
        "side": side,
        "turn": turn,
    }
    if by is not UNNAMED:
        text["by"] = by
    return json.dumps(text, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def receipt_of(canonical: str, salt: str) -> str:
    return hashlib.sha256((canonical + salt).encode("utf-8")).hexdigest()


def choice_of(canonical: str) -> dict[str, str]:
    data = json.loads(canonical)
    return {str(k): str(v) for k, v in data["choice"].items()}


def drafts_version(drafts: Mapping[str, str]) -> str:
    """A short fingerprint of a side's drafts: Lock commits only the picks its panel showed."""
    text = json.dumps(dict(drafts), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def short_receipt(receipt: str) -> str:
    return receipt[:8] + "…"


def idle_lock(lock: Any) -> bool:
    """A lock the round made itself for a side it asked nothing (no user, no default)."""
    return lock.by_user is None and not lock.defaulted
