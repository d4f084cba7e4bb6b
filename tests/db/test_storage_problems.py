"""Every storage problem stops every command with one line and a non-zero exit (issue 30,
items 3 and 5): a PostgreSQL server that refuses, is unknown, wants another password,
lacks the database or the rights; a URL naming no server; another application's database.
``run`` opens its database before logging in to Discord, and says in one line when it
cannot reach Discord. Never a traceback, never a CRITICAL line.
"""

from __future__ import annotations

import hashlib
import logging
import socket
import socketserver
import sqlite3
import struct
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import discord
import pytest

from bot.__main__ import main_or_stop
from tests.pg import run_sql, with_schema

COMMANDS = (["migrate"], ["backup", "copy.db"], ["migrate-data", "@", "sqlite:///copy.db"], ["run"])
IDS = ["migrate", "backup", "migrate-data", "run"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _argv(command: list[str], url: str) -> list[str]:
    return [url if part == "@" else part for part in command]


def _one_line(
    argv: list[str], caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    code = main_or_stop(argv)
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert "Traceback" not in output
    assert not [r for r in caplog.records if r.levelno >= logging.CRITICAL], caplog.text
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    return code, lines[0]


@pytest.fixture
def never_login(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Discord's login, recorded: ``run`` must not get there with an unusable database."""
    calls: list[str] = []

    async def login(self: Any, token: str) -> dict[str, Any]:
        calls.append(token)
        raise discord.LoginFailure("the test stops here")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "token-for-the-test")
    return calls


def _server_url(pg_url: str, *, user: str | None = None, database: str | None = None) -> str:
    parts = urlsplit(pg_url)
    netloc = parts.netloc if user is None else f"{user}@{parts.hostname}:{parts.port}"
    path = parts.path if database is None else f"/{database}"
    return urlunsplit(parts._replace(netloc=netloc, path=path))


# A command run on a database URL, checked to stop saying why: (url, command, words) -> code.
Refused = Callable[[str, list[str], str], int]


@pytest.fixture
def refused(
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    never_login: list[str],
) -> Refused:
    """Runs a command on a database URL and checks it stops, saying ``words`` in one line
    that keeps the password out, and never logs in to Discord; its exit code."""

    def check(url: str, command: list[str], words: str) -> int:
        if command[0] == "migrate-data":
            argv = _argv(command, url)
        else:
            monkeypatch.setenv("DATABASE_URL", url)
            argv = command
        code, line = _one_line(argv, caplog, capsys)
        assert code != 0
        assert words in line, line
        assert "secret-password" not in line
        assert never_login == []
        return code

    return check


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_a_server_that_refuses_the_connection(
    command: list[str],
    refused: Refused,
) -> None:
    url = f"postgresql://sortie:secret-password@127.0.0.1:{_free_port()}/sortie"
    refused(url, command, "connection refused")


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_an_unknown_host(
    command: list[str],
    refused: Refused,
) -> None:
    url = "postgresql://sortie:secret-password@no-such-host.invalid/sortie"
    refused(url, command, "unknown host no-such-host.invalid")


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_a_database_that_does_not_exist(
    command: list[str],
    pg_url: str,
    refused: Refused,
) -> None:
    url = _server_url(pg_url, database="no_such_database")
    refused(url, command, "there is no database no_such_database")


@pytest.fixture
def weak_user(pg_server: Any) -> Iterator[tuple[str, str]]:
    """A user who may use a schema but not create tables in it; the URL and the schema."""
    server = pg_server.get()
    name = f"weak_{uuid.uuid4().hex[:12]}"
    run_sql(
        server,
        f"CREATE ROLE {name} LOGIN; CREATE SCHEMA {name}; GRANT USAGE ON SCHEMA {name} TO {name}",
    )
    try:
        yield with_schema(_server_url(server, user=name), name), name
    finally:
        run_sql(server, f"DROP SCHEMA {name} CASCADE; DROP ROLE {name}")


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_a_user_without_the_rights_on_the_schema(
    command: list[str],
    weak_user: tuple[str, str],
    refused: Refused,
) -> None:
    url, name = weak_user
    words = f"user {name} may not create or use Sortie's tables"
    if command[0] == "backup":  # a backup only reads: the schema is simply not Sortie's
        words = f"schema {name} holds no Sortie tables"
    refused(url, command, words)


class _RefusesThePassword(socketserver.BaseRequestHandler):
    """PostgreSQL's answer to a wrong password, on the wire: no TLS, then FATAL 28P01."""

    def handle(self) -> None:
        length, code = struct.unpack("!ii", self.request.recv(8))
        if code == 80877103:  # an SSLRequest: "no TLS here", then the startup message
            self.request.sendall(b"N")
            (length,) = struct.unpack("!i", self.request.recv(4))
            self.request.recv(length - 4)
        else:
            self.request.recv(length - 8)
        fields = b'SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed for user "sortie"\0\0'
        self.request.sendall(b"E" + struct.pack("!i", len(fields) + 4) + fields)


@pytest.fixture
def password_server() -> Iterator[int]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _RefusesThePassword)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_a_wrong_password(
    command: list[str],
    password_server: int,
    refused: Refused,
) -> None:
    url = f"postgresql://sortie:secret-password@127.0.0.1:{password_server}/sortie"
    refused(url, command, "refused the password of user sortie")


@pytest.mark.parametrize("url", ["postgres://", "postgresql://sortie:secret-password@/sortie"])
@pytest.mark.parametrize(
    "command", [["migrate"], ["backup", "copy.db"], ["run"]], ids=IDS[:2] + IDS[3:]
)
def test_a_url_that_names_no_server(
    url: str,
    command: list[str],
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    never_login: list[str],
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    code, line = _one_line(command, caplog, capsys)
    assert code == 2 and "names no server" in line and "secret-password" not in line, line
    assert never_login == []


def _foreign(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('my shopping list')")
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "command",
    [
        ["migrate"],
        ["run"],
        ["migrate-data", "sqlite:///sortie.db", "@"],
        ["migrate-data", "@", "sqlite:///copy.db"],
    ],
    ids=["migrate", "run", "migrate-data-target", "migrate-data-source"],
)
def test_another_applications_sqlite_file_is_not_adopted(
    command: list[str],
    tmp_path: Path,
    refused: Refused,
) -> None:
    foreign = tmp_path / "notes.db"
    before = _foreign(foreign)
    assert refused(f"sqlite:///{foreign}", command, "not Sortie's (notes)") == 2
    assert hashlib.sha256(foreign.read_bytes()).hexdigest() == before
    with sqlite3.connect(foreign) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert names == {"notes"}


def test_another_applications_postgresql_schema_is_not_adopted(
    pg_url: str,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run_sql(pg_url, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    monkeypatch.setenv("DATABASE_URL", pg_url)
    code, line = _one_line(["migrate"], caplog, capsys)
    assert code == 2 and "not Sortie's (invoices)" in line, line


def test_no_network_at_start_is_one_line(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def offline(self: Any, token: str) -> dict[str, Any]:
        raise aiohttp.ClientConnectionError("Cannot connect to host discord.com:443 ssl:default")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", offline)
    monkeypatch.setenv("DISCORD_TOKEN", "token-for-the-test")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'sortie.db'}")
    code, line = _one_line(["run"], caplog, capsys)
    assert code == 1 and line.startswith("Cannot reach Discord") and "network" in line, line
