"""Choosing the backend: one function from ``DATABASE_URL`` (or a plain path) to a repository.

``sqlite:///PATH`` (or a bare path, as the tests and the demo pass) opens ``db.sqlite``;
``postgresql://…`` / ``postgres://…`` opens ``db.postgres``. Everything that opens the
campaign store goes through ``open_repository``, so adding a backend is one branch here.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from db.repository import Repository

SQLITE_PREFIX = "sqlite:///"


def is_postgres(url: str | Path) -> bool:
    return isinstance(url, str) and url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str | Path) -> Path:
    """The file of a ``sqlite:///PATH`` URL (``sqlite:////abs`` is absolute) or a bare path."""
    if isinstance(url, Path):
        return url
    return Path(url.removeprefix(SQLITE_PREFIX))


async def open_repository(
    url: str | Path, *, migrate_to_latest: bool = True, now: datetime | None = None
) -> Repository:
    """Open the campaign store named by ``url``, applying pending migrations by default."""
    if is_postgres(url):
        from db.postgres import PostgresRepository

        return await PostgresRepository.open(str(url), migrate_to_latest=migrate_to_latest, now=now)
    from db.sqlite import SqliteRepository

    return await SqliteRepository.open(
        sqlite_path(url), migrate_to_latest=migrate_to_latest, now=now
    )


def redact(url: str | Path) -> str:
    """The URL without its password, for messages and logs (whatever else is wrong with it)."""
    text = str(url)
    if not is_postgres(text):
        return text
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(text)
    if "password=" in parts.query:
        pairs = [
            f"{name}={'***' if name == 'password' else value}"
            for name, _, value in (pair.partition("=") for pair in parts.query.split("&"))
        ]
        parts = parts._replace(query="&".join(pairs))
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if at and ":" in userinfo:
        user = userinfo.partition(":")[0]
        parts = parts._replace(netloc=f"{user}:***@{hostport}")
    return urlunsplit(parts)
