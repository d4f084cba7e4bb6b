"""A benchmark phase that fails still closes the repositories it opened.

An open repository's connection thread is not a daemon: a bench run that fails half-way
would otherwise keep its file open until ``db.thread_exit`` steps in at the very end.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from bench import service
from db import thread_exit


class PhaseFault(Exception):
    pass


async def _fails(*args: Any, **kwargs: Any) -> Any:
    raise PhaseFault


@pytest.mark.parametrize("phase", ["load", "tick", "storage"])
async def test_a_failing_phase_leaves_no_repository_open(
    phase: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "create_actors", _fails)
    args = argparse.Namespace(campaigns=2, tick_campaigns=2, storage_campaigns=2)
    with pytest.raises(PhaseFault) as failure:
        await getattr(service, phase)(args, str(tmp_path))
    # The traceback holds the phase's frames, and with them the repository, were it open.
    assert failure.value.__traceback__ is not None
    assert list(thread_exit._open) == []
