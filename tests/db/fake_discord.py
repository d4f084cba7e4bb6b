"""A stand-in for Discord's message API, shared by several bot processes through files.

What the kill test counts is what players would see: messages *created* in a channel or
DM. Like Discord with ``enforce_nonce`` (what ``bot/discord_sender.py`` asks for), a
post that repeats the nonce of a message created less than ``window`` seconds earlier
gets that message back and creates nothing; a repeat after the window creates a second
message, which the test then counts as a duplicate. Discord does not publish the exact
window ("the past few minutes"); the test passes its own and reports the longest gap it
saw between a row's first hand-over and a repeat, so the margin is visible.

Two files: ``handovers`` has a line for every call of ``send`` (written before the post,
so a process killed mid-post still leaves it: this is the at-least-once count), and
``posts`` a line per created message. Both are appended under an exclusive ``flock`` of
``posts``, so processes never interleave and a nonce is looked up and recorded at once.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.announce import Announcement
from bot.outbox import Target

FIRST_MESSAGE_ID = 9_000_000


@dataclass(frozen=True)
class Post:
    message_id: int
    nonce: str
    pid: int
    destination: str
    at: int  # the senders' clock, UNIX seconds
    text: str


class FakeDiscord:
    def __init__(self, folder: Path, now: Callable[[], int], *, window: int) -> None:
        self.posts_path = folder / "posts"
        self.handovers_path = folder / "handovers"
        self.now = now
        self.window = window
        self._fd = os.open(self.posts_path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        self._handovers = os.open(
            self.handovers_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644
        )
        self._offset = 0
        self._count = 0
        self._by_nonce: dict[str, Post] = {}

    def _catch_up(self) -> None:
        """Read the posts other processes made since the last look (under the lock)."""
        size = os.fstat(self._fd).st_size
        if size == self._offset:
            return
        data = os.pread(self._fd, size - self._offset, self._offset)
        self._offset = size
        for raw in data.decode().splitlines():
            post = parse_post(raw)
            self._count += 1
            self._by_nonce[post.nonce] = post  # the latest message with this nonce

    async def send(
        self, target: Target, announcement: Announcement, *, edit_message_id: int | None
    ) -> int | None:
        await asyncio.sleep(0.002)  # the network: other processes get their turn
        nonce = f"sortie-{target.outbox_id}"
        destination = f"{target.kind}:{target.id}"
        now = self.now()
        os.write(self._handovers, f"{os.getpid()} {nonce} {destination} {now}\n".encode())
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            self._catch_up()
            seen = self._by_nonce.get(nonce)
            if seen is not None and now - seen.at <= self.window:
                return seen.message_id  # Discord answers with the message it already made
            message_id = FIRST_MESSAGE_ID + self._count
            text = announcement.text.replace("\n", " ")
            line = f"{message_id} {nonce} {os.getpid()} {destination} {now} {text}\n"
            os.write(self._fd, line.encode())
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        return message_id


def parse_post(raw: str) -> Post:
    message_id, nonce, pid, destination, at, text = raw.split(" ", 5)
    return Post(int(message_id), nonce, int(pid), destination, int(at), text)


def read_posts(folder: Path) -> list[Post]:
    path = folder / "posts"
    return [parse_post(raw) for raw in path.read_text().splitlines()] if path.exists() else []


def read_handovers(folder: Path) -> list[tuple[int, str, str, int]]:
    path = folder / "handovers"
    if not path.exists():
        return []
    out = []
    for raw in path.read_text().splitlines():
        pid, nonce, destination, at = raw.split(" ")
        out.append((int(pid), nonce, destination, int(at)))
    return out
