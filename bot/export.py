"""Campaign export, its verification by replay, and the Markdown after-action report.

Belongs here: turning the database rows of one campaign into the documented JSON
(``docs/export-format.md``), checking such a file independently of the database
(``python -m bot verify``), and the human report. The checker trusts nothing in the file:
it recomputes every receipt, the seed commitment, and replays every resolved round with
the engine from the seed and the locked choices, comparing every engine event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import secrecy
from bot.rulesets import Registry
from bot.service_model import canonical_choice, choice_of, receipt_of
from db.repository import LockRow, Repository
from engine.catalog import Catalog
from engine.rng import Rng, seed_commitment

FORMAT = "sortie-campaign-export"
VERSION = 1


def _lock_json(lock: LockRow, opened: bool) -> dict[str, Any]:
    return {
        "side": lock.side,
        "receipt": lock.receipt,
        "locked_at": lock.locked_at,
        "by_user": lock.by_user,
        "defaulted": lock.defaulted,
        "withdrawn_at": lock.withdrawn_at,
        # Salt and choice only once public: an export taken mid-turn keeps secrets secret.
        "canonical": lock.canonical if opened else None,
        "salt": lock.salt if opened else None,
    }


async def export_campaign(repo: Repository, rulesets: Registry, campaign_id: int) -> dict[str, Any]:
    """The whole campaign as a JSON-ready dict (format in docs/export-format.md)."""
    async with repo.read() as tx:
        campaign = await tx.campaign(campaign_id)
        if campaign is None:
            from bot.service_model import ServiceError

            raise ServiceError("unknown-campaign", campaign=campaign_id)
        players = await tx.players(campaign_id, include_left=True)
        rounds = await tx.rounds(campaign_id)
        locks = await tx.campaign_locks(campaign_id)
        events = await tx.events(campaign_id)
        audit = await tx.audit(campaign_id)
        final_state: Any = None
        if campaign.status == "finished" and campaign.snapshot_id is not None:
            snapshot = await tx.snapshot(campaign.snapshot_id)
            final_state = json.loads(snapshot.state) if snapshot else None
    rules = rulesets.get(campaign.ruleset).rules
    finished = campaign.status == "finished"
    by_round: dict[int, list[LockRow]] = {}
    for lock in locks:
        by_round.setdefault(lock.round_id, []).append(lock)
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "id": campaign.id,
            "ruleset": campaign.ruleset,
            "scenario": campaign.scenario,
            "guild_id": campaign.guild_id,
            "channel_id": campaign.channel_id,
            "gm_id": campaign.gm_id,
            "locale": campaign.locale,
            "status": campaign.status,
            "branch": campaign.branch,
            "created_at": campaign.created_at,
            "started_at": campaign.started_at,
            "ended_at": campaign.ended_at,
            "end_reason": campaign.end_reason,
            "pace": {
                "round_seconds": campaign.round_seconds,
                "reminder_offsets": list(campaign.reminder_offsets),
                "missing_policy": campaign.missing_policy,
                "gm_sees_secrets": campaign.gm_sees_secrets,
                "allow_unlock": campaign.allow_unlock,
            },
            "seed_commitment": campaign.seed_commitment,
            "seed": campaign.seed if campaign.seed_revealed else None,
        },
        "players": [
            {
                "user_id": p.user_id,
                "side": p.side,
                "commander": p.commander,
                "joined_at": p.joined_at,
                "left_at": p.left_at,
            }
            for p in players
        ],
        "rounds": [
            {
                "id": r.id,
                "branch": r.branch,
                "turn": r.turn,
                "kind": r.kind,
                "status": r.status,
                "opened_at": r.opened_at,
                "deadline_at": r.deadline_at,
                "resolved_at": r.resolved_at,
                "locks": [
                    _lock_json(
                        lock,
                        secrecy.receipt_opened(rules, finished, r, rounds)
                        and lock.withdrawn_at is None,
                    )
                    for lock in by_round.get(r.id, [])
                ],
            }
            for r in rounds
        ],
        "events": [
            {
                "seq": e.seq,
                "round_id": e.round_id,
                "branch": e.branch,
                "source": e.source,
                "kind": e.kind,
                "turn": e.turn,
                "data": e.data,
                "void": e.void,
                "at": e.created_at,
            }
            for e in events
        ],
        "audit": [
            {"who": a.who, "what": a.what, "why": a.why, "data": a.data, "at": a.at} for a in audit
        ],
        "final_state": final_state,
    }


def dumps(export: Mapping[str, Any]) -> str:
    """The export as stable text: same campaign, same bytes."""
    return json.dumps(export, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------------------ verify


@dataclass
class Verification:
    problems: list[str] = field(default_factory=list)
    receipts: int = 0
    rounds: int = 0
    events: int = 0
    replayed: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def _where(round_json: Mapping[str, Any]) -> str:
    return (
        f"round {round_json['id']} (turn {round_json['turn']} {round_json['kind']},"
        f" branch {round_json['branch']})"
    )


def _normal(value: Any) -> Any:
    """Events compared as JSON: tuples and lists, enum members and strings alike."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def verify_export(export: Mapping[str, Any], catalog: Catalog) -> Verification:
    """Check receipts, the seed commitment, and replay every resolved round."""
    result = Verification()
    if export.get("format") != FORMAT or export.get("version") != VERSION:
        result.problems.append(f"not a {FORMAT} version {VERSION} file")
        return result
    info = export["campaign"]
    campaign_id = info["id"]

    # 1. Every opened receipt: sha256(canonical + salt), and the canonical names its round.
    for round_json in export["rounds"]:
        for lock in round_json["locks"]:
            if lock.get("canonical") is None or lock.get("salt") is None:
                continue
            where = _where(round_json) + f" {lock['side']}"
            if receipt_of(lock["canonical"], lock["salt"]) != lock["receipt"]:
                result.problems.append(f"{where}: receipt does not match the choice and salt")
                continue
            expected = canonical_choice(
                campaign_id,
                round_json["branch"],
                round_json["turn"],
                round_json["kind"],
                lock["side"],
                choice_of(lock["canonical"]),
            )
            if expected != lock["canonical"]:
                result.problems.append(f"{where}: the choice is committed for another round")
                continue
            result.receipts += 1
    for event in export["events"]:
        if event["kind"] == "side-locked":
            round_json = next((r for r in export["rounds"] if r["id"] == event["round_id"]), None)
            receipts = {lock["receipt"] for lock in round_json["locks"]} if round_json else set()
            if event["data"].get("receipt") not in receipts:
                result.problems.append(
                    f"event {event['seq']}: published receipt is not a receipt"
                    f" of round {event['round_id']}"
                )

    seed = info.get("seed")
    if seed is None:
        return result
    if seed_commitment(seed) != info["seed_commitment"]:
        result.problems.append("the seed does not match the commitment published at creation")
        return result
    registry = Registry(catalog)
    if info.get("ruleset") not in registry:
        result.problems.append(f"ruleset {info.get('ruleset')!r} is not in this version")
        return result
    rules = registry.get(info["ruleset"]).rules
    if info["scenario"] not in rules.scenarios():
        result.problems.append(f"scenario {info['scenario']!r} is not in this engine's data")
        return result

    # 2. Replay, in the order the rounds were played. A round on a new branch starts from
    # the state at the start of its turn as last replayed (that is what the rollback restored).
    state = rules.new(info["scenario"], seed)
    starts: dict[int, Any] = {}
    branch = 1
    engine_events: dict[int, list[dict[str, Any]]] = {}
    for event in export["events"]:
        if event["source"] == "engine" and event["round_id"] is not None:
            engine_events.setdefault(event["round_id"], []).append(event)
    for round_json in export["rounds"]:
        where = _where(round_json)
        voided = round_json["status"] == "void"
        for event in engine_events.get(round_json["id"], []):
            if event["void"] != voided:
                result.problems.append(
                    f"{where}: event {event['seq']} void flag disagrees with the round"
                )
        if round_json["branch"] != branch:
            branch = round_json["branch"]
            if round_json["turn"] not in starts:
                result.problems.append(f"{where}: rollback to a turn that was never played")
                return result
            state = starts[round_json["turn"]]
        progress = rules.progress(state)
        if (progress.turn, progress.round) != (round_json["turn"], round_json["kind"]):
            result.problems.append(
                f"{where}: the replay is at turn {progress.turn} {progress.round} instead"
            )
            return result
        if round_json["kind"] == rules.first_round:
            starts[round_json["turn"]] = state
        if round_json["resolved_at"] is None:
            continue  # open, or abandoned before resolution: nothing was drawn
        standing = [lock for lock in round_json["locks"] if lock["withdrawn_at"] is None]
        choices: dict[str, dict[str, str]] = {}
        for lock in standing:
            if lock.get("canonical") is None:
                result.problems.append(f"{where}: {lock['side']} choice is missing")
                return result
            choices[lock["side"]] = choice_of(lock["canonical"])
        try:
            new_state, events = rules.resolve(
                state, choices, Rng(seed, round_json["turn"], round_json["kind"])
            )
        except Exception as exc:
            result.problems.append(f"{where}: the engine refuses the recorded choices ({exc})")
            return result
        recorded = engine_events.get(round_json["id"], [])
        replayed = [{"kind": e.kind, "turn": e.turn, "data": _normal(e.data)} for e in events]
        stored = [
            {"kind": e["kind"], "turn": e["turn"], "data": _normal(e["data"])} for e in recorded
        ]
        if replayed != stored:
            index = next(
                (i for i, (a, b) in enumerate(zip(replayed, stored, strict=False)) if a != b),
                min(len(replayed), len(stored)),
            )
            got = stored[index] if index < len(stored) else "nothing"
            want = replayed[index] if index < len(replayed) else "nothing"
            seq = recorded[index]["seq"] if index < len(recorded) else "-"
            result.problems.append(
                f"{where}: event #{index + 1} (seq {seq}) differs from the replay:"
                f" recorded {json.dumps(got, sort_keys=True)[:300]},"
                f" replay gives {json.dumps(want, sort_keys=True)[:300]}"
            )
            return result
        result.rounds += 1
        result.events += len(replayed)
        state = new_state
    final = export.get("final_state")
    if final is not None and _normal(final) != _normal(json.loads(rules.dump(state))):
        result.problems.append("the final state differs from the replayed state")
    result.replayed = True
    return result


def verify_file(path: Path, catalog: Catalog) -> Verification:
    try:
        export = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return Verification(problems=[f"cannot read {path}: {exc}"])
    try:
        return verify_export(export, catalog)
    except (KeyError, TypeError, ValueError) as exc:
        return Verification(problems=[f"malformed export: {exc!r}"])


# ------------------------------------------------------------------------------ report


def after_action_markdown(
    export: Mapping[str, Any],
    catalog: Catalog,
    *,
    locale: str = "en",
    images: Mapping[str, str] | None = None,
) -> str:
    """A readable account of the campaign: result, each turn's choices and reports, the seed."""
    images = images or {}
    info = export["campaign"]
    plugin = Registry(catalog).get(info["ruleset"])
    rules, presenter = plugin.rules, plugin.presenter
    scenario = rules.scenarios()[info["scenario"]]

    def side_words(side: str) -> str:
        return rules.side(side).name(locale) if side in rules.side_ids else side

    lines = [f"# After-action report — {scenario.name}", ""]
    state = rules.load(json.dumps(export["final_state"])) if export.get("final_state") else None
    # The export carries the final state only once the campaign is over: everything is public.
    view = rules.view(state, None) if state is not None else None
    if state is not None:
        progress = rules.progress(state)
        winner = progress.winner
        result = side_words(winner) if winner in rules.side_ids else str(winner)
        vp = ", ".join(f"{side_words(s)} {progress.vp.get(s, 0)}" for s in rules.side_ids)
        played = len(
            {
                r["turn"]
                for r in export["rounds"]
                if r["status"] == "resolved" and rules.closes_turn(r["kind"])
            }
        )
        lines += [f"**Result:** {result} · VP {vp} · {played} turns played", ""]
    else:
        lines += [f"**Status:** {info['status']}", ""]
    if "after-action" in images:
        lines += [f"![After-action report]({images['after-action']})", ""]
    players = export["players"]
    for side in rules.side_ids:
        who = ", ".join(
            f"<@{p['user_id']}>" + (" (commander)" if p["commander"] else "")
            for p in players
            if p["side"] == side and p["left_at"] is None
        )
        lines.append(f"- {side_words(side)}: {who or '—'}")
    lines.append("")
    rollbacks = [a for a in export["audit"] if a["what"] == "rollback"]
    for entry in rollbacks:
        lines.append(
            f"> Rollback by <@{entry['who']}> to turn {entry['data'].get('to_turn')}:"
            f" {entry['why']}"
            f" (branch {entry['data'].get('from_branch')} → {entry['data'].get('branch')})"
        )
    if rollbacks:
        lines.append("")
    order = rules.field_order()

    def rank(name: str) -> int:
        return order.index(name) if name in order else len(order)

    live_rounds = [r for r in export["rounds"] if r["status"] == "resolved"]
    for turn in sorted({r["turn"] for r in live_rounds}):
        lines += [f"## Turn {turn}", ""]
        for round_json in (r for r in live_rounds if r["turn"] == turn):
            lines.append(f"**{round_json['kind'].capitalize()}**")
            for lock in round_json["locks"]:
                if lock["withdrawn_at"] is not None or lock.get("canonical") is None:
                    continue
                choice = choice_of(lock["canonical"])
                words = " · ".join(
                    presenter.option_text(scenario.key, k, choice[k], locale)
                    for k in sorted(choice, key=rank)
                )
                note = " (default)" if lock["defaulted"] else ""
                lines.append(
                    f"- {side_words(lock['side'])}: {words}{note}"
                    f" — receipt `{lock['receipt'][:12]}`"
                )
            lines.append("")
        if view is not None:
            lines += presenter.after_action_turn(scenario.key, view, turn, locale, images)
    lines += [
        "## Verification",
        "",
        f"- Seed commitment (published at creation): `{info['seed_commitment']}`",
        f"- Seed: `{info['seed']}`" if info.get("seed") else "- Seed: not revealed yet",
        "- Check everything with `python -m bot verify export.json`.",
        "",
    ]
    return "\n".join(lines)
