"""The pure, deterministic rules engine: no I/O, no clock, no platform types."""

from .commands import (
    HOST_COMMANDS,
    Act,
    Announce,
    Close,
    Command,
    Extend,
    Force,
    HostCommand,
    Leave,
    MarkEarly,
    Modkill,
    Pause,
    Replace,
    Resume,
    Say,
    Tick,
    Vote,
    Whisper,
)
from .game import OUT_OF_STORY, Event, Game, GameSetup, Outcome, replay
from .messages import GROUP, HOST, Audience, Message, Ref, Text
from .phase import Phase
from .refusals import Refused
from .ruleset import ActionSpec, RoleSpec, Ruleset, SetupError, TeamChat

__all__ = [
    "GROUP", "HOST", "HOST_COMMANDS", "OUT_OF_STORY", "Act", "ActionSpec", "Announce",
    "Audience", "Close", "Command", "Event", "Extend", "Force", "Game", "GameSetup",
    "HostCommand", "Leave", "MarkEarly", "Message", "Modkill", "Outcome", "Pause", "Phase",
    "Ref", "Refused", "Replace", "Resume", "RoleSpec", "Ruleset", "Say", "SetupError",
    "TeamChat", "Text", "Tick", "Vote", "Whisper", "replay",
]
