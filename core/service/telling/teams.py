"""Team rooms follow the rules' private chats: a room per chat that has members, its members
kept in step, and every room closed when the game ends."""

from __future__ import annotations

from core.engine import Game, TeamChat
from core.storage.models import GameRecord, KnownTeamRoom

from ..messages import outbox, texts
from ..ports.contract import TeamKey
from ..rows.game_rows import chat_of, seat_identities


async def sync_teams(row: GameRecord, game: Game, before: list[TeamChat],
                     moved: str | None = None) -> None:
    """Team rooms follow their chats: one order for each chat whose members changed
    (or that holds the `moved` seat, now someone else's account). A chat that never had
    members gets no room."""
    old = {chat.key: chat.members for chat in before}
    changed = [chat for chat in game.ruleset.team_chats(game)
               if chat.members != old.get(chat.key, ()) or moved in chat.members]
    if not changed:
        return
    seats = await seat_identities(row)
    group = await chat_of(row)
    for chat in changed:
        await outbox.team_room(group, row, TeamKey(row.id, chat.key), chat.title, chat.about,
                               [seats[pid] for pid in chat.members if pid in seats])
    for chat in changed:
        if chat.members:
            await KnownTeamRoom.update_or_create(game=row, key=chat.key,
                                                 defaults={"title": chat.title})


async def close_teams(row: GameRecord) -> None:
    """The game is over: each team room it had says goodbye and the bot leaves it (the
    players keep it); nothing more will happen there."""
    rooms = await KnownTeamRoom.filter(game_id=row.id).order_by("id")
    if not rooms:
        return
    group = await chat_of(row)
    for room in rooms:
        await outbox.team_room(group, row, TeamKey(row.id, room.key), room.title,
                               texts.TEAM_ROOM_CLOSED, [], closed=True)
    await KnownTeamRoom.filter(game_id=row.id).delete()
