"""The Philosopher's Stone (AL-STONE): appearance, the backfire roll, passing on, finishing."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import GROUP, N_, to_player
from core.engine.phase import PhaseKind
from core.engine.state import Player

from .common import STONE_SIDES, Cause, state_of
from .hooks import BACKFIRE_DISCOUNTS, ROLES

# the night removals by another player's action (the Stone passes to him)
BY_AN_ACTION = frozenset({Cause.KILLED, Cause.ABSORBED})


@event_kind("stone")
@dataclass(frozen=True, slots=True)
class StonePassed(Event):
    """The Stone has a new holder."""

    holder: PlayerId


@event_kind("stone_finished")
@dataclass(frozen=True, slots=True)
class StoneFinished(Event):
    """The Stone is used up."""

FINISHED_AT = 5  # AL-FINISHED: at this many living players or fewer


def eligible(game: Game) -> list[Player]:
    """Living players of a side that may receive the Stone at random."""
    # `side_of`, written out: a call per player
    return [p for p in game.state.living() if ROLES[p.role].spec.side in STONE_SIDES]


def give(game: Game, holder: Player | None) -> None:
    """A new holder is told he has it, and whether it is finished (AL-FINISHED [revised]):
    a finished Stone is received as finished."""
    stone = state_of(game).stone
    stone.holder = holder.pid if holder else None
    stone.pass_to = None
    if holder is None:
        return
    game.record(StonePassed(holder=holder.pid))
    if stone.finished:
        stone.finished_told = holder.pid
        game.tell(to_player(holder.pid), N_("The Philosopher's Stone is yours, and it is "
                                            "finished. Each night you may use one of its "
                                            "powers besides your own; it no longer turns "
                                            "against you."))
        return
    game.tell(to_player(holder.pid), N_("The Philosopher's Stone is yours. Each night you may "
                                        "use one of its powers besides your own; it may turn "
                                        "against you."))


def give_at_random(game: Game) -> None:
    """The draw among the eligible; the test option `stone_holder` fixes its result to the
    named player while he is alive, whatever his side (a scenario naming a homunculus means
    him to hold it)."""
    pool = eligible(game)
    wanted = game.state.options.get("stone_holder")
    chosen = next((p for p in game.state.living() if p.pid == wanted), None)
    if chosen is None and pool:
        chosen = game.rng.choice(pool)
    give(game, chosen)


def at_phase_end(game: Game) -> None:
    """The Stone appears when the phase of the k-th removal ends. A holder who has not yet
    been told that his Stone is finished is told now, with the close of the phase that
    finished it (after the morning post, or after the day's execution and reactions)
    [decision]: the Stone acts only at night, so he knows before he next uses it."""
    stone = state_of(game).stone
    if not stone.appeared and len(game.state.removals) >= stone.threshold:
        appear(game)
    if stone.finished and stone.holder is not None and stone.finished_told != stone.holder:
        stone.finished_told = stone.holder
        game.tell(to_player(stone.holder), N_("Five or fewer are left alive. The Stone has taken "
                                              "in the souls of the dead: it is finished, and "
                                              "it no longer turns against you."))


def appear(game: Game) -> None:
    """The Stone appears, finished already if five or fewer are alive: its holder receives
    it as it is, never warned of a backfire it can no longer have."""
    stone = state_of(game).stone
    stone.appeared = True
    stone.removals_at_appearance = len(game.state.removals)
    game.tell(GROUP, N_("The Philosopher's Stone has appeared. Someone among you holds it now."))
    check_finished(game)
    give_at_random(game)


def check_finished(game: Game) -> None:
    """AL-FINISHED: with five or fewer alive the Stone is finished (appearing at once, and
    received as finished). Its holder is told at the close of the phase (`at_phase_end`)."""
    stone = state_of(game).stone
    if stone.finished:
        return
    living = 0  # counted in place: asked after every removal
    for p in game.state.players.values():
        if p.alive:
            living += 1
    if living > FINISHED_AT:
        return
    stone.finished = True
    if not stone.appeared:
        appear(game)
        return
    game.record(StoneFinished())


def backfires(game: Game, holder: Player, removals_at_night_start: int) -> bool:
    """Roll for one Stone action (AL-BACKFIRE), per the option `stone_backfire`."""
    if state_of(game).stone.finished:
        return False
    mode = game.state.options.get("stone_backfire")
    if mode in ("never", "always"):
        return bool(mode == "always")
    return game.rng.random() < backfire_chance(game, holder, removals_at_night_start)


def backfire_chance(game: Game, holder: Player, removals_at_night_start: int) -> float:
    """25 % + 10 points per removal since the Stone appeared (counted when the night began),
    less a role's discount (crimson's 10 points), capped at 95 %."""
    stone = state_of(game).stone
    victims = max(0, removals_at_night_start - stone.removals_at_appearance)
    discount = sum(points(holder) for points in BACKFIRE_DISCOUNTS)
    chance = 0.25 + 0.10 * victims - discount
    return min(0.95, max(0.0, chance))


def holder_left(game: Game, holder: Player, cause: str, by: PlayerId | None) -> None:
    """Passing: at night to the player whose action removed the holder, if he is alive when
    the night ends (`pass_to`, "" = at random); by day, or by any other cause, at random."""
    stone = state_of(game).stone
    stone.holder = None
    if game.state.phase.kind != PhaseKind.NIGHT:
        give_at_random(game)
    elif by is not None and by != holder.pid and cause in BY_AN_ACTION:
        stone.pass_to = by
    else:
        stone.pass_to = PlayerId("")  # nobody: the Stone goes at random at dawn


def settle_after_night(game: Game) -> None:
    stone = state_of(game).stone
    if stone.pass_to is None:
        return
    heir = game.state.players.get(stone.pass_to) if stone.pass_to else None
    stone.pass_to = None
    if heir is not None and heir.alive:
        give(game, heir)
    else:
        give_at_random(game)
