"""The changelings' team (rules §5): what every member may send — one abduction a night
(CH-AGREE, CH-ABDUCT) or, once per game, an exchange (CH-EXCH) — shared by the roles of the
team (`roles/changeling.py`, `roles/queen.py`, `roles/liar.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId, SlotId
from core.engine.messages import N_, player, side, to_player
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, TeamChat
from core.engine.state import Player, Submission

from . import flavour
from .hooks import (
    ABDUCTED,
    ACTION_CHECKS,
    AFTER_ACT,
    CHANGELING_ROLES,
    EXCHANGED,
    UNASKED_BY_OFFERS,
    duty,
)
from .night import NIGHT, NightStep
from .standing import is_changeling, is_mixed_pair, join_team, partner_of, team, tell_team
from .state import EXCHANGED_FROM, ChangelingsState, Night, changelings_state
from .vocabulary import CHANGELINGS, DUSK, Cause, Stage
from .voice import TOLD, said

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked at every abduction
_ABDUCTED = Cause.ABDUCTED


@event_kind("abduction_fixed")
@dataclass(frozen=True, slots=True)
class AbductionFixed(Event):
    """The changelings agreed on whom they abduct tonight."""

    target: PlayerId


@event_kind("disagreed")
@dataclass(frozen=True, slots=True)
class Disagreed(Event):
    """The changelings could not agree: nopony is abducted tonight."""


@event_kind("exchanged")
@dataclass(frozen=True, slots=True)
class Exchanged(Event):
    """A pony was exchanged and is a changeling now."""

    player: PlayerId


@event_kind("shielded")
@dataclass(frozen=True, slots=True)
class Shielded(Event):
    """The abduction of this pony was stopped."""

    target: PlayerId

ABDUCT = ActionSpec(ActionId("abduct"), DUSK, harmful=True, slot=SlotId("team"), text_max=500)
EXCHANGE = ActionSpec(ActionId("exchange"), DUSK, harmful=True, slot=SlotId("team"))
ACTIONS = (ABDUCT, EXCHANGE)
ACTION_NAMES = {"abduct": N_("Abduct"), "exchange": N_("Exchange")}
duty(Stage.DUSK, ABDUCT, EXCHANGE)


@ACTION_CHECKS.at("abduct")
def check_team_target(game: Game, p: Player, targets: tuple[PlayerId, ...],
                      _: str | None) -> Refused | None:
    # (`is_changeling`, written out: asked at every abduction sent)
    if targets and game.state.players[targets[0]].role in CHANGELING_ROLES:
        return Refused(N_("{name} is one of your own."), name=player(targets[0]))
    return None


UNASKED_BY_OFFERS.add("abduct")  # it looks at the target alone


@ACTION_CHECKS.at("exchange")
def check_exchange(game: Game, p: Player, targets: tuple[PlayerId, ...],
                   role_id: RoleId | None) -> Refused | None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: offers ask it
    if state.exchange_used:
        return EXCHANGE_USED
    return check_team_target(game, p, targets, role_id) if targets else None


# made once (see hooks.ActionCheck): `offers` asks this check for every changeling every night
EXCHANGE_USED = Refused(N_("Your team has already used its exchange."))


@AFTER_ACT.at("abduct")
@AFTER_ACT.at("exchange")
def tell_the_others(game: Game, p: Player, sub: Submission) -> None:
    """Every other member hears of the proposal, each in his own variant (`said`, written out
    with what all of them share read once: each member of the team tells each other member,
    every night; and `team`, written out as one pass over the players)."""
    prompt = TOLD["WANTS_ABDUCT" if sub.action == "abduct" else "WANTS_EXCHANGE"]
    phase = game.state.phase
    name, target = player(p.pid), player(sub.targets[0])
    for member in _dusk_team(game):
        if member.alive and member.pid != p.pid:
            game.tell(to_player(member.pid), prompt.told(phase, member.pid), name=name,
                      target=target)


# the players of the game whose dusk was asked last, that dusk, and its team's members (one
# tuple, replaced whole, so that a reader never mixes two games)
_DUSK_TEAM: list[tuple[Any, Any, list[Player]]] = [(None, None, [])]


def _dusk_team(game: Game) -> list[Player]:
    """The players of the team's roles in the window open now, worked out once a dusk (each
    member's proposal is told to the others): a role changes only while a night is resolved,
    after its dusk (whoever has left meanwhile is left out by the caller)."""
    s = game.state
    last = _DUSK_TEAM[0]
    if last[0] is s.players and last[1] is s.phase:
        return last[2]
    members = [m for m in s.players.values() if m.role in CHANGELING_ROLES]
    _DUSK_TEAM[0] = s.players, s.phase, members
    return members


@NIGHT.at(NightStep.CHANGELINGS)
def agree(game: Game) -> None:
    """CH-AGREE: exactly one distinct (action, target) among the team's last submissions."""
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    # the team's last submissions: one pass over the night's submissions, a sender looked up
    # as `team` would find him (no list of the team, nor a set of its members, to make)
    players = game.state.players
    subs = []
    for (actor, slot), sub in game.state.subs.items():
        if slot == "team":
            sender = players[actor]
            if sender.alive and sender.role in CHANGELING_ROLES:
                subs.append(sub)
    if not subs:
        return
    choices = {(s.action, s.targets[0]) for s in subs}
    if len(choices) > 1:
        tell_team(game, said(game, "NO_AGREEMENT", "team"))
        game.record(Disagreed())
        return
    action, target_id = choices.pop()
    target = game.state.players[target_id]
    if not target.alive:
        return
    if night.team_fails:  # told nothing, as when the shield stops them (CH-CONF [revised])
        if target.pid in night.turned_now and action == "abduct":
            game.remove(target, Cause.FLED)
        return
    if target.pid in night.shielded:
        game.record(Shielded(target=target.pid))
        return
    if action == "exchange":
        exchange(game, target)
        return
    night.abduction = target.pid
    last = max((s for s in subs if s.targets[0] == target.pid), key=lambda s: s.seq)
    night.abduction_text = last.text
    game.record(AbductionFixed(target=target.pid))


def exchange(game: Game, target: Player) -> None:
    """CH-EXCH: the target becomes a changeling and keeps his statuses; nothing is published.

    He loses any special role at step 4, so what he sent for its later steps (a prank, the
    fanatic's strike, a letter, the love poison's pair) lapses; a love poison's lapsed pair is
    not replaced by a random one, as the role was dealt.
    """
    changelings_state(game).exchange_used = True
    for key in [k for k in game.state.subs if k[0] == target.pid]:
        del game.state.subs[key]
    EXCHANGED_FROM.set(target, target.role)
    turned_aside = EXCHANGED.handlers.get(target.role)
    if turned_aside is not None and turned_aside(game, target):
        return
    target.role = RoleId("changeling")
    game.record(Exchanged(player=target.pid))
    partner = partner_of(game, target.pid)
    if partner is not None and is_mixed_pair(game):  # no "win with the hive"
        game.narrate(to_player(target.pid), flavour.EXCHANGED_IN_LOVE, partner=player(partner))
    else:  # `side`: the side he now wins with, a plain fact for `told` (the words say it)
        game.narrate(to_player(target.pid), flavour.EXCHANGED, side=side(CHANGELINGS))
    for member in team(game):  # the newcomer has his own message (EXCHANGED), not "one of you"
        if member.pid != target.pid:
            game.tell(to_player(member.pid), N_("The exchange worked: {name} is one of you now."),
                      name=player(target.pid))
    join_team(game, target)


def call_off_abduction(night: Night) -> None:
    """Tonight's abduction will not happen (pinkie prevented it): nor is a chase owed."""
    night.abduction = None
    night.chase_owed = None


@NIGHT.at(NightStep.ABDUCTION)
def abduction_takes_effect(game: Game) -> None:
    """CH-ABDUCT: the pending abduction's target leaves, unless his role turns it aside."""
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    if night.abduction is None:
        return
    target = game.state.players[night.abduction]
    if not target.alive or is_changeling(target):
        night.chase_owed = None  # the abduction did not happen: no chase is owed
        return
    turned_aside = ABDUCTED.handlers.get(target.role)
    if turned_aside is not None and turned_aside(game, target):
        return
    game.remove(target, _ABDUCTED)


TEAM_TITLE = N_("The changelings' hive")
TEAM_ABOUT = N_("Only the changelings of this game can read this room. Plot away: what "
                "you agree on here, send to me in private.")
SPECTATORS_TITLE = N_("The ponies' cloud (spectators)")
SPECTATORS_ABOUT = N_("Everypony who has left the game watches from here. Please don't tell "
                      "the living anything until the game is over.")


def whisper_recipients(game: Game, p: Player, to: PlayerId | None) -> list[PlayerId]:
    """The changelings' team chat: every other living changeling hears it."""
    if not p.alive or not is_changeling(p):
        raise Refused(N_("Only the changelings have a team chat."))
    mates = [m.pid for m in team(game) if m.pid != p.pid]
    if to is not None and to not in mates:
        raise Refused(N_("{name} is not in your team chat."), name=player(to))
    if not mates:
        raise Refused(N_("Nobody else is left in your team chat."))
    return [to] if to is not None else mates


def team_chats(game: Game) -> list[TeamChat]:
    """The changelings' team chat (the living changelings: a newcomer by exchange or
    awakening joins, the removed leave) and one spectators' chat for everybody who has
    left the game [decision: the rules are silent on the dead; one room for all of them,
    as they can no longer change anything and are muted in the group]."""
    dead = tuple(p.pid for p in game.state.players.values() if not p.alive)
    return [TeamChat("changelings", TEAM_TITLE, TEAM_ABOUT, tuple(p.pid for p in team(game))),
            TeamChat("spectators", SPECTATORS_TITLE, SPECTATORS_ABOUT, dead)]
