"""From an outbox row to what people see: text, images, and which message it edits.

Shared by every ``Sender`` (Discord, the demo's files, tests): the worker builds the
``Announcement`` here and the sender only posts it. Text goes through ``bot.i18n`` in the
campaign's locale; every image has a short text summary in the text beside it (images off,
screen readers). Images come from ``rendering``; if a renderer is missing or fails, the
announcement goes out without that image and the log says why, so a drawing bug can never
hold back a reveal.

Builders read the database at delivery time for living messages (campaign card, round
message, DM panel); one-off announcements (reveal, strike report) carry their facts in the
payload or point at an immutable snapshot.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.clock import from_epoch
from bot.i18n import t
from bot.service_model import short_receipt
from bot.service_rounds import load_state, side_decisions, view_of
from db.repository import CampaignRow, OutboxRow, Repository, Transaction
from engine.catalog import Catalog
from engine.report import StrikeReport
from engine.state import Decision, State
from engine.types import AircraftState, FleetTactic, Side

log = logging.getLogger(__name__)

TEXT_LIMIT = 2000  # Discord's limit for a message's content
_missing_renderers: set[str] = set()


@dataclass(frozen=True)
class PanelRef:
    """What a sender needs to attach the order controls (selects, Lock) to a DM panel."""

    campaign_id: int
    round_id: int
    user_id: int
    side: Side


@dataclass(frozen=True)
class Announcement:
    kind: str
    text: str
    images: list[tuple[str, bytes]] = field(default_factory=list)
    edit_of: str | None = None  # message key: edit the message posted under this key
    panel: PanelRef | None = None


# ------------------------------------------------------------------------------ words


def deadline_text(deadline_at: int | None) -> str:
    """Discord timestamps: each reader sees their own local time."""
    if deadline_at is None:
        return "—"
    return f"<t:{deadline_at}:f> (<t:{deadline_at}:R>)"


def duration_text(seconds: int) -> str:
    from bot.durations import format_duration

    return format_duration(seconds)


def side_text(side: Side | str, locale: str) -> str:
    return t(f"service.side.{Side(side).value}", locale)


def round_text(kind: str, locale: str) -> str:
    return t(f"service.round.{kind}", locale)


def field_text(name: str, locale: str) -> str:
    return t(f"service.field.{name}", locale)


def place_names(catalog: Catalog, scenario: str, locale: str) -> dict[str, str]:
    from rendering.text import place_label

    return {
        place.key: place_label(place.key, locale, place.name)
        for place in catalog.scenarios[scenario].places
    }


def option_detail(field: str, option_id: str, detail: str, locale: str) -> str:
    """What an option gives, in the reader's language (the engine's hints are English)."""
    if field == "fleet_tactic":
        try:
            cards = FleetTactic(option_id).recovery_cards
        except ValueError:
            return detail
        return t("service.detail.recovery", locale, cards=cards)
    return detail


def option_text(catalog: Catalog, scenario: str, name: str, value: str, locale: str) -> str:
    """An option in the reader's language (the engine's labels are English)."""
    from rendering.text import doctrine_name, flight_ops_text, tactic_name

    try:
        if name == "fleet_tactic":
            return tactic_name(FleetTactic(value), locale)
        if name == "flight_ops":
            return flight_ops_text(value, locale, place_names(catalog, scenario, locale))
        if name == "doctrine":
            return doctrine_name(value, locale)
        if name == "resource":
            resource = catalog.resource(int(value))
            return f"#{resource.number} {resource.name}"
    except (ValueError, KeyError):
        pass
    return value


def reason_text(reason: str, locale: str) -> str:
    return t(f"service.reason.{reason}", locale)


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else "—"


def clip(text: str) -> str:
    if len(text) <= TEXT_LIMIT:
        return text
    return text[: TEXT_LIMIT - 1] + "…"


# ------------------------------------------------------------------------------ images


async def render(name: str, *args: Any, **kwargs: Any) -> bytes | None:
    """Call ``rendering.<name>`` off the event loop; None (logged) if missing or failing."""
    import rendering

    function: Callable[..., bytes] | None = getattr(rendering, name, None)
    if function is None:
        if name not in _missing_renderers:
            _missing_renderers.add(name)
            log.warning("rendering.%s is not available: announcements go out without it", name)
        return None
    try:
        return await asyncio.to_thread(function, *args, **kwargs)
    except Exception:
        log.exception("rendering.%s failed: the announcement goes out without its image", name)
        return None


def board_summary(view: Any, locale: str) -> str:
    """One line of what the status board shows, for readers without the image."""
    vp = " – ".join(
        f"{side_text(side, locale)} {view.sides[side].vp}" for side in Side if side in view.sides
    )
    tracks = ", ".join(f"{track.name} {track.boxes}/{track.max_boxes}" for track in view.tracks)
    return t("service.image.board", locale, vp=vp, tracks=tracks)


# ------------------------------------------------------------------------------ builder


class AnnouncementBuilder:
    def __init__(self, repo: Repository, catalog: Catalog) -> None:
        self.repo = repo
        self.catalog = catalog
        # The same board is often drawn twice (a turn's summary, then the next round's
        # message): keep the last few, keyed by the view object (shared per state).
        self._boards: OrderedDict[
            tuple[int, tuple[bool, ...], str, str | None], tuple[Any, bytes]
        ] = OrderedDict()

    async def status_board(
        self, view: Any, locked: Mapping[Side, bool], locale: str, deadline: int | None = None
    ) -> bytes | None:
        # Images cannot show Discord timestamps: the deadline is written in UTC there.
        when = from_epoch(deadline).strftime("%Y-%m-%d %H:%M UTC") if deadline else None
        key = (id(view), tuple(bool(locked.get(side)) for side in Side), locale, when)
        hit = self._boards.get(key)
        if hit is not None and hit[0] is view:
            return hit[1]
        png = await render(
            "render_status_board", view, locked=dict(locked), deadline_text=when, locale=locale
        )
        if png is not None:
            self._boards[key] = (view, png)
            if len(self._boards) > 16:
                self._boards.popitem(last=False)
        return png

    async def build(self, row: OutboxRow) -> Announcement | None:
        """The announcement for ``row``, or None if it no longer needs sending."""
        async with self.repo.read() as tx:
            campaign = await tx.campaign(int(row.payload.get("campaign_id", row.campaign_id or 0)))
            if campaign is None:
                return Announcement(
                    row.kind, t("service.error.unknown-campaign", None, campaign="?")
                )
            facts = await self._facts(tx, campaign, row)
        if facts is None:
            return None
        return await self._compose(campaign, row, facts)

    # Database reads happen under the read transaction; rendering happens after it, so a
    # slow image never holds the single connection.
    async def _facts(
        self, tx: Transaction, campaign: CampaignRow, row: OutboxRow
    ) -> dict[str, Any] | None:
        payload = row.payload
        facts: dict[str, Any] = {}
        if row.kind == "campaign-card":
            facts["players"] = await tx.players(campaign.id)
            if campaign.snapshot_id is not None:
                facts["state"] = await self._state(tx, campaign.snapshot_id)
        elif row.kind in ("round-message", "dm-panel", "reminder"):
            round_row = await tx.round(int(payload["round_id"]))
            if round_row is None:
                return None
            facts["round"] = round_row
            facts["locks"] = await tx.standing_locks(round_row.id)
            facts["state"] = await self._state(tx, round_row.snapshot_before_id)
            if row.kind == "reminder" and (
                round_row.status != "open" or payload["side"] in facts["locks"]
            ):
                return None  # locked since the reminder was queued: no false reminder
            if row.kind == "dm-panel":
                facts["drafts"] = await tx.drafts(round_row.id, str(payload["side"]))
        elif row.kind in ("strike-report", "turn-summary", "campaign-ended", "reveal"):
            facts["state"] = await self._state(tx, int(payload["snapshot_id"]))
        return facts

    @staticmethod
    async def _state(tx: Transaction, snapshot_id: int) -> State:
        snapshot = await tx.snapshot(snapshot_id)
        if snapshot is None:
            raise RuntimeError(f"snapshot {snapshot_id} is missing")
        return load_state(snapshot.state)

    async def _compose(
        self, campaign: CampaignRow, row: OutboxRow, facts: dict[str, Any]
    ) -> Announcement:
        kind = row.kind
        if kind == "campaign-card":
            return await self._card(campaign, facts)
        if kind == "round-message":
            return await self._round_message(campaign, facts)
        if kind == "dm-panel":
            return await self._dm_panel(campaign, row.payload, facts)
        if kind == "reminder":
            return self._reminder(campaign, row.payload, facts)
        if kind == "reveal":
            return await self._reveal(campaign, row.payload, facts)
        if kind == "strike-report":
            return await self._strike(campaign, row.payload, facts)
        if kind == "turn-summary":
            return await self._turn_summary(campaign, row.payload, facts)
        if kind == "campaign-ended":
            return await self._ended(campaign, row.payload, facts)
        if kind == "gm-notice":
            return self._notice(campaign, row.payload)
        raise ValueError(f"unknown outbox kind {kind!r}")

    # -- campaign card
    async def _card(self, c: CampaignRow, facts: dict[str, Any]) -> Announcement:
        loc = c.locale
        scenario = self.catalog.scenarios[c.scenario]
        lines = [t("service.card.title", loc, scenario=scenario.name, turns=scenario.turns)]
        lines.append(t("service.card.gm", loc, gm=mention(c.gm_id)))
        for side in Side:
            names = [
                mention(p.user_id) + (" ★" if p.commander else "")
                for p in facts["players"]
                if p.side == side.value
            ]
            lines.append(
                t(
                    "service.card.side",
                    loc,
                    side=side_text(side, loc),
                    players=", ".join(names) or t("service.card.nobody", loc),
                )
            )
        reminders = ", ".join(duration_text(o) for o in c.reminder_offsets) or "—"
        lines.append(
            t(
                "service.card.pace",
                loc,
                round=duration_text(c.round_seconds),
                reminders=reminders,
                policy=t(f"service.policy.{c.missing_policy}", loc),
                unlock=t(
                    "service.card.unlock-yes" if c.allow_unlock else "service.card.unlock-no", loc
                ),
            )
        )
        lines.append(t("service.card.commitment", loc, commitment=c.seed_commitment))
        if c.seed_revealed:
            lines.append(t("service.card.seed", loc, seed=c.seed))
        lines.append(t("service.card.status", loc, status=t(f"service.status.{c.status}", loc)))
        return Announcement("campaign-card", clip("\n".join(lines)), edit_of="card")

    # -- the round message
    async def _round_message(self, c: CampaignRow, facts: dict[str, Any]) -> Announcement:
        loc = c.locale
        round_row = facts["round"]
        state: State = facts["state"]
        locks = facts["locks"]
        status = round_row.status
        if status == "open" and c.status == "paused":
            status = "paused"
        header = t(
            "service.round.header",
            loc,
            turn=round_row.turn,
            turns=self.catalog.scenarios[c.scenario].turns,
            round=round_text(round_row.kind, loc),
            status=t(f"service.round.status.{status}", loc),
        )
        lines = [header]
        if round_row.status == "open":
            lines.append(
                t("service.round.deadline", loc, deadline=deadline_text(round_row.deadline_at))
            )
        for side in Side:
            lock = locks.get(side.value)
            if lock is None:
                lines.append(t("service.round.waiting", loc, side=side_text(side, loc)))
            else:
                key = "service.round.defaulted" if lock.defaulted else "service.round.locked"
                lines.append(
                    t(key, loc, side=side_text(side, loc), receipt=short_receipt(lock.receipt))
                )
        public = view_of(self.catalog, state, None)
        images: list[tuple[str, bytes]] = []
        # A finished round's message keeps only its text: the reveal and the next round's
        # board follow right after it, so one board per round stays in the channel.
        png = None
        if round_row.status in ("open", "resolving"):
            png = await self.status_board(public, {side: side.value in locks for side in Side}, loc)
        if png is not None:
            images.append((f"status-t{round_row.turn}-{round_row.kind}.png", png))
            lines.append(board_summary(public, loc))
        return Announcement(
            "round-message", clip("\n".join(lines)), images, edit_of=f"round:{round_row.id}"
        )

    # -- the DM panel
    async def _dm_panel(
        self, c: CampaignRow, payload: Mapping[str, Any], facts: dict[str, Any]
    ) -> Announcement:
        loc = c.locale
        round_row = facts["round"]
        state: State = facts["state"]
        side = Side(str(payload["side"]))
        ref = PanelRef(c.id, round_row.id, int(payload["user_id"]), side)
        title = t(
            "service.panel.title",
            loc,
            turn=round_row.turn,
            round=round_text(round_row.kind, loc),
            side=side_text(side, loc),
        )
        if round_row.status != "open":
            return Announcement("dm-panel", title + "\n" + t("service.panel.over", loc), panel=None)
        lines = [
            title,
            t("service.round.deadline", loc, deadline=deadline_text(round_row.deadline_at)),
        ]
        own = state.sides[side]
        if own.last_tactic is not None:
            lines.append(
                t(
                    "service.panel.last-turn",
                    loc,
                    tactic=option_text(
                        self.catalog, c.scenario, "fleet_tactic", own.last_tactic.value, loc
                    ),
                    size=t(f"render.size.{own.last_size.value if own.last_size else 'none'}", loc),
                )
            )
        lines += self.decision_lines(
            c.scenario, side_decisions(self.catalog, state, side), facts["drafts"], loc
        )
        lines.append(t("service.panel.how", loc))
        side_view = view_of(self.catalog, state, side)
        images: list[tuple[str, bytes]] = []
        png = await render(
            "render_order_panel",
            side_view,
            resource_names={r.number: r.name for r in self.catalog.resources},
            locale=loc,
        )
        if png is not None:
            images.append((f"panel-t{round_row.turn}-{round_row.kind}-{side.value}.png", png))
            lines.append(board_summary(side_view, loc))
        return Announcement("dm-panel", clip("\n".join(lines)), images, panel=ref)

    def decision_lines(
        self, scenario: str, decisions: Sequence[Decision], drafts: Mapping[str, str], loc: str
    ) -> list[str]:
        """Each field: the options with what they give now, and what is left out and why."""
        lines: list[str] = []
        for decision in decisions:
            picked = drafts.get(decision.field)
            options = []
            for option in decision.options:
                label = option_text(self.catalog, scenario, decision.field, option.id, loc)
                if option.detail and decision.field != "resource":
                    detail = option_detail(decision.field, option.id, option.detail, loc)
                    label += f" ({detail})"
                if option.id == picked:
                    label = f"**{label}** ✓"
                options.append(label)
            lines.append(f"**{field_text(decision.field, loc)}**: " + " · ".join(options))
            for excluded in decision.excluded:
                lines.append(
                    t(
                        "service.panel.excluded",
                        loc,
                        option=option_text(
                            self.catalog, scenario, decision.field, excluded.id, loc
                        ),
                        reason=reason_text(excluded.reason, loc),
                    )
                )
        return lines

    # -- reminder
    def _reminder(
        self, c: CampaignRow, payload: Mapping[str, Any], facts: dict[str, Any]
    ) -> Announcement:
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
        return Announcement("reminder", clip(text))

    # -- reveal
    async def _reveal(
        self, c: CampaignRow, payload: Mapping[str, Any], facts: dict[str, Any]
    ) -> Announcement:
        loc = c.locale
        kind = str(payload["round"])
        title = t("service.reveal.title", loc, turn=payload["turn"], round=round_text(kind, loc))
        lines = [f"**{title}**"]
        reveal_sides: list[tuple[Side, list[tuple[str, str]], str]] = []
        for entry in payload["sides"]:
            side = Side(entry["side"])
            pairs = [
                (
                    field_text(name, loc),
                    option_text(self.catalog, c.scenario, name, value["id"], loc),
                )
                for name, value in entry["fields"].items()
            ]
            reveal_sides.append((side, pairs, short_receipt(entry["receipt"])))
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
        if payload.get("opened"):
            lines.append(t("service.reveal.opened", loc))
            for item in payload["opened"]:
                lines.append(
                    t(
                        "service.reveal.opened-line",
                        loc,
                        side=side_text(item["side"], loc),
                        round=round_text(item["round"], loc),
                        salt=item["salt"],
                        receipt=short_receipt(item["receipt"]),
                    )
                )
        images: list[tuple[str, bytes]] = []
        png = await self._reveal_image(title, reveal_sides, loc)
        if png is not None:
            images.append((f"reveal-t{payload['turn']}-{kind}.png", png))
        return Announcement("reveal", clip("\n".join(lines)), images)

    @staticmethod
    async def _reveal_image(
        title: str, sides: list[tuple[Side, list[tuple[str, str]], str]], loc: str
    ) -> bytes | None:
        try:
            from rendering.reveal import RevealSide
        except ImportError:
            return await render("render_reveal", title, [], locale=loc)
        items = [
            RevealSide(side=side, lines=pairs, receipt=receipt) for side, pairs, receipt in sides
        ]
        return await render("render_reveal", title, items, locale=loc)

    # -- strike report
    async def _strike(
        self, c: CampaignRow, payload: Mapping[str, Any], facts: dict[str, Any]
    ) -> Announcement:
        loc = c.locale
        state: State = facts["state"]
        turn = int(payload["turn"])
        record = next((r for r in state.history if r.turn == turn), None)
        index = int(payload["index"])
        if record is None or index >= len(record.strikes):
            return Announcement(
                "strike-report", t("service.strike.missing", loc, strike=payload["strike"])
            )
        report = record.strikes[index]
        names = place_names(self.catalog, c.scenario, loc)
        text = self.strike_summary(report, names, loc)
        images: list[tuple[str, bytes]] = []
        png = await render(
            "render_strike_report",
            report,
            place_names=names,
            cards={card.id: card for card in self.catalog.deck.cards},
            locale=loc,
        )
        if png is not None:
            images.append((f"strike-{report.id}.png", png))
        return Announcement("strike-report", clip(text), images)

    @staticmethod
    def strike_summary(report: StrikeReport, names: Mapping[str, str], loc: str) -> str:
        """Three lines: who struck what, what it cost, what it did."""
        attackers = [a for a in report.aircraft if a.side is report.attacker]
        defenders = [a for a in report.aircraft if a.side is not report.attacker]
        lost = sum(1 for a in attackers if a.state is AircraftState.DESTROYED)
        on_recovery = sum(1 for a in attackers if a.lost_on_recovery)
        cap_lost = sum(1 for a in defenders if a.state is AircraftState.DESTROYED)
        target = names.get(report.target, report.target)
        first = t(
            f"service.strike.kind.{report.kind}",
            loc,
            id=report.id,
            side=side_text(report.attacker, loc),
            target=target,
        )
        second = t(
            "service.strike.losses",
            loc,
            flew=len(attackers),
            lost=lost,
            recovery=on_recovery,
            cap=len(defenders),
            cap_lost=cap_lost,
        )
        if report.kind == "scout":
            third = t(
                "service.strike.scout-ok"
                if report.scout_success
                else "service.strike.scout-failed",
                loc,
            )
        elif report.hidden:
            third = t("service.strike.hidden", loc, target=target)
        else:
            third = t(
                "service.strike.damage",
                loc,
                runs=len(report.bomb_runs),
                points=report.target_points,
                target=target,
            )
        return f"**{first}**\n{second}\n{third}"

    # -- end of turn
    async def _turn_summary(
        self, c: CampaignRow, payload: Mapping[str, Any], facts: dict[str, Any]
    ) -> Announcement:
        loc = c.locale
        state: State = facts["state"]
        public = view_of(self.catalog, state, None)
        lines = [t("service.summary.title", loc, turn=payload["turn"])]
        lines.append(
            t(
                "service.summary.vp",
                loc,
                vp=" – ".join(f"{side_text(s, loc)} {state.vp.get(s, 0)}" for s in Side),
            )
        )
        for track in public.tracks:
            lines.append(
                t(
                    "service.summary.track",
                    loc,
                    place=track.name,
                    boxes=track.boxes,
                    max=track.max_boxes,
                    level=track.level,
                )
            )
        images: list[tuple[str, bytes]] = []
        # While the campaign goes on, the next round's message carries the same board right
        # below: posting it here too would put two identical images in a row.
        png = (
            await self.status_board(public, {side: False for side in Side}, loc)
            if (state.finished)
            else None
        )
        if png is not None:
            images.append((f"summary-t{payload['turn']}.png", png))
            lines.append(board_summary(public, loc))
        return Announcement("turn-summary", clip("\n".join(lines)), images)

    # -- the end
    async def _ended(
        self, c: CampaignRow, payload: Mapping[str, Any], facts: dict[str, Any]
    ) -> Announcement:
        loc = c.locale
        state: State = facts["state"]
        winner = payload.get("winner")
        if winner in ("japanese", "allied"):
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
                vp=" – ".join(f"{side_text(s, loc)} {vp.get(s.value, 0)}" for s in Side),
            ),
            t(
                "service.ended.seed",
                loc,
                seed=payload["seed"],
                commitment=payload["seed_commitment"],
            ),
            t("service.ended.verify", loc),
        ]
        public = view_of(self.catalog, state, None)
        images: list[tuple[str, bytes]] = []
        png = await render(
            "render_after_action",
            public,
            place_names=place_names(self.catalog, c.scenario, loc),
            locale=loc,
        )
        if png is not None:
            images.append(("after-action.png", png))
            lines.append(board_summary(public, loc))
        return Announcement("campaign-ended", clip("\n".join(lines)), images)

    # -- notices
    def _notice(self, c: CampaignRow, payload: Mapping[str, Any]) -> Announcement:
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
        params["gm"] = mention(int(payload.get("gm_id") or c.gm_id))
        return Announcement("gm-notice", clip(t(f"service.notice.{notice}", loc, **params)))
