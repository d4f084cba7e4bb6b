"""Campaign export, its verification by replay, and the Markdown after-action report.

Belongs here: turning the database rows of one campaign into the documented JSON
(``docs/export-format.md``), checking such a file independently of the database
(``python -m bot verify``), and the human report. The checker trusts nothing in the file:
it recomputes every receipt, the seed commitment, and replays every resolved round with
the engine from the seed and the locked choices, comparing every engine event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot import secrecy
from bot import switches as switches_of
from bot.dice import roll_problems
from bot.i18n import t
from bot.rulesets import Registry
from bot.service_model import UNNAMED, canonical_choice, choice_of, receipt_of
from bot.service_states import load_state
from db.repository import LockRow, Repository, Transaction
from engine.rng import Rng, seed_commitment

FORMAT = "sortie-campaign-export"
# 2 (issue 11): the turn records carry the facts a rules check reads (bands per turn, band
# moves, every draw, reshuffles, pilot draws, track ticks). Version 1 files are
# still read: they replay, and their final state is compared on the facts they hold.
# 3 (issue 26): each round carries its sealed events (``sealed_events``), opened once the
# campaign is over; version 2 files have none and are checked as before.
VERSION = 3
READABLE = (1, 2, 3)
# The largest file ``verify`` reads: far above any campaign's export (six turns of the
# default game are 0.3 MB), far below what parsing would need memory for (about 2.5 times the
# file's size).
MAX_EXPORT_BYTES = 32 * 1024 * 1024


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
        return await export_in(tx, rulesets, campaign_id)


async def export_in(tx: Transaction, rulesets: Registry, campaign_id: int) -> dict[str, Any]:
    """``export_campaign`` from rows read in ``tx``: ``migrate-data`` compares a copy not yet
    committed with the snapshot it was copied from."""
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
        if snapshot is not None:  # the whole state, its history rows put back in
            final_rules = rulesets.get(campaign.ruleset).rules
            whole = await load_state(tx, final_rules, snapshot)
            final_state = secrecy.final_state(final_rules, whole)
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
                # What the round kept from everyone: shown once the campaign is over.
                "sealed_events": secrecy.sealed_of(r.sealed, finished),
                "locks": [
                    _lock_json(
                        lock,
                        secrecy.receipt_opened(
                            rules, finished, r, rounds, choice_of(lock.canonical)
                        )
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


# The file's shape, checked before anything reads it: a crafted or damaged file must end in
# one readable line, never in a KeyError deep inside the replay. Strict types, because JSON
# ``true`` is not the version 1 and a lock that is a string is not a lock; unknown keys are
# ignored so a later release may add some.


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class _Pace(_Strict):
    round_seconds: int
    reminder_offsets: list[int]
    missing_policy: str
    gm_sees_secrets: bool
    allow_unlock: bool


class _Campaign(_Strict):
    id: int
    ruleset: str
    scenario: str
    guild_id: int
    channel_id: int
    gm_id: int
    locale: str
    status: str
    branch: int
    created_at: int
    started_at: int | None
    ended_at: int | None
    end_reason: str | None
    pace: _Pace
    seed_commitment: str
    seed: str | None


class _Player(_Strict):
    user_id: int
    side: str
    commander: bool
    joined_at: int
    left_at: int | None


class _Lock(_Strict):
    side: str
    receipt: str
    locked_at: int
    by_user: int | None
    defaulted: bool
    withdrawn_at: int | None
    canonical: str | None
    salt: str | None


class _Sealed(_Strict):
    kind: str
    turn: int
    data: dict[str, Any]
    owner: str | None


class _Round(_Strict):
    id: int
    branch: int
    turn: int
    kind: str
    status: Literal["open", "resolving", "resolved", "void"]
    opened_at: int
    deadline_at: int | None
    resolved_at: int | None
    locks: list[_Lock]
    sealed_events: list[_Sealed] | None = None


class _Event(_Strict):
    seq: int
    round_id: int | None
    branch: int
    source: Literal["engine", "service"]
    kind: str
    turn: int
    data: dict[str, Any]
    void: bool
    at: int


class _Audit(_Strict):
    who: int
    what: str
    why: str | None
    data: dict[str, Any]
    at: int


class ExportFile(_Strict):
    """The export format of ``docs/export-format.md``, as the verifier accepts it."""

    format: str
    version: int
    campaign: _Campaign
    players: list[_Player]
    rounds: list[_Round]
    events: list[_Event]
    audit: list[_Audit]
    final_state: dict[str, Any] | None = None


def _kind_of(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, bool | dict | list | str):
        return names[type(value)]
    if isinstance(value, int | float):
        return "a number"
    return type(value).__name__


# pydantic's words name our private classes; these say what the format wants instead.
_WANTED = {
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dict_type": "an object",
    "list_type": "a list",
    "int_type": "an integer",
    "string_type": "a string",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "string_parsing": "a string",
}


def _validation_problem(exc: ValidationError, prefix: str = "") -> str:
    """The first of pydantic's findings as one line naming the field by its path in the
    file (``final_state.history[0].pilots[0].redraw``)."""
    errors = exc.errors()
    first = errors[0]
    where = prefix + "".join(
        f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]
    )
    where = where.lstrip(".")
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    if first["type"] == "missing":
        return f"malformed export: {where} is missing{more}"
    wanted = _WANTED.get(first["type"], first["msg"])
    if first["type"] in ("enum", "literal_error") and "expected" in first.get("ctx", {}):
        wanted = str(first["ctx"]["expected"])
    got = _kind_of(first.get("input"))
    return f"malformed export: {where or 'top level'}: expected {wanted}, got {got}{more}"


def _schema_problem(export: Any) -> str | None:
    """One line saying why ``export`` is not an export file, or None when its shape is right."""
    if not isinstance(export, Mapping):
        return f"malformed export: the file holds {_kind_of(export)}, not an export object"
    version = export.get("version")
    # ``type(...) is int``: JSON true equals 1 in Python, and it is not a version number.
    if export.get("format") != FORMAT or type(version) is not int or version not in READABLE:
        return f"not a {FORMAT} version {' or '.join(map(str, READABLE))} file"
    try:
        ExportFile.model_validate(export)
    except ValidationError as exc:
        return _validation_problem(exc)
    ids = [round_json["id"] for round_json in export["rounds"]]
    if len(set(ids)) != len(ids):
        return "malformed export: two rounds have the same id"
    return None


@dataclass
class Verification:
    problems: list[str] = field(default_factory=list)
    receipts: int = 0
    locks: int = 0  # every lock of the file, opened or sealed
    # Locks whose ``by_user`` the checked receipt commits to; the others (sealed until the
    # reveal, or committed before receipts named the locker) say who locked unchecked.
    lockers: int = 0
    rounds: int = 0
    events: int = 0
    replayed: bool = False
    # True when the file could not be checked at all (unreadable, malformed, nothing to
    # check), as opposed to a file checked and found wrong.
    unusable: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def conclusive(self) -> bool:
        """Something was actually checked: an opened receipt, or a replayed round."""
        return self.receipts > 0 or self.rounds > 0


def _where(round_json: Mapping[str, Any]) -> str:
    return (
        f"round {round_json['id']} (turn {round_json['turn']} {round_json['kind']},"
        f" branch {round_json['branch']})"
    )


def _normal(value: Any) -> Any:
    """Events compared as JSON: tuples and lists, enum members and strings alike."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _choice(canonical: str) -> dict[str, str] | None:
    """The choice inside a committed text, or None when the text is not one (a forged file)."""
    try:
        choice = choice_of(canonical)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return choice


def _locker(canonical: str) -> tuple[bool, Any]:
    """Whether the committed text names who locked, and whom (a user id, or null)."""
    try:
        text = json.loads(canonical)
    except ValueError:
        return False, None
    if isinstance(text, dict) and "by" in text:
        return True, text["by"]
    return False, None


def _receipt_matches(lock: Mapping[str, Any]) -> bool:
    try:
        return bool(receipt_of(lock["canonical"], lock["salt"]) == lock["receipt"])
    except UnicodeEncodeError:  # a lone surrogate in the file: no UTF-8, so no receipt
        return False


# Told of every round the replay resolved and found as recorded: the round's JSON, the
# states before and after it, and the engine's events (``bot.replay`` draws each turn from
# them, so the pages it makes show exactly what verify checked).
Observer = Callable[[Mapping[str, Any], Any, Any, Sequence[Any]], None]


def verify_export(
    export: Mapping[str, Any],
    rulesets: Registry | None = None,
    *,
    observe: Observer | None = None,
) -> Verification:
    """Check the file's shape, receipts, the seed commitment, and replay every resolved round.

    Every step is linear in the size of the export: rounds are found by id through an index,
    never by scanning the rounds for each event.
    """
    result = Verification()
    problem = _schema_problem(export)
    if problem is not None:
        result.problems.append(problem)
        result.unusable = True
        return result
    info = export["campaign"]
    campaign_id = info["id"]

    # 1. Every opened receipt: sha256(canonical + salt), and the canonical names its round.
    receipts_of_round: dict[int, set[str]] = {}
    for round_json in export["rounds"]:
        receipts_of_round[round_json["id"]] = {lock["receipt"] for lock in round_json["locks"]}
        for lock in round_json["locks"]:
            result.locks += 1
            if lock.get("canonical") is None or lock.get("salt") is None:
                continue
            where = _where(round_json) + f" {lock['side']}"
            if not _receipt_matches(lock):
                result.problems.append(f"{where}: receipt does not match the choice and salt")
                continue
            named, locker = _locker(lock["canonical"])
            if named and locker != lock["by_user"]:
                result.problems.append(
                    t(
                        "service.cli.verify-locker",
                        None,
                        where=where,
                        by=_short(lock["by_user"]),
                        locker=_short(locker),
                    )
                )
                continue
            choice = _choice(lock["canonical"])
            expected = (
                None
                if choice is None
                else canonical_choice(
                    campaign_id,
                    round_json["branch"],
                    round_json["turn"],
                    round_json["kind"],
                    lock["side"],
                    choice,
                    by=locker if named else UNNAMED,
                )
            )
            if expected != lock["canonical"]:
                result.problems.append(f"{where}: the choice is committed for another round")
                continue
            result.receipts += 1
            result.lockers += named
    for event in export["events"]:
        if event["kind"] == "side-locked":
            receipts = receipts_of_round.get(event["round_id"], set())
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
    registry = rulesets if rulesets is not None else Registry()
    if info.get("ruleset") not in registry:
        result.problems.append(f"ruleset {info.get('ruleset')!r} is not in this version")
        return result
    rules = registry.get(info["ruleset"]).rules
    if info["scenario"] not in rules.scenarios():
        result.problems.append(f"scenario {info['scenario']!r} is not in this engine's data")
        return result
    # Campaigns created before versions were recorded were played under version 1; a file
    # without its creation event makes no claim, and the replay decides.
    created = next((e for e in export["events"] if e["kind"] == "campaign-created"), None)
    played = str(created["data"].get("rules_version", "1")) if created else rules.version
    if played != rules.version:
        result.problems.append(
            f"this campaign was created under {info['ruleset']} rules version {played}; this"
            f" release plays version {rules.version}, so its draws cannot be replayed here"
            " (its receipts and seed were checked above)"
        )
        return result

    # 2. Replay, in the order the rounds were played. A round on a new branch starts from
    # the state at the start of its turn as last replayed (that is what the rollback restored).
    # The GM's switches (bot.switches), checked again: the file may have been edited.
    # A GM who changed them before the start drew the table again: every start is replayed
    # against the set-up it logged, and the campaign plays from the last.
    for given, set_up in switches_of.start_switches(export["events"]):
        switches = switches_of.replayable(rules, info["scenario"], given)
        if switches is None:
            result.problems.append(f"the campaign's switches {given!r} are not this scenario's")
            return result
        state = switches_of.begin(rules, info["scenario"], seed, switches)
        opening = secrecy.published(rules, rules.opening(state))
        problem = _compare_events("the campaign's set-up", opening, set_up)
        if problem:
            result.problems.append(problem)
            return result
        result.events += len(set_up)
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
            choice = None if lock.get("canonical") is None else _choice(lock["canonical"])
            if choice is None:
                result.problems.append(f"{where}: {lock['side']} choice is missing")
                return result
            choices[lock["side"]] = choice
        try:
            new_state, events = rules.resolve(
                state, choices, Rng(seed, round_json["turn"], round_json["kind"])
            )
        except Exception as exc:
            result.problems.append(f"{where}: the engine refuses the recorded choices ({exc})")
            return result
        recorded = engine_events.get(round_json["id"], [])
        problem = _compare_events(where, secrecy.published(rules, events), recorded)
        sealed_events = round_json.get("sealed_events")
        if not problem and sealed_events is not None:
            # Opened with the campaign's end: what nobody could read is replayed too.
            problem = _compare_sealed(where, secrecy.sealed(rules, events), sealed_events)
            result.events += len(sealed_events)
        if problem:
            result.problems.append(problem)
            return result
        result.rounds += 1
        result.events += len(recorded)
        if observe is not None:
            observe(round_json, state, new_state, events)
        state = new_state
    final = export.get("final_state")
    replayed_final = _normal(secrecy.final_state(rules, state))
    if final is not None and export["version"] == 1:
        replayed_final = _facts_of(replayed_final, final)
    if final is not None and _normal(final) != replayed_final:
        result.problems.append("the final state differs from the replayed state")
    rolled, problems = roll_problems(rules, seed, export["events"])
    result.events += rolled
    if problems:
        result.problems += problems
        return result
    result.replayed = True
    return result


def _facts_of(replayed: Any, stored: Any) -> Any:
    """``replayed`` cut down to the keys ``stored`` has: a version 1 file lacks the records
    version 2 added, and is compared on what it holds (a key it has that the replay lacks
    still differs)."""
    if isinstance(replayed, dict) and isinstance(stored, dict):
        return {k: _facts_of(v, stored[k]) for k, v in replayed.items() if k in stored}
    if isinstance(replayed, list) and isinstance(stored, list) and len(replayed) == len(stored):
        return [_facts_of(r, s) for r, s in zip(replayed, stored, strict=True)]
    return replayed


def _short(value: Any) -> str:
    """A value from the file, quoted in a line of reasonable length."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _unusable(problem: str) -> Verification:
    return Verification(problems=[" ".join(problem.split())], unusable=True)


class Unreadable(Exception):
    """An export file that cannot be read at all: the one line says why."""


def _megabytes(size: int) -> int:
    return round(size / (1024 * 1024))


def read_export(path: Path) -> Any:
    """The file's JSON, read no further than ``MAX_EXPORT_BYTES``: a file larger than any
    export would take several times its size in memory to parse."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_EXPORT_BYTES:
            raise Unreadable(
                t(
                    "service.cli.verify-too-big",
                    None,
                    path=path,
                    size=_megabytes(size),
                    limit=_megabytes(MAX_EXPORT_BYTES),
                )
            )
        with path.open("rb") as handle:
            data = handle.read(MAX_EXPORT_BYTES + 1)
        if len(data) > MAX_EXPORT_BYTES:  # a stream or device: no size given beforehand
            raise Unreadable(
                t(
                    "service.cli.verify-too-long",
                    None,
                    path=path,
                    limit=_megabytes(MAX_EXPORT_BYTES),
                )
            )
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise Unreadable(f"malformed export: {path} is nested too deeply") from None
    except (OSError, ValueError) as exc:
        raise Unreadable(f"cannot read {path}: {exc}") from None


def rules_shape_problem(export: Any, rulesets: Registry | None = None) -> str | None:
    """``verify --rules``'s first pass: the file's shape, the final state's included, so a
    value of the wrong type is named by its path instead of passing the rule checks (which
    read the file as it is) or breaking them half-way."""
    problem = _schema_problem(export)
    if problem is not None:
        return problem
    final = export.get("final_state")
    registry = rulesets if rulesets is not None else Registry()
    ruleset = export["campaign"]["ruleset"]
    if not isinstance(final, Mapping) or ruleset not in registry:
        return None  # nothing to read, or a ruleset the rules check refuses by name
    try:
        registry.get(ruleset).rules.load(json.dumps(final))
    except ValidationError as exc:
        return _validation_problem(exc, "final_state")
    except RecursionError:
        return "malformed export: final_state is nested too deeply"
    return None


def verify_file(path: Path, rulesets: Registry | None = None) -> Verification:
    """Check an export file; every way it can fail is one line in ``problems``.

    A file in which nothing can be checked (the seed still secret and no receipt opened) is
    refused too: saying OK about it would vouch for nothing.
    """
    try:
        export = read_export(path)
    except Unreadable as exc:
        return _unusable(str(exc))
    try:
        result = verify_export(export, rulesets)
    except RecursionError:
        return _unusable("malformed export: an event is nested too deeply")
    except Exception as exc:  # the schema should make this unreachable; still one line
        return _unusable(f"malformed export: {type(exc).__name__}: {exc}"[:500])
    if result.ok and not result.conclusive:
        result.unusable = True
        result.problems.append(
            "nothing to check: the seed is not revealed and no receipt is opened yet;"
            " export again after a reveal"
        )
    return result


# ------------------------------------------------------------------------------ report


def after_action_markdown(
    export: Mapping[str, Any],
    *,
    rulesets: Registry | None = None,
    locale: str | None = None,
    images: Mapping[str, str] | None = None,
) -> str:
    """A readable account of the campaign: result, each turn's choices and reports, the seed.

    Written in the campaign's language unless told otherwise: the report of a French
    campaign is read by the same French table that played it.
    """
    from bot.i18n import t, word
    from rendering.text import scenario_name

    images = images or {}
    info = export["campaign"]
    loc = locale or info.get("locale") or "en"
    plugin = (rulesets if rulesets is not None else Registry()).get(info["ruleset"])
    rules, presenter = plugin.rules, plugin.presenter
    scenario = rules.scenarios()[info["scenario"]]

    def side_words(side: str) -> str:
        return rules.side(side).name(loc) if side in rules.side_ids else side

    title = scenario_name(scenario.key, scenario.name, loc)
    lines = [t("archive.report.title", loc, scenario=title), ""]
    state = rules.load(json.dumps(export["final_state"])) if export.get("final_state") else None
    # The export carries the final state only once the campaign is over: everything is public.
    view = rules.view(state, None) if state is not None else None
    if state is not None:
        progress = rules.progress(state)
        winner = progress.winner
        if winner in rules.side_ids:
            result = side_words(str(winner))
        elif winner == "draw":
            result = t("log.word.draw", loc)
        else:
            result = t("archive.report.undecided", loc)
        vp = ", ".join(f"{side_words(s)} {progress.vp.get(s, 0)}" for s in rules.side_ids)
        played = len(
            {
                r["turn"]
                for r in export["rounds"]
                if r["status"] == "resolved" and rules.closes_turn(r["kind"])
            }
        )
        lines += [t("archive.report.result", loc, result=result, vp=vp, played=played), ""]
    else:
        status = word(f"service.status.{info['status']}", str(info["status"]), loc)
        lines += [t("archive.report.status", loc, status=status), ""]
    if "after-action" in images:
        lines += [f"![{t('archive.report.image', loc)}]({images['after-action']})", ""]
    players = export["players"]
    commander = t("archive.report.commander", loc)
    for side in rules.side_ids:
        who = ", ".join(
            f"<@{p['user_id']}>" + (commander if p["commander"] else "")
            for p in players
            if p["side"] == side and p["left_at"] is None
        )
        lines.append(t("archive.report.side-line", loc, side=side_words(side), text=who or "—"))
    lines.append("")
    rollbacks = [a for a in export["audit"] if a["what"] == "rollback"]
    for entry in rollbacks:
        lines.append(
            t(
                "archive.report.rollback",
                loc,
                who=f"<@{entry['who']}>",
                turn=entry["data"].get("to_turn"),
                why=entry["why"],
                old=entry["data"].get("from_branch"),
                new=entry["data"].get("branch"),
            )
        )
    if rollbacks:
        lines.append("")
    order = rules.field_order()

    def rank(name: str) -> int:
        return order.index(name) if name in order else len(order)

    live_rounds = [r for r in export["rounds"] if r["status"] == "resolved"]
    default = t("archive.report.default", loc)
    for turn in sorted({r["turn"] for r in live_rounds}):
        lines += [t("archive.report.turn", loc, turn=turn), ""]
        for round_json in (r for r in live_rounds if r["turn"] == turn):
            kind = str(round_json["kind"])
            locks = [
                (lock, choice_of(lock["canonical"]))
                for lock in round_json["locks"]
                if lock["withdrawn_at"] is None and lock.get("canonical") is not None
            ]
            if not any(choice for _lock, choice in locks):
                continue  # a round nobody was asked anything in (a pursuit that never was)
            lines.append(f"**{word(f'service.round.{kind}', kind.capitalize(), loc)}**")
            for lock, choice in locks:
                words = " · ".join(
                    presenter.option_text(scenario.key, k, choice[k], loc, view)
                    for k in sorted(choice, key=rank)
                ) or t("archive.report.nothing", loc)
                note = default if lock["defaulted"] and choice else ""
                receipt = t("archive.report.receipt", loc, receipt=lock["receipt"][:12])
                text = f"{words}{note} — {receipt}"
                lines.append(
                    t("archive.report.side-line", loc, side=side_words(lock["side"]), text=text)
                )
            lines.append("")
        if view is not None:
            lines += presenter.after_action_turn(scenario.key, view, turn, loc, images)
    seed = info.get("seed")
    lines += [
        t("archive.report.verification", loc),
        "",
        t("archive.report.commitment", loc, commitment=info["seed_commitment"]),
        t("archive.report.seed", loc, seed=seed) if seed else t("archive.report.seed-hidden", loc),
        t("archive.report.check", loc, file="export.json"),
        "",
    ]
    return "\n".join(lines)


def _compare_sealed(where: str, events: Sequence[Any], recorded: list[dict[str, Any]]) -> str:
    """Why a round's opened sealed events are not what the replay keeps sealed ("" if
    they are)."""
    replayed = [
        {"kind": e.kind, "turn": e.turn, "data": _normal(e.data), "owner": e.owner} for e in events
    ]
    stored = [
        {"kind": e["kind"], "turn": e["turn"], "data": _normal(e["data"]), "owner": e["owner"]}
        for e in recorded
    ]
    differs = _first_difference(replayed, stored)
    if differs is None:
        return ""
    index, told = differs
    return f"{where}: sealed event #{index + 1} differs from the replay:{told}"


def _first_difference(replayed: list[Any], stored: list[Any]) -> tuple[int, str] | None:
    """Where the stored events first part from the replayed ones, and both there in words
    (None where they agree)."""
    if replayed == stored:
        return None
    index = next(
        (i for i, (a, b) in enumerate(zip(replayed, stored, strict=False)) if a != b),
        min(len(replayed), len(stored)),
    )
    got = stored[index] if index < len(stored) else "nothing"
    want = replayed[index] if index < len(replayed) else "nothing"
    return index, (
        f" recorded {json.dumps(got, sort_keys=True)[:300]},"
        f" replay gives {json.dumps(want, sort_keys=True)[:300]}"
    )


def _compare_events(where: str, events: Sequence[Any], recorded: list[dict[str, Any]]) -> str:
    """Why the recorded engine events are not what the replay gives ("" when they are)."""
    replayed = [{"kind": e.kind, "turn": e.turn, "data": _normal(e.data)} for e in events]
    stored = [{"kind": e["kind"], "turn": e["turn"], "data": _normal(e["data"])} for e in recorded]
    differs = _first_difference(replayed, stored)
    if differs is None:
        return ""
    index, told = differs
    seq = recorded[index]["seq"] if index < len(recorded) else "-"
    return f"{where}: event #{index + 1} (seq {seq}) differs from the replay:{told}"
