"""Every host power (`/announce` included) and every free text (the Mare Do Well's letter,
the changelings' abduction scene, a team whisper) through the real python-telegram-bot stack
against the fake Bot API: a pony game in German and an alchemists' game in Russian, each
played to its end. Each text arrives at its reader word for word, inside the sentence of the
game's language, and no chat of the game reads an English word."""

from __future__ import annotations

import pytest

from core.storage.models import Outbox
from tests.free_texts import (
    ANNOUNCED,
    LETTER,
    SCENE,
    SHORT,
    WHISPER,
    host_sentences,
    leaks,
    letter_read,
    modkilled,
    replaced,
    whispered,
    witnessed,
)

from .harness import NAMES, Table, open_table, sign_up

SETUP = {
    "changelings": ("/option random_lovers false",
                    "/setroles changeling,changeling,mare_do_well,pony,pony,pony,pony"),
    "alchemists": ("/setroles father,lust,ishvalan,xing,crystal,alchemist,alchemist,alchemist,"
                   "alchemist",),
}
HOMUNCULI = ("father", "lust")


async def roles(table: Table) -> dict[str, str]:
    """Display name → role id of the living (each player has read his role card), the host
    last: the dead are muted in the group, and the host plays on to the end there."""
    row = await table.game_row()
    assert row is not None and table.runtime.service is not None
    game = await table.runtime.service.games.load(row)
    alive = sorted((p for p in game.state.players.values() if p.alive),
                   key=lambda p: p.name == table.host.first_name)
    return {p.name: p.role for p in alive}


async def host_powers(table: Table) -> None:
    """/announce (four characters, then markup, emoji and Cyrillic), /pause, /resume and
    /extend in the group."""
    for command in (f"/announce {SHORT}", "/pause", "/resume", "/extend 5",
                    f"/announce {ANNOUNCED}"):
        await table.host.send(command, chat=table.group)
        await table.settle()


async def private(table: Table, name: str, text: str) -> None:
    await table.users[name].send(text)
    await table.settle()


async def newcomer_replaces(table: Table, seat: str, locale: str) -> None:
    """Zoe, who did not sign up, offers to play on; the host replies /replace SEAT to her."""
    zoe = table.api.user("Zoe", username="zoe_b", language_code=locale)
    table.group.add_member(zoe, announce=False)
    await zoe.start()
    hello = await zoe.send("Ich springe ein", chat=table.group)
    await table.host.reply(hello, f"/replace {seat}")
    await table.settle()
    table.users["Zoe"] = zoe


async def everyone_votes(table: Table, target: str, alive: dict[str, str]) -> None:
    """All vote for `target`, who votes for another; the day runs to its end."""
    other = next(name for name in alive if name != target)
    for name in alive:
        await table.users[name].send(f"/vote {target if name != target else other}",
                                     chat=table.group)
        await table.settle()
    await table.let_time_pass(3600)


async def pony_game(table: Table, locale: str) -> dict[str, str]:
    """Day 1 is the host's; in night 1 the changelings abduct a pony (the last of them with
    the scene) and one whispers to the other, Mare Do Well writes her letter; on day 2 a
    newcomer takes a pony's seat, the host removes a changeling, the other is banished."""
    cast = await roles(table)
    hive = [n for n, r in cast.items() if r == "changeling"]
    mare = next(n for n, r in cast.items() if r == "mare_do_well")
    ponies = [n for n, r in cast.items() if r == "pony"]
    await host_powers(table)
    await table.host.send("/force", chat=table.group)
    await table.settle()
    await private(table, hive[0], f"/abduct {ponies[0]}")
    await private(table, hive[0], WHISPER)
    await private(table, hive[1], f"/abduct {ponies[0]} {SCENE}")
    await private(table, mare, f"/letter {ponies[1]} {LETTER}")
    await newcomer_replaces(table, ponies[2], locale)
    await table.host.send(f"/modkill {hive[0]}", chat=table.group)
    await table.settle()
    await everyone_votes(table, hive[1], await roles(table))
    return {"seat": ponies[2], "removed": hive[0], "role": "changeling",
            "writer": hive[0], "reader": hive[1]}


async def alchemists_game(table: Table, locale: str) -> dict[str, str]:
    """Night 1 is the host's, lust whispers to father, who kills; the host closes the night;
    on day 1 a newcomer takes an alchemist's seat, the host removes both homunculi, and the
    ishvalan is executed."""
    cast = await roles(table)
    father, lust = (next(n for n, r in cast.items() if r == role) for role in HOMUNCULI)
    ishvalan = next(n for n, r in cast.items() if r == "ishvalan")
    alchemists = [n for n, r in cast.items() if r == "alchemist"]
    await host_powers(table)
    await private(table, lust, WHISPER)
    await private(table, father, f"/kill {alchemists[0]}")
    await table.host.send("/force", chat=table.group)
    await table.settle()
    await newcomer_replaces(table, alchemists[1], locale)
    for homunculus in (father, lust):
        await table.host.send(f"/modkill {homunculus}", chat=table.group)
        await table.settle()
    await everyone_votes(table, ishvalan, await roles(table))
    return {"seat": alchemists[1], "removed": father, "role": "father",
            "writer": lust, "reader": father}


@pytest.mark.parametrize(("ruleset", "locale"), [("changelings", "de"), ("alchemists", "ru")])
async def test_every_host_power_and_free_text_reaches_its_reader(api, tmp_path, ruleset,
                                                                 locale):
    players = 7 if ruleset == "changelings" else 9
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", players, seed=7,
                             languages=dict.fromkeys(NAMES, locale))
    try:
        await sign_up(table, f"{ruleset} {locale}", *SETUP[ruleset])
        play = pony_game if ruleset == "changelings" else alchemists_game
        cast = await play(table, locale)

        group = [m.text for m in table.group_messages()]
        missing = {power: text for power, text in host_sentences(locale, ruleset).items()
                   if text not in group}
        assert not missing, missing
        assert replaced(locale, ruleset, "Zoe", cast["seat"]) in group
        assert modkilled(locale, ruleset, cast["removed"], cast["role"]) & set(group)
        reader = [m.text for m in api.sent_to(table.users[cast["reader"]])]
        assert whispered(locale, ruleset, cast["writer"]) in reader
        if ruleset == "changelings":
            assert witnessed(locale) in group
            assert letter_read(locale) in group

        row = await table.game_row()
        assert row is not None and row.status == "ended", "\n".join(group[-30:])
        assert not await Outbox.filter(status__in=["pending", "sending", "failed",
                                                   "unknown"]).exists()
        assert api.unknown_methods == [] and api.internal_errors == []
        read = [f"[{chat}] {line}" for chat, messages in
                (("group", table.group_messages()),
                 *((name, api.sent_to(user)) for name, user in table.users.items()))
                for message in messages for line in message.text.splitlines()]
        found = leaks(read, locale, table.users)
        assert not found, "\n".join(f"{problem}: {line}" for line, problem in found)
    finally:
        await table.stop()
