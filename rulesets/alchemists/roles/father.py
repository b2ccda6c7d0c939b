"""Father (rules §5, AL-FATHER): picks the homunculi's kill each night, by choosing whose
request is carried out (that homunculus is the executor) or by naming his own victim. When he
dies pride becomes father; without pride the homunculi band together."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId, SlotId
from core.engine.messages import N_, NC_, player, role, to_player
from core.engine.refusals import Refused
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player, Submission
from rulesets.alchemists.common import Succession

from .. import actions
from ..common import AT_NIGHT, HOMUNCULI, father, homunculi, side_of, state_of
from ..hooks import ACTION_NAMES, AT_START, CHECKS, ON_REMOVED, OWN_ACTIONS, Role, register
from ..night import NIGHT, Night, NightStep, Rite, resolves

CHOOSE = ActionSpec(ActionId("choose"), AT_NIGHT, slot=SlotId("father"))
FATHER_KILL = ActionSpec(ActionId("kill"), AT_NIGHT, self_ok=False, harmful=True,
                         slot=SlotId("father"))
ACTION_NAMES["choose"] = N_("Choose the executor")

ROLE = register(Role(
    RoleSpec(RoleId("father"), HOMUNCULI, (CHOOSE, FATHER_KILL)),
    name=N_("Father"),
    role_was=NC_("role was", "Father"),
    card=N_("You are Father. Each night the homunculi bring you their requests; choose "
            "whose request is carried out, or name the victim yourself."),
    about=N_("Leads the homunculi. Each night they bring him their kill requests; he chooses whose "
             "request is carried out, or names the victim himself."),
    setup="required",
))
# Pride become father keeps his search (AL-FATHER).
FATHER_WAS_PRIDE = (CHOOSE, FATHER_KILL, actions.SEARCH)
WAS_PRIDE: Slot[bool] = Slot("was_pride", False)  # he is pride become father
# Who else learns about a father when he is introduced (greed, rules §2).
FATHER_MEETS: list[Callable[[Game, Player], None]] = []


def own_actions(game: Game, p: Player) -> Sequence[ActionSpec]:
    # (`counters` asked first: most of the time they are empty, and `get` is a call)
    return FATHER_WAS_PRIDE if p.counters and WAS_PRIDE.get(p) else ROLE.spec.actions


def check_choose(game: Game, p: Player, spec: ActionSpec, targets: tuple[PlayerId, ...]) -> None:
    """`choose` names a living homunculus who has sent a request tonight."""
    chosen = game.state.players[targets[0]]
    if (chosen.pid == p.pid or side_of(chosen) != HOMUNCULI
            or (chosen.pid, "request") not in game.state.subs):
        raise Refused(N_("{name} has sent you no request tonight."), name=player(chosen.pid))


OWN_ACTIONS["father"] = own_actions
CHECKS["choose"] = check_choose


@AT_START.append
def introductions(game: Game) -> None:
    """Rules §2: homunculi know father, father knows every homunculus (each recorded as
    learned, the role told)."""
    head = next((p for p in game.state.players.values() if p.role == "father"), None)
    if head is None:
        return
    state_of(game).original_father = head.pid
    for h in homunculi(game):
        if h.pid != head.pid:
            game.learn(h.pid, head.pid, head.role)
            game.tell(to_player(h.pid), N_("{name} is {role}."), name=player(head.pid),
                      role=role(head.role))
    introduce_father(game, head)


def introduce_father(game: Game, head: Player) -> None:
    """Father knows every homunculus (at the start, and again for pride become father
    [decision]); then whoever else is told of a father (`FATHER_MEETS`)."""
    for h in homunculi(game):
        if h.pid != head.pid:
            game.learn(head.pid, h.pid, h.role)
            game.tell(to_player(head.pid), N_("{name} is a homunculus ({role})."),
                      name=player(h.pid), role=role(h.role))
    for meets in FATHER_MEETS:
        meets(game, head)


@ON_REMOVED.append
def father_falls(game: Game, p: Player, cause: str) -> None:
    """AL-FATHER: pride becomes father; without pride the homunculi band together."""
    if p.role not in ("father", "pride") or father(game) is not None:
        return
    heir = next((h for h in homunculi(game) if h.role == "pride"), None)
    if heir is not None:
        heir.role = RoleId("father")
        WAS_PRIDE.set(heir, True)
        game.record(Succession(role="father", player=heir.pid))
        game.tell(to_player(heir.pid), N_("{role} is dead. You are {role} now: choose the "
                                          "homunculi's victim each night."), role=role(heir.role))
        for h in homunculi(game):
            if h.pid != heir.pid:
                game.learn(h.pid, heir.pid, heir.role)
                game.tell(to_player(h.pid), N_("{role} is dead; {name} leads you now."),
                          role=role(heir.role), name=player(heir.pid))
        introduce_father(game, heir)  # §5: the new father knows what a father knows
        return
    band = homunculi(game)
    for h in band:  # they learn each other, recorded like the start's knowledge (rules §2)
        for other in band:
            if other.pid != h.pid:
                game.learn(h.pid, other.pid, other.role)
                game.tell(to_player(h.pid), N_("Father is gone. {name} is a homunculus too "
                                               "({role}); agree on one victim each night."),
                          name=player(other.pid), role=role(other.role))


@NIGHT.at(NightStep.COLLECT, place=1)  # after the night's own collection (place 0)
def homunculi_kill(night: Night) -> None:
    """The night's one homunculi kill, at step 8, by its executor. Father's answer is a
    decision, not an action (AL-BLOCK): it stands if he leaves the game during the night (a
    host's modkill) — only the executor's leaving stops the kill. His successor's later
    answer replaces it (one `father` slot, last one counts)."""
    game = night.game
    subs = game.state.subs
    players = night.players
    sub: Submission | None = None  # father's answer: his last (or his successor's)
    agreed: list[Submission] = []  # the leaderless band's kills
    for (actor, slot), s in subs.items():  # one pass over the night's submissions
        if slot == "father":
            if sub is None or s.seq > sub.seq:
                sub = s
        elif slot == "kill":
            p = players[actor]
            if p.alive and side_of(p) == HOMUNCULI:
                agreed.append(s)
    if father(game) is None and (agreed or sub is None):
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
        if request is None or not players[executor].alive:
            return
        target = request.targets[0]
    night.schedule(Rite(executor, ActionId("kill"), (target,), (NightStep.HOMUNCULI_KILL, 0, 0),
                        homunculi=True))


resolves(NightStep.HOMUNCULI_KILL, "kill", actions.kill)
