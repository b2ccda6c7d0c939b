"""The day (rules §5 mayor, §7): the election on day 1, the banishment vote, and the reactions
window in which owed choices are settled one at a time (CH-REACT)."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import GROUP, N_, player
from core.engine.phase import Phase, PhaseKind
from core.engine.state import Owed

from .end import check_end, winners
from .hooks import ANSWER_OWED, PROMPT_OWED
from .night import begin_night, day_opener, in_play
from .removal import banish
from .standing import mayor, take_office
from .state import TieBroken, changelings_state
from .vocabulary import RANK_TIEBREAK, TIEBREAK, Stage, Status

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked every day
_DAY, _VOTE, _REACTIONS = PhaseKind.DAY, Stage.VOTE, Stage.REACTIONS


def begin_election(game: Game) -> None:
    game.state.votes = {}
    game.set_phase(Phase.of(PhaseKind.DAY, 1, Stage.ELECTION))
    game.tell(GROUP, N_("Day 1: Ponyville elects a mayor. Vote for any pony, yourself "
                        "included."))


def begin_day(game: Game, number: int) -> None:
    game.state.votes = {}
    game.state.vote_extra = {}
    for prepare in in_play(game).day_begins:
        prepare(game)
    changelings_state(game).tiebreak_pick = None
    game.set_phase(Phase.of(_DAY, number, _VOTE))
    game.tell(GROUP, day_opener(game), number=number)


def close_election(game: Game) -> None:
    tally = {pid: 0 for pid in game.state.living_ids()}
    for target in game.state.votes.values():
        if target in tally:  # a vote for a player who has left is dropped (CH-GONE)
            tally[target] += 1
    game.counted(tally)
    best = max(tally.values())
    leaders = [pid for pid, n in tally.items() if n == best]
    chosen = leaders[0] if len(leaders) == 1 else game.rng.choice(leaders)
    if best == 0:  # the group is told why the sash went to whom it went (by lot)
        game.tell(GROUP, N_("Nopony voted for a mayor, so the sash goes by lot."))
    elif len(leaders) > 1:
        game.tell_n(GROUP, "The election is tied between {count} pony: {names}. The sash "
                    "goes by lot.", "The election is tied between {count:w} ponies: {names}. "
                    "The sash goes by lot.", len(leaders),
                    names=tuple(player(pid) for pid in leaders))
    game.state.votes = {}
    take_office(game, game.state.players[chosen])
    begin_night(game, 1)


def close_vote(game: Game) -> None:
    tally = game.counted(game.tally())
    number = game.state.phase.number
    game.state.votes = {}
    game.state.subs = {}
    game.state.vote_extra = {}
    counts = list(tally.values())
    best = max(counts, default=0)
    if best > 0:
        if counts.count(best) == 1:  # one leader, the first with most (no list of leaders)
            banish(game, max(tally, key=tally.__getitem__))
        else:
            _tie(game, [pid for pid, n in tally.items() if n == best])
    else:
        game.tell(GROUP, N_("Nopony voted today, so nopony is banished."))
    changelings_state(game).tiebreak_pick = None
    continue_reactions(game, number)


def _tie(game: Game, leaders: list[PlayerId]) -> None:
    """CH-MAYOR: the group is told who is tied however the tie is broken [decision: also when
    the mayor's pick was named before, or chance decides]; the mayor's prompt names them."""
    office = mayor(game)
    pick = changelings_state(game).tiebreak_pick
    tied = tuple(player(pid) for pid in leaders)
    state = changelings_state(game)
    if office is not None and pick is not None and pick in leaders:
        state.tie_broken = TieBroken.MAYOR
        game.tell_n(GROUP, "The vote is tied between {count} pony: {names}. The mayor made "
                    "the call before the vote closed.", "The vote is tied between {count:w} "
                    "ponies: {names}. The mayor made the call before the vote closed.",
                    len(tied), names=tied)
        banish(game, pick)
    elif office is not None and Status.INACTIVE.value not in office.statuses:
        game.owe(TIEBREAK, office.pid, leaders, RANK_TIEBREAK)
    else:
        game.tell_n(GROUP, "The vote is tied between {count} pony: {names}. No mayor is "
                    "here to break the tie, so fate decides.", "The vote is tied between "
                    "{count:w} ponies: {names}. No mayor is here to break the tie, so fate "
                    "decides.", len(tied), names=tied)
        state.tie_broken = TieBroken.CHANCE
        banish(game, game.rng.choice(leaders))
    state.tie_broken = None


def continue_reactions(game: Game, number: int) -> None:
    """Prompt the next owed choice, or finish the day once none is left."""
    owed = game.current_owed()
    if owed is not None and settled_without(game):
        game.state.reactions.clear()  # naming a mayor can no longer change who won
        owed = None
    if owed is not None:
        if game.state.phase.stage != _REACTIONS:
            game.set_phase(Phase.of(_DAY, number, _REACTIONS))
        PROMPT_OWED.handlers[owed.kind](game, owed)
        return
    if check_end(game):
        return
    begin_night(game, number)


def settled_without(game: Game) -> bool:
    """The game is decided and every choice still owed is a successor's (CH-END before
    CH-MAYOR, decision): nobody waits up to a day to name a mayor of a finished game."""
    return all(o.kind == "successor" for o in game.state.reactions) and winners(game) is not None


def answer_of(game: Game, owed: Owed) -> PlayerId | None:
    """The owed player's last answer to the open prompt (None: no answer, or a pass)."""
    subs = game.state.subs
    answers = [sub for sub in (subs.get((owed.player, owed.kind)), subs.get((owed.player, "pass")))
               if sub is not None]
    if not answers:
        return None
    last = max(answers, key=lambda sub: sub.seq)
    return last.targets[0] if last.targets else None


def answer(game: Game, owed: Owed, target: PlayerId | None) -> None:
    """Settle the current owed choice (target None: no answer before the prompt closed)."""
    game.state.reactions.pop(0)
    game.state.subs = {}
    game.state.acted = set()
    number = game.state.phase.number
    if target is not None and not game.state.players[target].alive:
        target = None  # the pick left while the prompt was open (a host removal): CH-GONE
    ANSWER_OWED.handlers[owed.kind](game, owed, target)
    continue_reactions(game, number)
