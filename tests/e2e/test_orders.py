"""The secret order panel, played through simcord's in-memory Discord with the real bot.

The campaign is set up through the service (the GM's cogs are tested elsewhere); from then
on everything a player does goes through Discord: the DM panel's selects and buttons, and
``/orders`` in the campaign channel. Assertions are about what a player would notice.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord

from bot.service_model import Pace
from engine.zero.types import Side
from tests.e2e.conftest import World, is_disabled
from tests.e2e.conftest import table as seated

JAPANESE, ALLIED = Side.JAPANESE.value, Side.ALLIED.value
ORDER_FIELDS = ("fleet_tactic", "flight_ops", "doctrine")


@dataclass
class Table:
    env: simcord.Env
    world: World
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    gm: simcord.MemberActor
    alice_user: simcord.UserHandle  # Japanese commander
    alice: simcord.MemberActor
    bob_user: simcord.UserHandle  # Allied commander
    bob: simcord.MemberActor
    spectator: simcord.MemberActor
    campaign_id: int

    def user(self, side: str) -> simcord.UserHandle:
        return self.alice_user if side == JAPANESE else self.bob_user

    def member(self, side: str) -> simcord.MemberActor:
        return self.alice if side == JAPANESE else self.bob

    def public(self) -> list[discord.Message]:
        """The campaign channel as a spectator sees it."""
        return self.channel.history(viewer=self.spectator)

    def public_text(self) -> str:
        return "\n".join(m.content for m in self.public())


async def open_table(
    world: World,
    env: simcord.Env,
    *,
    pace: Pace | None = None,
    before_start: Callable[[Table], None] | None = None,
    seat_before_start: Callable[[Table], Awaitable[None]] | None = None,
    scenario: str = "coral-sea",
    ruleset: str | None = None,
    seed: str | None = "e2e-seed",
    locale: str | None = None,
    sides: tuple[str, ...] = (JAPANESE, ALLIED),
) -> Table:
    """A campaign made and started through the service, Alice commanding the first side and
    Bob the second (a solitaire game seats Alice alone)."""
    world.env = env
    seats = seated(env, "coral-sea")
    table = Table(
        env=env,
        world=world,
        guild=seats.guild,
        channel=seats.channel,
        gm=seats.gm,
        alice_user=seats.alice_user,
        alice=seats.alice,
        bob_user=seats.bob_user,
        bob=seats.bob,
        spectator=seats.spectator,
        campaign_id=0,
    )
    svc = world.services.campaigns
    info = await svc.create_campaign(
        seats.guild.id,
        seats.channel.id,
        seats.gm.id,
        scenario,
        pace or Pace(),
        seed=seed,
        ruleset=ruleset,
        locale=locale,
    )
    table.campaign_id = info.id
    for member, side in zip((seats.alice, seats.bob), sides, strict=False):
        await svc.join(info.id, member.id, side)
    if before_start is not None:
        before_start(table)
    if seat_before_start is not None:
        await seat_before_start(table)
    await svc.start(info.id, seats.gm.id)
    await world.pump()
    return table


def dm_panel(user: simcord.UserHandle, turn_round: str = "") -> discord.Message:
    """The newest order panel in the user's DMs (for that "Turn n · Round", if given)."""
    panels = [m for m in user.dm_channel.history() if m.components and turn_round in m.content]
    assert panels, f"{user.name} has no order panel in DMs"
    return panels[-1]


def custom_ids(message: discord.Message | simcord.ResponseMessage) -> list[str]:
    rows = message.components
    out: list[str] = []
    for row in rows:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            custom_id = child.get("custom_id") if isinstance(child, dict) else child.custom_id
            if custom_id:
                out.append(custom_id)
    return out


def control(message: discord.Message | simcord.ResponseMessage, prefix: str, end: str = "") -> str:
    found = [c for c in custom_ids(message) if c.startswith(prefix) and c.endswith(end)]
    assert len(found) == 1, (prefix, end, custom_ids(message))
    return found[0]


def gm_button(asked: simcord.InteractionResult, answer: str = "yes") -> str:
    """The custom id of the Confirm (or Cancel) of a GM question."""
    assert asked.response is not None
    return control(asked.response, f"sortie:gm:{answer}:")


def options(message: discord.Message, field: str) -> list[discord.SelectOption]:
    for row in message.components:
        for child in getattr(row, "children", ()):
            if isinstance(child, discord.SelectMenu) and child.custom_id.endswith(f":{field}"):
                return list(child.options)
    raise AssertionError(f"no {field} select")


async def choose(
    user: simcord.UserHandle | simcord.MemberActor,
    panel: discord.Message | simcord.ResponseMessage,
    field: str,
    value: str,
) -> simcord.InteractionResult:
    return await user.select(panel, [value], custom_id=control(panel, "sortie:o:", f":{field}"))


async def choose_all(
    user: simcord.UserHandle | simcord.MemberActor,
    panel: discord.Message | simcord.ResponseMessage,
    picks: dict[str, str],
) -> None:
    for field, value in picks.items():
        result = await user.select(
            panel, [value], custom_id=control(panel, "sortie:o:", f":{field}")
        )
        assert result.acknowledged
        assert not result.followups, [f.content for f in result.followups]


async def lock(
    user: simcord.UserHandle | simcord.MemberActor,
    panel: discord.Message | simcord.ResponseMessage,
) -> simcord.InteractionResult:
    """Click Lock on the panel as it is now (its Lock names the drafts it shows)."""
    if isinstance(panel, discord.Message) and isinstance(user, simcord.UserHandle):
        panel = refreshed(user, panel)
    return await user.click(panel, custom_id=control(panel, "sortie:lock:"))


def refreshed(user: simcord.UserHandle, panel: discord.Message) -> discord.Message:
    """The same DM message as it is now (after edits)."""
    return next(m for m in user.dm_channel.history() if m.id == panel.id)


def ephemeral_panel(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The panel ``/orders`` answered with (ephemeral, with controls)."""
    messages = [m for m in (result.response, *result.followups) if m is not None]
    panels = [m for m in messages if m.components]
    assert panels, [m.content for m in messages]
    assert all(m.ephemeral for m in panels)
    return panels[-1]


def forge(
    env: simcord.Env,
    message: discord.Message,
    custom_id: str,
    *,
    new_custom_id: str | None = None,
    extra_option: str | None = None,
) -> None:
    """Play a tampered client: rewrite a control of a message as the user's client shows it.

    simcord (like Discord's client) only lets a user pick what a message offers, so a forged
    request is made by changing the stored message the click is built from.
    """
    stored = env.backend.get_message(message.channel.id, message.id)
    for row in stored.components:
        for child in row.get("components", []):
            if child.get("custom_id") != custom_id:
                continue
            if new_custom_id is not None:
                child["custom_id"] = new_custom_id
            if extra_option is not None:
                child["options"].append({"label": extra_option, "value": extra_option})
            return
    raise AssertionError(f"no control {custom_id}")


async def drafts(world: World, table: Table, side: str) -> dict[str, str]:
    user = table.alice.id if side == JAPANESE else table.bob.id
    return dict((await world.services.campaigns.panel(table.campaign_id, user)).drafts)


def stale_copy(env: simcord.Env, message: discord.Message) -> Callable[[], None]:
    """Keep a message's controls as a client shows them now; calling the result puts them
    back, as a client that missed the bot's later edit would still show them."""
    kept = copy.deepcopy(env.backend.get_message(message.channel.id, message.id).components)

    def restore() -> None:
        env.backend.get_message(message.channel.id, message.id).components = copy.deepcopy(kept)

    return restore


def refusal(result: simcord.InteractionResult) -> str:
    """The ephemeral sentence a click or command answered with."""
    messages = [*result.followups]
    if result.response is not None and result.response.ephemeral:
        messages.insert(0, result.response)
    texts = [m.content for m in messages if m.ephemeral]
    assert texts, "no ephemeral answer"
    return texts[-1]


PICKS = {
    JAPANESE: {
        "fleet_tactic": "medium",
        "flight_ops": "large:allied-fleet",
        "doctrine": "balanced",
    },
    ALLIED: {"fleet_tactic": "long", "flight_ops": "small:invasion-force", "doctrine": "cautious"},
}

RESOURCE = {JAPANESE: {"resource": "15"}, ALLIED: {"resource": "15"}}


async def play_round(
    world: World, table: Table, picks: dict[str, dict[str, str]] = PICKS, turn_round: str = ""
) -> None:
    """Both commanders choose ``picks`` on their DM panels (of ``turn_round``, where the
    panel's title says it) and lock, and the bot posts what follows."""
    for side in (JAPANESE, ALLIED):
        user = table.user(side)
        await choose_all(user, dm_panel(user, turn_round), picks[side])
        await lock(user, dm_panel(user, turn_round))
    await world.pump()


# ------------------------------------------------------------------------------ tests


async def test_play_a_whole_turn_through_dm_panels(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)

        # Each commander finds a DM with the panel text, the side's image and the selects.
        for side in (JAPANESE, ALLIED):
            panel = dm_panel(table.user(side))
            assert "Turn 1 · Orders" in panel.content
            assert panel.attachments and panel.attachments[0].filename.endswith(".png")
            for field in ORDER_FIELDS:
                assert control(panel, "sortie:o:", f":{side}:{field}")
            assert control(panel, "sortie:lock:")
            assert control(panel, "sortie:help:")
        panel = dm_panel(table.alice_user)
        # What each option would give now, and what is still to choose.
        assert "Large Strike → Allied carrier fleet / Port Moresby: 1 L/W A6M2" in panel.content
        assert "3 choices still to make." in panel.content
        for field in ("Fleet Tactic", "Flight Ops", "Doctrine"):
            assert f"**{field}**: *not chosen yet*" in panel.content
        assert [o.value for o in options(panel, "fleet_tactic")] == ["close", "medium", "long"]

        # Choosing drafts the options and the panel shows them, in place.
        for side in (JAPANESE, ALLIED):
            user = table.user(side)
            panel = dm_panel(user)
            await choose_all(user, panel, PICKS[side])
            panel = refreshed(user, panel)
            assert "Everything is chosen" in panel.content
            assert panel.attachments, "the image stays on the edited panel"
            for field, value in PICKS[side].items():
                picked = [o.value for o in options(panel, field) if o.default]
                assert picked == [value]
        assert "**Fleet Tactic**: ✓ Medium Range" in dm_panel(table.alice_user).content

        # Alice locks: her panel turns read-only, shows her receipt and waits for Bob.
        panel = dm_panel(table.alice_user)
        result = await lock(table.alice_user, panel)
        # Acknowledged at once (a deferral, before the lock's write), then the panel edited.
        assert result.acknowledged and result.deferred
        assert not result.followups
        panel = refreshed(table.alice_user, panel)
        assert is_disabled(panel, "sortie:o:") and is_disabled(panel, "sortie:lock:")
        assert "Locked" in panel.content and "Waiting for the other side" in panel.content
        unlock = control(panel, "sortie:unlock:")  # the campaign allows unlocking
        locked_panel, locked_controls = panel, stale_copy(env, panel)
        receipts = await world.services.campaigns.receipts(table.campaign_id, table.alice.id)
        short = receipts[0].receipt[:8]
        assert short in panel.content
        assert short in table.public_text()  # the round message shows the receipt
        assert "Medium Range" not in table.public_text()  # ... and nothing of the choice

        # Bob locks: the reveal reaches the channel and the Resource round panels arrive.
        await lock(table.bob_user, dm_panel(table.bob_user))
        public = table.public_text()
        assert "Turn 1 · Orders revealed" in public
        assert "Medium Range" in public and "Long Range" in public
        for side in (JAPANESE, ALLIED):
            panel = dm_panel(table.user(side))
            assert "Turn 1 · Resource" in panel.content
            resource = options(panel, "resource")
            assert resource and all(len(o.description or "") <= 100 for o in resource)
            assert "Not offered" in panel.content  # the other side's resources, with why

        # Alice's round-1 panel lost its Unlock with the reveal and says the round is over;
        # a client still showing the old button (a stale copy) gets the same answer.
        old = refreshed(table.alice_user, locked_panel)
        assert "This round is over" in old.content
        assert not custom_ids(old)
        locked_controls()
        old = refreshed(table.alice_user, old)
        result = await table.alice_user.click(old, custom_id=unlock)
        assert "This round is over" in refusal(result)

        # The Resource round: one select, Lock; then the strikes are reported in the channel.
        for side in (JAPANESE, ALLIED):
            user = table.user(side)
            panel = dm_panel(user)
            await choose(user, panel, "resource", "15")
            panel = refreshed(user, panel)
            assert "No Resource" in panel.content
            await lock(user, panel)
        public = table.public_text()
        assert "Turn 1 · Resource revealed" in public
        assert "Strike" in public
        assert any(a.filename.startswith("strike-") for m in table.public() for a in m.attachments)
        assert "Turn 2 · Orders" in dm_panel(table.alice_user).content


async def test_panels_keep_working_after_a_restart(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        panel = dm_panel(table.alice_user)
        await choose(table.alice_user, panel, "fleet_tactic", "long")

        first = world.bot
        await env.restart_bot(world.new_bot())
        assert world.bot is not first
        # The shared database was not closed with the old bot: the draft is still there.
        assert await drafts(world, table, JAPANESE) == {"fleet_tactic": "long"}

        # The DM sent before the restart still answers, and keeps the earlier draft.
        panel = refreshed(table.alice_user, panel)
        await choose_all(table.alice_user, panel, {"flight_ops": "none", "doctrine": "aggressive"})
        panel = refreshed(table.alice_user, panel)
        assert "**Fleet Tactic**: ✓ Long Range" in panel.content
        assert "**Doctrine**: ✓ Aggressive" in panel.content
        result = await lock(table.alice_user, panel)
        assert not result.followups
        panel = refreshed(table.alice_user, panel)
        assert "Locked" in panel.content and is_disabled(panel, "sortie:lock:")
        assert "Japanese: 🔒 locked" in table.public_text()


async def test_a_panel_from_a_past_round_is_over(world: World) -> None:
    pace = Pace(round_seconds=3600, reminder_offsets=(600,))
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, pace=pace)
        old = dm_panel(table.alice_user)
        await choose(table.alice_user, old, "fleet_tactic", "close")
        old_controls = stale_copy(env, old)

        # Nobody locks; the deadline passes and the round resolves with default orders.
        # (In steps: the bot's 30-second pump loop runs at every step of virtual time.)
        for _ in range(7):
            await env.advance_time(600)
        assert "Turn 1 · Orders revealed" in table.public_text()
        assert "Turn 1 · Resource" in dm_panel(table.alice_user).content
        before = await drafts(world, table, JAPANESE)

        # The old panel has no control left and says the round is over.
        old = refreshed(table.alice_user, old)
        assert not custom_ids(old)
        assert "This round is over" in old.content
        # A client still showing the old menu (a stale copy) picks from it: refused, and
        # nothing changes.
        old_controls()
        old = refreshed(table.alice_user, old)
        result = await choose(table.alice_user, old, "flight_ops", "none")
        assert "This round is over" in refusal(result)
        assert await drafts(world, table, JAPANESE) == before == {}
        # The current round's panel is untouched and still open.
        assert not is_disabled(dm_panel(table.alice_user), "sortie:o:")


async def test_lock_twice_gives_one_lock_and_unlock_relocks(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        svc = world.services.campaigns

        # Locking before choosing everything is refused clearly; the panel stays open.
        panel = dm_panel(table.alice_user)
        result = await lock(table.alice_user, panel)
        assert "choose Fleet Tactic, Flight Ops, Doctrine first" in refusal(result)
        assert not is_disabled(refreshed(table.alice_user, panel), "sortie:o:")

        # An ephemeral copy of the panel, opened before locking (a second device, say).
        copy = ephemeral_panel(await table.alice.slash(table.channel, "orders"))
        await choose_all(table.alice_user, panel, PICKS[JAPANESE])
        await lock(table.alice_user, panel)
        receipt = (await svc.receipts(table.campaign_id, table.alice.id))[0].receipt

        # The second Lock: one lock, the same receipt, a clear answer.
        result = await lock(table.alice, copy)
        text = refusal(result)
        assert "already locked" in text and receipt[:8] in text
        locks = await svc.receipts(table.campaign_id, table.alice.id)
        assert [r.receipt for r in locks] == [receipt]
        assert table.public_text().count(receipt[:8]) == 1

        # Unlock reopens the panel; locking again makes a new receipt.
        panel = refreshed(table.alice_user, panel)
        await table.alice_user.click(panel, custom_id=control(panel, "sortie:unlock:"))
        panel = refreshed(table.alice_user, panel)
        assert not is_disabled(panel, "sortie:o:")
        assert "Everything is chosen" in panel.content
        assert "Japanese: ⏳ waiting" in table.public_text()
        await lock(table.alice_user, panel)
        standing = [
            r for r in await svc.receipts(table.campaign_id, table.alice.id) if not r.withdrawn
        ]
        assert len(standing) == 1 and standing[0].receipt != receipt
        assert standing[0].receipt[:8] in refreshed(table.alice_user, panel).content


async def test_a_forged_option_is_refused_and_changes_nothing(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        panel = dm_panel(table.alice_user)
        await choose(table.alice_user, panel, "fleet_tactic", "medium")
        select = control(panel, "sortie:o:", ":fleet_tactic")

        # simcord refuses a value the select does not offer; a tampered client can send one.
        forge(env, panel, select, extra_option="warp")
        result = await table.alice_user.select(panel, ["warp"], custom_id=select)
        assert "warp cannot be chosen for Fleet Tactic: not one of the options" in refusal(result)
        assert await drafts(world, table, JAPANESE) == {"fleet_tactic": "medium"}
        assert "**Fleet Tactic**: ✓ Medium Range" in refreshed(table.alice_user, panel).content


async def test_the_other_side_cannot_use_a_panel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        japanese_select = control(dm_panel(table.alice_user), "sortie:o:", ":fleet_tactic")
        japanese_lock = control(dm_panel(table.alice_user), "sortie:lock:")

        # Bob's client sends the Japanese panel's ids (forged into his own DM panel).
        panel = dm_panel(table.bob_user)
        forge(
            env, panel, control(panel, "sortie:o:", ":fleet_tactic"), new_custom_id=japanese_select
        )
        forge(env, panel, control(panel, "sortie:lock:"), new_custom_id=japanese_lock)
        result = await table.bob_user.select(panel, ["medium"], custom_id=japanese_select)
        assert "belongs to the Japanese side and you play Allied" in refusal(result)
        result = await table.bob_user.click(panel, custom_id=japanese_lock)
        assert "belongs to the Japanese side" in refusal(result)
        assert await drafts(world, table, JAPANESE) == {}
        assert await drafts(world, table, ALLIED) == {}

        # A spectator has no panel at all; /orders says why, to them alone.
        result = await table.spectator.slash(table.channel, "orders")
        assert result.ephemeral
        assert "You are not playing in this campaign" in refusal(result)
        assert "Your orders" not in table.public_text()

        # Help explains the panel, privately.
        panel = dm_panel(table.alice_user)
        result = await table.alice_user.click(panel, custom_id=control(panel, "sortie:help:"))
        assert "How the order panel works" in refusal(result)


async def test_closed_dms_play_through_orders(
    world: World, close_dms: Callable[[simcord.Env, simcord.UserHandle], None]
) -> None:
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env, before_start=lambda t: close_dms(env, t.bob_user))
        # The pump that found the DM closed tells the channel at once (its second pass),
        # not 30 s later.
        assert any("I cannot send you DMs" in m.content for m in table.public())
        await world.pump()

        # The DM failed: the channel tells Bob (and the GM) where his panel is.
        assert not [m for m in table.bob_user.dm_channel.history() if m.components]
        notice = next(m for m in table.public() if "I cannot send you DMs" in m.content)
        assert table.bob.mention in notice.content and table.gm.mention in notice.content
        assert "/orders" in notice.content

        # Bob plays the round through /orders: the same panel, ephemeral, with its image.
        result = await table.bob.slash(table.channel, "orders")
        panel = ephemeral_panel(result)
        assert "Turn 1 · Orders" in panel.content
        assert panel.attachments and panel.attachments[0].filename.endswith(".png")
        await choose_all(table.bob, panel, PICKS[ALLIED])
        assert "Everything is chosen" in panel.content
        result = await lock(table.bob, panel)
        assert not result.followups
        assert "Locked" in panel.content
        assert "Allied: 🔒 locked" in table.public_text()
        assert "Long Range" not in table.public_text()

        alice_panel = dm_panel(table.alice_user)
        await choose_all(table.alice_user, alice_panel, PICKS[JAPANESE])
        await lock(table.alice_user, alice_panel)
        assert "Turn 1 · Orders revealed" in table.public_text()

        # Next round: the bot knows his DMs are closed and points him to /orders again.
        await world.pump()
        assert any("use /orders" in m.content for m in table.public()[-3:])
        panel = ephemeral_panel(await table.bob.slash(table.channel, "orders"))
        assert "Turn 1 · Resource" in panel.content
        await choose_all(table.bob, panel, {"resource": "15"})
        await lock(table.bob, panel)
        assert "Allied: 🔒 locked" in table.public_text()
        # Nothing of the secret panel ever reached the public channel.
        assert all(not m.components or "sortie:o:" not in str(m.components) for m in table.public())


async def french_panel(
    world: World, env: simcord.Env, side: str, field: str, value: str, **campaign: Any
) -> discord.Message:
    """A French table's DM panel as its commander of ``side`` reads it after one pick."""
    table = await open_table(world, env, seed="fr", locale="fr", **campaign)
    user = table.user(side)
    panel = dm_panel(user)
    await choose(user, panel, field, value)
    return refreshed(user, panel)


async def test_a_french_campaign_gets_a_french_panel(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        panel = await french_panel(world, env, JAPANESE, "fleet_tactic", "close")
        assert "Tactique de Flotte" in panel.content
        assert "Encore 2\u00a0choix à faire." in panel.content
        labels = [c.label for row in panel.components for c in row.children if c.type.value == 2]
        assert "Verrouiller les ordres" in labels and "Aide" in labels


async def test_a_second_player_drafts_but_only_the_commander_locks(world: World) -> None:
    async with simcord.run(world.new_bot()) as env:
        seated: list[simcord.MemberActor] = []

        async def seat_carol(table: Table) -> None:
            # A teammate seated before the start sees the side's drafts from turn 1.
            member = table.guild.add_member(env.create_user("carol"))
            await world.services.campaigns.join(table.campaign_id, member.id, Side.JAPANESE)
            seated.append(member)

        table = await open_table(world, env, seat_before_start=seat_carol)
        carol = seated[0]

        panel = ephemeral_panel(await carol.slash(table.channel, "orders"))
        assert "Your orders — Turn 1 · Orders** (Japanese)" in panel.content
        assert table.alice.mention in panel.content  # who locks
        assert is_disabled(panel.message, "sortie:lock:")
        await choose(carol, panel, "fleet_tactic", "close")
        assert await drafts(world, table, JAPANESE) == {"fleet_tactic": "close"}
        # The commander sees the draft in a fresh panel.
        alice_view = ephemeral_panel(await table.alice.slash(table.channel, "orders"))
        assert "**Fleet Tactic**: ✓ Close Range" in alice_view.content
        assert not is_disabled(alice_view.message, "sortie:lock:")


async def test_a_lock_is_acknowledged_first_and_shows_locked_only_once_stored(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Lock's click is acknowledged before anything is read or written; the panel turns
    "locked" only after the lock is stored: a lock that fails on its way to the disk (the
    bot crashing there, say) leaves the panel open and no receipt, and the next click locks."""
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        svc = world.services.campaigns
        panel = dm_panel(table.alice_user)
        await choose_all(table.alice_user, panel, PICKS[JAPANESE])
        panel = refreshed(table.alice_user, panel)

        real_lock = svc.lock

        async def failing_lock(*args: Any, **kwargs: Any) -> Any:
            raise OSError("disk gone")

        monkeypatch.setattr(svc, "lock", failing_lock)
        result = await lock(table.alice_user, panel)
        assert result.deferred  # the click was answered before the lock was tried
        panel = refreshed(table.alice_user, panel)
        assert "Locked" not in panel.content and not is_disabled(panel, "sortie:lock:")
        assert await svc.receipts(table.campaign_id, table.alice.id) == []

        monkeypatch.setattr(svc, "lock", real_lock)
        result = await lock(table.alice_user, panel)
        assert result.deferred
        panel = refreshed(table.alice_user, panel)
        assert "Locked" in panel.content and is_disabled(panel, "sortie:lock:")
        receipts = await svc.receipts(table.campaign_id, table.alice.id)
        assert receipts[0].receipt[:8] in panel.content


async def test_status_shows_the_round_messages_board_without_drawing_it_again(
    world: World,
) -> None:
    """The channel's round message and ``/status`` show one picture of the round (its
    deadline written on it), drawn once: a /status just after a Lock waits for no drawing."""
    from bot import boards

    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)  # a day per round: the board shows a deadline
        panel = dm_panel(table.alice_user)
        await choose_all(table.alice_user, panel, PICKS[JAPANESE])
        await lock(table.alice_user, refreshed(table.alice_user, panel))
        drawn = boards.boards.misses
        answer = await table.alice.slash(table.channel, "status")
        shown = answer.followups[-1] if answer.followups else answer.response
        assert shown is not None and shown.attachments
        assert "Japanese" in shown.content
        assert boards.boards.misses == drawn  # the round message's own board


async def test_a_panel_with_more_fields_than_menus_pages_them_and_every_field_is_reachable(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord gives a message five rows, one of them the buttons: a side with more fields
    than four sees its menus a page at a time, turns the page with a button, stays on the
    page of the field it just chose, and can choose every field and lock."""
    from bot import panel as panels

    monkeypatch.setattr(panels, "MAX_SELECTS", 2)  # the 3 Japanese fields need 2 pages
    async with simcord.run(world.new_bot()) as env:
        table = await open_table(world, env)
        user = table.alice_user
        panel = dm_panel(user)
        fields = [c.rsplit(":", 1)[1] for c in custom_ids(panel) if c.startswith("sortie:o:")]
        assert fields == ["fleet_tactic", "flight_ops"]
        page = control(panel, "sortie:page:")
        assert "Show Doctrine ›" in str(
            [c.label for row in panel.components for c in row.children if c.custom_id == page]
        )
        turned = await user.click(panel, custom_id=page)
        assert turned.acknowledged and not turned.followups
        panel = refreshed(user, panel)
        assert [c.rsplit(":", 1)[1] for c in custom_ids(panel) if c.startswith("sortie:o:")] == [
            "doctrine"
        ]
        await choose(user, panel, "doctrine", PICKS[JAPANESE]["doctrine"])
        panel = refreshed(user, panel)
        assert any(c.endswith(":doctrine") for c in custom_ids(panel))  # still its page
        await user.click(panel, custom_id=control(panel, "sortie:page:"))  # back to 1–2
        panel = refreshed(user, panel)
        for field in ("fleet_tactic", "flight_ops"):
            await choose(user, panel, field, PICKS[JAPANESE][field])
            panel = refreshed(user, panel)
        result = await lock(user, panel)
        assert result.acknowledged and not result.followups, [f.content for f in result.followups]
        assert "Locked" in refreshed(user, panel).content
