"""Team rooms follow the rules' private chats: a room per chat that has members, its members
kept in step, and every room closed when the game ends."""

from __future__ import annotations

from core.engine import Game, TeamChat
from core.storage.models import Game as GameRow
from core.storage.models import KeyValue

from . import outbox, texts
from .stored import seat_identities


def _rooms_key(row: GameRow) -> str:
    return f"teams-{row.id}"


async def sync_teams(row: GameRow, game: Game, before: list[TeamChat],
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
    group = await row.chat
    for chat in changed:
        await outbox.team_room(group, row, f"{row.id}/{chat.key}", chat.title, chat.about,
                               [seats[pid] for pid in chat.members if pid in seats])
    ordered = await KeyValue.get_or_none(key=_rooms_key(row))
    known = dict(ordered.value) if ordered is not None else {}
    known.update({chat.key: chat.title for chat in changed if chat.members})
    await KeyValue.update_or_create(key=_rooms_key(row), defaults={"value": known})


async def close_teams(row: GameRow) -> None:
    """The game is over: each team room it had says goodbye and the bot leaves it (the
    players keep it); nothing more will happen there."""
    ordered = await KeyValue.get_or_none(key=_rooms_key(row))
    if ordered is None:
        return
    group = await row.chat
    for key, title in ordered.value.items():
        await outbox.team_room(group, row, f"{row.id}/{key}", title, texts.TEAM_ROOM_CLOSED,
                               [], closed=True)
    await ordered.delete()
