"""The Philosopher's Stone at night (AL-STONE): its thirteen powers, each at its step of the
night order; the backfire roll when a power would resolve (AL-BACKFIRE) and what a backfire
does instead; step 10, where backfired kills and links and last night's poisonings land; and
AL-REPEAT. `stone.py` holds the rest of the Stone (appearance, passing on, the chance)."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, SlotId
from core.engine.messages import N_, Ref, player, role, to_player
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec
from core.engine.state import Player

from . import actions
from . import stone as stone_rules
from .common import AT_NIGHT, Cause, check_result, side_of
from .hooks import ACTION_NAMES, CHECKS
from .night import NIGHT, STONE_ACTS, Effect, Night, NightStep, Rite, resolves
from .state import AlchemistsState


@event_kind("backfire")
@dataclass(frozen=True, slots=True)
class Backfire(Event):
    """The Stone turned against its holder."""

    holder: PlayerId
    action: ActionId  # the power turned (`check`: the Stone's check)


def _spec(action: str, targets: int = 1, self_ok: bool = True) -> ActionSpec:
    return ActionSpec(ActionId(f"stone_{action}"), AT_NIGHT, targets=targets, self_ok=self_ok,
                      slot=SlotId("stone"))


STONE_ACTIONS: dict[ActionId, ActionSpec] = {
    spec.id: spec
    for spec in (
        _spec("check", self_ok=False), _spec("kill", self_ok=False), _spec("block"),
        _spec("heal"), _spec("link", 2), _spec("copy", 2), _spec("mirror"), _spec("dome"),
        _spec("vote_minus"), _spec("vote_plus"), _spec("dodge"), _spec("compare", 2),
        ActionSpec(ActionId("stone_autopsy"), AT_NIGHT, slot=SlotId("stone"), removed_targets=True),
    )
}
STONE_SPECS = tuple(STONE_ACTIONS.values())

ACTION_NAMES.update({
    "stone_check": N_("Check (Stone)"), "stone_kill": N_("Kill (Stone)"),
    "stone_block": N_("Block (Stone)"), "stone_heal": N_("Heal (Stone)"),
    "stone_link": N_("Link (Stone)"), "stone_copy": N_("Copy (Stone)"),
    "stone_mirror": N_("Mirror (Stone)"), "stone_dome": N_("Dome (Stone)"),
    "stone_vote_minus": N_("Void a vote (Stone)"), "stone_vote_plus": N_("Double a vote (Stone)"),
    "stone_dodge": N_("Dodge (Stone)"), "stone_compare": N_("Compare (Stone)"),
    "stone_autopsy": N_("Autopsy (Stone)"),
})


def not_twice_in_a_row(game: Game, p: Player, spec: ActionSpec,
                       targets: tuple[PlayerId, ...]) -> None:
    """AL-REPEAT: not the Stone action this holder used the night before."""
    state: AlchemistsState = game.state.rs  # `state_of`, inlined: asked at every Stone action
    if state.stone.used.get(p.pid) == (spec.id, game.state.phase.number - 1):
        raise Refused(N_("The Stone will not do the same thing two nights in a row."))


CHECKS.update(dict.fromkeys(STONE_ACTIONS, not_twice_in_a_row))


# -------------------------------------------------------------- the Stone-only powers
def mirror(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    night.board.mirrors[targets[0]] = it.actor


def dome(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    night.board.immune.add(targets[0])
    night.board.silenced.add(targets[0])


def vote_minus(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    if night.reach(it, targets[0]) is not None:
        night.weights[targets[0]] = 0


def vote_plus(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    if night.reach(it, targets[0]) is not None:
        night.weights[targets[0]] = 2


def dodge(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    if night.reach(it, targets[0]) is not None:
        night.dodging.add(targets[0])


def compare(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    a, b = targets
    if night.reach(it, a) is None or night.reach(it, b) is None:
        return
    same = side_of(night.players[a]) == side_of(night.players[b])
    value = "same" if same else "different"
    night.game.learn(it.actor, a, value)
    night.game.learn(it.actor, b, value)
    night.game.tell(to_player(it.actor), N_("{first} and {second} are {result}."),
                    first=player(a), second=player(b), result=Ref("check", value))


def autopsy(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    dead = night.players[targets[0]]
    night.game.learn(it.actor, dead.pid, dead.role)
    night.game.tell(to_player(it.actor), N_("The autopsy shows: {name} was {role}."),
                    name=player(dead.pid), role=role(dead.role))


# -------------------------------------------------------------- the Stone turning
def backfire(night: Night, it: Rite) -> None:
    """AL-BACKFIRE: a backfired action never has its normal effect; instead…"""
    holder = it.actor
    game = night.game
    game.record(Backfire(holder=holder, action=it.kind))
    if it.kind == "check":
        night.tell_check(holder, it.targets[0], check_result(night.players[holder]))
    elif it.kind == "kill":
        night.at_backfires.append(("backfire", holder))
    elif it.kind == "link":
        night.at_backfires.append(("link", holder))
    elif it.kind == "heal":
        night.state.stone.poison.append((it.targets[0], holder))
        game.tell(to_player(holder), N_("The Stone failed you."))
    elif it.kind == "dome":
        night.board.redirect[it.targets[0]] = holder
    else:
        night.void.add(holder)
        game.tell(to_player(holder), N_("The Stone failed you."))


def _rolled(effect: Effect) -> Effect:
    """The power's effect, or its backfire: the roll is made as the power would resolve (a
    holder who is blocked or domed makes none)."""

    def run(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
        if stone_rules.backfires(night.game, night.players[it.actor],
                                 night.state.night_start_removals):
            backfire(night, it)
        else:
            effect(night, it, targets)

    return run


# Each power at its step (rules §4): the Stone's check, heal, link and copy in the step of the
# role action they imitate, right after it.
for _kind, _step, _effect in (
    ("mirror", NightStep.STONE_MIRROR, mirror),
    ("dome", NightStep.STONE_DOME, dome),
    ("block", NightStep.STONE_BLOCK, actions.block),
    ("vote_minus", NightStep.STONE_VOTE_MINUS, vote_minus),
    ("vote_plus", NightStep.STONE_VOTE_PLUS, vote_plus),
    ("dodge", NightStep.STONE_DODGE, dodge),
    ("compare", NightStep.STONE_COMPARE, compare),
    ("autopsy", NightStep.STONE_AUTOPSY, autopsy),
    ("copy", NightStep.STONE_COPY, actions.copy),
    ("check", NightStep.STONE_CHECK, actions.check),
    ("heal", NightStep.STONE_HEAL, actions.heal),
    ("kill", NightStep.STONE_KILL, actions.kill),
    ("link", NightStep.STONE_LINK, actions.link),
):
    STONE_ACTS[_kind] = _step
    resolves(_step, _kind, _rolled(_effect))


@NIGHT.at(NightStep.BACKFIRES)
def backfires_land(night: Night) -> None:
    """Step 10: backfired kills and links, then the poisonings of last night's backfired
    heals. A shield may stop a poisoning (greed's, unless it was his own heal)."""
    game = night.game
    for kind, pid in night.at_backfires:
        holder = night.players[pid]
        if not holder.alive:
            continue
        if kind == "backfire":
            night.remove(holder, Cause.BACKFIRE, None)
        elif kind == "link":
            others = [p.pid for p in game.state.living() if p.pid != pid]
            if others:
                night.links.append((pid, game.rng.choice(others)))
    for pid, holder_pid in night.poison_now:
        victim = night.players[pid]
        if victim.alive and not night.shielded(victim, Cause.POISONED, None, holder_pid):
            night.remove(victim, Cause.POISONED, None)
