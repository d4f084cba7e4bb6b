"""The bot (or a small program of ours) in a child process, as an operator runs it.

Shared by the tests of how the process ends (tests/test_cli_exit.py,
tests/test_graceful_stop_signals.py, tests/test_odds_exit.py): each runs this checkout
with Discord answered without the network and its database under the test's folder.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Exiting takes about a second; the rest is room for a machine busy with other work.
PROMPTLY = 30.0


def operator_signals() -> None:
    """Run in the child before it starts: SIGINT, SIGHUP and SIGTERM as an operator's
    terminal or service manager delivers them. A test run launched in the background or
    under nohup hands its children SIGINT and SIGHUP ignored, and the bot rightly keeps a
    signal its parent ignored (nohup's promise); these tests are about the signals sent."""
    for name in ("SIGINT", "SIGHUP", "SIGTERM"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)


def child_environment(tmp_path: Path, **more: str) -> dict[str, str]:
    """The child's environment: this checkout first, a token Discord is never asked about,
    and a database of its own in ``tmp_path``."""
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),  # this checkout, not another installed copy
        "DISCORD_TOKEN": "not-a-real-token",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'data' / 'sortie.db'}",
        **more,
    }
