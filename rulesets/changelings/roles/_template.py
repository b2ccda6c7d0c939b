"""A template for a new role (not loaded: its name starts with `_`).

To add a role: copy this file to `roles/<role id>.py`, replace `new_role` by the role's id
(snake_case) and `watch` by its action's id, and keep only what the role needs. The module is
found and imported by `roles/__init__.py` (after the roles of `ORDER`); nothing else in the
rule set changes. Then add the texts (`make messages`, translate the new msgids in the rule
set's own catalogs, `rulesets/changelings/locales/{de,ru}/LC_MESSAGES/changelings.po`) and
write the role's scenarios in `tests/scenarios/changelings/`.

A role of a package of your own is the same module, importing `rulesets.changelings.…`
instead of `..`, with its texts in a domain of its own (`catalog=` below) and an entry point
that names the rule set it joins (docs/extending.md: adding a role; `tests/fixtures/gossip`).

The texts below are marked `N_` as in a real role: `babel.cfg` keeps this file out of the
catalogs, its copy is extracted.

This example — the Night Owl — watches one player each dusk and learns at the end of dawn
whether that player was out and about (sent anything) that night.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NC_, player, to_player
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from ..hooks import ACTION_CHECKS, define_role, duty
from ..night import NIGHT, NightStep, subs_for
from ..vocabulary import DUSK, PONIES, Stage


@event_kind("watched")
@dataclass(frozen=True, slots=True)
class Watched(Event):
    """The owl watched a player (the template's example event)."""

    owl: PlayerId
    target: PlayerId
    busy: bool

# 1. The role's actions: the id, the window stages it may be sent in (vocabulary.py), and
#    what it accepts (`ActionSpec`: targets, self_ok, harmful, slot, text_max, takes_role).
WATCH = ActionSpec(ActionId("watch"), DUSK, self_ok=False)
# An early close (CH-EARLY) waits until the role has sent it (or passed) in this stage.
duty(Stage.DUSK, WATCH)

# 2. The role's data: its spec (id, side, actions; `special=False` for a plain role), its name,
#    its name in running text ("Ann was the Night Owl"; German needs the article apart from
#    the bare name a list shows, so it is a text of its own, in the context "role was"), the
#    card a player of it receives (msgids), and the names of its actions. A role from a
#    package of its own adds `catalog=Catalog(<its locales folder>, "<its domain>")`.
ROLE = define_role(
    RoleSpec(RoleId("new_role"), PONIES, (WATCH,)),
    name=N_("Night Owl"),
    role_was=NC_("role was", "the Night Owl"),
    card=N_("You are the Night Owl. Each night you watch one other player and learn by morning "
            "whether they were out and about."),
    actions={"watch": N_("Watch")},
)


# 3. Checks: raise `Refused` when the action may not be sent now (with these targets). Asked
#    with no targets too, by `offers`: a spent power is then neither offered nor waited for.
#    A check that looks at the targets alone says so (`UNASKED_BY_OFFERS.add("watch")`), and
#    `offers` does not ask it.
@ACTION_CHECKS.at("watch")
def check_watch(game: Game, p: Player, targets: tuple[PlayerId, ...],
                _: str | None) -> Refused | None:
    if game.state.phase.number < 1:
        return Refused(N_("There is nothing to watch yet."))
    return None


# 4. Night steps: attach to the step the role acts at (`night.NightStep` says what each step
#    sets and uses), in a place of its own at that step: the love poison's handler has place
#    0, so the owl takes 1 (handlers of a step run by place; a place taken twice is refused).
#    Read the night's submissions with `subs_for` (living actors, seat order), the players of
#    a role with `holders`. A step that acts for the role's players alone says so
#    (`@for_role("night_owl")` under `@NIGHT.at`, as for a morning's or a day's hook): a game
#    without the role does not run it.
@NIGHT.at(NightStep.LOVE_POISON, place=1)
def watch(game: Game) -> None:
    for sub in subs_for(game, WATCH.id):
        target = game.state.players[sub.targets[0]]
        busy = any(other.actor == target.pid and other.action != "pass"
                   for other in game.state.subs.values())
        game.record(Watched(owl=sub.actor, target=target.pid, busy=busy))
        key = (N_("{name} was out and about tonight.") if busy
               else N_("{name} stayed at home tonight."))
        game.tell(to_player(sub.actor), key, name=player(target.pid))


# 5. Other seams, in hooks.py, keyed by this role's id — uncomment what the role needs:
#
# @BANISHED.at("new_role")      # (game, p) -> True: the banishment is turned aside
# @ABDUCTED.at("new_role")      # (game, p) -> True: the abduction is turned aside
# @EXCHANGED.at("new_role")     # (game, p) -> True: the exchange is turned aside
# @STRUCK.at("new_role")        # (game, p, why, actor, hold) -> True: prank/chase/fanatic
# @REMOVED.at("new_role")       # (game, p, why): after publication, heartbreak, succession
# @CHECKED.at("new_role")       # (game, p, by_researcher): a check of him was answered
# @SEEN_AS.at("new_role")       # (p, by_researcher) -> the role a check shows
# @STARTED.at("new_role")       # (game, p): at the start, after the cards
# @SETUP_CHECKS.at("new_role")  # (roles): raise SetupError if a deal with him may not play
# @REVERSES.at("new_role")      # (game, p) -> True: he could still turn the numbers (CH-END)
# @AFTER_ACT.at("watch")        # (game, p, sub): after an accepted submission
#
# and hooks that run for every game: EXTRA_ABILITIES (`@TABLE.during(stage)`, with
# `role="new_role"` when for his players alone), REVERSAL_OWED, DAY_BEGINS, MORNING_NEWS,
# MORNING_NOTES (`@TABLE.add`, with `@for_role("new_role")` when for his players alone).


# 6. What the role remembers about a player during a game (a power spent, a choice) is kept on
#    him, never in module globals (a state is snapshotted and replayed): declare each fact
#    once, here, as a typed `Slot` -- its stored key, unique in the rule set, and what it reads
#    as while unset -- and read and write it only through it (`core/engine/role_state.py`):
#
# from core.engine.role_state import Slot
# WATCHED_LAST: Slot[PlayerId | None] = Slot("watched_last", None)
#
#     if WATCHED_LAST.get(p) == targets[0]: ...       # in a check
#     WATCHED_LAST.set(owl, target.pid)              # in the night step
