"""`/stats` in a group: the sender's own record over every game he finished on this platform,
and `/stats group`: the chat's. Counted per game from the stories of finished games (so a
person `nightfall forget` removed is no longer counted under a name, nor can be asked about)."""

from __future__ import annotations

from core.engine.forms import SideForm, side_form
from core.engine.messages import N_, Param, Ref, RefKind, n_
from core.storage.models import Chat, GameRecord, Identity, Seat
from core.storage.states import GameStatus
from core.story.archive import story_of_row
from core.story.stats import group_stats, person_stats

from ..messages import outbox
from ..messages.payloads import Part, PostPayload, part

MOST_ACTIVE = 5
PERSON_NONE = N_("{name}, you have not finished a game yet.")
PERSON_HEAD = n_("{name}: {count} game finished, {won} won.",
                 "{name}: {count} games finished, {won} won.")
# the side as a predicate ("Changelings, auf der Seite der Changelinge"), so that a game named
# like its side does not read "Changelings, Changelinge"
PERSON_SIDE = n_("{ruleset}, {side_with}: won {won} of {count} game.",
                 "{ruleset}, {side_with}: won {won} of {count} games.")
PERSON_FAVOURITE = n_("Favourite role: {role} ({count} game).",
                      "Favourite role: {role} ({count} games).")
PERSON_SURVIVED = n_("Survived {survived} of {count} game.",
                     "Survived {survived} of {count} games.")
GROUP_NONE = N_("No game has finished in this chat yet.")
GROUP_HEAD = n_("This chat has finished {count} game.", "This chat has finished {count} games.")
GROUP_RULESET = n_("{ruleset}: {count} game.", "{ruleset}: {count} games.")
GROUP_SIDE = n_("{side} won {won} of {count} game ({rate} %).",
                "{side} won {won} of {count} games ({rate} %).")
GROUP_ACTIVE = n_("Most active: {names}.", "The {count} most active: {names}.")


async def stats_command(rest: str, chat: Chat, person: Identity) -> None:
    payload = await (group_payload(chat) if rest.strip().lower() == "group"
                     else person_payload(person))
    await outbox.to_group(chat, payload)


def _rendered(key: tuple[str, str], count: int, **params: Param) -> Part:
    return part(key[0], key[1], count, **params)


async def person_payload(person: Identity) -> PostPayload:
    seats = await Seat.filter(identity_id=person.id, active=True,
                              game__status=GameStatus.ENDED).prefetch_related("game")
    by_game = {seat.game_id: seat for seat in seats}  # per game: a seat is taken once
    stories = [(await story_of_row(seat.game), seat.pid) for seat in by_game.values()]
    stats = person_stats(stories)
    if not stats.games:
        return PostPayload((part(PERSON_NONE, name=person.name),))
    parts = [_rendered(PERSON_HEAD, stats.games, name=person.name, won=stats.won)]
    for (ruleset, side), count in sorted(stats.played.items()):
        parts.append(_rendered(PERSON_SIDE, count, ruleset=Ref(RefKind.RULESET, ruleset),
                               side_with=side_form(side, SideForm.WITH),
                               won=stats.wins[(ruleset, side)]))
    favourite = stats.favourite()
    if favourite is not None:
        _, role, count = favourite
        parts.append(_rendered(PERSON_FAVOURITE, count, role=Ref(RefKind.ROLE, role)))
    parts.append(_rendered(PERSON_SURVIVED, stats.games, survived=stats.survived))
    return PostPayload(tuple(parts))


async def group_payload(chat: Chat) -> PostPayload:
    rows = await GameRecord.filter(chat_id=chat.id, status=GameStatus.ENDED).order_by("id")
    games = []
    for row in rows:
        # rows of one column rather than `flat=True`, which tortoise's stubs type as a tuple
        seats = await Seat.filter(game_id=row.id, active=True).values_list("identity_id")
        games.append((await story_of_row(row), [int(i) for (i,) in seats]))
    stats = group_stats(games)
    total = sum(stats.games.values())
    if not total:
        return PostPayload((part(GROUP_NONE),))
    parts = [_rendered(GROUP_HEAD, total)]
    for ruleset, count in sorted(stats.games.items()):
        parts.append(_rendered(GROUP_RULESET, count, ruleset=Ref(RefKind.RULESET, ruleset)))
        for (r, side), n in sorted(stats.played.items()):
            if r == ruleset:
                won = stats.wins[(r, side)]
                parts.append(_rendered(GROUP_SIDE, n, side=Ref(RefKind.SIDE, side), won=won,
                                       rate=round(100 * won / n)))
    people = {i.id: i for i in await Identity.filter(id__in=list(stats.active))}
    named = [(people[i].name, n) for i, n in stats.active.most_common()
             if i in people and not people[i].ref.startswith("forgotten-")][:MOST_ACTIVE]
    if named:
        parts.append(part(*GROUP_ACTIVE, count=len(named),
                          names=tuple(f"{name} ({n})" for name, n in named)))
    return PostPayload(tuple(parts))
