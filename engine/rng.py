"""Every random draw derives from (campaign seed, turn, round, purpose).

A ``random.Random`` seeded from a SHA-256 of those four parts: the same campaign replays
card for card, and one purpose's draws never shift another's, so adding a draw in one
place cannot change the cards seen elsewhere.
"""

from __future__ import annotations

import hashlib
import random


class Rng:
    """The randomness handed to ``resolve``: a factory of independent, named streams."""

    def __init__(self, seed: str, turn: int, round_name: str) -> None:
        self.seed = seed
        self.turn = turn
        self.round_name = round_name

    def stream(self, purpose: str) -> random.Random:
        material = f"{self.seed}|{self.turn}|{self.round_name}|{purpose}".encode()
        return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:16], "big"))


def seed_commitment(seed: str) -> str:
    """The hash published at campaign creation; the seed itself is revealed at the end."""
    return hashlib.sha256(f"sortie-seed|{seed}".encode()).hexdigest()
