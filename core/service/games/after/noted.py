"""A player's own typed choice is confirmed first, once: before "this choice is closed" when
his choice closed its window. The confirmation names the action and its target in the game's
voice, and says that it may still change only while its window is open. A pressed button
says it on its keyboard (or in its notice) instead."""

from __future__ import annotations

from dataclasses import replace

from core.engine import Act, Outcome
from core.engine.messages import Purpose
from core.engine.voice import Voiced

from ...messages import outbox
from ...messages.payloads import PostPayload, part, text_part
from ...messages.voiced import voiced
from ...rows.game_rows import seat_identities
from ...telling.audience import deliver_outcome
from ...telling.prompts import chosen_text, note_typed_choice
from ..applied import Applied, Held


async def tell_noted(applied: Applied, held: Held) -> None:
    if applied.pressed or not applied.noted:
        return
    row, game, command = applied.row, applied.game, applied.command
    person = (await seat_identities(row)).get(command.by) if isinstance(command, Act) else None
    if not isinstance(command, Act) or person is None:
        await deliver_outcome(row, game, Outcome([], list(applied.noted)))
        return
    # the rule set's "noted" (the engine's word that the choice counts), said as the choice
    parts = [text_part(chosen_text(row, game, command.by, command))]
    if not applied.new_window:  # its window is still open
        parts.append(replace(part(voiced(row, game, Voiced.CHOICE_OPEN, command.by)), line=True))
    await outbox.to_person(person, PostPayload(tuple(parts), seq=row.version,
                                               purpose=Purpose.NOTED), game=row)
    await note_typed_choice(row, person)
