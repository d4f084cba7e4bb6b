"""Shard settings: read from the environment as an operator writes them, refused at start
with one line when they cannot work, and handed to discord.py's sharded bot as given."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.__main__ import main
from bot.client import ShardedSortieBot, SortieBot, build_bot
from bot.settings import load_settings


@pytest.fixture(autouse=True)
def _no_env_file(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    # The developer's own .env must not leak in; each test sets what it needs.
    monkeypatch.chdir(str(tmp_path))
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def test_no_shard_settings_is_one_unsharded_process() -> None:
    settings = load_settings()
    assert settings.shard_count is None and settings.shard_ids is None
    bot = build_bot(settings)
    assert type(bot) is SortieBot
    assert not isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count is None


def test_shard_ids_are_a_comma_list_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SHARD_COUNT", "6")
    monkeypatch.setenv("SHARD_IDS", " 4, 1 ,2")
    settings = load_settings()
    assert settings.shard_ids == (1, 2, 4)
    bot = build_bot(settings)
    assert isinstance(bot, ShardedSortieBot)
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 6 and bot.shard_ids == [1, 2, 4]
    # Not shard 0: another process pushes the command list.
    assert bot.syncs_commands is False


def test_a_count_alone_runs_every_shard_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "3")
    monkeypatch.setenv("SHARD_IDS", "")
    bot = build_bot(load_settings())
    assert isinstance(bot, ShardedSortieBot)
    assert bot.shard_count == 3 and bot.shard_ids is None
    assert bot.syncs_commands is True


def test_the_sharded_bot_keeps_sortie_behaviour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "0")
    bot = build_bot(load_settings())
    # The same intents, mentions policy and error handler as the unsharded bot.
    assert bot.intents.value == SortieBot().intents.value
    assert bot.allowed_mentions is not None and bot.allowed_mentions.everyone is False
    assert bot.tree.on_error == bot.on_app_command_error
    assert bot.syncs_commands is True


@pytest.mark.parametrize(("ids", "syncs"), [("1", False), ("0,1", True)])
def test_only_the_process_with_shard_0_syncs_commands(ids: str, syncs: bool) -> None:
    bot = ShardedSortieBot(cogs=(), shard_count=2, shard_ids=[int(x) for x in ids.split(",")])
    calls: list[object] = []

    async def fake_sync(**kwargs: object) -> list[object]:
        calls.append(kwargs)
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    asyncio.run(bot.setup_hook())
    assert (len(calls) == 1) is syncs


@pytest.mark.parametrize(
    ("env", "setting", "words"),
    [
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS", "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS", "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "SHARD_IDS", "from 0 to 1"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,1"}, "SHARD_IDS", "listed twice"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "one"}, "SHARD_IDS", "comma list"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,,2"}, "SHARD_IDS", "empty item"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT", "at least 1"),
        ({"SHARD_COUNT": "many"}, "SHARD_COUNT", "number >= 1"),
    ],
)
def test_unusable_shard_settings_stop_the_bot_with_one_line(
    env: dict[str, str],
    setting: str,
    words: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main(["run"])
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).strip().splitlines()
    assert code == 2
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"Invalid setting {setting}=")
    assert words in lines[0]
