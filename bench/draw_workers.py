"""Whether a second drawing process pays for itself: bursts of rounds opening at once,
drawn ahead by one drawing process, then by two, alternated.

    python bench/draw_workers.py [--rounds 8] [--bursts 6] [--workers 1,2]

When many campaigns share a deadline their rounds resolve together, and each new round's
pictures are drawn ahead (``bot.boards.draw_ahead``: the round message's board in each lock
state, then each deciding side's order panel, one after the other). Each burst here opens
``--rounds`` rounds at once through the bot's own pool (``bot.drawing``), at most
``AHEAD_PER_WORKER`` rounds per process being drawn at a time as in the bot (the others wait
for room here, where the bot would leave them to their first click), while a player's click
asks for a picture of its own in the middle of the burst. The pictures are the carrier's
at late rounds of the recorded games (``tests/golden_rulesets.py``: Coral Sea and Midway,
rounds 6 on), English.

Prints, per setting: the burst's length (wall), the click's picture from asking to having
it, the event loop's lag (a 5 ms tick's lateness, p50/p99/max) while the burst is drawn,
and the drawing processes' CPU per picture; each against a floor from the same run: one
picture drawn with the pool idle. Wall figures on a shared 2-core machine are read as
ratios between the settings, run in turn (1, 2, 2, 1, ...). Memory is ``bench/memory.py``'s.
**Leaves out**: the resolutions and Discord calls a real burst also makes (they compete for
the same two cores), Wings' pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import machine, processes_cpu
from bot import drawing, preload, secrecy
from engine.rng import Rng
from tests.golden_rulesets import load

FIRST_ROUND = 6


def _rounds() -> list[tuple[Any, dict[str, Any]]]:
    """(public view, side -> its view) for every carrier round from ``FIRST_ROUND`` on."""
    plugin = preload.registry().get("carrier")
    rules = plugin.rules
    out = []
    for game in load():
        if game["ruleset"] != "carrier":
            continue
        seed = f"golden-{game['seed']}"
        state = rules.new(game["scenario"], seed)
        for number, recorded in enumerate(game["rounds"]):
            if number >= FIRST_ROUND:
                public = secrecy.view_for(rules, state, secrecy.Viewer.public())
                sides = {
                    side: secrecy.view_for(rules, state, secrecy.Viewer.player(side))
                    for side in rules.side_ids
                }
                out.append((public, sides))
            progress = rules.progress(state)
            state, _ = rules.resolve(
                state, recorded["choices"], Rng(seed, progress.turn, progress.round)
            )
    return out


async def _round(plugin: Any, public: Any, sides: dict[str, Any], room: asyncio.Semaphore) -> None:
    """A round's pictures drawn ahead, as ``bot.boards._ahead`` draws them, in turn."""
    async with room:
        deciding = list(sides)
        for mask in range(2 ** len(deciding) - 1):
            flags = {side: bool(mask >> bit & 1) for bit, side in enumerate(deciding)}
            await drawing.draw(plugin, "status_board", public, flags, None, "en")
        for view in sides.values():
            await drawing.draw(plugin, "panel_image", view, "en")


async def _ticks(lags: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + 0.005
        await asyncio.sleep(0.005)
        lags.append((loop.time() - due) * 1000)


async def _burst(plugin: Any, rounds: list[tuple[Any, dict[str, Any]]], click: Any) -> dict:
    room = asyncio.Semaphore(drawing.AHEAD_PER_WORKER * drawing.workers())
    lags: list[float] = []
    stop = asyncio.Event()
    ticking = asyncio.create_task(_ticks(lags, stop))
    began = time.perf_counter()
    tasks = [asyncio.create_task(_round(plugin, public, sides, room)) for public, sides in rounds]
    await asyncio.sleep(0.05)  # the burst under way: a player clicks
    asked = time.perf_counter()
    await drawing.draw(plugin, "panel_image", click, "en")
    waited = (time.perf_counter() - asked) * 1000
    await asyncio.gather(*tasks)
    length = (time.perf_counter() - began) * 1000
    stop.set()
    await ticking
    return {"length": length, "click": waited, "lags": lags}


def _nearest(values: list[float], share: float) -> float:
    """The value at ``share`` of the way up (nearest rank): a burst has a few hundred ticks."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _worker_pids() -> list[int]:
    pool = drawing._pool
    return list(pool._processes) if pool is not None else []  # type: ignore[attr-defined]


async def run(args: argparse.Namespace) -> None:
    plugin = preload.registry().get("carrier")
    rounds = _rounds()
    pictures_per_round = 2 ** len(rounds[0][1]) - 1 + len(rounds[0][1])
    print(
        f"{len(rounds)} recorded carrier rounds from round {FIRST_ROUND}; bursts of "
        f"{args.rounds} rounds opening at once, {pictures_per_round} pictures each"
    )
    settings = [int(n) for n in args.workers.split(",")]
    figures: dict[int, dict[str, list[float]]] = {n: {} for n in settings}
    order = settings
    for burst in range(args.bursts):
        for workers in order:
            os.environ["SORTIE_DRAW_WORKERS"] = str(workers)
            drawing.shut_down()
            drawing.warm_up()
            pids = _worker_pids()
            chosen = [rounds[(burst * args.rounds + i) % len(rounds)] for i in range(args.rounds)]
            click = rounds[(burst * 7 + 3) % len(rounds)][1]
            click_view = next(iter(click.values()))
            # The floor: one picture, the pool idle.
            began = time.perf_counter()
            await drawing.draw(plugin, "panel_image", click_view, "fr")
            floor = (time.perf_counter() - began) * 1000
            cpu = processes_cpu(pids)
            out = await _burst(plugin, chosen, click_view)
            cpu = processes_cpu(pids) - cpu
            got = figures[workers]
            for name, value in (
                ("floor", floor),
                ("length", out["length"]),
                ("click", out["click"]),
                ("lag p50", statistics.median(out["lags"])),
                ("lag p99", _nearest(out["lags"], 0.99)),
                ("lag max", max(out["lags"])),
                ("cpu per picture", cpu * 1000 / (len(chosen) * pictures_per_round + 1)),
                ("load", os.getloadavg()[0]),
            ):
                got.setdefault(name, []).append(value)
        order = order[::-1]
    drawing.shut_down()
    print(f"medians over {args.bursts} bursts per setting (ms; load = 1-min load average):")
    names = list(next(iter(figures.values())))
    print("  " + " | ".join(["workers", *names]))
    for workers, got in figures.items():
        cells = [f"{statistics.median(got[name]):.1f}" for name in names]
        print("  " + " | ".join([str(workers), *cells]))
    if len(settings) == 2:
        one, two = (figures[n] for n in settings)
        for name in ("length", "click", "lag p99"):
            ratio = statistics.median(two[name]) / statistics.median(one[name])
            print(f"  {name}: {settings[1]} processes / {settings[0]}: x{ratio:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds opening in one burst")
    parser.add_argument("--bursts", type=int, default=6, help="bursts per setting")
    parser.add_argument("--workers", default="1,2", help="drawing processes, in turn")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 rounds, 1 burst")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.bursts = 2, 1
    print(f"machine: {machine()}")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
