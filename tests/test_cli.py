from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[1]


def test_no_token_exits_2_and_points_to_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err
    assert "python -m bot demo" in err


def test_help_lists_subcommands() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0
    for name in ("run", "demo", "verify", "migrate", "backup"):
        assert name in out.stdout


def test_invalid_setting_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert "LOG_LEVEL" in str(info.value)
    assert "DEBUG" in str(info.value)


def refused_setting(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    name: str,
    value: str,
) -> str:
    """``command`` with the setting ``name`` at ``value``: main stops with 2 and one line
    naming the setting; that line."""
    monkeypatch.setenv(name, value)
    assert main([command]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and name in err, err
    return err


def test_invalid_setting_stops_main_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "fr" in refused_setting(monkeypatch, capsys, "run", "DEFAULT_LOCALE", "de")


def test_settings_from_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=\nLOG_LEVEL=debug\n")
    s = load_settings()
    assert s.discord_token == "abc"
    assert s.dev_guild_id is None
    assert s.log_level == "DEBUG"
    assert s.database_path == Path("data/sortie.db")


def test_broken_data_file_stops_with_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.zero import loader
    from engine.zero.catalog import DataError

    def broken() -> None:
        raise DataError("aircraft.toml: entry 'A6M2': field 'undamaged.burst': not an integer")

    monkeypatch.setattr(loader, "default_catalog", broken)
    assert main(["demo"]) == 2
    err = capsys.readouterr().err
    assert "aircraft.toml" in err and "A6M2" in err and "Traceback" not in err
