"""What follows when a player leaves: publication, heartbreak (CH-LOVE), the mayor's succession
(CH-MAYOR), then what the player's role adds (`hooks.REMOVED`); and the strikes a role may turn
aside (`hooks.STRUCK`)."""

from __future__ import annotations

from core.engine.forms import RoleForm, role_form
from core.engine.game import OUT_OF_STORY, Game
from core.engine.ids import PlayerId
from core.engine.messages import GROUP, player, role, role_was
from core.engine.phase import PhaseKind
from core.engine.state import Player

from . import flavour
from .hooks import BANISHED, REMOVED, STRUCK
from .standing import partner_of, random_living, take_office
from .state import ChangelingsState, TieBroken, changelings_state
from .vocabulary import HEARTBREAKING, RANK_SUCCESSOR, SUCCESSOR, Cause, Status

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked at every removal and banishment
_NIGHT, _BANISHED, _WHOM = PhaseKind.NIGHT, Cause.BANISHED, RoleForm.WHOM
# a member's `.value` is a Python-level property: read once here, asked at every removal
_MAYOR = Status.MAYOR.value

# Removals by day after which the leaving mayor names his successor himself.
DAY_EFFECTS = frozenset({Cause.BANISHED, Cause.HEARTBREAK, Cause.CHASED})
# a tied banishment's own texts, by who broke the tie (the vote did not decide it)
_TIE_TOLD = {TieBroken.MAYOR: flavour.BANISHED_BY_MAYOR,
             TieBroken.CHANCE: flavour.BANISHED_BY_CHANCE}


def on_removed(game: Game, p: Player, why: str) -> None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every removal
    at_night = game.state.phase.kind == _NIGHT and why not in OUT_OF_STORY
    if at_night:
        state.night.gone.append((p.pid, why))
    else:
        announce_removal(game, p.pid, why)
    partner = partner_of(game, p.pid)
    if partner is not None and why in HEARTBREAKING:
        other = game.state.players[partner]
        if other.alive:
            game.remove(other, Cause.HEARTBREAK)
    if _MAYOR in p.statuses:
        succeed(game, p, why)
    role_follows = REMOVED.handlers.get(p.role)
    if role_follows is not None:
        role_follows(game, p, why)


def succeed(game: Game, old: Player, why: str) -> None:
    """The mayor left: his named successor, else his own choice owed by day, else chance."""
    state = changelings_state(game)
    old.statuses.discard(_MAYOR)
    named = state.successor
    state.successor = None
    state.tiebreak_pick = None
    if named is not None and game.state.players[named].alive:
        take_office(game, game.state.players[named])
    elif game.state.phase.kind == PhaseKind.DAY and why in DAY_EFFECTS:
        game.owe(SUCCESSOR, old.pid, [], RANK_SUCCESSOR)
    else:
        heir = random_living(game)
        if heir is not None:
            take_office(game, heir)


def banish(game: Game, pid: PlayerId) -> None:
    """The vote's (or the tie-break's) banishment, unless the role turns it aside (the derpy's
    first escape, CH-DERPY)."""
    p = game.state.players[pid]
    turned_aside = BANISHED.handlers.get(p.role)
    if turned_aside is not None and turned_aside(game, p):
        return
    game.remove(p, _BANISHED)


def announce_removal(game: Game, pid: PlayerId, why: str) -> None:
    p = game.state.players[pid]
    # the role inside the sentence ("Ann, the Researcher, …"), never a "Role: X." label, in
    # the form its variant asks: `role_whom` where the verb has her as its object ("chases
    # Bob, the Researcher, out of town": German "den Forscher");
    # `revealed` carries it as the plain role fact too, which the texts do not print (the
    # scenario runner's `told` and audits read `role` refs)
    game.narrate(GROUP, _told_as(game, why), name=player(pid), role=role_was(p.role),
                 role_whom=role_form(p.role, _WHOM), revealed=role(p.role))


def _told_as(game: Game, why: str) -> tuple[str, ...]:
    """The texts a removal is told with: a banishment by the mayor's tie-break, or by chance
    where no mayor could break it, has its own (the vote did not decide it)."""
    if why == _BANISHED:
        broken = changelings_state(game).tie_broken
        if broken is not None:
            return _TIE_TOLD[broken]
    return flavour.REMOVED[why]


def strike(game: Game, target: Player, why: Cause, actor: PlayerId, *, hold: bool) -> None:
    """A prank, chase or fanatic hit removes the target unless his role turns it aside (the
    lucky, CH-LUCKY). At night a role that does so waits for its own step (`hold`)."""
    turns_aside = STRUCK.handlers.get(target.role)
    if turns_aside is not None and turns_aside(game, target, why, actor, hold):
        return
    game.remove(target, why)
