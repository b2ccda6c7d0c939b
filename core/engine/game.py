"""The engine: one game, commands in, events and messages out.

`Game.apply` validates a command completely before it changes anything, so a `Refused` leaves
the state untouched (the random generator included). Accepted commands are logged with the
events they caused; `replay` rebuilds the same state from the setup and that log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .causes import OUT_OF_STORY, OutOfStory
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
from .dealing import options_and_roles
from .events import Event, HostActed, Left, closed, closed_early, removed, voted
from .hooks_heard import hooks_heard
from .ids import ActionId, PlayerId
from .messages import GROUP, N_, Ref, RefKind, player, to_player
from .outcome import GameSetup, Outcome
from .phase import Phase, PhaseKind, Stage
from .refusals import Refused, refused_n
from .rules import Rules
from .specs import ActionSpec
from .state import GameState, Player, Submission
from .statuses import Status
from .table import Table

WHISPER_MAX = 2000


class Game(Table):
    """One running game. Rule sets call the helper methods below (and `Table`'s) while a
    command is applied."""

    __slots__ = ("_hears_activity", "_hears_votes", "_out", "log", "opening", "ruleset", "setup",
                 "state")  # read all the time

    def __init__(self, ruleset: Rules[Game], setup: GameSetup) -> None:
        self.ruleset: Rules[Game] = ruleset
        # whether the rule set's activity and vote hooks do anything: every action and vote
        # would otherwise call an empty one (alchemists hear no activity, changelings no votes)
        self._hears_activity, self._hears_votes = hooks_heard(type(ruleset))
        self.setup = setup
        rng = random.Random(setup.seed)
        options, roles = options_and_roles(ruleset, setup, rng)
        players = {
            pid: Player(pid=pid, name=name, seat=i, role=roles[i], last_active=setup.at)
            for i, (pid, name) in enumerate(setup.players)
        }
        self.state = GameState(
            ruleset=ruleset.id, seed=setup.seed, options=options, players=players,
            phase=Phase(PhaseKind.DAY, 1, Stage.SETUP), rng=rng, rs=ruleset.new_state(),
            clock=setup.at,
        )
        self.log: list[tuple[Command, Outcome]] = []
        self._out = Outcome()
        ruleset.start(self, dict(setup.setup), setup.start)
        self.opening = self._out
        self._out = Outcome()

    # ------------------------------------------------------------------ applying commands
    def apply(self, command: Command) -> Outcome:
        """Apply one command; raise `Refused` (state untouched) if the rules forbid it.

        Each command type has a validator (may raise, changes nothing) and a performer.
        """
        s = self.state
        kind = type(command)
        if kind not in _ANY_TIME:
            if s.phase.kind is _ENDED:  # (a phase's kind is always a member)
                raise Refused(N_("The game is over."))
            # a pause refuses commands, not talk: a group message still counts as activity
            # (and a player may still leave, as the host may still remove him)
            if s.paused and kind is not Close and kind is not Say and kind is not Leave:
                raise Refused(N_("The game is paused."))
        validate, perform = _HANDLERS[kind]
        checked = validate(self, command)
        # `Outcome([], [])` with its slots filled directly, not by the generated `__init__`
        self._out = out = _blank(Outcome)
        out.events, out.messages = [], []
        if command.at > s.clock:
            s.clock = command.at
        perform(self, command, checked)
        if s.options.get("early_close"):
            self._maybe_close_early()
        self.log.append((command, out))
        return out

    def check(self, command: Command) -> Refused | None:
        """Whether the command would be refused (and why), without applying it: its type's
        validator, which changes nothing (asked before a replacement or a leaving is confirmed)."""
        try:
            _HANDLERS[type(command)][0](self, command)
        except Refused as refusal:
            return refusal
        return None

    def _perform_act(self, command: Act, spec: ActionSpec) -> None:
        s = self.state
        p = s.players[command.by]
        if command.at > p.last_active:  # `_activity`, written out: every action passes here
            p.last_active = command.at
        if self._hears_activity:
            self.ruleset.on_activity(self, p)
        sub = _blank(Submission)  # filled slot by slot: cheaper than calling the class
        sub.actor, sub.action, sub.targets = p.pid, spec.id, command.targets
        sub.text, sub.role, sub.seq = command.text, command.role, s.next_seq()
        s.subs[(p.pid, spec.slot or spec.id)] = sub  # the spec's `slot_id`
        s.acted.add(p.pid)
        self.ruleset.after_act(self, sub)

    def _validate_early(self, command: MarkEarly) -> None:
        self.ruleset.check_early(self, self.player_or_refuse(command.by))

    def _perform_early(self, command: MarkEarly, _: None) -> None:
        p = self.state.players[command.by]
        self._activity(p, command.at)
        p.statuses.add(_EARLY)
        self.tell(GROUP, N_("{voter} fixes the vote as early."), voter=player(p.pid))
        if self._hears_votes:
            self.ruleset.after_vote(self, p.pid)

    def _validate_say(self, command: Say) -> None:
        self.player_or_refuse(command.by)

    def _perform_say(self, command: Say, _: None) -> None:
        self._activity(self.state.players[command.by], command.at)

    def _validate_whisper(self, command: Whisper) -> list[PlayerId]:
        sender = self.player_or_refuse(command.by)
        text = command.text.strip()
        if not text:
            raise Refused(N_("Write something to send."))
        if len(text) > WHISPER_MAX:
            raise refused_n("A message may be at most {count} character long.",
                            "A message may be at most {count} characters long.", WHISPER_MAX)
        if command.to is not None:
            self.player_or_refuse(command.to)
        return self.ruleset.whisper_recipients(self, sender, command.to)

    def _perform_whisper(self, command: Whisper, recipients: list[PlayerId]) -> None:
        sender = self.state.players[command.by]
        self._activity(sender, command.at)
        for pid in recipients:
            self.tell(to_player(pid), N_("{name} whispers: {text}"), name=player(sender.pid),
                      text=command.text.strip())

    def _nothing(self, command: Command, _: None = None) -> None:
        """The validator of a command nothing refuses, the performer of a tick."""

    def _perform_close(self, command: Close, _: None) -> None:
        if self.state.paused:
            return
        self.record(closed(self.state.phase))
        self.ruleset.close(self)

    def _activity(self, p: Player, at: float) -> None:
        if at > p.last_active:
            p.last_active = at
        if self._hears_activity:
            self.ruleset.on_activity(self, p)

    def _maybe_close_early(self) -> None:
        s = self.state
        guard = 0
        while (not s.paused and s.phase.kind != PhaseKind.ENDED
               and self.ruleset.window_complete(self)):
            self.record(closed_early(s.phase))
            self.ruleset.close(self)
            guard += 1
            if guard > 50:
                raise RuntimeError("early close does not settle")

    # ------------------------------------------------------------------ validation
    def player_or_refuse(self, pid: PlayerId) -> Player:
        p = self.state.players.get(pid)
        if p is None:
            raise _no_such_player(pid)
        return p

    def _spec(self, p: Player, action: ActionId) -> ActionSpec:
        for spec in self.ruleset.abilities(self, p):
            if spec.id == action:
                return spec
        raise Refused(N_("You cannot use “{action}” now."), action=Ref(RefKind.ACTION, action))

    def _validate_act(self, cmd: Act) -> ActionSpec:
        # Players are looked up here rather than through `player_or_refuse`: every action and
        # vote of every game passes through these two validators.
        players = self.state.players
        p = players.get(cmd.by)
        if p is None:
            raise _no_such_player(cmd.by)
        if not p.alive and not self.ruleset.may_act_removed(self, p, cmd.action):
            raise Refused(N_("You are no longer in the game."))
        spec = self._spec(p, cmd.action)
        if self.state.phase.stage not in spec.stages:
            raise Refused(N_("You cannot use “{action}” in this phase."),
                          action=Ref(RefKind.ACTION, cmd.action))
        if len(cmd.targets) != spec.targets:
            raise refused_n("This action needs {count} target.",
                            "This action needs {count} targets.", spec.targets)
        if len(cmd.targets) > 1 and len(set(cmd.targets)) != len(cmd.targets):
            raise Refused(N_("Name different players."))
        for target in cmd.targets:
            t = players.get(target)
            if t is None:
                raise _no_such_player(target)
            if spec.removed_targets and t.alive:
                raise Refused(N_("{target} is still in the game."), target=player(t.pid))
            if not t.alive and not spec.removed_targets:
                raise Refused(N_("{target} is no longer in the game."), target=player(t.pid))
            if t.pid == p.pid and not spec.self_ok:
                raise Refused(N_("You cannot choose yourself for this."))
        if cmd.text is not None and (not spec.text_max or len(cmd.text) > spec.text_max):
            raise refused_n("The text may be at most {count} character long.",
                            "The text may be at most {count} characters long.", spec.text_max)
        if spec.takes_role != (cmd.role is not None):
            raise Refused(N_("Name a role for this action.") if spec.takes_role
                          else N_("This action takes no role."))
        self.ruleset.check_act(self, p, spec, cmd.targets, cmd.text, cmd.role)
        return spec

    def _validate_vote(self, cmd: Vote) -> Player:
        players = self.state.players
        voter = players.get(cmd.by)
        if voter is None:
            raise _no_such_player(cmd.by)
        if not self.ruleset.voting_open(self):
            raise Refused(N_("There is no vote right now."))
        if not voter.alive:
            raise Refused(N_("You are no longer in the game."))
        target = None
        if cmd.target is not None:
            target = players.get(cmd.target)
            if target is None:
                raise _no_such_player(cmd.target)
            if not target.alive:
                raise Refused(N_("{target} is no longer in the game."), target=player(target.pid))
        elif voter.pid not in self.state.votes:
            raise Refused(N_("You have not voted."))
        self.ruleset.check_vote(self, voter, target)
        return voter

    def _perform_vote(self, cmd: Vote, voter: Player) -> None:
        """Record the vote. No message per vote: the group sees one live tally that adapters
        render from the state (and edit in place), not a post per vote."""
        s = self.state
        if cmd.at > voter.last_active:  # `_activity`, written out: every vote passes here
            voter.last_active = cmd.at
        if self._hears_activity:
            self.ruleset.on_activity(self, voter)
        s.votes.pop(voter.pid, None)  # re-insert: the order of votes is the order of last change
        if cmd.target is not None:
            s.votes[voter.pid] = cmd.target
        self._out.events.append(voted(voter.pid, cmd.target))  # `record`, inlined
        if self._hears_votes:
            self.ruleset.after_vote(self, voter.pid)

    def _validate_leave(self, cmd: Leave) -> None:
        if not self.player_or_refuse(cmd.by).alive:
            raise Refused(N_("You are no longer in the game."))

    def _perform_leave(self, cmd: Leave, _: None) -> None:
        p = self.state.players[cmd.by]
        self.record(Left(p.pid))
        self.remove(p, OutOfStory(cmd.cause))  # a logged command's cause is read back as text
        self.ruleset.after_host_removal(self, p)

    # ------------------------------------------------------------------ host
    def _check_host(self, cmd: HostCommand) -> None:
        s = self.state
        if s.phase.kind == PhaseKind.ENDED:
            raise Refused(N_("The game is over."))
        if isinstance(cmd, Pause) and s.paused:
            raise Refused(N_("The game is already paused."))
        if isinstance(cmd, Resume) and not s.paused:
            raise Refused(N_("The game is not paused."))
        if isinstance(cmd, (Modkill, Replace)):
            target = self.player_or_refuse(cmd.target if isinstance(cmd, Modkill) else cmd.seat)
            if not target.alive:
                raise Refused(N_("{target} is no longer in the game."), target=player(target.pid))
        if isinstance(cmd, Replace):
            new_name = cmd.newcomer.strip()
            if not new_name:
                raise Refused(N_("Name the account that takes the seat."))
            if s.by_name(new_name) is not None:
                raise Refused(N_("{name} already plays in this game."), name=new_name)
        if isinstance(cmd, Announce) and not cmd.text.strip():
            raise Refused(N_("Write the text to announce."))

    def _perform_host(self, cmd: HostCommand, _: None) -> None:
        s = self.state
        self.record(HostActed(
            cmd.power,
            cmd.target if isinstance(cmd, Modkill) else cmd.seat if isinstance(cmd, Replace)
            else None,
            cmd.newcomer if isinstance(cmd, Replace) else None,
            cmd.minutes if isinstance(cmd, Extend) else 0))
        s.host_log.append((s.phase.kind, s.phase.number, cmd.power))
        if isinstance(cmd, Pause):
            s.paused = True
            if cmd.unreachable:
                self.tell(GROUP, N_("The game is paused: I could not write in this chat. "
                                    "Nothing counts until the host resumes it."))
            else:
                self.tell(GROUP, N_("The host paused the game. Nothing counts until it "
                                    "resumes."))
        elif isinstance(cmd, Resume):
            s.paused = False
            self.tell(GROUP, N_("The host resumed the game."))
        elif isinstance(cmd, Extend) and cmd.minutes < 0:  # a length, never a negative one
            self.tell_n(GROUP, "The host shortened the deadline by {count} minute.",
                        "The host shortened the deadline by {count} minutes.", -cmd.minutes)
        elif isinstance(cmd, Extend):
            self.tell_n(GROUP, "The host extended the deadline by {count} minute.",
                        "The host extended the deadline by {count} minutes.", cmd.minutes)
        elif isinstance(cmd, Force):
            self.record(closed(s.phase))
            self.tell(GROUP, N_("The host closes the current phase."))
            self.ruleset.close(self)
        elif isinstance(cmd, Announce):
            self.tell(GROUP, N_("Announcement from the host: {text}"), text=cmd.text)
        elif isinstance(cmd, Modkill):
            target = s.players[cmd.target]
            self.remove(target, OutOfStory.MODKILL)
            self.ruleset.after_host_removal(self, target)
        else:
            target = s.players[cmd.seat]
            old = target.name
            target.name = cmd.newcomer.strip()
            self.tell(GROUP, N_("{new} takes over the seat of {old}."), new=target.name, old=old)
            self.tell(to_player(target.pid), N_("You take over a seat in this game."))
            self.ruleset.on_replaced(self, target)

    # ------------------------------------------------------------------ helpers for rule sets
    # (the others, which call no hook, are `Table`'s)
    def remove(self, p: Player, cause: str) -> None:
        """Take a player out of the game and let the rule set react."""
        p.alive = False
        p.cause = cause
        self.state.removals.append((p.pid, cause))
        self.state.votes.pop(p.pid, None)
        self.record(removed(p.pid, cause, p.role))
        self.ruleset.on_removed(self, p, cause)


def _no_such_player(pid: PlayerId) -> Refused:
    return Refused(N_("There is no player called {name} in this game."), name=pid)


# what the end of a game and a pause do not refuse: the host's powers check for themselves
_ANY_TIME = frozenset({*HOST_COMMANDS, Tick})
_blank = object.__new__  # an instance with its slots still empty
# globals: reading an enum's member costs ten times more (3.11)
_ENDED, _EARLY = PhaseKind.ENDED, Status.EARLY.value

_HANDLERS: dict[type, tuple[Any, Any]] = {
    Act: (Game._validate_act, Game._perform_act),
    Vote: (Game._validate_vote, Game._perform_vote),
    MarkEarly: (Game._validate_early, Game._perform_early),
    Say: (Game._validate_say, Game._perform_say),
    Whisper: (Game._validate_whisper, Game._perform_whisper),
    Leave: (Game._validate_leave, Game._perform_leave),
    Close: (Game._nothing, Game._perform_close),
    Tick: (Game._nothing, Game._nothing),
    **{power: (Game._check_host, Game._perform_host) for power in HOST_COMMANDS},
}


def replay(ruleset: Rules[Game], setup: GameSetup, commands: Sequence[Command]) -> Game:
    """Rebuild a game from its setup and its accepted commands."""
    game = Game(ruleset, setup)
    for command in commands:
        game.apply(command)
    return game


__all__ = ["OUT_OF_STORY", "Event", "Game", "GameSetup", "Outcome", "Ref", "replay"]
