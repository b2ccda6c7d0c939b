"""The core's prompts in the voice of the game's rule set (core/engine/voice.py): which
variant a reader is shown in the open phase."""

from __future__ import annotations

from collections.abc import Mapping

from core.engine import Game
from core.engine.ids import ActionId
from core.engine.voice import Voice, Voiced, for_action, pick
from core.storage.models import GameRecord

from . import texts

#: each prompt the service tells, with its core text (said where a rule set's voice has
#: none; NOTED is the engine's to tell)
CORE_TEXTS: Mapping[Voiced, str] = {
    Voiced.ACTION_PROMPT: texts.ACTION_PROMPT, Voiced.PICK_FIRST: texts.PICK_FIRST,
    Voiced.PICK_NEXT: texts.PICK_NEXT, Voiced.PICK_ROLE: texts.PICK_ROLE,
    Voiced.CHOICE_ACTION_ON: texts.CHOICE_ACTION_ON, Voiced.CHOICE_ACTION: texts.CHOICE_ACTION,
    Voiced.CHOICE_PAIR: texts.CHOICE_PAIR, Voiced.CHOICE_PASS: texts.CHOICE_PASS,
    Voiced.CHOICE_OPEN: texts.CHOICE_OPEN, Voiced.VOTE_PROMPT: texts.VOTE_PROMPT,
    Voiced.REMIND_VOTE: texts.REMIND_VOTE, Voiced.REMIND_CHOICE: texts.REMIND_CHOICE,
    Voiced.PROMPT_TAKEN: texts.PROMPT_TAKEN, Voiced.CHOICES_CLOSED: texts.CHOICES_CLOSED,
    Voiced.VOTE_CLOSED: texts.VOTE_CLOSED}


def voiced(row: GameRecord, game: Game, prompt: Voiced, pid: str = "", nth: int = 0,
           action: ActionId | None = None) -> str:
    """The variant of `prompt` for this game, phase and reader (`pid`; "" for the group):
    the same for every version of one message, another on the next night or day; `nth`
    moves on by as many, for the reader's several prompts of one kind in one phase. With an
    `action`, the voice's own variants for that action where it has them (`for_action`)."""
    phase = game.state.phase
    name = for_action(prompt, action) if action else prompt
    if name not in game.ruleset.voice:
        name = prompt
    return pick(game.ruleset.voice, name, CORE_TEXTS[prompt], phase.number + nth, row.id,
                phase.kind, phase.stage, pid)


def voiced_in_window(row: GameRecord, voice: Voice, prompt: Voiced, window: int,
                     reader: object = "") -> str:
    """The variant of a window's text (`EXTRA_PROMPTS`: the notices for pressed buttons, the
    closing of the keyboards and of the vote) for this game and reader, turned on by the
    window: another one on the next night or day."""
    return pick(voice, prompt, CORE_TEXTS[prompt], window, row.id, reader)
