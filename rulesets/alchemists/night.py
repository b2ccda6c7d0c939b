"""The night (rules §4): every submission becomes an intent at its place in the night order,
and the intents are resolved one after another with the engine's `NightBoard` (blocks, the
dome's immunity, the mirror, redirection), then the Stone's backfires at step 10."""

from __future__ import annotations

import heapq
from enum import IntEnum

from core.engine.game import Game
from core.engine.messages import GROUP, N_, Ref, player, role, to_player
from core.engine.phase import Phase
from core.engine.resolution import Intent, NightBoard
from core.engine.state import Player

from . import flavour
from . import stone as stone_rules
from .common import als, check_result, father, side_of


class Pos(IntEnum):
    """The source's night order; each place names what it sets and uses."""

    STONE_MIRROR = 10  # sets a one-time reflection on its target
    STONE_DOME = 11  # sets immunity and silence (or, backfired, a redirection)
    STONE_BLOCK = 20  # blocks later actions of its target (may cancel lust's block)
    LUST_BLOCK = 21
    STONE_VOTE_MINUS = 30  # sets tomorrow's vote weights
    STONE_VOTE_PLUS = 31
    STONE_DODGE = 32  # sets tomorrow's dodge
    STONE_COMPARE = 33
    STONE_AUTOPSY = 34
    ENVY_COPY = 40  # schedules the copied ability at its own place
    STONE_COPY = 41
    XING_CHECK = 50
    GREED_CHECK = 51
    STONE_CHECK = 52
    CRYSTAL_HEAL = 60  # sets protection against steps 7–8
    STONE_HEAL = 61
    CRIMSON_SEARCH = 70  # uses protection; may kill the ishvalan
    PRIDE_SEARCH = 71  # may absorb crimson
    GREED_SEARCH = 72  # may absorb xing
    HOMUNCULI_KILL = 80  # uses protection and greed's shield
    STONE_KILL = 81
    ISHVALAN_KILL = 82
    LINKER_LINK = 90  # sets tomorrow's links
    STONE_LINK = 91
    BACKFIRES = 100  # backfired kills and links, poisonings


ROLE_POS = {
    ("lust", "block"): Pos.LUST_BLOCK, ("envy", "copy"): Pos.ENVY_COPY,
    ("pride", "search"): Pos.PRIDE_SEARCH, ("father", "search"): Pos.PRIDE_SEARCH,
    ("crimson", "search"): Pos.CRIMSON_SEARCH, ("greed", "search"): Pos.GREED_SEARCH,
    ("xing", "check"): Pos.XING_CHECK, ("greed", "check"): Pos.GREED_CHECK,
    ("crystal", "heal"): Pos.CRYSTAL_HEAL, ("ishvalan", "kill"): Pos.ISHVALAN_KILL,
    ("linker", "link"): Pos.LINKER_LINK,
}
STONE_POS = {
    "mirror": Pos.STONE_MIRROR, "dome": Pos.STONE_DOME, "block": Pos.STONE_BLOCK,
    "vote_minus": Pos.STONE_VOTE_MINUS, "vote_plus": Pos.STONE_VOTE_PLUS,
    "dodge": Pos.STONE_DODGE, "compare": Pos.STONE_COMPARE, "autopsy": Pos.STONE_AUTOPSY,
    "copy": Pos.STONE_COPY, "check": Pos.STONE_CHECK, "heal": Pos.STONE_HEAL,
    "kill": Pos.STONE_KILL, "link": Pos.STONE_LINK,
}
# AL-COPY: the copyable main abilities, by the source's current role.
COPYABLE = {"xing": ("check", Pos.XING_CHECK), "crystal": ("heal", Pos.CRYSTAL_HEAL),
            "linker": ("link", Pos.LINKER_LINK), "ishvalan": ("kill", Pos.ISHVALAN_KILL),
            "crimson": ("search", Pos.CRIMSON_SEARCH)}
REACHING = frozenset({"block", "check", "heal", "search", "kill", "link", "copy"})


def begin_night(game: Game, number: int) -> None:
    state = als(game)
    game.state.subs = {}
    state.night_dead = []
    state.changed_votes = []
    state.voided_votes = []
    state.night_start_removals = len(game.state.removals)
    game.set_phase(Phase.of("night", number))
    game.narrate(GROUP, flavour.NIGHT_FALLS, number=number)


class _Night:
    """One night's resolution: the intents, the board, and what the next day inherits."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.state.players
        self.state = als(game)
        self.number = game.state.phase.number
        self.board = NightBoard()
        self.queue: list[tuple[tuple[int, ...], int, Intent]] = []
        self.weights: dict[str, int] = {}
        self.links: list[tuple[str, str]] = []
        self.dodging: set[str] = set()
        self.void: set[str] = set()
        self.step10: list[tuple[str, str]] = []  # (kind, player)
        self.poison_now = list(self.state.stone.poison)
        self.state.stone.poison = []

    # -------------------------------------------------------------- building intents
    def push(self, intent: Intent) -> None:
        heapq.heappush(self.queue, (intent.pos, len(self.queue), intent))

    def build(self) -> None:
        subs = self.game.state.subs
        holder = self.state.stone.holder
        for (actor, slot), sub in subs.items():
            p = self.players[actor]
            if not p.alive:
                continue
            if slot == "stone":
                if actor == holder:
                    kind = sub.action.removeprefix("stone_")
                    self.state.stone.used[actor] = (sub.action, self.number)
                    self.push(Intent(actor, kind, sub.targets, (STONE_POS[kind], 0, p.seat),
                                     reaches=kind in REACHING, tag={"stone": True},
                                     aim_from=1 if kind == "copy" else 0))
                continue
            pos = ROLE_POS.get((p.role, sub.action))
            if pos is not None:
                self.push(Intent(actor, sub.action, sub.targets, (pos, 0, p.seat),
                                 reaches=sub.action in REACHING, tag={"as": p.role},
                                 aim_from=1 if sub.action == "copy" else 0))
        self._homunculi_kill()

    def _homunculi_kill(self) -> None:
        subs = self.game.state.subs
        # Father's answer is a decision, not an action (AL-BLOCK): it stands if he leaves the
        # game during the night (a host's modkill) — only the executor's leaving stops the
        # kill. His successor's later answer replaces it (one `father` slot, last one counts).
        answers = [s for (_, slot), s in subs.items() if slot == "father"]
        sub = max(answers, key=lambda s: s.seq) if answers else None
        agreed = [s for (a, slot), s in subs.items() if slot == "kill"
                  and self.players[a].alive and side_of(self.players[a]) == "homunculi"]
        if father(self.game) is None and (agreed or sub is None):
            # AL-FATHER: father and pride dead, the rest kill by agreement
            if len({s.targets[0] for s in agreed}) != 1:
                return
            first = min(agreed, key=lambda s: s.seq)
            executor, target = first.actor, first.targets[0]
        elif sub is None:
            return
        elif sub.action == "kill":  # father's own target: he is the executor
            executor, target = sub.actor, sub.targets[0]
        else:
            executor = sub.targets[0]
            request = subs.get((executor, "request"))
            if request is None or not self.players[executor].alive:
                return
            target = request.targets[0]
        self.push(Intent(executor, "kill", (target,), (Pos.HOMUNCULI_KILL, 0, 0),
                         tag={"homunculi": True}))

    # -------------------------------------------------------------- resolving
    def resolve(self) -> None:
        self.build()
        while self.queue:
            _, _, intent = heapq.heappop(self.queue)
            if not self.players[intent.actor].alive or not self.board.runs(intent):
                continue
            if intent.tag.get("stone") and stone_rules.backfires(
                    self.game, self.players[intent.actor], self.state.night_start_removals):
                self._backfire(intent)
                continue
            getattr(self, f"_do_{intent.kind}")(intent, self.board.aim(intent))
        self._step10()
        self.state.links = self.links
        self.state.dodging = self.dodging
        self.game.state.vote_weights = {**self.weights, **dict.fromkeys(self.void, 0)}
        # for the morning post: a backfire's void vote is "no vote today", unlike the notice
        # of a vote_minus/vote_plus (which does not say which of the two it was)
        self.state.voided_votes = self._living_by_seat(self.void)
        self.state.changed_votes = self._living_by_seat(set(self.weights) - self.void)

    def _living_by_seat(self, pids: set[str]) -> list[str]:
        return sorted((pid for pid in pids if self.players[pid].alive),
                      key=lambda pid: self.players[pid].seat)

    def _reach(self, intent: Intent, target: str) -> str | None:
        return self.board.reach(intent, target)

    def _do_mirror(self, it: Intent, targets: tuple[str, ...]) -> None:
        self.board.mirrors[targets[0]] = it.actor

    def _do_dome(self, it: Intent, targets: tuple[str, ...]) -> None:
        self.board.immune.add(targets[0])
        self.board.silenced.add(targets[0])

    def _do_block(self, it: Intent, targets: tuple[str, ...]) -> None:
        reached = self._reach(it, targets[0])
        if reached is not None:
            self.board.block(reached, it.pos)

    def _do_vote_minus(self, it: Intent, targets: tuple[str, ...]) -> None:
        if self._reach(it, targets[0]) is not None:
            self.weights[targets[0]] = 0

    def _do_vote_plus(self, it: Intent, targets: tuple[str, ...]) -> None:
        if self._reach(it, targets[0]) is not None:
            self.weights[targets[0]] = 2

    def _do_dodge(self, it: Intent, targets: tuple[str, ...]) -> None:
        if self._reach(it, targets[0]) is not None:
            self.dodging.add(targets[0])

    def _do_compare(self, it: Intent, targets: tuple[str, ...]) -> None:
        a, b = targets
        if self._reach(it, a) is None or self._reach(it, b) is None:
            return
        same = side_of(self.players[a]) == side_of(self.players[b])
        value = "same" if same else "different"
        self.game.learn(it.actor, a, value)
        self.game.learn(it.actor, b, value)
        self.game.tell(to_player(it.actor), N_("{first} and {second} are {result}."),
                       first=player(a), second=player(b), result=Ref("check", value))

    def _do_autopsy(self, it: Intent, targets: tuple[str, ...]) -> None:
        dead = self.players[targets[0]]
        self.game.learn(it.actor, dead.pid, dead.role)
        self.game.tell(to_player(it.actor), N_("The autopsy shows: {name} was {role}."),
                       name=player(dead.pid), role=role(dead.role))

    def _do_copy(self, it: Intent, targets: tuple[str, ...]) -> None:
        source, target = targets
        if source in self.board.immune or target in self.board.immune:
            return
        copied = COPYABLE.get(self.players[source].role)
        reached = self._reach(it, target)
        if copied is None or reached is None:
            self.game.tell(to_player(it.actor), N_("Your copy came to nothing."))
            return
        ability, pos = copied
        aim = (reached, it.actor) if ability == "link" else (reached,)
        if ability == "link" and reached == it.actor:
            return
        order = 2 if it.tag.get("stone") else 1
        # a copy reflected onto its sender still reports under the name he gave (like any
        # reflected check: his own side under the checked name)
        self.push(Intent(it.actor, ability, aim, (pos, order, self.players[it.actor].seat),
                         tag={"as": self.players[source].role, "copied": True,
                              "named": target}))

    def _do_check(self, it: Intent, targets: tuple[str, ...]) -> None:
        named = str(it.tag.get("named", it.targets[0]))
        reached = self._reach(it, targets[0])
        if reached is None:
            self.game.tell(to_player(it.actor), N_("Your check of {name} found nothing."),
                           name=player(named))
            return
        self._tell_check(it.actor, named, check_result(self.players[reached]))

    def _tell_check(self, observer: str, named: str, value: str) -> None:
        self.game.learn(observer, named, value)
        self.game.tell(to_player(observer), N_("Your check: {name} is {result}."),
                       name=player(named), result=Ref("check", value))

    def _do_heal(self, it: Intent, targets: tuple[str, ...]) -> None:
        reached = self._reach(it, targets[0])
        if reached is not None:
            self.board.protected.add(reached)

    def _do_search(self, it: Intent, targets: tuple[str, ...]) -> None:
        reached = self._reach(it, targets[0])
        if reached is None:
            return
        found = self.players[reached]
        searcher = str(it.tag.get("as"))
        if searcher == "father":
            searcher = "pride"
        wanted = {"crimson": "ishvalan", "pride": "crimson", "greed": "xing"}[searcher]
        if not found.alive or found.role != wanted or found.pid == it.actor:
            return
        cause = "killed" if searcher == "crimson" else "absorbed"
        if not self._dies(found, cause, it):
            return
        hunter = self.players[it.actor]
        if searcher == "pride":
            hunter.counters["take"] = True
            self.game.tell(to_player(hunter.pid), N_("You absorbed the Crimson Alchemist. Name "
                                                     "whoever shall fall with you."))
        elif searcher == "greed":
            hunter.counters["check_from"] = self.number + 1
        if cause == "absorbed":
            self.state.absorbed_by[found.pid] = hunter.pid

    def _do_kill(self, it: Intent, targets: tuple[str, ...]) -> None:
        reached = self._reach(it, targets[0])
        if reached is not None and self.players[reached].alive:
            self._dies(self.players[reached], "killed", it)

    def _dies(self, victim: Player, cause: str, it: Intent) -> bool:
        """A kill or absorption of steps 7–8: a heal saves; greed's shield holds against all but
        the original father's own homunculi kill."""
        if victim.pid in self.board.protected:
            return False
        if victim.role == "greed" and not (
                it.tag.get("homunculi") and it.actor == self.state.original_father
                and self.players[it.actor].role == "father"):
            return False
        self.remove(victim, cause, it.actor)
        return True

    def remove(self, victim: Player, cause: str, by: str | None) -> None:
        self.state.remover = by
        self.game.remove(victim, cause)
        self.state.remover = None

    def _do_link(self, it: Intent, targets: tuple[str, ...]) -> None:
        if len(targets) < 2:
            return
        a, b = targets
        first = self._reach(it, a)
        if first is None:
            return
        if first == it.actor and a != it.actor:
            pair = (it.actor, b)
        else:
            second = self._reach(it, b)
            if second is None:
                return
            pair = (a, it.actor) if second == it.actor and b != it.actor else (a, b)
        if pair[0] != pair[1]:
            self.links.append(pair)

    # -------------------------------------------------------------- the Stone turning
    def _backfire(self, it: Intent) -> None:
        holder = it.actor
        game = self.game
        game.event("backfire", holder=holder, action=it.kind)
        if it.kind == "check":
            self._tell_check(holder, it.targets[0], check_result(self.players[holder]))
        elif it.kind == "kill":
            self.step10.append(("backfire", holder))
        elif it.kind == "link":
            self.step10.append(("link", holder))
        elif it.kind == "heal":
            self.state.stone.poison.append((it.targets[0], holder))
            game.tell(to_player(holder), N_("The Stone failed you."))
        elif it.kind == "dome":
            self.board.redirect[it.targets[0]] = holder
        else:
            self.void.add(holder)
            game.tell(to_player(holder), N_("The Stone failed you."))

    def _step10(self) -> None:
        """Backfired kills and links, then the poisonings of last night's backfired heals.
        Greed's shield stops only a death by another hand: his own Stone backfire kills him
        (rules §5 [revised]) — his backfired kill, and the poison of his own backfired heal
        on himself [decision]; another holder's poison does not."""
        for kind, pid in self.step10:
            holder = self.players[pid]
            if not holder.alive:
                continue
            if kind == "backfire":
                self.remove(holder, "backfire", None)
            elif kind == "link":
                others = [p.pid for p in self.game.state.living() if p.pid != pid]
                if others:
                    self.links.append((pid, self.game.rng.choice(others)))
        for pid, holder in self.poison_now:
            victim = self.players[pid]
            if victim.alive and (victim.role != "greed" or holder == pid):
                self.remove(victim, "poisoned", None)


def resolve_night(game: Game) -> None:
    _Night(game).resolve()
    stone_rules.settle_after_night(game)


def morning_post(game: Game) -> None:
    state = als(game)
    dead = [pid for pid, _ in state.night_dead]
    game.rng.shuffle(dead)
    if dead:
        game.narrate(GROUP, flavour.MORNING_DEAD, names=tuple(player(pid) for pid in dead))
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
