"""What the bot told a player privately in his running game, told again on request
(private /status): for the player whose message never arrived (a send Telegram did not
confirm in time is not repeated, to never post anything twice), or who lost track."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine.messages import Purpose
from core.storage.models import GameRecord, Identity, Outbox, Prompt
from core.storage.states import SETTLED, OutboxState

from ..messages import outbox, texts
from ..messages.payloads import KeyboardPayload, PostPayload, TextPayload, part, post
from ..ports.contract import Mention
from ..ports.howto import HowTo, howto
from ..ports.replies import Reply
from ..rows import pending
from .prompts import prompt_parts

LATEST = 4  # the newest messages told again, beside the role card


def _told(rows: list[Outbox]) -> list[TextPayload]:
    """The texts among stored rows (not the mutes and team rooms)."""
    payloads = (outbox.stored(r) for r in rows)
    return [p for p in payloads if isinstance(p, TextPayload)]


async def recap(row: GameRecord, person: Identity, everything: bool = False) -> None:
    """The role card (the game's opening messages to him) and the newest messages since;
    `everything` (/myrole): every result he was told, without the prompts and reminders."""
    await pending.flush()  # what waits to be written is read too
    told = await Outbox.filter(game_id=row.id, identity_id=person.id, private=True,
                               status__in=SETTLED).order_by("id")
    texts_told = _told(told)
    opening = [p for p in texts_told if isinstance(p, PostPayload) and p.seq == 0]
    later = [p for p in texts_told if not isinstance(p, PostPayload) or p.seq != 0]
    if everything:  # what he learned: engine messages, no keyboards, no service notices,
        # no acknowledgements of his own choices
        later = [p for p in later if isinstance(p, PostPayload) and p.seq is not None
                 and p.purpose is not Purpose.NOTED]
    else:
        later = later[-LATEST:]
    parts = [told_part for p in (*opening, *later) for told_part in p.parts]
    if not parts:
        await outbox.to_person(person, post(texts.RECAP_NOTHING), game=row)
        return
    await outbox.to_person(person, PostPayload((part(texts.RECAP), *parts)), game=row)


async def newcomer_named(platform: str, named: str,
                         mentioned: Sequence[Mention]) -> Identity:
    """The account a host means in /replace: the one he replied to or mentioned, else the
    one with that @username or (Matrix) user id, else the one person of that name the bot
    knows. A name nobody answers to is refused: a seat given to it would reach nobody."""
    pointed = next((m for m in mentioned if m.user is not None), None)
    if pointed is not None and pointed.user is not None:
        person, _ = await Identity.get_or_create(
            platform=platform, ref=pointed.user.id,
            defaults={"name": pointed.name, "handle": pointed.handle})
        return person
    typed = named.strip()
    if typed.startswith("@") and ":" in typed:  # a Matrix user id: the bot may write to it
        person, _ = await Identity.get_or_create(
            platform=platform, ref=typed, defaults={"name": typed[1:].split(":")[0]})
        return person
    if typed.startswith("@"):
        found = [p for p in await Identity.filter(platform=platform, anonymous=False)
                 if (p.handle or "").casefold() == typed[1:].casefold()]
    else:
        found = await Identity.filter(platform=platform, name=typed, anonymous=False) \
            if typed else []
    if len(found) != 1:
        raise Reply(texts.NEWCOMER_UNKNOWN, name=typed or "?", how=howto(HowTo.NAME_NEWCOMER))
    return found[0]


async def brief_newcomer(row: GameRecord, old: Identity, new: Identity) -> None:
    """The newcomer learns what the seat knows — the role card, the team, what it was told
    since (checks, lovers): what the game told it, not what the bot told the old player
    (his sign-up, answers to his commands, keyboards of windows gone) — and is offered what
    is still open in this window."""
    await pending.flush()  # what waits to be written is read too
    told = await Outbox.filter(game_id=row.id, identity_id=old.id, private=True,
                               status__in=[*SETTLED, OutboxState.PENDING]) \
        .order_by("id")
    parts = [told_part for p in _told(told) if isinstance(p, PostPayload) and p.seq is not None
             for told_part in p.parts]
    if parts:
        await outbox.to_person(new, PostPayload((part(texts.RECAP_SEAT), *parts)), game=row)
    for entry in await Prompt.filter(game_id=row.id, window=row.window,
                                     identity_id=old.id).order_by("id"):
        version = await outbox.newest_version(row.id, entry.message_key, identity_id=old.id)
        entry.identity_id = new.id
        entry.message_key = f"{entry.message_key}-{new.id}"
        await outbox.to_person(new, KeyboardPayload(
            prompt_parts(entry.payload), outbox.offered_buttons(version),
            entry.message_key, window=row.window), game=row)
        await entry.save(update_fields=["identity_id", "message_key"])
