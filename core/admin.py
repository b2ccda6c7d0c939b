"""A host's tools over the stored games: a finished game's full log as JSON, the community's
statistics, and forgetting a person on request.

Running games are left alone: their log is still secret (export) and must keep replaying to
the stored snapshot (forget), so both refuse until the game is over.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core.engine import replay
from core.engine.log_codec import command_from_json, encode, setup_from_json
from core.engine.registry import load_ruleset
from core.plugins import forget_in_adapters
from core.storage.models import GameRecord, Identity, LogEntry, Outbox, Prompt, Seat
from core.storage.states import GameStatus

FINISHED = (GameStatus.ENDED, GameStatus.CANCELLED)


class AdminError(Exception):
    """What the host asked for cannot be done (the message says why)."""


async def export_game(game_id: int) -> dict[str, Any]:
    """Everything about one finished game: setup, seats, every command with its events, the
    winners and every player's final role and side."""
    row = await GameRecord.get_or_none(id=game_id).prefetch_related("chat")
    if row is None:
        raise AdminError(f"there is no game {game_id}")
    if row.status not in FINISHED:
        raise AdminError(f"game {game_id} is still {row.status}: its log is secret until it ends")
    seats = await Seat.filter(game_id=row.id).order_by("position", "id") \
        .prefetch_related("identity")
    entries = await LogEntry.filter(game_id=row.id).order_by("seq")
    result: dict[str, Any] = {
        "game": row.id, "ruleset": row.ruleset, "status": row.status,
        "chat": {"platform": row.chat.platform, "ref": row.chat.ref},
        "created_at": row.created_at.isoformat(), "settings": row.settings, "setup": row.setup,
        "seats": [{"pid": s.pid, "name": s.identity.name, "platform": s.identity.platform,
                   "active": s.active} for s in seats],
        "log": [{"seq": e.seq, "command": e.command, "events": e.events} for e in entries],
    }
    if row.setup is not None:
        game = _replayed(row, entries)
        result["winners"] = list(game.state.winners or [])
        result["players"] = [{"pid": p.pid, "name": p.name, "role": p.role,
                              "side": game.ruleset.side_of(game, p), "alive": p.alive,
                              "cause": p.cause} for p in game.state.players.values()]
    return encode(result)  # type: ignore[no-any-return]


def _replayed(row: GameRecord, entries: list[LogEntry]) -> Any:
    return replay(load_ruleset(row.ruleset), setup_from_json(row.setup or {}),
                  [command_from_json(e.command) for e in entries])


async def community_stats(top: int = 10) -> dict[str, Any]:
    """Games per rule set, win rates per side and per role, the most active players."""
    per_ruleset: Counter[str] = Counter()
    sides_played: Counter[tuple[str, str]] = Counter()
    sides_won: Counter[tuple[str, str]] = Counter()
    roles_played: Counter[tuple[str, str]] = Counter()
    roles_won: Counter[tuple[str, str]] = Counter()
    for row in await GameRecord.filter(status=GameStatus.ENDED).order_by("id"):
        per_ruleset[row.ruleset] += 1
        entries = await LogEntry.filter(game_id=row.id).order_by("seq")
        game = _replayed(row, entries)
        winners = set(game.state.winners or [])
        sides = set()
        for p in game.state.players.values():
            side = game.ruleset.side_of(game, p)
            sides.add(side)
            roles_played[(row.ruleset, p.role)] += 1
            if side in winners:
                roles_won[(row.ruleset, p.role)] += 1
        for side in sides:  # a side's win rate is per game it played, not per seat
            sides_played[(row.ruleset, side)] += 1
            sides_won[(row.ruleset, side)] += side in winners
    activity: Counter[int] = Counter()
    seats = await Seat.filter(game__status__in=[GameStatus.ENDED, GameStatus.RUNNING]).values_list(
        "game_id", "identity_id")
    for _, identity in set(seats):  # leaving the sign-up and joining again is one game
        activity[identity] += 1
    names = {i.id: i.name for i in await Identity.filter(id__in=list(activity))}
    return {
        "games": dict(per_ruleset),
        "sides": [{"ruleset": r, "side": s, "played": n, "won": sides_won[(r, s)],
                   "win_rate": round(sides_won[(r, s)] / n, 3)}
                  for (r, s), n in sorted(sides_played.items())],
        "roles": [{"ruleset": r, "role": role, "played": n, "won": roles_won[(r, role)],
                   "win_rate": round(roles_won[(r, role)] / n, 3)}
                  for (r, role), n in sorted(roles_played.items())],
        "most_active": [{"name": names.get(i, "?"), "games": n}
                        for i, n in activity.most_common(top)],
    }


async def forget_person(platform: str, ref: str) -> int:
    """Delete what identifies a person: their account reference, name and languages, their
    whispers, and the delivery history of their games; their seats stay (anonymous), so the
    games and statistics remain whole. Returns how many games were scrubbed."""
    person = await Identity.get_or_none(platform=platform, ref=ref)
    if person is None:
        raise AdminError(f"nobody with the {platform} id {ref} is known")
    seats = await Seat.filter(identity_id=person.id).prefetch_related("game")
    if any(seat.game.status not in FINISHED for seat in seats):
        raise AdminError("this person is in a game that is not over yet; try again after it")
    placeholder = f"forgotten-{person.id}"
    scrubbed = 0
    for seat in seats:
        row = seat.game
        name = person.name
        if row.setup is not None:
            row.setup = {**row.setup, "players": [
                [pid, placeholder if shown == name and pid == seat.pid else shown]
                for pid, shown in row.setup["players"]]}
            row.snapshot = None  # the finished game is never loaded to play again
            await row.save(update_fields=["setup", "snapshot"])
        for entry in await LogEntry.filter(game_id=row.id):
            command = entry.command
            if command.get("type") == "Whisper" and command.get("by") == seat.pid:
                entry.command = {**command, "text": "…"}
            elif command.get("type") == "Replace" and command.get("newcomer") == name:
                entry.command = {**command, "newcomer": placeholder}  # came in as a newcomer
            elif command.get("type") == "Host" and command.get("by") == name:
                entry.command = {**command, "by": placeholder}  # the same, as older logs say
            else:
                continue
            await entry.save(update_fields=["command"])
        await Outbox.filter(game_id=row.id).delete()
        scrubbed += 1
    await Outbox.filter(identity_id=person.id).delete()
    await Prompt.filter(identity_id=person.id).delete()  # what was offered to him
    await forget_in_adapters(platform, ref)  # what the platform's adapter keeps of him
    person.ref = placeholder
    person.name = placeholder
    person.locale = None
    person.locale_hint = None
    await person.save()
    return scrubbed
