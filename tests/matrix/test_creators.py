"""Room version 12, Synapse's default (issue 30, problem 7): a room's creators — the sender of
`m.room.create` and its `additional_creators` — have unlimited power. The power levels may
not name them, so nobody can lower theirs: the bot cannot mute a creator who is out of the
game, whatever power it is given. The host hears that in Matrix words (not "give me the
power to…", which could never help), the player is asked to stay silent, and what he writes
in the room is marked 👻 until the game is over; everybody else is muted as before."""

from __future__ import annotations

from typing import Any

from .harness import (
    Player,
    Table,
    choose_privately,
    open_table,
    options,
    private_prompt,
    sign_up,
)
from .test_rooms import eventually, private_texts

GHOST = "\U0001f47b"  # 👻, the mark on what an unmutable dead player writes


def marks(table: Table, event_id: str) -> list[str]:
    """The keys of the bot's reactions to an event, as the host's client read them."""
    return [e["content"]["m.relates_to"]["key"] for e in table.host.from_bot(table.room)
            if e.get("type") == "m.reaction"
            and e["content"]["m.relates_to"].get("event_id") == event_id]


async def level(player: Player, room_id: str, user_id: str) -> Any:
    levels = await player.client.room_get_state_event(room_id, "m.room.power_levels")
    return levels.content.get("users", {}).get(user_id)


async def test_a_creator_out_of_the_game_is_marked_not_muted_and_the_host_hears_why(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 7,
                             creators=("Bob",))
    try:
        ann, bob, cid = (table.players[n] for n in ("Ann", "Bob", "Cid"))
        create = await ann.client.room_get_state_event(table.room, "m.room.create")
        assert create.content["room_version"] == "12"
        assert create.content["additional_creators"] == [bob.user_id]
        await sign_up(table, "changelings", "!option random_lovers false")

        await ann.say(table.room, "!modkill Bob")
        await eventually(table, lambda: any(t.startswith("Bob is out of the game in ")
                                            for t in private_texts(ann)))
        # named by the room's name (m.room.name), as the host knows it, not by its id
        told = next(t for t in private_texts(ann) if t.startswith("Bob is out of the game"))
        assert told.startswith("Bob is out of the game in Game night, but I cannot mute "
                               "him there.")
        assert "room version 12" in told and "creators have unlimited power" in told
        assert "👻" in told
        assert not any(t.startswith("I cannot mute the players") for t in private_texts(ann))
        assert any(t.startswith("You are out of the game in Game night, but I cannot mute "
                                "you there.") for t in private_texts(bob))
        assert await level(ann, table.room, bob.user_id) is None  # v12: never in the map

        chatter = await bob.say(table.room, "I was innocent, you fools!")
        command = await bob.say(table.room, "!status")
        await eventually(table, lambda: marks(table, chatter) == [GHOST])
        assert marks(table, command) == []
        assert marks(table, await ann.say(table.room, "Moving on.")) == []

        await ann.say(table.room, "!modkill Cid")  # no creator: muted as ever
        await table.settle()
        assert await level(ann, table.room, cid.user_id) == -1
        assert not any(t.startswith("I cannot mute the players") for t in private_texts(ann))
        assert not any("Cid is out of the game" in t for t in private_texts(ann))

        await ann.say(table.room, "!endgame")
        await table.settle()
        asked = private_prompt(ann)  # the host confirms in his private room
        assert asked is not None and (1, "End the game") in options(asked)
        await choose_privately(ann, asked, 1, "End the game", "number")
        await table.settle()
        assert await level(ann, table.room, cid.user_id) is None  # restored
        after = await bob.say(table.room, "Good game.")
        await table.settle()
        assert marks(table, after) == []
    finally:
        await table.stop()
