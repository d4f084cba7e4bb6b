"""What stops Sortie reaching or using a PostgreSQL server, said in one line.

asyncpg and the network raise a dozen kinds of error at connection (refused, unknown host,
wrong password, no such database, no right to create tables, a timeout); each becomes one
``StorageError`` naming the server, the user and the database, never the password, with a
key the command line says in the operator's language (``service.storage.<key>``).
"""

from __future__ import annotations

import socket
from urllib.parse import parse_qsl, unquote, urlsplit

import asyncpg

from db.repository import StorageError

# How long a connection attempt may take before the server counts as unreachable: long
# enough for a loaded server, short enough that a wrong host is said at once.
CONNECT_SECONDS = 15


def connection_problem(exc: BaseException, url: str) -> StorageError:
    """What stopped Sortie reaching or using the server, as one line that names the server,
    the user and the database but never the password."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    try:
        port = parts.port or int(query.get("port", 5432))
    except ValueError:
        port = 5432
    host = parts.hostname or query.get("host") or "the local socket"
    server = f"{host}:{port}"
    user = unquote(parts.username or query.get("user") or "") or "(default)"
    database = unquote(parts.path.lstrip("/")) or query.get("dbname") or user
    text = " ".join(str(exc).split())[:200]
    words = {"server": server, "host": host, "user": user, "database": database, "why": text}

    def said(key: str, message: str) -> StorageError:
        return StorageError(message, key=key, **words)

    if isinstance(exc, asyncpg.InvalidPasswordError):
        return said("password", f"the server at {server} refused the password of user {user}")
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        return said("user", f"the server at {server} refused user {user}: {text}")
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return said(
            "no-database",
            f"there is no database {database} on {server}: create it first (createdb {database})",
        )
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return said(
            "rights",
            f"user {user} may not create or use Sortie's tables in database {database} ({text}):"
            " grant it CREATE on the schema, or give Sortie a schema of its own"
            " (?search_path=sortie)",
        )
    if isinstance(exc, asyncpg.PostgresError):
        return said("refused", f"the server at {server} refused: {text}")
    if isinstance(exc, socket.gaierror):
        return said("unknown-host", f"unknown host {host}: check the host name in the URL")
    if isinstance(exc, TimeoutError):
        return said("timeout", f"the server at {server} did not answer within {CONNECT_SECONDS} s")
    if isinstance(exc, OSError):
        lowered = text.lower()
        if (
            isinstance(exc, ConnectionRefusedError)
            or "refused" in lowered
            or ("connect call failed" in lowered)
        ):
            return said(
                "connection-refused",
                f"nothing answers at {server} (connection refused): is PostgreSQL running there?",
            )
        return said("unreachable", f"cannot reach the server at {server}: {text}")
    return said("unreachable", f"cannot connect to {server}: {type(exc).__name__}: {text}")
