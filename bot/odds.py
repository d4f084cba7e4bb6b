"""The odds preview behind the panel's "What are my odds?" button (issue 13).

What the simulation may start from is decided here, through the secrecy gate: the state
before the open round (public, except what it keeps of the other side that has not opened
yet, listed in ``hidden``), the asking side's own drafts, and nothing of the other side's
drafts or locks. Its random stream is seeded from public facts only (campaign, round,
side, the side's own drafts): the campaign's seed is secret until the end and would give
away the real draws to come. Same panel, same seed, same figures.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from bot import secrecy
from bot.i18n import t
from bot.panel import field_text, side_text
from bot.processes import count_set, fork_context, hangup_blocked
from bot.service import CampaignService
from bot.service_model import ServiceError, choices_of
from bot.service_states import state_of
from engine.ruleset import Odds, Rules

# Samples per preview (the figures a seed gives depend on it): a sample is one play of the
# coming resource round, read for its tracks only, 0.55 to 0.83 ms of CPU (2026-12-07), so
# a preview takes under half a second of the worker process's core on an idle machine; a
# busy machine may take a few times as long, and the click is deferred. From
# ``SPREAD_FROM`` samples the plays go to the worker processes, one per core but one.
# ``bench/odds.py`` measures what 1,000 cost, in one thread and through the processes.
SAMPLES = 500
# Recent answers by (ruleset, seed, samples): the seed names the campaign, the round (so the
# state it starts from) and the side's drafts, so an entry stays right; a second click on
# an unchanged panel answers at once. Bounded by count: each entry is a few numbers.
RECENT = 256
_recent: OrderedDict[tuple[str, str, int], Odds] = OrderedDict()
# The previews running now, by (campaign, round, side): a double click waits for none.
_running: set[tuple[int, int, str]] = set()
# From this many samples a preview is shared out over worker processes (``workers()``);
# a smaller one costs less than shipping it to them.
SPREAD_FROM = 200
CHUNKS_PER_WORKER = 4
_workers: ProcessPoolExecutor | None = None
_broken = False  # the processes could not start, or died: previews stay in one thread
_pool_lock = threading.Lock()
# Each worker shares the engine with its fork server (``bot.preload``) but fills a heap of
# its own as it plays (the resolving process, alike, held 10 to 25 MiB of its own in
# bench/memory.py); a bot whose players have not asked for odds in this long gives them
# back, and the next preview starts them again (well under a second, inside the click's
# deferral).
IDLE_SECONDS = 600.0
_in_use = 0  # previews spreading over the processes now
_last_used = 0.0  # time.monotonic() of the last one's end
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ask:
    """Everything one preview runs from: nothing here is secret from ``side``."""

    rules: Rules[Any, Any]
    state: Any
    side: str
    picks: dict[str, str]
    hidden: tuple[str, ...]
    seed: str
    locale: str

    def play(self, samples: int, **spreading: Any) -> Odds | None:
        """The rules' odds for this question; ``spreading`` (``spread``, ``parts``) splits
        the runs over the worker processes, same figures."""
        return self.rules.odds(
            self.state,
            self.side,
            self.picks,
            self.hidden,
            samples=samples,
            seed=self.seed,
            **spreading,
        )


def hidden_fields(rules: Rules[Any, Any]) -> tuple[str, ...]:
    """The fields whose locked values stay closed after their own round's reveal."""
    return tuple(name for name in rules.field_order() if not secrecy.opens_at_reveal(rules, name))


def public_seed(campaign_id: int, round_id: int, side: str, picks: dict[str, str]) -> str:
    own = ",".join(f"{name}={value}" for name, value in sorted(picks.items()))
    return f"{campaign_id}|{round_id}|{side}|{own}"


async def ask(svc: CampaignService, campaign_id: int, user_id: int, round_id: int) -> Ask:
    """Read what the player's side may know of the open round ``round_id``."""
    async with svc.repo.read() as tx:
        campaign = await svc._campaign(tx, campaign_id)
        player = await svc._member(tx, campaign, user_id)
        if campaign.status == "finished":
            raise ServiceError("finished")
        rules = svc._plugin(campaign).rules
        if not rules.supports_odds:
            raise ServiceError("odds-unavailable")
        live = await tx.live_round(campaign.id)
        if live is None:
            raise ServiceError("no-open-round")
        if live.id != round_id or live.status != "open":
            raise ServiceError("stale-round")
        svc._require_seated_before(player, live)
        # From the snapshot alone: no preview plays past turns (a ruleset may drop them), and
        # the state pickled to the preview's process stays small however long the history.
        state = await state_of(tx, rules, live.snapshot_before_id, history=False)
        # Only this side's drafts: the other side's drafts and locks are never read.
        picks = choices_of(await tx.drafts(live.id, player.side))
    return Ask(
        rules=rules,
        state=state,
        side=player.side,
        picks=picks,
        hidden=hidden_fields(rules),
        seed=public_seed(campaign_id, round_id, player.side, picks),
        locale=campaign.locale,
    )


def workers() -> int:
    """Processes a preview may use: ``SORTIE_ODDS_WORKERS``, else one per core but one.

    A preview on every core stalled every other player of the bot for its second or two
    (issue 29): the core it leaves free keeps the event loop and the drawing going."""
    wanted = count_set("SORTIE_ODDS_WORKERS") or 0  # 0 or unset: one per core but one
    return max(1, wanted or (os.cpu_count() or 1) - 1)


def _pool() -> ProcessPoolExecutor | None:
    """The preview processes, started on first use; None where they cannot be."""
    global _workers, _broken
    with _pool_lock:
        if _workers is None and not _broken:
            try:
                # The fork server the other pools share (``bot.processes.fork_context``),
                # the engine imported there once.
                context = fork_context()
                # Ctrl-C reaches the whole process group: the bot stops on it and stops
                # its workers (``shut_down``); a worker interrupted while it waits for work
                # would only print a traceback of its own, once per process.
                with hangup_blocked():  # it starts the resource tracker
                    _workers = ProcessPoolExecutor(
                        workers(),
                        mp_context=context,
                        initializer=signal.signal,
                        initargs=(signal.SIGINT, signal.SIG_IGN),
                    )
            except (OSError, ValueError) as error:
                _broken = True
                log.warning("odds: no worker processes (%s); previews play in one thread", error)
        return _workers


def _spread(play: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """``map`` over the preview processes, or here in this thread if they fail: the
    samples' draws are made before the split, so either way gives the same figures."""
    global _workers, _broken, _in_use
    pool = _pool()
    if pool is not None:
        with _pool_lock:
            _in_use += 1
        try:
            with hangup_blocked():
                return list(pool.map(play, items))
        except (BrokenProcessPool, OSError) as error:
            log.warning("odds: worker processes failed (%s); playing in this thread", error)
            with _pool_lock:
                _broken, _workers = True, None
            pool.shutdown(wait=False, cancel_futures=True)
        finally:
            _done_with_pool()
    return [play(item) for item in items]


def _done_with_pool() -> None:
    global _in_use, _last_used
    with _pool_lock:
        _in_use -= 1
        _last_used = time.monotonic()
    timer = threading.Timer(IDLE_SECONDS, release_idle)
    timer.daemon = True  # never keeps a stopping bot alive
    timer.start()


def release_idle() -> bool:
    """Stop the worker processes if no preview has used them for ``IDLE_SECONDS``;
    whether it did. Every preview arms a timer that calls this once it may be due."""
    global _workers
    with _pool_lock:
        pool = _workers
        idle = time.monotonic() - _last_used >= IDLE_SECONDS
        if pool is None or _in_use or not idle:
            return False
        _workers = None
    pool.shutdown(wait=False, cancel_futures=True)
    return True


def shut_down() -> None:
    """Stop the worker processes and wait for them to end (a preview still running
    finishes first). The bot's close and the program's end call this, whatever ended it, so
    no worker outlives the bot that started it and nothing of the pool is left for the
    interpreter's exit to clean up. A later preview starts them again."""
    global _workers
    with _pool_lock:
        pool, _workers = _workers, None
    if pool is not None:
        pool.shutdown(wait=True)


def sharing(samples: int) -> dict[str, Any]:
    """How a preview of ``samples`` plays (``Ask.play``'s ``spread`` and ``parts``).

    In the worker processes, never in the bot's own: a thread of the bot would share its
    interpreter lock with the event loop for the whole preview. With one process it takes
    the question whole and plays it there; with more, several runs per process (one slowed
    by the machine's other work takes fewer of them)."""
    if samples < SPREAD_FROM:
        return {"spread": None, "parts": 1}
    processes = workers()
    return {"spread": _spread, "parts": CHUNKS_PER_WORKER * processes if processes > 1 else 1}


def simulate(question: Ask, samples: int) -> Odds | None:
    key = (question.rules.key, question.seed, samples)
    found = _recent.get(key)
    if found is not None:
        return found
    result = question.play(samples, **sharing(samples))
    if result is not None:
        _recent[key] = result
        while len(_recent) > RECENT:
            _recent.popitem(last=False)
    return result


class Busy(Exception):
    """A preview for this side's panel is already running."""


async def run(question: Ask, campaign_id: int, round_id: int) -> Odds | None:
    """``simulate`` from a thread that waits for the worker processes (``sharing``), one at
    a time per panel (a double click is told)."""
    key = (campaign_id, round_id, question.side)
    if key in _running:
        raise Busy
    _running.add(key)
    try:
        return await asyncio.to_thread(simulate, question, SAMPLES)
    finally:
        _running.discard(key)


async def preview(
    svc: CampaignService, campaign_id: int, user_id: int, round_id: int, locale: str
) -> str:
    """The answer the clicker reads, in ``locale``; the simulation runs off the event loop."""
    question = await ask(svc, campaign_id, user_id, round_id)
    odds = await run(question, campaign_id, round_id)
    if odds is None:
        raise ServiceError("odds-unavailable")
    return text(odds, locale)


def _percent(share: float, locale: str) -> str:
    return t("odds.percent", locale, value=round(100 * share))


def text(odds: Odds, locale: str) -> str:
    """The preview as a short message: the outcome split, then each track's expected boxes."""
    lines = [
        t("odds.title", locale, side=side_text(odds.side, locale)),
        t(
            "odds.outcome",
            locale,
            win=_percent(odds.win / odds.samples, locale),
            draw=_percent(odds.draw / odds.samples, locale),
            loss=_percent(odds.loss / odds.samples, locale),
        ),
        t("odds.damage-head", locale),
    ]
    for target in odds.targets:
        owner = "odds.yours" if target.side == odds.side else "odds.theirs"
        # An average to one decimal: "1.0 boxes" in English, "1,5 case" in French (CLDR).
        boxes = Decimal(f"{target.boxes:.1f}")
        lines.append(
            t(
                "odds.damage",
                locale,
                place=target.name,
                owner=t(owner, locale),
                count=boxes,
                boxes=str(boxes).replace(".", t("odds.decimal-mark", locale)),
                hit=_percent(target.hit, locale),
            )
        )
    if odds.sampled:
        fields = ", ".join(field_text(name, locale) for name in odds.sampled)
        lines.append(t("odds.sampled", locale, fields=fields))
    lines.append(t("odds.footer", locale, samples=odds.samples))
    return "\n".join(lines)
