"""Who holds each physical page of a set of processes: the bot's footprint by sharer.

    python bench/pages.py PID=role [PID=role ...]

PSS splits a shared page's cost between the processes that map it, so it says how much a
process costs only if the others stay. This reads each process's page table
(``/proc/<pid>/pagemap``: needs root, else every frame number reads as 0 and nothing is
printed) and counts every physical page once, under the set of processes that map it and
the kind of mapping (anonymous, the C heap, a library, a file): the total is the
footprint, and the pages held only by processes that do not use them show. For example
pages the bot's process rewrote after forking its fork server (copy on write) are held
twice: its own copy, and the original that the fork server and the resource tracker keep.
``bench/memory.py --pages`` prints this for the bot's processes at rest, and then, for each
process, the pages it alone holds split into copies of the fork server's page at the same
address (copy on write) and pages of its own (``copied``).
"""

from __future__ import annotations

import collections
import os
import struct
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
PRESENT = 1 << 63
FRAME = (1 << 55) - 1


def _kind(name: str) -> str:
    if not name:
        return "anonymous"
    if name.startswith("["):
        return name
    base = os.path.basename(name)
    if ".so" in base or base.startswith("python"):
        return "library " + base.split(".")[0]
    return "file " + base


def frames(pid: int) -> dict[int, str]:
    """Frame number -> kind of mapping, for every page ``pid`` has in memory."""
    return {frame: kind for frame, kind in placed(pid).values()}


def placed(pid: int) -> dict[int, tuple[int, str]]:
    """Virtual address -> its frame number and kind of mapping, for every page ``pid`` has
    in memory."""
    out: dict[int, tuple[int, str]] = {}
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as table:
        for row in maps:
            parts = row.split(maxsplit=5)
            name = parts[5].strip() if len(parts) > 5 else ""
            if name == "[vsyscall]":
                continue
            low, high = (int(x, 16) for x in parts[0].split("-"))
            table.seek(low // PAGE * 8)
            entries = table.read((high - low) // PAGE * 8)
            kind = _kind(name)
            for index, (entry,) in enumerate(struct.iter_unpack("<Q", entries)):
                if entry & PRESENT and entry & FRAME:
                    out[low + index * PAGE] = (entry & FRAME, kind)
    return out


def holders(processes: dict[int, str]) -> tuple[dict[int, frozenset[str]], dict[int, str]]:
    """Each frame's set of roles, and its kind of mapping."""
    held: dict[int, set[str]] = collections.defaultdict(set)
    kinds: dict[int, str] = {}
    for pid, role in processes.items():
        for frame, kind in frames(pid).items():
            held[frame].add(role)
            kinds[frame] = kind
    return {frame: frozenset(roles) for frame, roles in held.items()}, kinds


def report(processes: dict[int, str], top: int = 12) -> None:
    held, kinds = holders(processes)
    if not held:
        print("pages: no frame numbers readable (pagemap needs root)")
        return
    mib = PAGE / 2**20
    print(f"pages: {len(held) * mib:.1f} MiB in memory, each counted once, over {len(processes)}")
    by_set = collections.Counter(held.values())
    for roles, count in by_set.most_common(top):
        by_kind = collections.Counter(kinds[f] for f, r in held.items() if r == roles)
        kinds_text = ", ".join(f"{k} {n * mib:.1f}" for k, n in by_kind.most_common(3))
        print(f"  held by {' + '.join(sorted(roles))}: {count * mib:.1f} MiB ({kinds_text})")


def copied(processes: dict[int, str], server: str = "forkserver") -> None:
    """For each process forked from the fork server (or from the bot, which forked it):
    the pages it alone holds, split into copies of a page the server holds at the same
    address (copy on write: a refcount, quickened bytecode, an allocation in a free slot
    of start-up's memory), and pages the server has none at (its own allocations)."""
    servers = [pid for pid, role in processes.items() if role == server]
    if not servers:
        return
    reference = placed(servers[0])
    pages = {pid: placed(pid) for pid in processes}
    sharers: collections.Counter[int] = collections.Counter()
    for table in pages.values():
        sharers.update({frame for frame, _ in table.values()})
    mib = PAGE / 2**20
    print(f"  the pages each holds alone, against the {server}'s at the same address:")
    for pid, role in processes.items():
        if role == server:
            continue
        kinds: collections.Counter[tuple[str, str]] = collections.Counter()
        seen: set[int] = set()  # (a file mapped more than once: its pages counted once)
        for address, (frame, kind) in pages[pid].items():
            if sharers[frame] > 1 or frame in seen:
                continue
            seen.add(frame)
            there = reference.get(address)
            kinds["copied" if there is not None else "own", kind] += 1
        copies = sum(n for (what, _), n in kinds.items() if what == "copied")
        own = sum(n for (what, _), n in kinds.items() if what == "own")
        top = ", ".join(f"{w} {k} {n * mib:.1f}" for (w, k), n in kinds.most_common(3))
        print(
            f"    {role}: {copies * mib:.1f} MiB copies of the server's pages, "
            f"{own * mib:.1f} MiB its own ({top})"
        )


def main(argv: list[str]) -> int:
    processes = {int(pid): role for pid, _, role in (a.partition("=") for a in argv)}
    report(processes)
    copied(processes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
