"""A campaign as one web page to share: ``python -m bot replay``, ``/campaign export``.

The page is drawn from the export alone. A finished campaign is replayed with the engine
exactly as ``verify`` replays it (it *is* verify's replay: ``bot.export`` hands each round
it checked to us), and every turn is then shown as its channel showed it: the public view
through the secrecy gate, the ruleset's presenter asked for the boards, reports and words.
A campaign still running has no seed to replay from; the bot, for its GM, reads the states
its store kept instead (``stored_rounds``), and the page holds what the channel has seen:
public views, and the choices of opened receipts only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot import secrecy
from bot.announce import described
from bot.boards import deadline_words
from bot.clock import from_epoch
from bot.export import Verification, verify_export
from bot.i18n import t, word
from bot.panel import round_text, side_text
from bot.rulesets import Plugin, Registry
from bot.service_model import choice_of, short_receipt
from bot.service_states import state_of
from db.repository import Transaction
from engine.ruleset import Rules
from rendering.i18n import field_word
from rendering.replay.page import (
    Chosen,
    Ending,
    Page,
    Picture,
    RoundShown,
    SideShown,
    Told,
    TurnShown,
    render_page,
)
from rendering.text import scenario_name

log = logging.getLogger(__name__)


class ReplayRefused(Exception):
    """An export no page can be made of; ``words`` says why in a reader's language."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def words(self, locale: Any) -> str:
        return t(f"replay.refused.{self.key}", locale, **self.params)


@dataclass(frozen=True)
class Played:
    """One round of the live branch: its JSON from the export, the whole state before it,
    and after it (None while it is open). Only public views of them reach the page."""

    round: Mapping[str, Any]
    before: Any
    after: Any | None


def replayed(export: Mapping[str, Any], rulesets: Registry) -> tuple[Verification, list[Played]]:
    """Verify the export and keep the rounds its replay went through, the live branch's."""
    seen: list[Played] = []
    check = verify_export(
        export,
        rulesets,
        observe=lambda row, before, after, _events: seen.append(Played(row, before, after)),
    )
    if check.unusable or not check.ok:
        raise ReplayRefused("unverified", why=check.problems[0])
    if not check.replayed:
        raise ReplayRefused("no-seed")
    return check, [p for p in seen if p.round["status"] != "void"]


@dataclass(frozen=True)
class Made:
    """A page, and what to say about it."""

    html: str
    turns: int
    checked: str  # what verify checked, the sentence the page says too


def make_page(
    export: Mapping[str, Any],
    rulesets: Registry | None = None,
    *,
    played: Sequence[Played] | None = None,
    names: Mapping[int, str] | None = None,
) -> Made:
    """The page of ``export``: replayed from its seed, or, for a campaign still running,
    from the rounds the store kept (``played``); ``names`` are the players' display names."""
    registry = rulesets if rulesets is not None else Registry()
    if played is None:
        check, rounds = replayed(export, registry)
    else:
        check = verify_export(export, registry)
        if check.unusable or not check.ok:
            raise ReplayRefused("unverified", why=check.problems[0])
        rounds = list(played)
    plugin = registry.get(export["campaign"]["ruleset"])
    page = _Composer(export, plugin, names or {}).page(check, rounds)
    return Made(render_page(page), len(page.turns), page.checked)


async def stored_rounds(
    tx: Transaction, rules: Rules[Any, Any], export: Mapping[str, Any]
) -> list[Played]:
    """The live branch's rounds of ``export`` with the states the store kept before and
    after each: a running campaign's page is drawn from these (only their public views)."""
    played = []
    for row in export["rounds"]:
        if row["status"] == "void":
            continue
        stored = await tx.round(int(row["id"]))
        if stored is None:
            raise RuntimeError(f"round {row['id']} is missing")
        before = await state_of(tx, rules, stored.snapshot_before_id)
        after = None
        # The export's word on the round, not the store's now: the page matches the file.
        if row["resolved_at"] is not None and stored.snapshot_after_id is not None:
            after = await state_of(tx, rules, stored.snapshot_after_id)
        played.append(Played(row, before, after))
    return played


def _when(epoch: int | None) -> str:
    """A moment as the page writes it, in UTC: the file must not depend on where it is made."""
    if epoch is None:
        return "—"
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _day(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d")


def _idle(lock: Mapping[str, Any]) -> bool:
    """A lock the round made itself for a side with nothing to decide."""
    return lock["by_user"] is None and not lock["defaulted"]


class _Composer:
    """Builds the ``Page`` of one export in its campaign's language."""

    def __init__(
        self, export: Mapping[str, Any], plugin: Plugin[Any, Any], names: Mapping[int, str]
    ) -> None:
        self.export = export
        self.info = export["campaign"]
        self.rules = plugin.rules
        self.presenter = plugin.presenter
        self.scenario = str(self.info["scenario"])
        self.loc = str(self.info.get("locale") or "en")
        self.names = names
        self.finished = self.info["status"] == "finished"

    def w(self, key: str, **params: Any) -> str:
        return t(f"replay.{key}", self.loc, **params)

    def public(self, state: Any) -> Any:
        return secrecy.view_for(self.rules, state, secrecy.Viewer.public())

    def who(self, user_id: int) -> str:
        return self.names.get(user_id) or self.w("card.player", id=user_id)

    def colour(self, side: str) -> str:
        return self.rules.side(side).colour if side in self.rules.side_ids else "#888888"

    def ends_turn(self, played: Played) -> bool:
        if played.after is None:
            return False
        row = played.round
        return self.rules.ends_turn(row["kind"], row["turn"], self.rules.progress(played.after))

    # -- the page
    def page(self, check: Verification, rounds: Sequence[Played]) -> Page:
        spec = self.rules.scenarios()[self.scenario]
        receipts = self.w("count.receipt", count=check.receipts)
        if check.replayed:
            checked = self.w(
                "verified",
                receipts=receipts,
                rounds=self.w("count.round", count=check.rounds),
                events=self.w("count.event", count=check.events),
            )
        else:
            checked = self.w("receipts-only", receipts=receipts)
        notes = [] if self.finished else [self.w("running")]
        for entry in self.export["audit"]:
            if entry["what"] == "rollback":
                turn = entry["data"].get("to_turn")
                notes.append(
                    self.w("rollback", who=self.who(entry["who"]), turn=turn, why=entry["why"])
                )
        last = next((p.after for p in reversed(rounds) if p.after is not None), None)
        return Page(
            locale=self.loc,
            title=scenario_name(spec.key, spec.name, self.loc),
            game=t(f"service.game.{self.info['ruleset']}", self.loc),
            facts=tuple(self.facts(last, rounds)),
            sides=tuple(self.sides()),
            checked=checked,
            checked_ok=check.ok and (check.replayed or check.receipts > 0),
            notes=tuple(notes),
            turns=tuple(self.turns(rounds)),
            ending=self.ending(last) if self.finished and last is not None else None,
        )

    def result(self, state: Any) -> tuple[str, str]:
        """The winner in words, and the victory points."""
        progress = self.rules.progress(state)
        winner = progress.winner
        if winner in self.rules.side_ids:
            result = self.w("card.winner", side=side_text(str(winner), self.loc))
        elif winner == "draw":
            result = self.w("card.draw")
        else:
            result = self.w("card.undecided")
        if self.finished and self.info.get("end_reason") not in (None, "completed"):
            # The GM's own words, given when he ended it.
            result += " · " + self.w("card.stopped", reason=self.info["end_reason"])
        vp = " – ".join(
            f"{side_text(s, self.loc)} {progress.vp.get(s, 0)}" for s in self.rules.side_ids
        )
        return result, vp

    def facts(self, last: Any, rounds: Sequence[Played]) -> list[tuple[str, str]]:
        info = self.info
        status = word(f"service.status.{info['status']}", str(info["status"]), self.loc)
        facts = [
            (self.w("card.game"), t(f"service.game.{info['ruleset']}", self.loc)),
            (self.w("card.gm"), self.who(info["gm_id"])),
            (self.w("card.status"), status),
            (self.w("card.created"), _when(info["created_at"])),
            (self.w("card.started"), _when(info["started_at"])),
        ]
        if self.finished:
            facts.append((self.w("card.ended"), _when(info["ended_at"])))
        # The result from the whole state, once it is all public: while the campaign runs,
        # the boards (public views) say where it stands.
        if last is not None and self.finished:
            result, vp = self.result(last)
            facts.append((self.w("card.result"), result))
            facts.append((self.w("card.vp"), vp))
        played = {p.round["turn"] for p in rounds if self.ends_turn(p)}
        facts.append((self.w("card.turns"), str(len(played))))
        facts.append((self.w("card.commitment"), f"`{info['seed_commitment']}`"))
        seed = info.get("seed")
        facts.append((self.w("card.seed"), f"`{seed}`" if seed else self.w("card.seed-hidden")))
        return facts

    def sides(self) -> list[SideShown]:
        shown = []
        for side in self.rules.side_ids:
            players = []
            for p in self.export["players"]:
                if p["side"] != side:
                    continue
                name = self.who(p["user_id"])
                if p["commander"]:
                    name += " " + self.w("card.commander")
                if p["left_at"] is not None:
                    name += " " + self.w("card.left")
                players.append(name)
            shown.append(SideShown(side_text(side, self.loc), self.colour(side), tuple(players)))
        return shown

    # -- the turns
    def turns(self, rounds: Sequence[Played]) -> list[TurnShown]:
        by_turn: dict[int, list[Played]] = {}
        for played in rounds:
            by_turn.setdefault(int(played.round["turn"]), []).append(played)
        return [self.turn(number, of_turn) for number, of_turn in by_turn.items()]

    def turn(self, number: int, rounds: Sequence[Played]) -> TurnShown:
        closing = next((p for p in rounds if self.ends_turn(p)), None)
        first = rounds[0]
        opened = self.public(first.before)
        running = closing is None and not self.finished
        # A played turn's board shows it as it opened, before anyone locked: who locked and
        # the deadline are words for a channel still waiting, not for a reader afterwards.
        # The turn still open shows them as its channel does now.
        live = rounds[-1].round
        locks = self.standing(live) if running else {}
        locked = {side: side in locks for side in self.rules.side_ids} if running else {}
        deadline = live["deadline_at"] if running else None
        when = deadline_words(from_epoch(deadline)) if deadline else None
        board = self.picture(
            "status board",
            lambda: self.presenter.status_board(opened, locked, when, self.loc),
            self.presenter.board_summary(opened, self.loc),
            self.w("turn.board", turn=number)
            if first.after is not None
            else self.w("turn.board-now"),
        )
        told: list[Told] = []
        story: list[str] = []
        if closing is not None and closing.after is not None:
            after = self.public(closing.after)
            shown = self.told(after, number, int(closing.round["branch"]))
            if shown is not None:
                told.append(shown)
            for index in range(self.presenter.report_count(after, number)):
                told.append(self.report(after, number, index))
            story = self.presenter.turn_summary(after, number, self.loc)
        days = sorted(
            {_day(p.round["opened_at"]) for p in rounds}
            | {_day(p.round["resolved_at"]) for p in rounds if p.round["resolved_at"]}
        )
        return TurnShown(
            anchor=f"turn-{number}",
            heading=self.w("turn.running" if running else "turn.heading", turn=number),
            when=" – ".join(dict.fromkeys((days[0], days[-1]))) if days else "",
            board=board,
            rounds=tuple(r for r in (self.round(p) for p in rounds) if r is not None),
            told=tuple(told),
            story=tuple(story),
            short=self.w("nav.turn", turn=number),
            running=running,
            where=next(iter(self.presenter.status_lines(opened, self.loc)), ""),
        )

    @staticmethod
    def standing(row: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
        return {lock["side"]: lock for lock in row["locks"] if lock["withdrawn_at"] is None}

    def round(self, played: Played) -> RoundShown | None:
        row = played.round
        locks = self.standing(row)
        is_open = played.after is None
        if not is_open and all(_idle(lock) for lock in locks.values()):
            return None  # nobody decided anything: the channel showed no reveal either
        order = self.rules.field_order()
        # A per-unit field is named by its unit's public words (a pilot and his plane), as
        # the reveal names it, not by the engine's id for the unit.
        labels = {d.field: d.label for d in self.rules.pending(played.before) if d.label}
        # An option naming a unit by its id is worded from the view it was chosen in.
        seen = self.public(played.before)
        chosen = []
        for side in self.rules.side_ids:
            lock = locks.get(side)
            if lock is None:
                chosen.append(
                    Chosen(
                        side_text(side, self.loc),
                        self.colour(side),
                        (),
                        self.w("turn.waiting"),
                        "—",
                    )
                )
                continue
            pairs: tuple[tuple[str, str], ...] = ()
            notes = []
            if lock.get("canonical") is not None:
                choice = choice_of(lock["canonical"])
                fields = sorted(
                    choice, key=lambda f: (order.index(f) if f in order else len(order), f)
                )
                pairs = tuple(
                    (
                        field_word(name, self.loc, labels.get(name, "")),
                        self.presenter.option_text(
                            self.scenario, name, choice[name], self.loc, seen
                        ),
                    )
                    for name in fields
                )
                if not choice:
                    notes.append(self.w("turn.nothing"))
            elif not is_open:
                notes.append(self.w("turn.sealed"))
            if lock["defaulted"]:
                notes.append(self.w("turn.default"))
            chosen.append(
                Chosen(
                    side_text(side, self.loc),
                    self.colour(side),
                    pairs,
                    " · ".join(notes),
                    short_receipt(lock["receipt"]),
                )
            )
        return RoundShown(
            round_text(str(row["kind"]), self.loc),
            tuple(chosen),
            self.w("turn.open") if is_open else "",
        )

    def picture(
        self, what: str, draw: Callable[[], bytes], alt: str, caption: str
    ) -> Picture | None:
        """A drawn image, or None (logged) if drawing fails: as in the channel, a drawing bug
        leaves its picture out, never the whole page."""
        try:
            return Picture(draw(), alt, caption)
        except Exception:
            log.exception("%s of a replay page failed: the page goes out without it", what)
            return None

    def told(self, view: Any, turn: int, branch: int) -> Told | None:
        """The turn as the game shows it played (the orders carried out, a still and an
        animation, say), from the public view after it and the turn's public events, which
        the export holds as the log does."""
        events = [
            (e["kind"], e["data"])
            for e in self.export["events"]
            if e["source"] == "engine"
            and e["turn"] == turn
            and not e["void"]
            and e["branch"] == branch
        ]
        try:
            shown = self.presenter.turn_told(self.scenario, view, events, turn, self.loc)
        except Exception:
            log.exception("turn %s of a replay page failed: the page goes out without it", turn)
            return None
        if shown is None:
            return None
        return Told(shown.lines, tuple(Picture(data, alt) for _name, data, alt in shown.images))

    def report(self, view: Any, turn: int, index: int) -> Told:
        try:
            report = self.presenter.report(self.scenario, view, turn, index, self.loc)
        except Exception:
            log.exception("report %s of turn %s failed: the page goes out without it", index, turn)
            return Told((t("service.strike.missing", self.loc, strike=index + 1),))
        lines = tuple(report.text.splitlines())
        pictures: tuple[Picture, ...] = ()
        if report.image:
            alt = t("service.image.report", self.loc, summary=described(lines, self.loc))
            pictures = (Picture(report.image, alt),)
        return Told(lines, pictures)

    def ending(self, state: Any) -> Ending:
        final = self.public(state)
        result, vp = self.result(state)
        lines = (t("service.summary.vp", self.loc, vp=vp),)
        board = self.picture(
            "final board",
            lambda: self.presenter.status_board(final, {}, None, self.loc),  # nobody waits
            self.presenter.board_summary(final, self.loc),
            self.w("end.final-board"),
        )
        chart = self.picture(
            "after-action chart",
            lambda: self.presenter.after_action(self.scenario, final, self.loc),
            t(
                "service.image.after-action",
                self.loc,
                summary=described([result, *lines], self.loc),
            ),
            self.w("end.chart"),
        )
        pictures = tuple(p for p in (board, chart) if p is not None)
        return Ending(headline=result, lines=lines, pictures=pictures)
