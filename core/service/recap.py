"""What the bot told a player privately in his running game, told again on request
(private /status): for the player whose message never arrived (a send Telegram did not
confirm in time is not repeated, to never post anything twice), or who lost track."""

from __future__ import annotations

from typing import Any

from core.engine.messages import NOTED
from core.storage.models import GameRecord, Identity, Outbox, Prompt

from . import outbox, texts
from .codec import text_payload
from .replies import Reply

LATEST = 4  # the newest messages told again, beside the role card


def _parts(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored message's texts, without its buttons (they belong to their own phase)."""
    head = {k: payload[k] for k in ("key", "plural", "count", "params") if k in payload}
    return [head, *payload.get("more", ())]


async def recap(row: GameRecord, person: Identity, everything: bool = False) -> None:
    """The role card (the game's opening messages to him) and the newest messages since;
    `everything` (/myrole): every result he was told, without the prompts and reminders."""
    told = await Outbox.filter(game_id=row.id, identity_id=person.id, private=True,
                               status__in=["sent", "unknown", "failed"]).order_by("id")
    told = [r for r in told if "key" in r.payload]
    opening = [r for r in told if r.payload.get("seq") == 0]
    later = [r for r in told if r.payload.get("seq") != 0]
    if everything:  # what he learned: engine messages, no keyboards, no service notices,
        # no acknowledgements of his own choices
        later = [r for r in later if "seq" in r.payload and not r.payload.get("buttons")
                 and r.payload.get("key") != NOTED]
    else:
        later = later[-LATEST:]
    parts = [part for r in (*opening, *later) for part in _parts(r.payload)]
    if not parts:
        await outbox.to_person(person, text_payload(texts.RECAP_NOTHING), game=row)
        return
    await outbox.to_person(person, {**text_payload(texts.RECAP), "more": parts}, game=row)


async def newcomer_named(platform: str, named: str,
                         mentioned: tuple[tuple[str, str, str | None], ...]) -> Identity:
    """The account a host means in /replace: the one he replied to or mentioned, else the
    one with that @username or (Matrix) user id, else the one person of that name the bot
    knows. A name nobody answers to is refused: a seat given to it would reach nobody."""
    if mentioned:
        ref, name, handle = mentioned[0]
        person, _ = await Identity.get_or_create(
            platform=platform, ref=ref, defaults={"name": name, "handle": handle})
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
        raise Reply(texts.NEWCOMER_UNKNOWN, name=typed or "?")
    return found[0]


async def brief_newcomer(row: GameRecord, old: Identity, new: Identity) -> None:
    """The newcomer learns what the seat knows — the role card, the team, what it was told
    since (checks, lovers) — and is offered what is still open in this window."""
    told = await Outbox.filter(game_id=row.id, identity_id=old.id, private=True,
                               status__in=["sent", "unknown", "failed", "pending"]) \
        .order_by("id")
    parts = [part for r in told if "key" in r.payload for part in _parts(r.payload)]
    if parts:
        await outbox.to_person(new, {**text_payload(texts.RECAP_SEAT), "more": parts},
                               game=row)
    for entry in await Prompt.filter(game_id=row.id, window=row.window,
                                     identity_id=old.id).order_by("id"):
        version = await outbox.newest_version(row.id, entry.message_key, identity_id=old.id)
        buttons = (version.payload.get("buttons") or []) if version is not None else []
        entry.identity_id = new.id
        entry.message_key = f"{entry.message_key}-{new.id}"
        await outbox.to_person(new, {**entry.payload, "replace": entry.message_key},
                               game=row, buttons=buttons)
        await entry.save(update_fields=["identity_id", "message_key"])
