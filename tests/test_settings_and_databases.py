"""Bad settings and damaged or foreign databases stop a command with one line naming them;
``check`` reports SQLite's integrity check; a failed backup leaves no file behind."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from db.migrate import SchemaTooNewError
from db.sqlite import SqliteRepository


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _one_line(output: str) -> str:
    assert "Traceback" not in output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    return lines[0]


def _database(path: Path) -> Path:
    """A migrated, healthy campaign database."""

    async def make() -> None:
        repo = await SqliteRepository.open(path)
        await repo.close()

    asyncio.run(make())
    return path


def _damage(path: Path) -> None:
    """Garbage over one b-tree page, as a failing disk or a bad copy would leave."""
    with sqlite3.connect(path) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with path.open("r+b") as handle:
        handle.seek(page * 3)
        handle.write(b"\xde\xad\xbe\xef" * (page // 4))


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("sqlite:///", "path after sqlite:/// is empty"),
        ("sqlite:///   ", "path after sqlite:/// is empty"),
        ("sqlite:///:memory:", "every campaign"),
        ("sqlite:///file::memory:?cache=shared", "every campaign"),
        ("sqlite:///{tmp}", "is a folder"),
        ("sqlite:///{tmp}/notes.txt", "is not an SQLite database"),
        ("sqlite:///{tmp}/notes.txt/sortie.db", "is a file, so it cannot hold"),
    ],
    ids=["empty", "blank", "memory", "memory-uri", "directory", "text-file", "under-a-file"],
)
@pytest.mark.parametrize("command", ["migrate", "backup", "check", "run"])
def test_bad_database_url_is_one_line_naming_it(
    url: str,
    words: str,
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n")
    monkeypatch.setenv("DATABASE_URL", url.format(tmp=tmp_path))
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    argv = [command, str(tmp_path / "b.db")] if command == "backup" else [command]
    code, output = _run(argv, capsys)
    line = _one_line(output)
    assert code == 2
    assert line.startswith("Invalid setting DATABASE_URL=") and words in line, line
    assert (tmp_path / "notes.txt").read_text() == "not a database\n"  # nothing changed


def test_a_new_database_path_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty.db").write_bytes(b"")  # SQLite reads an empty file as a new database
    for name in ("fresh/sortie.db", "empty.db"):
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / name}")
        code, output = _run(["migrate"], capsys)
        assert code == 0, output


@pytest.mark.parametrize("value", ["-5", "0", "99999999999999999999999"])
def test_dev_guild_id_must_be_a_positive_id(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DEV_GUILD_ID", value)
    code, output = _run(["verify", "x.json"], capsys)
    line = _one_line(output)
    assert code == 2 and line.startswith("Invalid setting DEV_GUILD_ID="), line


def test_env_file_that_is_not_utf8_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".env").write_bytes(b"DISCORD_TOKEN=abc\nLOG_LEVEL=\xff\xfe debug\n")
    code, output = _run(["verify", "x.json"], capsys)
    line = _one_line(output)
    assert code == 2
    assert ".env" in line and "line 2 (LOG_LEVEL)" in line and "UTF-8" in line, line


def _refused_at_start(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """``migrate`` and ``run`` on this database: each exits 2 with one line naming
    DATABASE_URL; those lines, for the test to say what they must add."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    lines = []
    for command in ("migrate", "run"):
        code, output = _run([command], capsys)
        line = _one_line(output)
        assert code == 2 and "DATABASE_URL" in line, line
        lines.append(line)
    return lines


def test_database_from_a_newer_release_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _database(tmp_path / "sortie.db")
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', 0)")
    before = database.read_bytes()
    for line in _refused_at_start(database, monkeypatch, capsys):
        assert "schema version 99" in line and "newer than this release" in line, line

    async def open_it() -> None:
        await SqliteRepository.open(database)

    with pytest.raises(SchemaTooNewError):
        asyncio.run(open_it())
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    assert rows[0] == 99 and database.read_bytes()[:100] == before[:100]


def test_check_command_reports_ok_or_the_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _database(tmp_path / "sortie.db")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    for argv in (["check"], ["check", "--quick"]):
        code, output = _run(argv, capsys)
        assert code == 0 and _one_line(output).startswith("OK:"), output
    _damage(database)
    for argv in (["check"], ["check", "--quick"]):
        code, output = _run(argv, capsys)
        assert code == 1 and output.startswith("DAMAGED:"), output
        assert "Traceback" not in output
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'none.db'}")
    code, output = _run(["check"], capsys)
    assert code == 2 and "no database" in _one_line(output)
    assert not (tmp_path / "none.db").exists()  # checking never creates a database


def test_damaged_database_is_refused_at_start_and_by_migrate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _database(tmp_path / "sortie.db")
    _damage(database)
    for line in _refused_at_start(database, monkeypatch, capsys):
        assert "damaged" in line, line


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_backup_of_a_damaged_database_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _database(tmp_path / "sortie.db")
    _damage(database)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    out = tmp_path / "backups"
    out.mkdir()
    (out / "b.db").write_bytes(b"the previous backup")
    code, output = _run(["backup", str(out / "b.db")], capsys)
    assert code == 1 and "Traceback" not in output
    assert _leftovers(out) == []
    assert (out / "b.db").read_bytes() == b"the previous backup"  # not replaced


def test_backup_failing_at_the_rename_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import db.backup

    database = _database(tmp_path / "sortie.db")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")

    def disk_full(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(db.backup.os, "replace", disk_full)
    code, output = _run(["backup", str(tmp_path / "b.db")], capsys)
    assert code == 1 and "No space left" in _one_line(output)
    assert _leftovers(tmp_path) == [] and not (tmp_path / "b.db").exists()


def test_repository_backup_failing_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import db.backup

    def broken(path: Path) -> None:
        raise db.backup.BackupError("the copy fails its integrity check: page 3")

    monkeypatch.setattr(db.backup, "_check_and_describe", broken)

    async def attempt() -> None:
        repo = await SqliteRepository.open(tmp_path / "sortie.db")
        try:
            await repo.backup(tmp_path / "copy" / "b.db")
        finally:
            await repo.close()

    with pytest.raises(db.backup.BackupError):
        asyncio.run(attempt())
    assert _leftovers(tmp_path / "copy") == []


def test_backup_to_a_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = _database(tmp_path / "sortie.db")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    (tmp_path / "folder").mkdir()
    code, output = _run(["backup", str(tmp_path / "folder")], capsys)
    assert code == 1 and "is a folder" in _one_line(output)
