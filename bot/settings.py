"""Settings read from the environment and ``.env`` (pydantic-settings).

An invalid value stops the program at start with one line naming the setting and what
it accepts; ``load_settings`` turns pydantic's report into that line.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import parse_qsl, urlsplit

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOCALES = ("en", "fr")


class SettingsError(Exception):
    """A setting has a value the bot cannot use; the message is meant for the operator."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", description="Bot token (developer portal)")
    database_url: str = Field(default="sqlite:///data/sortie.db")
    dev_guild_id: int | None = Field(default=None)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    default_locale: Literal["en", "fr"] = "en"
    # Sharding (see deploy/README.md). Both empty: one process, one gateway connection.
    # SHARD_COUNT alone: this process runs every shard 0..COUNT-1. With SHARD_IDS too: only
    # those, the other ids being run by other processes on the same database.
    shard_count: int | None = Field(default=None)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(default=None)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("default_locale", mode="before")
    @classmethod
    def _lower_locale(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("dev_guild_id", "shard_count", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # "DEV_GUILD_ID=" left empty in .env means not set, not a number that fails to parse.
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("dev_guild_id")
    @classmethod
    def _positive_guild(cls, value: int | None) -> int | None:
        # Discord ids are positive 64-bit numbers; -5 or 0 would only fail later, at sync.
        if value is not None and not 0 < value < 2**64:
            raise ValueError("a server id is a positive number")
        return value

    @field_validator("shard_count")
    @classmethod
    def _positive_count(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise ValueError("a shard count is at least 1")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _id_list(cls, value: object) -> object:
        # Written in .env as a comma list ("0,1"), not as JSON; pydantic checks the ints.
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",")]
            if not any(parts):
                return None
            if not all(parts):
                raise ValueError("an empty item in the list")
            return tuple(parts)
        return value

    @field_validator("shard_ids")
    @classmethod
    def _ids_within_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None:
            return None
        if "shard_count" not in info.data:
            raise ValueError("SHARD_COUNT is invalid too")
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the total number of shards")
        outside = [shard for shard in value if not 0 <= shard < count]
        if outside:
            raise ValueError(f"shard ids run from 0 to {count - 1} with SHARD_COUNT={count}")
        if len(set(value)) != len(value):
            raise ValueError("a shard id is listed twice")
        return tuple(sorted(value))

    @field_validator("database_url")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        if not value.startswith(("sqlite:///", "postgresql://", "postgres://")):
            raise ValueError("sqlite:///PATH or postgresql://… are supported")
        return value

    @field_validator("database_url")
    @classmethod
    def _names_a_server(cls, value: str) -> str:
        """A PostgreSQL URL must say where the server is: ``postgres://`` alone would try
        some default socket and fail later, at the first connection, with a traceback."""
        if not value.startswith(("postgresql://", "postgres://")):
            return value
        parts = urlsplit(value)
        try:
            parts.port  # noqa: B018 (read for its check: a port that is not a number)
        except ValueError:
            raise ValueError("the port after the host is not a number") from None
        if not parts.hostname and "host" not in dict(parse_qsl(parts.query)):
            raise ValueError("the URL names no server (postgresql://user:password@host/database)")
        return value

    @field_validator("database_url")
    @classmethod
    def _usable_sqlite_file(cls, value: str) -> str:
        """Refuse at start what would otherwise fail later, or worse, silently lose data."""
        if not value.startswith("sqlite:///"):
            return value  # another backend checks its own URL
        problem = sqlite_path_problem(value.removeprefix("sqlite:///"))
        if problem is not None:
            raise ValueError(problem)
        return value

    @property
    def database_path(self) -> Path:
        """The SQLite file named by ``DATABASE_URL``; its folder is created on first use."""
        return Path(self.database_url.removeprefix("sqlite:///"))

    @property
    def uses_postgres(self) -> bool:
        return self.database_url.startswith(("postgresql://", "postgres://"))

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def shard_kwargs(self) -> dict[str, Any]:
        """What discord.py's ``AutoShardedBot`` is given; empty for an unsharded bot."""
        if self.shard_count is None:
            return {}
        ids = list(self.shard_ids) if self.shard_ids is not None else None
        return {"shard_count": self.shard_count, "shard_ids": ids}

    @property
    def logging_level(self) -> int:
        return int(getattr(logging, self.log_level))


SQLITE_HEADER = b"SQLite format 3\x00"


def sqlite_path_problem(raw: str) -> str | None:
    """Why ``raw`` cannot hold the campaigns, or None. A missing file is fine: it is created."""
    if not raw.strip():
        return "the path after sqlite:/// is empty"
    if ":memory:" in raw or "mode=memory" in raw:
        # SQLite would keep such a database in memory: every campaign gone at restart.
        return "an in-memory database loses every campaign when the bot restarts"
    if raw.startswith("file:"):
        return "write a plain file path after sqlite:///, not a file: URI"
    path = Path(raw)
    for folder in reversed(path.parents):
        if folder.exists() and not folder.is_dir():
            return f"{folder} is a file, so it cannot hold the database"
    if path.is_dir():
        return f"{path} is a folder, not a database file"
    if path.exists():
        if not path.is_file():
            return f"{path} is not a regular file"
        try:
            with path.open("rb") as handle:
                header = handle.read(len(SQLITE_HEADER))
        except OSError as exc:
            return f"{path} cannot be read ({exc.strerror or exc})"
        # An empty file is a new database to SQLite; anything else must carry its header.
        if header and header != SQLITE_HEADER:
            return f"{path} is not an SQLite database"
    return None


def _env_file_problem(env_file: Path) -> str:
    """The line of ``.env`` that is not UTF-8, named by its setting when it has one."""
    try:
        data = env_file.read_bytes()
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_number = data[: exc.start].count(b"\n") + 1
        line = data.splitlines()[line_number - 1] if data else b""
        name = line.split(b"=", 1)[0].strip().decode("ascii", "replace") if b"=" in line else ""
        which = f"line {line_number}" + (f" ({name})" if name else "")
        return f"The settings file {env_file} is not UTF-8 text at {which}: save it as UTF-8."
    except OSError:
        pass
    return f"The settings file {env_file} is not UTF-8 text: save it as UTF-8."


_ACCEPTED = {
    "log_level": "one of " + ", ".join(LOG_LEVELS),
    "default_locale": "one of " + ", ".join(LOCALES),
    "dev_guild_id": "a Discord server id (positive digits) or empty",
    "database_url": "sqlite:///path/to/file.db or postgresql://user@host/db",
    "shard_count": "the total number of shards (a number >= 1) or empty",
    "shard_ids": "this process's shard ids as a comma list (e.g. 0,1) or empty",
}


def load_settings(**overrides: object) -> Settings:
    """Read the settings, or raise ``SettingsError`` with one readable line."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except UnicodeDecodeError:
        env_file = Path(str(Settings.model_config.get("env_file") or ".env"))
        raise SettingsError(_env_file_problem(env_file)) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "?"
        accepted = _ACCEPTED.get(field, first["msg"])
        # A validator's own words say what is wrong with this value; keep them.
        error = first.get("ctx", {}).get("error") if first["type"] == "value_error" else None
        why = f"{error}; " if error is not None else ""
        given = first.get("input")
        if field == "database_url" and isinstance(given, str):
            from db.backend import redact

            given = redact(given)  # a PostgreSQL URL may hold a password
        raise SettingsError(
            f"Invalid setting {field.upper()}={given!r}: {why}expected {accepted}."
        ) from None
