"""The day (rules §7): mandatory votes with penalties (AL-MISS), early votes (AL-EARLY), the
tie rules (AL-TIE), the reveal (AL-REVEAL), and the reactions window for what the day's
removals owe (pride's `take`). Roles add to it through the hooks: after the executions
(crimson's explosion), when a day begins or closes."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, closed_early, event_kind
from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import GROUP, N_, Ref, counted, n_, player, side, to_player
from core.engine.phase import Phase, PhaseKind
from core.engine.statuses import Status as CoreStatus
from core.engine.variety import Openers

from . import flavour
from . import stone as stone_rules
from .common import Cause, Stage, check_result, state_of
from .end import check_end
from .hooks import AFTER_EXECUTIONS, DAY_BEGUN, DAY_CLOSED, REACTIONS
from .night import begin_night

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked at every vote, day and execution
_DAY, _VOTE, _EXECUTED = PhaseKind.DAY, Stage.VOTE, Cause.EXECUTED
_EARLY = CoreStatus.EARLY.value


@event_kind("dodged")
@dataclass(frozen=True, slots=True)
class Dodged(Event):
    """A player escaped the execution by the Stone."""

    player: PlayerId


def begin_day(game: Game, number: int) -> None:
    state = state_of(game)
    game.state.votes = {}
    game.state.vote_extra = {}
    state.vote_log = []
    for p in game.state.players.values():
        p.statuses.discard(_EARLY)
    game.set_phase(Phase.of(_DAY, number, _VOTE))
    game.tell(GROUP, _opener(game), number=number)
    for begun in DAY_BEGUN:
        begun(game)


_OPENERS = Openers(flavour.DAY_BEGINS, flavour.MOTIFS)


def _opener(game: Game) -> str:
    """The day's opener, drawn knowing its dawn (the night's dead are kept until the next
    night falls): no image the morning just showed, no loss mourned after a night without
    deaths, no calm praised after one with them."""
    died = bool(state_of(game).night_dead)
    if died:
        dead = game.last_variant(flavour.MORNING_DEAD)
        dawn = dead[0] if dead is not None else None
    else:
        dawn = game.last_variant(flavour.MORNING_QUIET)
    return game.variant(flavour.DAY_BEGINS, _OPENERS.ruled_out(dawn, "calm" if died else "loss"))


def early_majority(game: Game) -> bool:
    """Whether enough have fixed their votes early to end the day (AL-EARLY).

    Asked after every vote of a living player and after a removal by day (a host's modkill,
    pride's owed `take`), while somebody is alive; nobody early means no. Nobody is early
    before day 3 (each day starts without early votes, and they may be marked from day 3 on);
    after that only today's voters can be (a vote is marked early after it is cast, and then
    can neither change nor be withdrawn).
    """
    if game.state.phase.number < 3:
        return False
    players = game.state.players
    early = 0
    for pid in game.state.votes:  # a loop, not sum() over a generator: asked after every vote
        voter = players[pid]
        if _EARLY in voter.statuses and voter.alive:
            early += 1
    if not early:
        return False
    living = len(game.state.living_ids())
    if game.state.options.get("early_votes_needed") == "all":
        return early == living
    return early * 2 > living


def close_day(game: Game) -> None:
    state = state_of(game)
    number = game.state.phase.number
    penalised = _missed_votes(game)
    tally = game.counted(game.tally())
    _tell_penalties(game, penalised)
    living = len(game.state.living_ids())
    best = max(tally.values(), default=0)
    doomed: list[PlayerId] = []
    if best > 0:
        leaders = [pid for pid, n in tally.items() if n == best]
        if len(leaders) == 1:
            doomed = leaders
        elif living <= 6:
            doomed = [_first_to_reach(game, leaders, tally)]
            game.narrate(GROUP, flavour.TIE_FIRST, name=player(doomed[0]))
        elif len(leaders) == 2:
            doomed = leaders
            game.narrate(GROUP, flavour.TIE_BOTH, first=player(leaders[0]),
                         second=player(leaders[1]))
    if not doomed:
        game.narrate(GROUP, flavour.NOBODY_EXECUTED)
    reveal = living > 10
    # A tie of two executes both; the explosion of an executed crimson follows the executions,
    # so it never takes a player the vote has already executed (AL-TIE, crimson); one already
    # gone (taken by an executed pride) is not executed again.
    executed = [game.state.players[pid] for pid in doomed
                if game.state.players[pid].alive and _execute(game, pid, reveal)]
    for after in AFTER_EXECUTIONS:
        after(game, executed)
    game.state.votes = {}
    game.state.vote_extra = {}
    game.state.vote_weights = {}
    state.links = []
    state.dodging = set()
    for closed in DAY_CLOSED:
        closed(game)
    continue_reactions(game, number)


def close_if_early(game: Game) -> None:
    """AL-EARLY: the day closes at once when more than half of the living hold early votes;
    a vote, or a removal by day that leaves fewer living players, can make it so."""
    if game.state.phase.stage == _VOTE and early_majority(game):
        close_early(game)


def close_early(game: Game) -> None:
    """The day's vote closes before its deadline (AL-EARLY)."""
    game.record(closed_early(game.state.phase))
    close_day(game)


def early_votes_allowed(game: Game) -> bool:
    return game.state.phase.stage == Stage.VOTE and game.state.phase.number >= 3


def _missed_votes(game: Game) -> list[PlayerId]:
    """AL-MISS: a missing vote is a miss; the threshold-th miss removes the player before the
    count (and votes for him drop), any other adds penalty votes against him. Returns who
    carries penalty votes, in seat order."""
    state = state_of(game)
    s = game.state
    modkill_at = int(s.options.get("missed_votes_modkill") or 0)
    penalty = int(s.options.get("missed_vote_votes") or 0)
    penalised: list[PlayerId] = []
    for p in s.living():  # a list of its own: a removal below does not change it
        if p.pid in s.votes or not p.alive:
            continue
        misses = state.misses.get(p.pid, 0) + 1
        state.misses[p.pid] = misses
        if modkill_at and misses >= modkill_at:
            game.tell(GROUP, N_("{name} missed the vote once too often and is removed."),
                      name=player(p.pid))
            game.remove(p, Cause.MISSED)
        elif penalty:
            s.vote_extra[p.pid] = s.vote_extra.get(p.pid, 0) + penalty
            state.vote_log.append((f"penalty:{p.pid}", p.pid))
            penalised.append(p.pid)
    return penalised


PENALTY_VOTES = n_("{count:w} penalty vote", "{count:w} penalty votes")


def _tell_penalties(game: Game, penalised: list[PlayerId]) -> None:
    """AL-MISS: the final count says who carries penalty votes, and how many. The sentence
    agrees with the players it names; the votes each carries are a phrase of their own."""
    if not penalised:
        return
    votes = int(game.state.options.get("missed_vote_votes") or 0)
    game.tell_n(GROUP, "The count includes {votes} against {names}, who did not vote.",
                "The count includes {votes} against each of the {count:w} players who did not "
                "vote: {names}.", len(penalised), votes=counted(PENALTY_VOTES, votes),
                names=tuple(player(pid) for pid in penalised))


def _first_to_reach(game: Game, leaders: list[PlayerId], tally: dict[PlayerId, int]) -> PlayerId:
    """AL-TIE with six or fewer: the one whose count last rose to its final value first.
    Penalty votes arrive at the close, after every cast vote, in seat order."""
    s = game.state
    current: dict[PlayerId, PlayerId] = {}
    counts: dict[PlayerId, int] = {}
    reached: dict[PlayerId, int] = {}
    for moment, (entry, target) in enumerate(state_of(game).vote_log):
        if entry.startswith("penalty:"):  # a penalty vote names its target
            if target is not None:
                weight = s.vote_extra.get(target, 0)
                counts[target] = counts.get(target, 0) + weight
                if counts[target] == tally.get(target):
                    reached[target] = moment
            continue
        voter = PlayerId(entry)
        if voter not in s.players or not s.players[voter].alive:
            continue
        weight = s.vote_weights.get(voter, 1)
        old = current.pop(voter, None)
        if old is not None:
            counts[old] = counts.get(old, 0) - weight
        if target is not None:
            current[voter] = target
            counts[target] = counts.get(target, 0) + weight
            if weight > 0 and counts[target] == tally.get(target):
                reached[target] = moment
    return min(leaders, key=lambda pid: (reached.get(pid, 1 << 30), s.players[pid].seat))


def _execute(game: Game, pid: PlayerId, reveal: bool) -> bool:
    """Execute one player unless a dodge saves him; whether he was executed."""
    p = game.state.players[pid]
    if pid in state_of(game).dodging:
        game.record(Dodged(player=pid))
        game.tell(GROUP, N_("{name} should have been executed, but escaped!"), name=player(pid))
        return False
    if reveal:  # AL-REVEAL [revised]: homunculi, town or loner, told as a check tells it
        published = check_result(p)
        game.narrate(GROUP, flavour.EXECUTED_REVEALED, name=player(pid),
                     side=Ref("check", published), published=side(published))
    else:
        game.narrate(GROUP, flavour.EXECUTED, name=player(pid))
    game.remove(p, _EXECUTED)
    return True


def continue_reactions(game: Game, number: int) -> None:
    owed = game.current_owed()
    if owed is not None:
        if game.state.phase.stage != Stage.REACTIONS:
            game.set_phase(Phase.of(PhaseKind.DAY, number, Stage.REACTIONS))
        game.tell(to_player(owed.player), REACTIONS[owed.kind].prompt)
        return
    if check_end(game):
        return
    stone_rules.at_phase_end(game)
    begin_night(game, number + 1)
