"""The PostgreSQL test server's own rules: no server is a failure in CI, a skip elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import pg


def broken_script(tmp_path: Path) -> Path:
    script = tmp_path / "pg.sh"
    script.write_text("echo 'initdb: cannot be run as root' >&2; exit 1\n")
    return script


def test_no_server_fails_in_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg, "SCRIPT", broken_script(tmp_path))
    monkeypatch.delenv("SORTIE_TEST_PG_URL", raising=False)
    monkeypatch.setenv("CI", "true")
    server = pg.Server()
    with pytest.raises(pytest.fail.Exception, match=r"required in CI.*cannot be run as root"):
        server.get()
    with pytest.raises(pytest.fail.Exception, match="cannot be run as root"):
        server.get()


def test_no_server_skips_on_a_developer_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg, "SCRIPT", broken_script(tmp_path))
    monkeypatch.delenv("SORTIE_TEST_PG_URL", raising=False)
    monkeypatch.delenv("CI", raising=False)
    server = pg.Server()
    with pytest.raises(pytest.skip.Exception, match="cannot be run as root"):
        server.get()
    with pytest.raises(pytest.skip.Exception):
        server.get()  # remembered: the script is not run again for every test
