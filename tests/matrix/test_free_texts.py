"""Every host power (`!announce` included), the Mare Do Well's letter and an abduction with
its scene in a Russian pony game through the real matrix-nio stack against a real Synapse,
played to its end: each text arrives in the group word for word inside the Russian sentence,
and no room of the game reads an English word. (On Matrix the team chats are rooms of their
own, where the players read each other without the bot.)"""

from __future__ import annotations

from core.storage.models import Outbox
from tests.free_texts import (
    ANNOUNCED,
    LETTER,
    SCENE,
    SHORT,
    host_sentences,
    leaks,
    letter_read,
    modkilled,
    replaced,
    witnessed,
)

from .harness import Player, Table, event_texts, open_table

LOCALE = "ru"


async def roles(table: Table) -> dict[str, str]:
    """Display name → role id of the living, the host last (the dead are muted in the game
    room, and the host plays on there to the end)."""
    row = await table.game_row()
    assert row is not None and table.runtime.service is not None
    game = await table.runtime.service.games.load(row)
    alive = sorted((p for p in game.state.players.values() if p.alive),
                   key=lambda p: p.name == table.host.name)
    return {p.name: p.role for p in alive}


async def host_says(table: Table, *commands: str) -> None:
    for command in commands:
        await table.host.say(table.room, command)
        await table.settle()


async def newcomer(table: Table, register, clients) -> Player:
    """Zoe, invited to the game room by the host, says she will play on."""
    user = register("Zoe")
    zoe = Player("Zoe", user["user_id"], await clients(user), table.bot["user_id"],
                 table.sent)
    await table.host.client.room_invite(table.room, zoe.user_id)
    await zoe.client.join(table.room)
    table.players["Zoe"] = zoe
    await zoe.say(table.room, "Я подменю")
    await table.settle()
    return zoe


# the bot's greeting on the invite, in the configured default language (English here): the
# room has no language of its own until the host sets one
GREETING = "Hello, I am Nightfall, your game master."

async def test_every_host_power_and_free_text_reaches_its_reader(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients,
                             f"sqlite://{tmp_path / 'mx.sqlite3'}", 7, seed=7)
    try:
        await table.host.say(table.room, f"!newgame changelings {LOCALE}")
        await table.settle()
        for player in list(table.players.values())[1:]:
            await player.say(table.room, "!join")
        await table.settle()
        await host_says(table, "!option random_lovers false",
                        "!setroles changeling,changeling,mare_do_well,pony,pony,pony,pony",
                        "!startgame")
        cast = await roles(table)
        hive = [n for n, r in cast.items() if r == "changeling"]
        mare = next(n for n, r in cast.items() if r == "mare_do_well")
        ponies = [n for n, r in cast.items() if r == "pony"]
        # day 1 is the host's; in night 1 the changelings abduct a pony, the last of them
        # with the scene, and Mare Do Well writes her letter
        await host_says(table, f"!announce {SHORT}", "!pause", "!resume", "!extend 5",
                        f"!announce {ANNOUNCED}", "!force")
        for name, command in ((hive[0], f"!abduct {ponies[0]}"),
                              (hive[1], f"!abduct {ponies[0]} {SCENE}"),
                              (mare, f"!letter {ponies[1]} {LETTER}")):
            player = table.players[name]
            await player.say(player.dm or "", command)
            await table.settle()
        # day 2: Zoe takes a pony's seat, the host removes a changeling, the other is banished
        await newcomer(table, register, clients)
        await host_says(table, f"!replace {ponies[2]} Zoe", f"!modkill {hive[0]}")
        alive = await roles(table)
        for name in alive:
            vote = hive[1] if name != hive[1] else ponies[1]
            await table.players[name].say(table.room, f"!vote {vote}")
        await table.settle()
        await table.let_time_pass(3600)

        group = table.group_texts()
        missing = {power: text for power, text in host_sentences(LOCALE, "changelings",
                                                                 "!").items()
                   if text not in group}
        assert not missing, missing
        assert replaced(LOCALE, "changelings", "Zoe", ponies[2]) in group
        assert modkilled(LOCALE, "changelings", hive[0], "changeling") & set(group)
        assert witnessed(LOCALE) in group
        assert letter_read(LOCALE) in group
        row = await table.game_row()
        assert row is not None and row.status == "ended", "\n".join(group[-20:])
        assert not await Outbox.filter(status__in=["pending", "sending", "failed",
                                                   "unknown"]).exists()
        read = [f"[{where}] {line}" for where, player, room in (
                    ("group", table.host, table.room),
                    *((name, p, p.dm) for name, p in table.players.items()))
                for event in player.from_bot(room) for text in event_texts(event)[-1:]
                if not text.startswith(GREETING)  # said on the invite, before !language
                for line in text.splitlines()]
        found = leaks(read, LOCALE, table.players, prefix="!")
        assert not found, "\n".join(f"{problem}: {line}" for line, problem in found)
    finally:
        await table.stop()
