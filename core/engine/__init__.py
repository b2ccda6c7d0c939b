"""The pure, deterministic rules engine: no I/O, no clock, no platform types."""

from .commands import Act, Close, Command, Host, Leave, MarkEarly, Say, Tick, Vote, Whisper
from .game import OUT_OF_STORY, Event, Game, GameSetup, Outcome, replay
from .messages import GROUP, HOST, Audience, Message, Ref
from .phase import Phase
from .refusals import Refused
from .ruleset import ActionSpec, RoleSpec, Ruleset, SetupError, TeamChat

__all__ = [
    "GROUP", "HOST", "OUT_OF_STORY", "Act", "ActionSpec", "Audience", "Close", "Command",
    "Event", "Game", "GameSetup", "Host", "Leave", "MarkEarly", "Message", "Outcome", "Phase",
    "Ref", "Refused", "RoleSpec", "Ruleset", "Say", "SetupError", "TeamChat", "Tick", "Vote",
    "Whisper", "replay",
]
