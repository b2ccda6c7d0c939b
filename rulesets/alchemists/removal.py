"""What follows a removal: the morning list, successions (AL-FATHER, the bodyguard), pride's
`take`, the Stone passing on, and the finished Stone (AL-FINISHED).

A modkill (the host's, or AL-MISS's) is a penalty, not a death in the story: it triggers no
reaction (no `take`; crimson explodes only when executed), while the structural successions
still happen — father's successor, the bodyguard becoming xing, the Stone passing at random
(rules §10 [revised]). A player who leaves of his own accord (`left`, /flee) leaves the same
way [decision]."""

from __future__ import annotations

from core.engine.game import OUT_OF_STORY, Game
from core.engine.messages import GROUP, N_, player, role, to_player
from core.engine.state import Player

from . import stone as stone_rules
from .common import als, father, homunculi
from .day import settle_take

RANK_TAKE = 1


def on_removed(game: Game, p: Player, cause: str) -> None:
    state = als(game)
    at_night = game.state.phase.kind == "night"
    if at_night and cause not in OUT_OF_STORY:
        state.night_dead.append((p.pid, cause))
    elif cause == "modkill":
        game.tell(GROUP, N_("{name} has been removed from the game."), name=player(p.pid))
    elif cause == "left":
        game.tell(GROUP, N_("{name} has left the game."), name=player(p.pid))
    if state.stone.holder == p.pid:
        stone_rules.holder_left(game, p, cause, state.remover)
    if p.role in ("father", "pride"):
        _father_falls(game)
    if p.role == "xing" and cause != "absorbed":
        _bodyguard_steps_up(game)
    if p.counters.get("take") and cause not in OUT_OF_STORY:
        _take(game, p, at_night)  # a modkill is a penalty, not a death in the story (§10)
    stone_rules.check_finished(game)


def introduce_father(game: Game, head: Player) -> None:
    """Rules §2: father knows every homunculus, and father and greed are told of each other
    (at the start, and again for pride become father [decision]); each is recorded as
    learned, the role told."""
    for h in homunculi(game):
        if h.pid != head.pid:
            game.learn(head.pid, h.pid, h.role)
            game.tell(to_player(head.pid), N_("{name} is a homunculus ({role})."),
                      name=player(h.pid), role=role(h.role))
    greed = next((p for p in game.state.living() if p.role == "greed"), None)
    if greed is not None:
        game.learn(head.pid, greed.pid, greed.role)
        game.tell(to_player(head.pid), N_("{name} is Greed."), name=player(greed.pid))
        game.learn(greed.pid, head.pid, head.role)
        game.tell(to_player(greed.pid), N_("{name} is Father."), name=player(head.pid))


def _father_falls(game: Game) -> None:
    """AL-FATHER: pride becomes father; without pride the homunculi band together."""
    if father(game) is not None:
        return
    heir = next((h for h in homunculi(game) if h.role == "pride"), None)
    if heir is not None:
        heir.role = "father"
        heir.counters["was_pride"] = True
        game.event("succession", role="father", player=heir.pid)
        game.tell(to_player(heir.pid), N_("Father is dead. You are Father now: choose the "
                                          "homunculi's victim each night."))
        for h in homunculi(game):
            if h.pid != heir.pid:
                game.learn(h.pid, heir.pid, heir.role)
                game.tell(to_player(h.pid), N_("Father is dead; {name} leads you now."),
                          name=player(heir.pid))
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


def _bodyguard_steps_up(game: Game) -> None:
    for p in game.state.players.values():
        if p.alive and p.role == "bodyguard":
            p.role = "xing"
            p.counters["was_bodyguard"] = True
            game.event("succession", role="xing", player=p.pid)
            game.tell(to_player(p.pid), N_("The Xing Alchemist has fallen. You take his place: "
                                           "each night you may check one player."))
            return


def _take(game: Game, pride: Player, at_night: bool) -> None:
    target = pride.counters.get("take_target")
    if target is not None:
        settle_take(game, pride.pid, target)
    elif at_night:
        als(game).take_owed_next_day = pride.pid
    else:
        game.owe("take", pride.pid, [], RANK_TAKE)
