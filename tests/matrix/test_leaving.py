"""Leaving the game's room is leaving the game (issue 30, problem 4), against a real Synapse:
a player who leaves the room mid-game (Element's "Leave room": his own `leave` membership)
is out once the grace time passed — the group is told, he is no candidate on the next
ballot and is reminded of nothing; coming back within the grace time keeps him in; a kick
takes him out at once; leaving during the sign-up drops the sign-up.

The grace time is the service's setting (`GameDefaults.leave_grace`); the test's clock is
moved past it rather than waited for."""

from __future__ import annotations

from core.service.games.deadline_times import GameDefaults
from core.service.messages import texts
from core.storage.models import Seat

from .harness import Player, Table, living, open_poll, open_table, sign_up
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


async def test_a_player_who_leaves_the_room_is_out_after_the_grace_time(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}",
                             PLAYERS, defaults=GameDefaults(leave_grace=GRACE))
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        fay, gus = table.players["Fay"], table.players["Gus"]
        before = len(table.group_texts())
        await leave_room(table, fay)
        await eventually(table, lambda: any(GRACE_TOLD in t for t in private_texts(fay)))
        assert "Fay" in await living(table)  # the grace time runs: still in the game
        assert not told_group(table, before, "Fay")

        await table.let_time_pass(GRACE + 1)
        assert "Fay" not in await living(table)
        assert await cause_of(table, "Fay") == "left_chat"
        told = told_group(table, before, "Fay")
        assert len(told) == 1, table.group_texts()[before:]  # in the pony game's voice
        heard = len(private_texts(fay))
        gus_heard = len(private_texts(gus))

        # the election's reminder (at 135 s) finds the laggards, Fay no more among them;
        # the day's ballot after the night names no Fay
        await table.let_time_pass(80)
        assert len(private_texts(gus)) > gus_heard  # Gus did not vote: he is reminded
        for seconds in (60, 100, 70):  # the election closes, dusk, dawn
            await table.let_time_pass(seconds)
        state = await game_state(table)
        assert state.phase.kind == "day" and state.phase.number == 2, state.phase
        poll = open_poll(table)
        assert poll is not None
        labels = str(poll["content"])
        assert "Gus" in labels and "Fay" not in labels
        assert len(private_texts(fay)) == heard  # no prompt, no reminder
    finally:
        await table.stop()


async def test_coming_back_within_the_grace_time_keeps_the_player(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}",
                             PLAYERS, defaults=GameDefaults(leave_grace=GRACE))
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        fay = table.players["Fay"]
        await leave_room(table, fay)
        await eventually(table, lambda: any(GRACE_TOLD in t for t in private_texts(fay)))
        await table.host.client.room_invite(table.room, fay.user_id)  # the room is invite-only
        await fay.client.join(table.room)
        await eventually(table, lambda: texts.BACK_IN_TIME in private_texts(fay))
        await table.let_time_pass(GRACE + 1)
        assert "Fay" in await living(table)
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
