"""Leaving the game's room is leaving the game (issue 30, problem 4), against a real Synapse:
a player who leaves the room mid-game — a matrix-js-sdk client, as Element's "Leave room"
leaves it (`MatrixClient.leave`: his own `leave` membership) — is out once the grace time
passed — the group is told, he is no candidate on the next
ballot and is reminded of nothing; coming back within the grace time keeps him in; a kick
takes him out at once; leaving during the sign-up drops the sign-up.

The grace time is the service's setting (`GameDefaults.leave_grace`); the test's clock is
moved past it rather than waited for."""

from __future__ import annotations

from typing import Any

from core.service.games.deadline_times import GameDefaults
from core.service.messages import texts
from core.storage.models import Outbox, Seat

from .harness import Player, Table, living, open_poll, open_table, sign_up
from .js_player import JsPlayer, say, seat
from .test_behaviour import game_state
from .test_rooms import eventually, private_texts

GRACE = 60.0  # seconds; the changelings' quick election lasts 180
GRACE_TOLD = texts.LEFT_CHAT_GRACE[0].split("{count}")[0]  # "… not back within "
PLAYERS = 7


async def leave_room(table: Table, player: Player) -> None:
    """The player leaves the game room himself."""
    response = await player.client.room_leave(table.room)
    assert not hasattr(response, "status_code"), response


async def cause_of(table: Table, name: str) -> str | None:
    state = await game_state(table)
    return next(p.cause for p in state.players.values() if p.name == name)


def told_group(table: Table, since: int, name: str) -> list[str]:
    return [t for t in table.group_texts()[since:] if name in t and "group" in t]


async def js_player_at_the_table(table: Table, js_players: Any,
                                 register: Any) -> tuple[JsPlayer, str]:
    """Zed, a matrix-js-sdk player (Element's SDK), seated in the game room, signed up for the
    game (`!join`) and in the private room the bot opens for him, as Element accepts it
    (returned beside him); then the host starts the game."""
    zed = await js_players(register("Zed"), "Zed")
    await seat(table, zed)
    await table.host.say(table.room, "!newgame changelings")
    await table.settle()
    for player in list(table.players.values())[1:]:
        await player.say(table.room, "!join")
    await say(table, zed, table.room, "!join")
    await table.settle()

    async def private_room() -> str | None:
        return next((i["room_id"] for i in await zed.invites() if i["room_id"] != table.room),
                    None)

    dm = await zed.until("the bot's private room", private_room)
    await zed.join(dm)
    await table.host.say(table.room, "!option random_lovers false")
    await table.host.say(table.room, "!startgame")
    await table.settle()
    assert "Zed" in await living(table)
    return zed, dm


async def texts_of(zed: JsPlayer, dm: str, bot: str) -> list[str]:
    """What the bot wrote to Zed in his private room, as his client shows it."""
    return [e.body for e in await zed.from_sender(dm, bot)]


async def test_a_player_who_leaves_the_room_is_out_after_the_grace_time(
        synapse, register, clients, js_players, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}",
                             PLAYERS, defaults=GameDefaults(leave_grace=GRACE))
    try:
        zed, dm = await js_player_at_the_table(table, js_players, register)
        gus = table.players["Gus"]
        bot = table.bot["user_id"]
        before = len(table.group_texts())
        await zed.leave(table.room)  # matrix-js-sdk's `MatrixClient.leave`, Element's "Leave"

        async def warned() -> bool:
            return any(GRACE_TOLD in t for t in await texts_of(zed, dm, bot))

        await zed.until("the bot's warning in his private room", warned)
        warning = next(t for t in await texts_of(zed, dm, bot) if GRACE_TOLD in t)
        assert "ask someone in it to invite you" in warning  # how, in Matrix's words
        assert "Zed" in await living(table)  # the grace time runs: still in the game
        assert not told_group(table, before, "Zed")

        await table.let_time_pass(GRACE + 1)
        assert "Zed" not in await living(table)
        assert await cause_of(table, "Zed") == "left_chat"
        told = told_group(table, before, "Zed")
        assert len(told) == 1, table.group_texts()[before:]  # in the pony game's voice
        mark = await Outbox.all().order_by("-id").first()
        assert mark is not None
        gus_heard = len(private_texts(gus))

        # the election's reminder (at 135 s) finds the laggards, Zed no more among them;
        # the day's ballot after the night names no Zed
        await table.let_time_pass(80)
        assert len(private_texts(gus)) > gus_heard  # Gus did not vote: he is reminded
        for seconds in (60, 100, 70):  # the election closes, dusk, dawn
            await table.let_time_pass(seconds)
        state = await game_state(table)
        assert state.phase.kind == "day" and state.phase.number == 2, state.phase
        poll = open_poll(table)
        assert poll is not None
        labels = str(poll["content"])
        assert "Gus" in labels and "Zed" not in labels
        # no prompt, no reminder: nothing more was written to him anywhere
        assert not await Outbox.filter(id__gt=mark.id, identity__ref=zed.user_id).exists()
    finally:
        await table.stop()


async def test_coming_back_within_the_grace_time_keeps_the_player(
        synapse, register, clients, js_players, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}",
                             PLAYERS, defaults=GameDefaults(leave_grace=GRACE))
    try:
        zed, dm = await js_player_at_the_table(table, js_players, register)
        bot = table.bot["user_id"]
        await zed.leave(table.room)

        async def warned() -> bool:
            return any(GRACE_TOLD in t for t in await texts_of(zed, dm, bot))

        await zed.until("the bot's warning", warned)
        await seat(table, zed)  # the room is invite-only: the host invites him back

        async def welcomed() -> bool:
            return texts.BACK_IN_TIME in await texts_of(zed, dm, bot)

        await zed.until("the bot's welcome back", welcomed)
        await table.let_time_pass(GRACE + 1)
        assert "Zed" in await living(table)
    finally:
        await table.stop()


async def test_a_kicked_player_is_out_at_once_and_a_signup_is_dropped(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}",
                             PLAYERS + 1, defaults=GameDefaults(leave_grace=GRACE))
    try:
        await sign_up(table, "changelings", "!option random_lovers false", start=False)
        hal = table.players["Hal"]
        assert await Seat.filter(identity__ref=hal.user_id, active=True).exists()
        await leave_room(table, hal)  # during the sign-up: the sign-up goes at once
        await eventually(table, lambda: texts.LEFT_PRIVATE in private_texts(hal))
        assert not await Seat.filter(identity__ref=hal.user_id, active=True).exists()

        await table.host.say(table.room, "!startgame")
        await table.settle()
        gus = table.players["Gus"]
        before = len(table.group_texts())
        await table.host.client.room_kick(table.room, gus.user_id, "bye")
        await eventually(table, lambda: bool(told_group(table, before, "Gus")))
        assert "Gus" not in await living(table)
        assert await cause_of(table, "Gus") == "kicked"
    finally:
        await table.stop()
