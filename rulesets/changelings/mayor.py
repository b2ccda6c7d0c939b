"""The mayor's powers (CH-MAYOR), a public status rather than a role: he breaks a tied vote
and names his successor. (Taking office is in `standing.py`, the succession in `removal.py`.)"""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import GROUP, N_, Purpose, player, to_player
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec
from core.engine.state import Owed, Player, Submission

from . import vocabulary
from .hooks import ACTION_CHECKS, AFTER_ACT, ANSWER_OWED, PROMPT_OWED, owed_action
from .removal import banish
from .standing import take_office
from .state import TieBroken, changelings_state
from .vocabulary import ALWAYS, ANY_DAY, Stage
from .voice import said, said_n

TIEBREAK = owed_action(ActionSpec(vocabulary.TIEBREAK, ANY_DAY, harmful=True), N_("Break the tie"))
SUCCESSOR = owed_action(ActionSpec(vocabulary.SUCCESSOR, ALWAYS, self_ok=False), N_("Successor"))
POWERS = (TIEBREAK, SUCCESSOR)  # the mayor's standing powers, after his role's


@ACTION_CHECKS.at("tiebreak")
def check_tiebreak(game: Game, p: Player, targets: tuple[PlayerId, ...],
                   _: str | None) -> Refused | None:
    if game.state.phase.stage != Stage.REACTIONS:
        return None
    owed = game.current_owed()
    if owed is None or owed.kind != "tiebreak" or owed.player != p.pid:
        return Refused(N_("There is no tie for you to break."))
    if targets and targets[0] not in owed.options:
        return Refused(N_("{name} is not among the tied players."), name=player(targets[0]))
    return None


@ACTION_CHECKS.at("successor")
def check_successor(game: Game, p: Player, targets: tuple[PlayerId, ...],
                    _: str | None) -> Refused | None:
    owed = game.current_owed()
    if owed is not None and owed.kind == "successor" and owed.player == p.pid:
        return None
    if not p.alive or "mayor" not in p.statuses:
        return Refused(N_("Only the mayor names a successor."))
    return None


@AFTER_ACT.at("tiebreak")
def tiebreak_picked(game: Game, p: Player, sub: Submission) -> None:
    changelings_state(game).tiebreak_pick = sub.targets[0]


@AFTER_ACT.at("successor")
def successor_named(game: Game, p: Player, sub: Submission) -> None:
    changelings_state(game).successor = sub.targets[0]


@PROMPT_OWED.at("tiebreak")
def ask_tiebreak(game: Game, owed: Owed) -> None:
    tied = tuple(player(pid) for pid in owed.options)  # CH-MAYOR: the group is told who
    game.tell_n(to_player(owed.player), *said_n(game, "TIE_PICK", owed.player), len(tied),
                purpose=Purpose.ASKING, names=tied)
    game.tell_n(GROUP, *said_n(game, "TIE_GROUP", "group"), len(tied), names=tied)


@ANSWER_OWED.at("tiebreak")
def settle_tiebreak(game: Game, owed: Owed, target: PlayerId | None) -> None:
    tied = [pid for pid in owed.options if game.state.players[pid].alive]
    state = changelings_state(game)
    state.tie_broken = TieBroken.MAYOR
    if target is None and tied:
        target = game.rng.choice(tied)
        state.tie_broken = TieBroken.CHANCE
    if target is not None:
        banish(game, target)
    state.tie_broken = None


@PROMPT_OWED.at("successor")
def ask_successor(game: Game, owed: Owed) -> None:
    game.tell(to_player(owed.player), said(game, "SUCCESSOR", owed.player),
              purpose=Purpose.ASKING)


@ANSWER_OWED.at("successor")
def settle_successor(game: Game, owed: Owed, target: PlayerId | None) -> None:
    living = game.state.living_ids()
    if living:
        heir = target if target is not None else game.rng.choice(living)
        take_office(game, game.state.players[heir])
