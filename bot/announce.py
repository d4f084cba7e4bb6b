"""From an outbox row to what people see: text, images, and which message it edits.

Shared by every ``Sender`` (Discord, the demo's files, tests): the worker builds the
``Announcement`` here and the sender only posts it. Text goes through ``bot.i18n`` in the
campaign's locale; every image has a short text summary in the text beside it (images off,
screen readers). Images and the game's own words come from the campaign's ruleset (its
presenter, ``bot.rulesets``), always drawn from a view the secrecy gate gave out; if an
image fails, the announcement goes out without it and the log says why, so a drawing bug
can never hold back a reveal. DM panels are composed by ``bot.panel``, the one composer.

Builders read the database at delivery time for living messages (campaign card, round
message, DM panel); one-off announcements (reveal, strike report) carry their facts in the
payload or point at an immutable snapshot.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from bot import boards, drawing, secrecy, service_model
from bot import panel as panels
from bot import switches as gm_switches
from bot.clock import Clock, SystemClock, epoch, from_epoch
from bot.i18n import t, word
from bot.panel import PanelSpec, deadline_text, field_text, round_text, side_text
from bot.rulesets import Plugin, Registry
from bot.service_model import receipt_of, short_receipt
from bot.service_panels import panel_data
from bot.service_states import load_view_state, view_of
from db.repository import (
    CampaignRow,
    LockRow,
    OutboxRow,
    PlayerRow,
    Repository,
    RoundRow,
    SnapshotRow,
    Transaction,
)
from rendering.presenter import RevealLine, TurnTold
from rendering.text import scenario_name

log = logging.getLogger(__name__)

TEXT_LIMIT = 2000  # Discord's limit for a message's content
SWITCHES_KEPT = 4096  # started campaigns whose switches a builder keeps (a few dozen bytes each)

__all__ = ["Announcement", "AnnouncementBuilder", "deadline_text"]


@dataclass(frozen=True)
class Announcement:
    kind: str
    text: str
    images: list[tuple[str, bytes]] = field(default_factory=list)
    edit_of: str | None = None  # message key: edit the message posted under this key
    panel: PanelSpec | None = None  # a DM order panel: its controls go with the text
    # The users this message means to ping; nobody else is pinged, whatever the text says
    # (a GM's reason may contain @everyone or a role: it is shown, never obeyed).
    mentions: tuple[int, ...] = ()
    # Image file name -> its description, sent as the attachment's alt text (read aloud by
    # screen readers, shown when images are off) rather than as a line of the message.
    alt: dict[str, str] = field(default_factory=dict)

    def with_image(self, name: str, png: bytes, alt: str) -> Announcement:
        """The same announcement with one more image, never without the words said for it."""
        return replace(self, images=[*self.images, (name, png)], alt={**self.alt, name: alt})


class Occasion(NamedTuple):
    """What one outbox row is told from: its campaign and ruleset, the payload queued with
    it and the facts read for it at delivery time."""

    plugin: Plugin[Any, Any]
    campaign: CampaignRow
    payload: Mapping[str, Any]
    facts: dict[str, Any]

    def public(self) -> Any:
        """The channel's view of the state the row was queued on."""
        return view_of(self.plugin.rules, self.facts["state"], secrecy.Viewer.public())


# ------------------------------------------------------------------------------ words


def duration_text(seconds: int, locale: str = "en") -> str:
    """ "1d12h" as English players type it; in another language its own units ("1 j 12 h")."""
    from bot.durations import format_duration
    from bot.i18n import normalize
    from bot.logtext import duration_words

    if normalize(locale) == "en":
        return format_duration(seconds)
    return duration_words(seconds, locale)


def reason_text(reason: str, locale: str) -> str:
    return t(f"service.reason.{reason}", locale)


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else "—"


def clip(text: str) -> str:
    if len(text) <= TEXT_LIMIT:
        return text
    return text[: TEXT_LIMIT - 1] + "…"


# ------------------------------------------------------------------------------ images


async def render(what: str, plugin: Plugin[Any, Any], method: str, *args: Any) -> Any:
    """``plugin.presenter.<method>(*args)`` drawn off the event loop (``bot.drawing``: in a
    worker process); None (logged) if drawing fails."""
    try:
        return await drawing.draw(plugin, method, *args)
    except Exception:
        log.exception("%s image failed: the announcement goes out without it", what)
        return None


# ------------------------------------------------------------------------------ builder


def card_text(
    plugin: Plugin[Any, Any],
    c: CampaignRow,
    players: Sequence[Any],
    loc: str,
    switches: Mapping[str, str] | None = None,
    view: Any = None,
) -> str:
    """The campaign card: scenario, GM, the switches it was created with, sides and players,
    pace, secrets, seed commitment. ``view`` (public), once the campaign has begun: a game
    whose length is in its own words says it (missions flown and how long they lasted)."""
    scenario = plugin.rules.scenarios()[c.scenario]
    game = t(f"service.game.{c.ruleset}", loc)
    name = scenario_name(c.scenario, scenario.name, loc)
    length = plugin.presenter.campaign_length(c.scenario, view, loc)
    if length is None:
        lines = [t("service.card.title", loc, scenario=name, game=game, turns=scenario.turns)]
    else:
        lines = [t("service.card.title-length", loc, scenario=name, game=game, length=length)]
    lines.append(t("service.card.gm", loc, gm=mention(c.gm_id)))
    if switches:
        said = gm_switches.described(plugin.rules, c.scenario, switches, loc)
        lines.append(t("service.card.switches", loc, switches=said))
    for side in plugin.rules.side_ids:
        names = [
            mention(p.user_id) + (" ★" if p.commander else "") for p in players if p.side == side
        ]
        lines.append(
            t(
                "service.card.side",
                loc,
                side=side_text(side, loc),
                players=", ".join(names) or t("service.card.nobody", loc),
            )
        )
    reminders = ", ".join(duration_text(o, loc) for o in c.reminder_offsets) or "—"
    lines.append(
        t(
            "service.card.pace",
            loc,
            round=duration_text(c.round_seconds, loc),
            reminders=reminders,
            policy=t(f"service.policy.{c.missing_policy}", loc),
            unlock=t(
                "service.card.unlock-yes" if c.allow_unlock else "service.card.unlock-no", loc
            ),
        )
    )
    lines.append(
        t(
            "service.card.secrets-gm" if c.gm_sees_secrets else "service.card.secrets-sealed",
            loc,
        )
    )
    lines.append(t("service.card.commitment", loc, commitment=c.seed_commitment))
    if c.seed_revealed:
        lines.append(t("service.card.seed", loc, seed=c.seed))
    lines.append(t("service.card.status", loc, status=t(f"service.status.{c.status}", loc)))
    return clip("\n".join(lines))


# The looks listed one by one under the card; older ones are counted, so the answer stays
# far below Discord's 2,000 characters however often the GM looked.
PEEKS_LISTED = 10


def peek_lines(peeks: Sequence[Any], loc: str) -> list[str]:
    """Every GM look at the drafts (``/campaign peek``), newest last, for the players."""
    if not peeks:
        return []
    lines = [t("service.card.peeks", loc, count=len(peeks))]
    if len(peeks) > PEEKS_LISTED:
        lines.append(t("service.card.peeks-earlier", loc, count=len(peeks) - PEEKS_LISTED))
    for look in peeks[-PEEKS_LISTED:]:
        lines.append(
            t(
                "service.card.peek",
                loc,
                gm=mention(look.by),
                turn=look.turn,
                round=round_text(look.kind, loc),
                when=f"<t:{int(look.at.timestamp())}:f>",
            )
        )
    return lines


class _Reads:
    """One read transaction's rows, each read once: the rows a batch of announcements is
    told from (a resolution's round message, reveal, reports and panels share their
    campaign, round, locks, roster and snapshot). Kept for one batch only, so every value is
    as the transaction sees it; callers never change what they are given."""

    def __init__(self, tx: Transaction) -> None:
        self.tx = tx
        self._kept: dict[tuple[Any, ...], Any] = {}

    async def _once(self, key: tuple[Any, ...], read: Callable[[], Awaitable[Any]]) -> Any:
        if key not in self._kept:
            self._kept[key] = await read()
        return self._kept[key]

    async def campaign(self, campaign_id: int) -> CampaignRow | None:
        found: CampaignRow | None = await self._once(
            ("campaign", campaign_id), lambda: self.tx.campaign(campaign_id)
        )
        return found

    async def round(self, round_id: int) -> RoundRow | None:
        found: RoundRow | None = await self._once(
            ("round", round_id), lambda: self.tx.round(round_id)
        )
        return found

    async def standing_locks(self, round_id: int) -> Mapping[str, LockRow]:
        found: Mapping[str, LockRow] = await self._once(
            ("locks", round_id), lambda: self.tx.standing_locks(round_id)
        )
        return found

    async def players(self, campaign_id: int) -> Sequence[PlayerRow]:
        """The campaign's players who have not left."""
        found: Sequence[PlayerRow] = await self._once(
            ("players", campaign_id), lambda: self.tx.players(campaign_id)
        )
        return found

    async def snapshot(self, snapshot_id: int) -> SnapshotRow:
        async def read() -> SnapshotRow:
            snapshot = await self.tx.snapshot(snapshot_id)
            if snapshot is None:
                raise RuntimeError(f"snapshot {snapshot_id} is missing")
            return snapshot

        found: SnapshotRow = await self._once(("snapshot", snapshot_id), read)
        return found

    async def state(self, rules: Any, snapshot_id: int) -> Any:
        async def load() -> Any:
            return await load_view_state(self.tx, rules, await self.snapshot(snapshot_id))

        return await self._once(("state", id(rules), snapshot_id), load)


class AnnouncementBuilder:
    def __init__(
        self,
        repo: Repository,
        clock: Clock | None = None,
        *,
        rulesets: Registry | None = None,
    ) -> None:
        self.repo = repo
        # The service's own plugins when the bot passes them: the states, decisions and
        # views it keeps are then the announcements' too (keyed by the rules' identity),
        # and a round message's board is the one /status shows.
        self.rulesets = rulesets if rulesets is not None else Registry()
        self.clock = clock or SystemClock()
        # Each started campaign's switches (``_switches``), by campaign id.
        self._switches: dict[int, dict[str, str]] = {}

    def _plugin(self, campaign: CampaignRow) -> Plugin[Any, Any]:
        return self.rulesets.get(campaign.ruleset)

    async def status_board(
        self,
        plugin: Plugin[Any, Any],
        view: Any,
        locked: Mapping[str, bool],
        locale: str,
        deadline: int | None = None,
    ) -> bytes | None:
        when = boards.deadline_words(from_epoch(deadline) if deadline else None)
        # Drawn once per state, locks and locale, and shared with /status (``bot.boards``).
        return await boards.status_board(plugin, view, locked, locale, when)

    async def build(self, row: OutboxRow) -> Announcement | None:
        """The announcement for ``row``, or None if it no longer needs sending."""
        (built,) = await self.build_all([row])
        if isinstance(built, BaseException):
            raise built
        return built

    async def build_all(
        self, rows: Sequence[OutboxRow]
    ) -> list[Announcement | BaseException | None]:
        """Each row's announcement (None: no longer needs sending; an exception: this row
        failed, the others are built all the same), in order.

        The rows' facts are read in one read transaction, each campaign, round, snapshot
        and roster once however many rows tell of it (a resolution queues the round
        message, the reveal, the reports and every commander's panel, all from the same
        few rows); then each is composed, images drawn, outside it."""
        found = await self._read_all(rows)
        built: list[Announcement | BaseException | None] = []
        for row, facts in zip(rows, found, strict=True):
            if facts is None or isinstance(facts, (BaseException, Announcement)):
                built.append(facts)
                continue
            if built:
                # Each row composed in a turn of the event loop of its own (a panel's words,
                # a board from the cache need no wait): other players' clicks go between.
                await asyncio.sleep(0)
            try:
                built.append(await self._compose(facts[0], row, facts[1]))
            except Exception as exc:
                built.append(exc)
        return built

    async def _read_all(
        self, rows: Sequence[OutboxRow]
    ) -> list[tuple[CampaignRow, dict[str, Any]] | Announcement | BaseException | None]:
        found: list[tuple[CampaignRow, dict[str, Any]] | Announcement | BaseException | None]
        found = [None] * len(rows)
        start = 0
        while start < len(rows):
            # A row whose reads fail ends the transaction (PostgreSQL refuses any statement
            # after an error in it): the rows after it are read in a fresh one.
            async with self.repo.read() as tx:
                reads = _Reads(tx)
                for index in range(start, len(rows)):
                    start = index + 1
                    try:
                        found[index] = await self._read(reads, rows[index])
                    except Exception as exc:
                        found[index] = exc
                        break
        return found

    async def _read(
        self, reads: _Reads, row: OutboxRow
    ) -> tuple[CampaignRow, dict[str, Any]] | Announcement | None:
        campaign = await reads.campaign(int(row.payload.get("campaign_id", row.campaign_id or 0)))
        if campaign is None:
            return Announcement(row.kind, t("service.error.unknown-campaign", None, campaign="?"))
        facts = await self._facts(reads, campaign, row)
        return None if facts is None else (campaign, facts)

    # Database reads happen under the read transaction; rendering happens after it, so a
    # slow image never holds the single connection.
    async def _facts(
        self, reads: _Reads, campaign: CampaignRow, row: OutboxRow
    ) -> dict[str, Any] | None:
        tx = reads.tx
        payload = row.payload
        rules = self._plugin(campaign).rules
        facts: dict[str, Any] = {}
        if row.kind == "campaign-card":
            facts["players"] = await reads.players(campaign.id)
            facts["switches"] = await self._switches_of(tx, campaign)
            if campaign.snapshot_id is not None:  # begun: its public view says how far
                facts["state"] = await reads.state(rules, campaign.snapshot_id)
        elif row.kind in ("round-message", "dm-panel", "reminder"):
            round_row = await reads.round(int(payload["round_id"]))
            if round_row is None:
                return None
            facts["round"] = round_row
            facts["locks"] = await reads.standing_locks(round_row.id)
            facts["state"] = await reads.state(rules, round_row.snapshot_before_id)
            if row.kind == "reminder" and (
                round_row.status != "open" or payload["side"] in facts["locks"]
            ):
                return None  # locked since the reminder was queued: no false reminder
            if row.kind == "dm-panel":
                # Drawn for the player as seated now, not as when the row was queued: a
                # commander removed during an outage must not get his successor's drafts.
                players = await reads.players(campaign.id)  # those who have not left
                user_id = int(payload["user_id"])
                player = next((p for p in players if p.user_id == user_id), None)
                if player is None:
                    return None
                facts["panel"] = None
                # A closed round's panel only says it is over (``_dm_panel``): its orders,
                # drafts and view are not worked out for nothing.
                if player.side == payload["side"] and round_row.status == "open":
                    facts["panel"] = await panel_data(
                        tx,
                        rules,
                        campaign,
                        player,
                        round_row,
                        facts["state"],
                        epoch(self.clock.now()),
                        locks=facts["locks"],
                    )
                facts["commander"] = next(
                    (p.user_id for p in players if p.side == payload["side"] and p.commander),
                    None,
                )
        elif row.kind == "campaign-ended":
            # Its after-action report reads the whole history: parsed where it is drawn,
            # off the event loop, from the texts as stored (``drawing.after_action``).
            snapshot = await reads.snapshot(int(payload["snapshot_id"]))
            records = await tx.history(snapshot.campaign_id, snapshot.branch, snapshot.history_len)
            facts["stored"] = (snapshot.state, records)
        elif row.kind in ("report", "strike-report", "turn-summary", "reveal"):
            facts["state"] = await reads.state(rules, int(payload["snapshot_id"]))
            if row.kind == "turn-summary":  # what the turn did, from its public events
                turn = int(payload["turn"])
                facts["events"] = [
                    (e.kind, e.data)
                    for e in await tx.events(campaign.id, turn=turn)
                    if e.source == "engine" and not e.void and e.branch == campaign.branch
                ]
                # The turn's rounds: a turn shown in full is told in its first round's
                # message, and its receipts line counts the locks its rounds took.
                rounds = [
                    r
                    for r in await tx.turn_rounds(campaign.id, campaign.branch, turn)
                    if r.status == "resolved"
                ]
                facts["first_round"] = min((r.id for r in rounds), default=None)
                locked = 0
                for r in rounds:
                    locks = (await reads.standing_locks(r.id)).values()
                    locked += sum(not service_model.idle_lock(lock) for lock in locks)
                facts["locked"] = locked
        return facts

    async def _switches_of(self, tx: Transaction, campaign: CampaignRow) -> dict[str, str]:
        """The switches the card shows: read from the campaign's first events while it is
        set up (the GM may still change them), then kept, since a started campaign's never
        change (``/campaign settings`` refuses it): the card a campaign's end refreshes reads
        no event of its history for them."""
        kept = self._switches.get(campaign.id)
        if kept is not None and campaign.status != "setup":
            return kept
        found = await gm_switches.created_switches(tx, campaign.id)
        if campaign.status != "setup":
            if len(self._switches) >= SWITCHES_KEPT:
                del self._switches[next(iter(self._switches))]  # the oldest kept
            self._switches[campaign.id] = found
        return found

    async def _compose(
        self, campaign: CampaignRow, row: OutboxRow, facts: dict[str, Any]
    ) -> Announcement:
        handlers = {
            "campaign-card": self._card,
            "round-message": self._round_message,
            "dm-panel": self._dm_panel,
            "reminder": self._reminder,
            "reveal": self._reveal,
            "report": self._report,
            "strike-report": self._report,  # rows queued before 0.2
            "turn-summary": self._turn_summary,
            "campaign-ended": self._ended,
            "gm-notice": self._notice,
        }
        handler = handlers.get(row.kind)
        if handler is None:
            raise ValueError(f"unknown outbox kind {row.kind!r}")
        return await handler(Occasion(self._plugin(campaign), campaign, row.payload, facts))

    # -- campaign card
    async def _card(self, occasion: Occasion) -> Announcement:
        plugin, c, _, facts = occasion
        view = occasion.public() if "state" in facts else None  # None: not begun yet
        text = card_text(plugin, c, facts["players"], c.locale, facts.get("switches"), view)
        return Announcement("campaign-card", text, edit_of="card")

    # -- the round message
    async def _round_message(self, occasion: Occasion) -> Announcement:
        plugin, c, _, facts = occasion
        loc = c.locale
        round_row = facts["round"]
        locks = facts["locks"]
        status = round_row.status
        if status == "open" and c.status == "paused":
            status = "paused"
        elif status == "void" and c.status == "finished":
            status = "ended"
        public = occasion.public()
        header = round_header(
            plugin, c, public, round_row.turn, round_row.kind, f"service.round.status.{status}"
        )
        lines = [header]
        if round_row.status == "open":
            lines.append(
                t("service.round.deadline", loc, deadline=deadline_text(round_row.deadline_at))
            )
        for side in plugin.rules.side_ids:
            lock = locks.get(side)
            if lock is None:
                lines.append(t("service.round.waiting", loc, side=side_text(side, loc)))
            else:
                key = "service.round.defaulted" if lock.defaulted else "service.round.locked"
                if plugin.rules.public_round(round_row.kind) and not lock.defaulted:
                    key = "inputs.round.submitted"  # nothing sealed: no receipt to show
                if lock.by_user is None and not lock.defaulted:
                    key = "service.round.idle"  # locked at the opening: nothing to decide
                lines.append(
                    t(key, loc, side=side_text(side, loc), receipt=short_receipt(lock.receipt))
                )
        out = Announcement("round-message", clip("\n".join(lines)), edit_of=f"round:{round_row.id}")
        # A finished round's message keeps only its text: the reveal and the next round's
        # board follow right after it, so one board per round stays in the channel.
        if round_row.status not in ("open", "resolving"):
            return out
        locked = {side: side in locks for side in plugin.rules.side_ids}
        deadline = round_row.deadline_at if round_row.status == "open" else None
        png = await self.status_board(plugin, public, locked, loc, deadline)
        if png is None:
            return out
        name = f"status-t{round_row.turn}-{round_row.kind}.png"
        return out.with_image(name, png, plugin.presenter.board_summary(public, loc))

    # -- the DM panel
    async def _dm_panel(self, occasion: Occasion) -> Announcement:
        plugin, c, payload, facts = occasion
        loc = c.locale
        round_row = facts["round"]
        data = facts["panel"]
        title = t(
            "service.panel.title",
            loc,
            turn=round_row.turn,
            round=round_text(round_row.kind, loc),
            side=side_text(str(payload["side"]), loc),
        )
        key = f"panel:{round_row.id}:{payload['user_id']}"
        if round_row.status != "open" or data is None:
            # Still named, so a player in two campaigns knows which one ended a round.
            where = panels.where_line(plugin, c.scenario, loc, c.channel_id)
            ended = c.status == "finished"
            over = t("service.panel.campaign-over" if ended else "service.panel.over", loc)
            return Announcement("dm-panel", f"{title}\n{where}\n{over}", edit_of=key)
        # Composed off the event loop (a drawing process), as its picture is drawn.
        spec = await drawing.composed_panel(
            plugin, data, c.scenario, loc, facts["commander"], c.channel_id
        )
        out = Announcement("dm-panel", spec.text, panel=spec, edit_of=key)
        # Drawn once per state and drafts: the side's own drafts only (its ghost paths).
        png = await boards.panel_image(plugin, data.view, loc, data.drafts)
        return out if png is None else out.with_image(spec.image_name, png, spec.image_alt)

    # -- reminder
    async def _reminder(self, occasion: Occasion) -> Announcement:
        _, c, payload, facts = occasion
        loc = c.locale
        round_row = facts["round"]
        text = t(
            "service.reminder",
            loc,
            user=mention(int(payload["user_id"])),
            side=side_text(str(payload["side"]), loc),
            turn=round_row.turn,
            round=round_text(round_row.kind, loc),
            deadline=deadline_text(round_row.deadline_at),
        )
        return Announcement("reminder", clip(text), mentions=(int(payload["user_id"]),))

    # -- reveal
    async def _reveal(self, occasion: Occasion) -> Announcement:
        """The round's choices, as the secrecy gate let them open, worded from the public
        view after it (it names what an opened choice names by id: a flak order's plane)."""
        plugin, c, payload, _ = occasion
        loc = c.locale
        kind = str(payload["round"])
        view = occasion.public()
        if payload.get("public"):
            return self._public_line(occasion)
        title = t("service.reveal.title", loc, turn=payload["turn"], round=round_text(kind, loc))
        lines = [f"**{title}**"]
        reveal_sides: list[RevealLine] = []
        # The payload holds only what the secrecy gate let the reveal show.
        for entry in payload["sides"]:
            side = str(entry["side"])
            pairs = tuple(
                (
                    field_text(name, loc, value.get("field_label", "")),
                    plugin.presenter.option_text(c.scenario, name, value["id"], loc, view),
                )
                for name, value in entry["fields"].items()
            )
            if not pairs:  # nothing to show: say why, rather than a blank
                pairs = (
                    (t("service.reveal.orders", loc), blank_words(c.ruleset, kind, entry, loc)),
                )
            reveal_sides.append(RevealLine(side, pairs, short_receipt(entry["receipt"])))
            what = " · ".join(value for _, value in pairs)
            key = "service.reveal.side-default" if entry.get("defaulted") else "service.reveal.side"
            lines.append(
                t(
                    key,
                    loc,
                    side=side_text(side, loc),
                    choice=what,
                    receipt=short_receipt(entry["receipt"]),
                )
            )
        lines += receipts_line(payload.get("opened") or (), len(payload["sides"]), loc)
        out = Announcement("reveal", clip("\n".join(lines)))
        png = await render("reveal", plugin, "reveal_image", title, reveal_sides, loc)
        if png is None:
            return out
        sides = described(lines[1 : 1 + len(reveal_sides)], loc)
        name = f"reveal-t{payload['turn']}-{kind}.png"
        return out.with_image(name, png, t("service.image.reveal", loc, sides=sides))

    def _public_line(self, occasion: Occasion) -> Announcement:
        """A public round (a move in the open, a roll asked for): one short line of what
        each side did, no receipt, no image; the log tells the rest."""
        plugin, c, payload, _ = occasion
        loc = c.locale
        view = occasion.public()
        done = []
        for entry in payload["sides"]:
            what = " · ".join(
                plugin.presenter.option_text(c.scenario, name, value["id"], loc, view)
                for name, value in entry["fields"].items()
            )
            done.append(
                t("inputs.public.side", loc, side=side_text(str(entry["side"]), loc), what=what)
            )
        text = t(
            "inputs.public.line",
            loc,
            turn=payload["turn"],
            round=round_text(str(payload["round"]), loc),
            done=" — ".join(done) or t("inputs.public.nothing", loc),
        )
        return Announcement("reveal", clip(text))

    # -- a resolution's reports (the strikes a turn flew, say)
    async def _report(self, occasion: Occasion) -> Announcement:
        plugin, c, payload, _ = occasion
        loc = c.locale
        public = occasion.public()
        turn, index = int(payload["turn"]), int(payload["index"])
        report = await render("report", plugin, "report", c.scenario, public, turn, index, loc)
        if report is None:
            return Announcement("report", t("service.strike.missing", loc, strike=index + 1))
        out = Announcement("report", clip(report.text))
        if not (report.image and report.image_name):
            return out
        summary = described(report.text.splitlines(), loc)
        alt = t("service.image.report", loc, summary=summary)
        return out.with_image(report.image_name, report.image, alt)

    # -- end of turn
    async def _turn_summary(self, occasion: Occasion) -> Announcement:
        plugin, c, payload, facts = occasion
        loc = c.locale
        public = occasion.public()
        turn = int(payload["turn"])
        events = facts.get("events", ())
        told = await render("turn", plugin, "turn_told", c.scenario, public, events, turn, loc)
        if told is not None:
            return await self._told(occasion, public, told)
        lines = [t("service.summary.title", loc, turn=turn)]
        # A ruleset whose turns a line can tell (planes down, balloons burnt) says it first.
        lines += plugin.presenter.turn_happenings(public, events, loc)
        lines += plugin.presenter.turn_summary(public, turn, loc)
        # A last round nobody decided in had no reveal: the receipts it opened come here.
        lines += receipts_line(payload.get("opened") or (), facts.get("locked", 0), loc)
        out = Announcement("turn-summary", clip("\n".join(lines)))
        return await self._with_last_board(out, occasion, public, turn)

    async def _with_last_board(
        self, out: Announcement, occasion: Occasion, public: Any, turn: int
    ) -> Announcement:
        """A finished campaign's last turn summary carries the board. While the campaign goes
        on, the next round's message carries the same board right below: posting it here
        too would put two identical images in a row."""
        plugin, loc = occasion.plugin, occasion.campaign.locale
        if not plugin.rules.progress(occasion.facts["state"]).finished:
            return out
        unlocked = {side: False for side in plugin.rules.side_ids}
        png = await self.status_board(plugin, public, unlocked, loc)
        if png is None:
            return out
        summary = plugin.presenter.board_summary(public, loc)
        return out.with_image(f"summary-t{turn}.png", png, summary)

    async def _told(self, occasion: Occasion, public: Any, told: TurnTold) -> Announcement:
        """The turn shown in one message (issue 27): its first round's message becomes the
        turn as flown (programs, story, pictures, receipts in a line), so the channel keeps
        one message a turn; the next round's message follows it."""
        plugin, c, payload, facts = occasion
        loc = c.locale
        turn = int(payload["turn"])
        header = round_header(
            plugin, c, public, turn, plugin.rules.first_round, "service.round.status.flown"
        )
        lines = [header, *told.lines]
        lines += plugin.presenter.turn_summary(public, turn, loc)
        lines += receipts_line(payload.get("opened") or (), facts.get("locked", 0), loc)
        first = facts.get("first_round")
        out = Announcement(
            "turn-summary",
            clip("\n".join(lines)),
            [(name, data) for name, data, _ in told.images],
            edit_of=f"round:{first}" if first is not None else None,
            alt={name: text for name, _, text in told.images},
        )
        return await self._with_last_board(out, occasion, public, turn)

    # -- the end
    async def _ended(self, occasion: Occasion) -> Announcement:
        plugin, c, payload, _ = occasion
        loc = c.locale
        winner = payload.get("winner")
        if winner in plugin.rules.side_ids:
            headline = t("service.ended.winner", loc, side=side_text(str(winner), loc))
        elif winner == "draw":
            headline = t("service.ended.draw", loc)
        else:
            headline = t("service.ended.stopped", loc, reason=payload.get("reason", ""))
        vp = payload.get("vp", {})
        lines = [
            f"**{headline}**",
            t(
                "service.summary.vp",
                loc,
                vp=" – ".join(f"{side_text(s, loc)} {vp.get(s, 0)}" for s in plugin.rules.side_ids),
            ),
            t(
                "service.ended.seed",
                loc,
                seed=payload["seed"],
                commitment=payload["seed_commitment"],
            ),
            t("service.ended.verify", loc),
        ]
        out = Announcement("campaign-ended", clip("\n".join(lines)))
        current, records = occasion.facts["stored"]
        try:
            png = await drawing.after_action(plugin, c.scenario, current, records, loc)
        except Exception:
            log.exception("after-action image failed: the announcement goes out without it")
            return out
        alt = t("service.image.after-action", loc, summary=described(lines[:2], loc))
        return out.with_image("after-action.png", png, alt)

    # -- notices
    async def _notice(self, occasion: Occasion) -> Announcement:
        _, c, payload, _ = occasion
        loc = c.locale
        params = dict(payload.get("params", {}))
        notice = str(payload.get("notice", ""))
        if "sides" in params:
            params["sides"] = ", ".join(side_text(s, loc) for s in params["sides"])
        if "side" in params:
            params["side"] = side_text(str(params["side"]), loc)
        if "round" in params and isinstance(params["round"], str):
            params["round"] = round_text(params["round"], loc)
        for key in ("user", "by"):
            if key in params:
                params[key] = mention(params[key])
        if "why" in params:
            params["why"] = t(f"service.why.{params['why']}", loc)
        gm = int(payload.get("gm_id") or c.gm_id)
        params["gm"] = mention(gm)
        # The GM is told; a player a notice is about (closed DMs) is pinged too.
        pinged = (gm, *([int(payload["params"]["user"])] if "user" in params else []))
        text = clip(t(f"service.notice.{notice}", loc, **params))
        return Announcement("gm-notice", text, mentions=pinged)


def blank_words(ruleset: str, kind: str, entry: Mapping[str, Any], loc: str) -> str:
    """Why a side's reveal line shows no choice: it had none, or it is sealed. "Until the
    turn ends" is the usual seal; a round whose turn is all it is (a debrief after a
    mission) says in its ruleset's words what is public of its picks and what stays the
    side's."""
    if not entry.get("sealed"):
        return t("service.reveal.nothing", loc)
    return word(f"service.reveal.sealed-for.{ruleset}.{kind}", t("service.reveal.sealed", loc), loc)


def round_header(
    plugin: Plugin[Any, Any], c: CampaignRow, public: Any, turn: int, kind: str, status: str
) -> str:
    """ "Turn 3/6 · Orders — open"; a game whose length its own words give (missions as
    long as they last) is not counted against its scenario's upper bound ("Turn 1/27")."""
    loc = c.locale
    words = {"turn": turn, "round": round_text(kind, loc), "status": t(status, loc)}
    if plugin.presenter.campaign_length(c.scenario, public, loc) is not None:
        return t("service.round.header-open-ended", loc, **words)
    turns = plugin.rules.scenarios()[c.scenario].turns
    return t("service.round.header", loc, turns=turns, **words)


def receipts_line(opened: Sequence[Mapping[str, Any]], locked: int, loc: str) -> list[str]:
    """The receipts a resolution opens, in one line: how many locks, how many opened, and
    whether every one matches its choice and salt (checked here, as anyone can with
    ``/receipt`` and the export, which keep the salts)."""
    held = [item for item in opened if item.get("held")]
    opened = [item for item in opened if not item.get("held")]
    lines: list[str] = []
    if opened:
        good = all(
            receipt_of(item["canonical"], item["salt"]) == item["receipt"] for item in opened
        )
        key = "service.reveal.receipts-ok" if good else "service.reveal.receipts-bad"
        lines.append(t(key, loc, locked=max(locked, len(opened)), opened=len(opened)))
    if held:
        # A turn whose choices stay secret to the end says so, rather than nothing.
        lines.append(t("service.reveal.receipts-held", loc, count=len(held)))
    return lines


def described(lines: Sequence[str], locale: str | None = None) -> str:
    """Message lines as one plain sentence for an image's alt text (no Markdown marks),
    joined as the language joins clauses (French: a no-break space before the ';')."""
    plain = [line.replace("**", "").replace("`", "").strip(" -#") for line in lines]
    joint = t("service.image.joint", locale)
    text = ""
    for line in filter(None, plain):
        if text:
            text += " " if text[-1] in ".:!?" else joint
        text += line
    return text
