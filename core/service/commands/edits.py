"""Edited messages, as the forum game master read them: "Votes in editierten Posts sind
ungültig" — a vote in a message that was later edited does not count.

So the vote a typed message cast is remembered with that message (`VoteMessage`); an edit of
it, while it is still the player's current vote in the same window, withdraws the vote, and
the edited text counts for nothing (a vote changed silently by an edit is what the rule
forbids). An early vote (alchemists' AL-EARLY) can be neither changed nor withdrawn: it
stays. An edit of any other command changes nothing. Whoever edited a command is told what
happened, every time (he may believe the edit counted), in his language; an edited chatter
message in a group is nobody's business.
"""

from __future__ import annotations

from core.engine import Vote
from core.engine.ids import PlayerId
from core.engine.messages import player
from core.storage.models import GameRecord, Identity, LogEntry, Seat, VoteMessage
from core.storage.states import GameStatus

from ..games.running import Games
from ..messages import outbox, texts
from ..messages.payloads import post
from ..ports.contract import Incoming
from ..rows.game_rows import locked_game


async def note_vote(row: GameRecord, pid: str, window: int, message: str | None) -> None:
    """The player's current vote was cast by this typed message, the game's newest log entry.
    (A vote no edit can reach — a button, a command without a message id — writes nothing:
    the log shows it came later, see `_still_current`.)"""
    if message is not None:
        await VoteMessage.update_or_create(
            defaults={"window": window, "message": message, "seq": row.version},
            game_id=row.id, pid=pid)


async def _still_current(cast: VoteMessage, row: GameRecord) -> bool:
    """Whether the message's vote is still the player's: no vote of his (a button, /unvote,
    another message) was logged after it."""
    later = await LogEntry.filter(game_id=row.id, seq__gt=cast.seq).values_list(
        "command", flat=True)
    return not any(isinstance(c, dict) and c.get("type") == "Vote" and c.get("by") == cast.pid
                   for c in later)


async def edited(incoming: Incoming, person: Identity, games: Games, now: float) -> None:
    """An edit of the person's message `incoming.edits` (its new text `incoming.text`)."""
    seat = await Seat.filter(identity_id=person.id, active=True,
                             game__status=GameStatus.RUNNING).order_by("-id").first()
    row = await locked_game(seat.game_id) if seat is not None else None
    cast = None if row is None or seat is None else await VoteMessage.get_or_none(
        game_id=row.id, pid=seat.pid)
    if row is not None and seat is not None and cast is not None \
            and cast.message == incoming.edits and cast.window == row.window \
            and await _still_current(cast, row):
        game = await games.load(row)
        voter = PlayerId(seat.pid)
        target = game.state.votes.get(voter)
        if target is not None:
            withdraw = Vote(voter, None, at=now)
            if game.check(withdraw) is not None:  # an early vote: it stays
                await outbox.to_person(person, post(texts.EDIT_VOTE_STAYS,
                                                    name=player(target)), game=row)
                return
            await cast.delete()
            await outbox.to_person(person, post(texts.EDIT_VOTE_WITHDRAWN,
                                                name=player(target)), game=row)
            await games.apply(row, withdraw, person, locked=True)
            return
    if incoming.private or incoming.command is not None:
        await outbox.to_person(person, post(texts.EDIT_IGNORED), game=row)
