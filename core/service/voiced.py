"""The core's prompts in the voice of the game's rule set (core/engine/voice.py): which
variant a reader is shown in the open phase."""

from __future__ import annotations

from core.engine import Game
from core.engine.voice import PROMPTS, pick
from core.storage.models import GameRecord

from . import texts

#: a prompt's core text -> its name in a rule set's voice (NOTED is the engine's)
NAMES = {getattr(texts, name): name for name in PROMPTS if hasattr(texts, name)}


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
