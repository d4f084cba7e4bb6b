"""The ``commands.Bot`` subclass: loads the cogs, syncs commands, answers failures clearly.

Every application-command failure ends in one ephemeral sentence for the user and one log
line carrying the interaction id; a traceback never reaches a channel.

A service refusal (``ServiceError``) is not a failure: the cogs raise it and one place
answers it with its one sentence and no log line: every slash command is wrapped for it
when its cog is added (``add_cog``), and buttons and selects run through
``cogs.common.guarded``. The tree's handler (reserved for failures) words one the same way
should it ever get there.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.i18n import t
from bot.limits import clip
from bot.service_model import ServiceError

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger("sortie.client")

COGS: tuple[str, ...] = (
    "cogs.about",
    "cogs.campaign",
    "cogs.orders",
    "cogs.write",
    "cogs.steps",
    "cogs.odds",
    "cogs.status",
    "cogs.rules",
    "cogs.dice",
)
PUMP_SECONDS = 30
STOP_WAIT_SECONDS = 20  # under systemd's TimeoutStopSec (30 s in deploy/sortie@.service)


# Where a cog records the language its refusals are written in (``answer_in``).
ANSWER_LOCALE = "sortie.answer-locale"


def answer_in(interaction: discord.Interaction[Any], locale: str) -> None:
    """Refusals to this interaction are written in ``locale`` from now on: the campaign's,
    when the click was on something drawn in it (a DM panel, the campaign card), so a French
    panel answers in French whatever the client's language."""
    interaction.extras[ANSWER_LOCALE] = locale


def refusal(interaction: discord.Interaction[Any], error: ServiceError) -> str:
    """A service refusal as the one sentence it is answered with."""
    return error.message(interaction.extras.get(ANSWER_LOCALE) or interaction.locale)


def answering_refusals(
    callback: Callable[..., Coroutine[Any, Any, Any]],
) -> Callable[..., Coroutine[Any, Any, Any]]:
    """A slash command's callback whose refusals are answered, not raised: called as
    discord.py calls it, ``(cog, interaction, **options)``."""

    @functools.wraps(callback)
    async def answered(*args: Any, **options: Any) -> Any:
        try:
            return await callback(*args, **options)
        except ServiceError as error:
            interaction = args[-1]
            await send_ephemeral(interaction, refusal(interaction, error))
            return None

    return answered


class UserFacingError(app_commands.AppCommandError):
    """An error whose message is already written for the person who clicked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SortieBot(commands.Bot):
    def __init__(
        self,
        *,
        dev_guild_id: int | None = None,
        cogs: tuple[str, ...] = COGS,
        services: Any = None,
        database: str | None = None,
        default_locale: str = "en",
        **kwargs: Any,
    ) -> None:
        # No privileged intent: everything happens through interactions and DMs we send.
        intents = discord.Intents.none()
        intents.guilds = True
        # Nothing the bot sends pings anyone unless the message names who (the outbox does).
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # No message cache: the bot edits its messages by the ids it stores and reads none
        # back, and discord.py's default kept the last 1,000 messages, every one of them
        # walked by each full garbage collection (issue 29: pauses past 50 ms).
        kwargs.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **kwargs)
        self.dev_guild_id = dev_guild_id
        self.cog_names = cogs
        self.services = services
        self._database = database
        self._default_locale = default_locale
        # Firing deadlines and delivering announcements each run one at a time (a pump after
        # a Lock and the loop must not deliver a row twice), but not behind each other: a
        # wave of deadlines resolving many rounds must not hold every message back.
        self._tick_lock = asyncio.Lock()
        self._deliver_lock = asyncio.Lock()
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def add_cog(self, cog: commands.Cog, /, **kwargs: Any) -> None:
        # The cog's slash commands answer their refusals themselves (see the module's
        # docstring): the tree's error handler, and whoever watches it, sees failures only.
        for command in cog.walk_app_commands():
            if isinstance(command, app_commands.Command):
                command._callback = answering_refusals(command._callback)
        await super().add_cog(cog, **kwargs)

    async def setup_hook(self) -> None:
        from bot.translator import SortieTranslator

        if self.services is None and self._database is not None:
            from bot.clock import SystemClock
            from bot.runtime import open_services

            self.services = await open_services(
                self._database, SystemClock(), default_locale=self._default_locale
            )
        if self.services is not None:
            from bot.discord_sender import DiscordSender

            self.services.attach_sender(DiscordSender(self))
        await self.tree.set_translator(SortieTranslator())
        for name in self.cog_names:
            await self.load_extension(name)
        if self.services is not None:
            # Deadlines and undelivered announcements are rows in the database: the first
            # pump after a restart re-arms and resends whatever was pending.
            self._pump_loop.start()
            self._deliver_loop.start()
        from bot import drawing, resolver
        from bot.runtime import freeze_start_up

        if self.services is not None and drawing.in_workers():
            # The drawing processes started and their presenters built before the first
            # click, not during it (here, before the bot connects, blocking holds up nobody).
            drawing.warm_up()
            self.services.campaigns.draws_ahead = True
        if self.services is not None:
            resolver.warm_up()  # the same for the processes that resolve rounds
        freeze_start_up()
        if not self.syncs_commands:
            log.info(
                "Loaded %d cog(s) (%s); commands are synced by the process running shard 0",
                len(self.cog_names),
                ", ".join(self.cog_names),
            )
            return
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            where = f"guild {self.dev_guild_id}"
        else:
            synced = await self.tree.sync()
            where = "all servers"
        log.info(
            "Loaded %d cog(s) (%s); synced %d command(s) to %s",
            len(self.cog_names),
            ", ".join(self.cog_names),
            len(synced),
            where,
        )

    @property
    def syncs_commands(self) -> bool:
        """Whether this process pushes the command list to Discord at start.

        The list is global to the application: with several processes, only the one that
        runs shard 0 sends it, rather than every process racing to send the same list.
        """
        shard_ids = getattr(self, "shard_ids", None)
        return shard_ids is None or 0 in shard_ids

    async def pump(self) -> None:
        """Fire what is due (deadlines, reminders) and deliver queued announcements."""
        if self.services is None:
            return
        # A tick already running fires whatever is due: this pump only delivers.
        if not self._tick_lock.locked():
            await self._tick()
        await self._deliver()

    async def _tick(self) -> None:
        assert self.services is not None
        async with self._tick_lock:
            try:
                await self.services.campaigns.tick()
            except Exception:
                log.exception("Scheduler tick failed")

    async def _deliver(self) -> None:
        if self.services is None or self.services.outbox is None:
            return
        async with self._deliver_lock:
            try:
                # A second pass only when the first may have left work due: a failed or
                # retried row can queue a notice (a closed DM tells the channel), and a
                # full batch leaves the rest. Otherwise it is one more write transaction
                # on every Lock for nothing.
                outbox = self.services.outbox
                for _ in range(2):
                    report = await outbox.deliver_due()
                    handled = report.delivered + report.retried + report.failed + report.dropped
                    if not (report.failed or report.retried or handled >= outbox.batch):
                        break
            except Exception:
                log.exception("Outbox delivery failed")

    async def _finish_pump(self) -> None:
        """Stop the pump loop, after the pump in progress if there is one.

        A stop (systemd sends SIGTERM) then leaves no message posted and not recorded as
        posted, which the next start would hand to Discord again; only a kill can.
        """
        held: list[asyncio.Lock] = []

        async def both() -> None:
            for lock in (self._tick_lock, self._deliver_lock):
                await lock.acquire()
                held.append(lock)

        try:
            await asyncio.wait_for(both(), timeout=STOP_WAIT_SECONDS)
        except TimeoutError:
            log.warning("Stopping while a delivery is still running after %ss", STOP_WAIT_SECONDS)
        try:
            for loop in (self._pump_loop, self._deliver_loop):
                if loop.is_running():
                    loop.cancel()
        finally:
            for lock in held:
                lock.release()

    @tasks.loop(seconds=PUMP_SECONDS)
    async def _pump_loop(self) -> None:
        await self.pump()

    @tasks.loop(seconds=PUMP_SECONDS)
    async def _deliver_loop(self) -> None:
        await self._deliver()

    @_pump_loop.before_loop
    @_deliver_loop.before_loop
    async def _before_pump(self) -> None:
        # Channels and DMs can only be reached once the gateway session is ready.
        await self.wait_until_ready()

    async def close(self) -> None:
        try:
            await self._finish_pump()
            await super().close()
        finally:
            # Closed whatever went wrong above: the process must be able to exit.
            try:
                if self.services is not None and self._database is not None:
                    await self.services.close()
            finally:
                from bot import drawing, odds, resolver

                await asyncio.to_thread(odds.shut_down)  # its previews' worker processes
                await asyncio.to_thread(drawing.shut_down)  # the pictures' ones
                await asyncio.to_thread(resolver.shut_down)  # the rounds' ones

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            message = refusal(interaction, original)
        elif isinstance(error, UserFacingError):
            message = error.message
        elif isinstance(error, app_commands.CheckFailure):
            message = str(error) or t("error.not_allowed", interaction.locale)
        elif isinstance(error, app_commands.TransformerError):
            # Quoted clipped: a 6,000-character value would make the answer undeliverable.
            message = t("error.bad_value", interaction.locale, value=clip(str(error.value)))
        else:
            log.error(
                "Command failed (interaction %s, command %s)",
                interaction.id,
                interaction.command.qualified_name if interaction.command else "?",
                exc_info=original,
            )
            message = t("error.unexpected", interaction.locale, ref=str(interaction.id))
        await send_ephemeral(interaction, message)


class ShardedSortieBot(SortieBot, commands.AutoShardedBot):
    """The same bot over several gateway connections (shards), some or all of them.

    discord.py routes each server's events, interactions included, to the shard that
    Discord assigns it (``(guild_id >> 22) % shard_count``); a process given ``shard_ids``
    only hears from those servers, and from DMs if it runs shard 0. What it does in
    answer goes through the shared database, so any process may act on any campaign.
    """


def build_bot(settings: Settings, **kwargs: Any) -> SortieBot:
    """The bot that ``python -m bot run`` starts, sharded when the settings ask for it."""
    options: dict[str, Any] = {
        "dev_guild_id": settings.dev_guild_id,
        "database": settings.database_url,  # db.backend.open_repository picks the backend
        "default_locale": settings.default_locale,
        **kwargs,
    }
    if settings.sharded:
        return ShardedSortieBot(**settings.shard_kwargs, **options)
    return SortieBot(**options)


async def send_ephemeral(interaction: discord.Interaction[Any], message: str) -> None:
    """Answer ephemerally whether or not the interaction was already acknowledged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not deliver an error message (interaction %s)", interaction.id)
