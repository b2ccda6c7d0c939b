"""A host who plays and is out of the game is muted in the group like every dead player (the
rules silence the dead), but he still hosts: his host powers work from his private chat with
the bot, with the same effects in the group, and he is told so when he is removed."""

from __future__ import annotations

from core.service import ChatEvent, ChatRef, Command, Incoming, UserRef
from core.service.messages.outbox import stored
from core.service.messages.payloads import SilencePayload
from core.storage.models import Identity, Outbox

from .helpers import PLAYERS, log_size, open_chat, started_changelings, the_game

OUT = ("[to Ann] You are out of the game, but you are still its host: write your host powers "
       "to me here (/pause, /resume, /extend, /force, /modkill, /replace, /announce). /help "
       "lists them.")
HOST_HELP = "[to Ann] You host a game: your host powers work here as in the group."


async def roles_by_name(chat) -> dict[str, str]:
    game = await chat.session.service.games.load(await the_game())
    return {p.name: p.role for p in game.state.players.values()}


async def muted(name: str) -> bool:
    """Whether the bot ordered the group to mute this person (and not to let him speak)."""
    person = await Identity.get(ref=name)
    orders = [order.muted for order in map(stored, await Outbox.filter(
        identity_id=person.id, private=False).order_by("id"))
        if isinstance(order, SilencePayload)]
    return bool(orders) and orders[-1]


async def test_an_abducted_host_hosts_on_from_his_private_chat(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    roles = await roles_by_name(chat)
    assert roles["Ann"] != "changeling"  # (the deal of seed 7: Ann can be abducted)
    hive = [name for name, role in roles.items() if role == "changeling"]
    await chat(":wait 3m")  # the election closes; night 1 falls
    lines = await chat(*(f"{name}> /abduct Ann" for name in hive), ":wait 1h")
    # the morning tells of her abduction (in whichever of its variants the game's bag drew)
    assert any(line.startswith("[group]") and "Ann" in line
               and any(w in line for w in ("abduct", "taken", "snatched", "carried off"))
               for line in lines)
    assert await muted("Ann")  # dead players go silent in the group, the host too
    assert lines.count(OUT) == 1

    announced = await chat("Ann> /announce Tea at noon")
    assert "[group] Announcement from the host: Tea at noon" in announced
    extended = await chat("Ann> /extend 10")
    assert "[group] The host extended the deadline by 10 minutes." in extended
    assert "[group] Time left now: 14 minutes." in extended
    victim = next(name for name, role in roles.items() if role == "pony" and name != "Ann")
    removed = await chat(f"Ann> /modkill {victim}")
    # told in whichever of the removal's variants the game's bag drew
    assert any(line.startswith("[group]") and victim in line and "host" in line
               and "a pony" in line for line in removed)
    forced = await chat("Ann> /force")
    assert "[group] The host closes the current phase." in forced
    game = await chat.session.service.games.load(await the_game())
    assert (game.state.phase.kind, game.state.phase.number) == ("night", 2)
    assert not any(line.startswith("[to Ann]") for line in announced + extended + removed
                   + forced)  # nothing refused

    helped = await chat("Ann> /help")
    assert helped[0].startswith("[to Ann] Send me your night actions privately")
    assert helped[1].startswith(HOST_HELP) and "/announce TEXT" in helped[1]

    before = await log_size()
    refused = await chat(f"{hive[0]}> /pause", "Ann> /modkill Xavier", "Ann> /extend soon")
    assert refused == [f"[to {hive[0]}] Only the host can do that.",
                       "[to Ann] Nobody in this game is called Xavier.",
                       "[to Ann] Write the number of minutes, for example /extend 10."]
    assert await log_size() == before


async def test_a_host_who_does_not_play_reads_only_the_host_powers_in_help(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame", "Ann: /leave")
    assert await chat("Ann> /help") == [HOST_HELP + " /pause, /resume, /extend MINUTES, "
                                        "/force, /modkill NAME, /replace NAME NEWCOMER (named "
                                        "as /help in the group says), /announce TEXT (I post "
                                        "it in the group)."]
    assert await chat("Ann> /pause") == ["[to Ann] The game has not started yet."]
    helped = " ".join(await chat("Bob> /help"))  # Bob is in no game: welcomed first
    assert helped.startswith("[to Bob] Hello! I am Nightfall")
    assert "Send me your night actions" in helped


async def test_a_host_of_two_running_games_is_sent_to_the_group(db_url):
    """A host who left his own sign-up may open a game elsewhere: from the private chat the
    bot cannot tell which of his games he means."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame", "Ann: /leave", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /startgame")
    other = ChatRef("other")
    service = chat.session.service
    for number, (name, text) in enumerate([("Ann", "/newgame"), *(
            (p, "/join") for p in ("Hal", "Ivy", "Jon", "Kim", "Lou")), ("Ann", "/startgame")]):
        await service.handle(Incoming(platform="console", update_id=f"other-{number}",
                                      user=UserRef(name), user_name=name, text=text,
                                      command=Command.parse(text), chat=other))
    await chat.session.pump()
    chat.new()
    before = await log_size()
    assert await chat("Ann> /pause") == [
        "[to Ann] You host more than one game: use your host powers in the group of the game "
        "you mean."]
    assert await log_size() == before


async def test_a_game_whose_group_is_lost_is_not_resumed_from_private(db_url):
    """Nothing may be decided that nobody can read: /resume waits until the bot can write in
    the group again."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    service = chat.session.service
    group = ChatRef("group")
    await service.chat_event(ChatEvent("console", group, "lost", reason="removed"))
    await chat.session.pump()
    chat.new()
    assert await chat("Ann> /resume") == [
        "[to Ann] I still cannot write in group, so the game stays paused. Write /resume "
        "again once I can write there."]
    assert (await service.games.load(await the_game())).state.paused
    await service.chat_event(ChatEvent("console", group, "restored"))
    await chat.session.pump()
    assert "[group] The host resumed the game." in await chat("Ann> /resume")
    assert not (await service.games.load(await the_game())).state.paused
