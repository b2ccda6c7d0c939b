"""The night (rules §4): its named order of steps, and the resolution the steps share.

At the first step every submission becomes a `Rite` (an intent) placed at its step; then
`NIGHT.walk` runs the steps one after another. Role modules attach a handler to the steps they
act in (`resolves(NightStep.XING_CHECK, "check", check)`, or `@NIGHT.at` for more), and each
handler resolves the intents due at its step with the engine's `NightBoard` (blocks, the
dome's immunity, the mirror, redirection).
Within a step intents resolve by their place `(step, order, seat)`: the role's own first
(order 0), then copies of it (envy's 1, the Stone's 2)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from operator import attrgetter
from typing import Any, NamedTuple

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId
from core.engine.messages import GROUP, N_, Ref, player, to_player
from core.engine.night_order import NightOrder
from core.engine.phase import Phase, PhaseKind
from core.engine.resolution import Intent, NightBoard
from core.engine.state import Player

from . import flavour
from . import stone as stone_rules
from .common import state_of
from .voice import said


class NightStep(IntEnum):
    """The source's night order (rules §4); each step says what it sets and what it uses.
    The value is the step's place; the numbers' tens are the rules' steps 1–10."""

    COLLECT = 0  # sets: every submission as an intent at its step; the Stone's use (AL-REPEAT)
    STONE_MIRROR = 10  # sets: a one-time reflection on its target
    STONE_DOME = 11  # sets: immunity and silence (or, backfired, a redirection)
    STONE_BLOCK = 20  # sets: a block of the target's later actions (may cancel lust's block)
    LUST_BLOCK = 21  # sets: a block of the target's later actions
    STONE_VOTE_MINUS = 30  # sets: tomorrow's vote weight 0
    STONE_VOTE_PLUS = 31  # sets: tomorrow's vote weight 2
    STONE_DODGE = 32  # sets: tomorrow's dodge
    STONE_COMPARE = 33  # uses: sides; tells the holder
    STONE_AUTOPSY = 34  # uses: a removed player's role; tells the holder
    ENVY_COPY = 40  # sets: the copied ability as an intent at its own step
    STONE_COPY = 41  # sets: the copied ability as an intent at its own step
    XING_CHECK = 50  # uses: sides (and redirection); tells the checker
    GREED_CHECK = 51  # uses: sides, from the night after greed absorbed xing
    STONE_CHECK = 52  # uses: sides (backfired: the holder's own)
    CRYSTAL_HEAL = 60  # sets: protection against steps 7–8
    STONE_HEAL = 61  # sets: protection (backfired: a poisoning next night)
    CRIMSON_SEARCH = 70  # uses: protection; may kill the ishvalan
    PRIDE_SEARCH = 71  # uses: protection; may absorb crimson, sets pride's `take`
    GREED_SEARCH = 72  # uses: protection; may absorb xing, sets greed's check
    HOMUNCULI_KILL = 80  # uses: protection and greed's shield
    STONE_KILL = 81  # uses: protection and greed's shield (backfired: the holder at step 10)
    ISHVALAN_KILL = 82  # uses: protection and greed's shield
    LINKER_LINK = 90  # sets: tomorrow's links
    STONE_LINK = 91  # sets: tomorrow's links (backfired: a random link at step 10)
    BACKFIRES = 100  # uses: tonight's backfired kills and links, last night's poisonings


# What a submission becomes: (role, action) -> the step it resolves at; a Stone action by its
# kind (`stone_check` -> "check") -> its step. Role modules and the Stone fill these.
ROLE_ACTS: dict[tuple[str, str], NightStep] = {}
STONE_ACTS: dict[str, NightStep] = {}


class Copyable(NamedTuple):
    """AL-COPY: a role's main ability that envy (or the Stone) may copy, and its step; a copied
    two-player ability (the link) joins the copier with the target."""

    ability: ActionId
    step: NightStep
    with_copier: bool = False


# the copyable ability of a source's current role
COPYABLE: dict[str, Copyable] = {}
# Actions that count as reaching their targets (for the mirror), and where a redirection
# starts replacing targets (a copy keeps its source).
REACHING = frozenset({"block", "check", "heal", "search", "kill", "link", "copy"})
AIMS_FROM = {"copy": 1}



@dataclass(slots=True)
class Rite(Intent):
    """An intent of this game, with what its steps ask of it beside the core's fields."""

    stone: bool = False  # a power of the Stone: its own step, and it may backfire (AL-STONE)
    homunculi: bool = False  # the homunculi's kill on Father's order (Greed's shield asks)
    named: PlayerId | None = None  # a copied check's: whom its sender named (reported so)


Effect = Callable[["Night", Rite, tuple[PlayerId, ...]], None]
_BY_POS = attrgetter("pos")  # intents resolve in the order of their place in the night
# Whether a shield keeps this victim alive against this death (victim, cause, intent, by).
Shield = Callable[["Night", Player, str, Rite | None, PlayerId | None], bool]
SHIELDS: list[Shield] = []


class Night:
    """One night's resolution: the intents due at each step, the board, and what the next
    day inherits."""

    __slots__ = ("at_backfires", "board", "dodging", "due", "game", "links", "number", "players",
                 "poison_now", "reach", "state", "void", "weights")
    # Whom the intent really reaches at the target (`NightBoard.reach`): the board's own
    # method, kept bound, so that every effect's ask is one call, not a call of a wrapper.
    reach: Callable[[Rite, PlayerId], PlayerId | None]

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.state.players
        self.state = state_of(game)
        self.number = game.state.phase.number
        self.board = board = NightBoard()
        self.reach = board.reach
        # the intents waiting, by step and kind: each handler takes exactly its own
        self.due: dict[tuple[int, str], list[Rite]] = {}
        self.weights: dict[PlayerId, int] = {}
        self.links: list[tuple[PlayerId, PlayerId]] = []
        self.dodging: set[PlayerId] = set()
        self.void: set[PlayerId] = set()
        self.at_backfires: list[tuple[str, PlayerId]] = []  # (kind, holder) for step 10
        stone = self.state.stone
        self.poison_now = stone.poison  # last night's, to land at step 10; tonight's anew
        stone.poison = []

    def schedule(self, intent: Rite) -> None:
        self.due.setdefault((intent.pos[0], intent.kind), []).append(intent)

    def tell_check(self, observer: PlayerId, named: PlayerId, value: str) -> None:
        self.game.learn(observer, named, value)
        self.game.tell(to_player(observer), said(self.game, "CHECK", observer),
                       name=player(named), result=Ref("check", value))

    def shielded(self, victim: Player, cause: str, intent: Rite | None,
                 by: PlayerId | None) -> bool:
        # a loop, not any() over a generator (which costs a frame more): at every death
        for shield in SHIELDS:  # noqa: SIM110
            if shield(self, victim, cause, intent, by):
                return True
        return False

    def dies(self, victim: Player, cause: str, it: Rite) -> bool:
        """A kill or absorption of steps 7–8: a heal saves, and so may a shield (greed's)."""
        if victim.pid in self.board.protected or self.shielded(victim, cause, it, it.actor):
            return False
        self.remove(victim, cause, it.actor)
        return True

    def remove(self, victim: Player, cause: str, by: PlayerId | None) -> None:
        """Remove a player, recording whose action did it (the Stone passes to him)."""
        self.state.remover = by
        self.game.remove(victim, cause)
        self.state.remover = None

    def settle(self) -> None:
        """What the next day inherits: links, dodges, vote weights, the morning's notices."""
        state = self.state
        state.links = self.links
        state.dodging = self.dodging
        weights, void = self.weights, self.void
        if not weights and not void:  # most nights: no vote weighs differently tomorrow
            self.game.state.vote_weights = {}
            state.voided_votes = []
            state.changed_votes = []
            return
        self.game.state.vote_weights = {**weights, **dict.fromkeys(void, 0)}
        # for the morning post: a backfire's void vote is "no vote today", unlike the notice
        # of a vote_minus/vote_plus (which does not say which of the two it was)
        state.voided_votes = self._living_by_seat(void)
        state.changed_votes = self._living_by_seat(set(weights) - void)

    def _living_by_seat(self, pids: set[PlayerId]) -> list[PlayerId]:
        return sorted((pid for pid in pids if self.players[pid].alive),
                      key=lambda pid: self.players[pid].seat)


# The handlers of each step take the night being resolved (`Night`; its game is `night.game`).
NIGHT: NightOrder[NightStep, Night] = NightOrder(NightStep)
# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked every night
_FIRST, _LAST, _NIGHT = NightStep.COLLECT, NightStep.BACKFIRES, PhaseKind.NIGHT


@dataclass(frozen=True, slots=True)
class Resolution:
    """What most roles do at their step: resolve tonight's intents of one kind due there."""

    due: tuple[NightStep, str]  # the step and the kind, as `Night.due` is keyed
    effect: Effect

    def run(self, night: Night) -> None:
        """Resolve the intents with the effect, in their order: those whose sender is still
        in the game, not blocked before and not silenced."""
        mine = night.due.pop(self.due, None)
        if not mine:
            return  # most steps, most nights
        if len(mine) > 1:
            mine.sort(key=_BY_POS)  # no lambda made per step
        board = night.board
        for intent in mine:
            if night.players[intent.actor].alive and board.runs(intent):
                # `board.aim` only when a redirection is in force: almost never
                self.effect(night, intent, board.aim(intent) if board.redirect else intent.targets)


def resolves(step: NightStep, kind: str, effect: Effect, place: int = 0) -> None:
    """Attach to `step`, in `place` among its handlers, the resolution of tonight's intents of
    `kind` with `effect` (`@NIGHT.at` for a role whose step does only that). The handler is the
    resolution's own bound `run`, no wrapper function around it: every night walks all of
    them, most with nothing due."""
    NIGHT.at(step, place)(Resolution((step, kind), effect).run)


@NIGHT.at(NightStep.COLLECT)
def collect(night: Night) -> None:
    """Each submission of a living player becomes an intent at its step; the Stone's only from
    its holder, and its use counts for AL-REPEAT once the night resolves with it."""
    game = night.game
    holder = night.state.stone.holder
    players, due = night.players, night.due
    for (actor, slot), sub in game.state.subs.items():
        p = players[actor]
        if not p.alive:
            continue
        if slot == "stone":
            if actor == holder:
                kind = ActionId(sub.action.removeprefix("stone_"))
                night.state.stone.used[actor] = (sub.action, night.number)
                night.schedule(Rite(actor, kind, sub.targets, (STONE_ACTS[kind], 0, p.seat),
                                    reaches=kind in REACHING, aim_from=AIMS_FROM.get(kind, 0),
                                    stone=True))
            continue
        action = sub.action
        step = ROLE_ACTS.get((p.role, action))
        if step is not None:
            # `schedule`, written out, and the intent's fields given in their order (no
            # keywords matched): every action of every night
            intent = Rite(actor, action, sub.targets, (step, 0, p.seat), action in REACHING,
                          AIMS_FROM.get(action, 0))
            waiting = due.get((step, action))
            if waiting is None:
                due[step, action] = [intent]
            else:
                waiting.append(intent)


# the plan `_guarded_plan` was made from, and its handlers each with the `Night.due` key of
# the intents it resolves (None: a handler that runs every night)
_GUARDED: list[Any] = [None, ()]


def _guarded_plan() -> tuple[tuple[tuple[int, str] | None, Callable[[Night], None]], ...]:
    """The night's handlers in order, each a `Resolution`'s with its key: made again only
    when a handler has been attached since (`NightOrder.plan` is then a new tuple)."""
    plan = NIGHT.plan(_FIRST, _LAST)
    if _GUARDED[0] is not plan:
        _GUARDED[:] = [plan, tuple(
            (owner.due if isinstance(owner := getattr(handler, "__self__", None), Resolution)
             else None, handler) for handler in plan)]
    guarded: tuple[tuple[tuple[int, str] | None, Callable[[Night], None]], ...] = _GUARDED[1]
    return guarded


def begin_night(game: Game, number: int) -> None:
    state = state_of(game)
    game.state.subs = {}
    state.night_dead = []
    state.changed_votes = []
    state.voided_votes = []
    state.night_start_removals = len(game.state.removals)
    game.set_phase(Phase.of(_NIGHT, number))
    game.narrate(GROUP, flavour.NIGHT_FALLS, number=number)


def resolve_night(game: Game) -> None:
    """`NIGHT.walk`, written out: a resolution with nothing due at its step is not called
    (it would only find so and return: some twenty steps a night, most nights)."""
    night = Night(game)
    due = night.due  # the night's own dict, filled as the steps schedule what follows
    for key, handler in _guarded_plan():
        if key is None or key in due:
            handler(night)
    night.settle()
    stone_rules.settle_after_night(game)


def morning_post(game: Game) -> None:
    state = state_of(game)
    dead = [pid for pid, _ in state.night_dead]
    game.rng.shuffle(dead)
    if dead:
        game.narrate_n(GROUP, flavour.MORNING_DEAD, len(dead),
                       names=tuple(map(player, dead)))
    else:
        game.narrate(GROUP, flavour.MORNING_QUIET)
    for a, b in state.links:
        game.tell(GROUP, N_("{first} and {second} are linked today: they cannot vote against "
                            "each other."), first=player(a), second=player(b))
    for pid in state.changed_votes:
        game.tell(GROUP, N_("{name}'s vote weighs differently today."), name=player(pid))
    for pid in state.voided_votes:
        game.tell(GROUP, N_("{name} has no vote today: it counts for nothing, but must still "
                            "be cast."), name=player(pid))
