"""The core's prompts in the voice of the game's rule set (core/engine/voice.py): which
variant a reader is shown in the open phase."""

from __future__ import annotations

from core.engine import Game
from core.engine.voice import EXTRA_PROMPTS, PROMPTS, Voice, pick
from core.storage.models import GameRecord

from . import texts

#: a prompt's core text -> its name in a rule set's voice (NOTED is the engine's)
NAMES = {getattr(texts, name): name for name in (*PROMPTS, *EXTRA_PROMPTS)
         if hasattr(texts, name)}


def voiced(row: GameRecord, game: Game, key: str, pid: str = "") -> str:
    """The variant of the core text `key` for this game, phase and reader (`pid`; "" for
    the group): the same for every version of one message, another on the next night or
    day. A text the voice does not name is told as it is."""
    name = NAMES.get(key)
    if name is None:
        return key
    phase = game.state.phase
    return pick(game.ruleset.voice, name, key, phase.number, row.id, phase.kind, phase.stage,
                pid)


def voiced_in_window(row: GameRecord, voice: Voice, key: str, window: int,
                     reader: object = "") -> str:
    """The variant of a window's text (`EXTRA_PROMPTS`: the notices for pressed buttons, the
    closing of the keyboards and of the vote) for this game and reader, turned on by the
    window: another one on the next night or day."""
    return pick(voice, NAMES[key], key, window, row.id, reader)
