"""Settings read from the environment and ``.env`` (pydantic-settings).

An invalid value stops the program at start with one line naming the setting and what
it accepts; ``load_settings`` turns pydantic's report into that line.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

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

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("default_locale", mode="before")
    @classmethod
    def _lower_locale(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_guild(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("database_url")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        if not value.startswith(("sqlite:///", "postgresql://", "postgres://")):
            raise ValueError("sqlite:///PATH or postgresql://… are supported")
        return value

    @property
    def database_path(self) -> Path:
        """The SQLite file named by ``DATABASE_URL``; its folder is created on first use."""
        return Path(self.database_url.removeprefix("sqlite:///"))

    @property
    def uses_postgres(self) -> bool:
        return self.database_url.startswith(("postgresql://", "postgres://"))

    @property
    def logging_level(self) -> int:
        return int(getattr(logging, self.log_level))


_ACCEPTED = {
    "log_level": "one of " + ", ".join(LOG_LEVELS),
    "default_locale": "one of " + ", ".join(LOCALES),
    "dev_guild_id": "a Discord server id (digits) or empty",
    "database_url": "sqlite:///path/to/file.db or postgresql://user@host/db",
}


def load_settings(**overrides: object) -> Settings:
    """Read the settings, or raise ``SettingsError`` with one readable line."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "?"
        accepted = _ACCEPTED.get(field, first["msg"])
        raise SettingsError(
            f"Invalid setting {field.upper()}={first.get('input')!r}: expected {accepted}."
        ) from None
