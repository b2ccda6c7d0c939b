"""The dead go silent: muted in the group (where the platform lets the bot) and invited to
the spectators' chat; everybody may speak again when the game is over. A host who played is
muted like any dead player, and told that he hosts on from his private chat."""

from __future__ import annotations

from core.engine import Game
from core.engine.causes import OutOfStory
from core.engine.ids import PlayerId
from core.storage.models import GameRecord

from ..messages import outbox, texts
from ..messages.payloads import post
from ..rows.game_rows import chat_of, seat_identities


async def silence_removed(row: GameRecord, pids: list[PlayerId], going_on: bool = True) -> None:
    """The rules silence the dead in the group: mute them there (where the platform lets
    the bot) and invite them to the spectators' chat, if the host named one. The rules do
    not silence the host: if he was a player and the game is `going_on`, he hears that his
    host powers work from the private chat (the group no longer takes them from him)."""
    if not pids:
        return
    seats = await seat_identities(row)
    chat = await chat_of(row)
    link = (chat.settings or {}).get("spectators")
    for pid in pids:
        person = seats.get(pid)
        if person is None:
            continue
        await outbox.silence(chat, person, muted=True, game=row)
        if going_on and person.id == row.host_id:
            await outbox.to_person(person, post(texts.HOST_POWERS_PRIVATE), game=row)
        if link:
            await outbox.to_person(person, post(texts.SPECTATORS_INVITE, link=link),
                                   game=row)


async def unmute_the_dead(row: GameRecord, game: Game) -> None:
    """The game is over: everybody may speak again — but for those an admin put out of the
    group, who were never muted (unmuting a banned Telegram member would lift his ban)."""
    seats = await seat_identities(row)
    chat = await chat_of(row)
    for p in game.state.players.values():
        if not p.alive and p.pid in seats and p.cause != OutOfStory.KICKED:
            await outbox.silence(chat, seats[p.pid], muted=False, game=row)
