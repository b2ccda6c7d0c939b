"""A template for a new role (not loaded: modules starting with `_` are not roles).

Copy this file to `roles/<role>.py`, fill it in, add the module's name at the right place in
`roles/__init__.py`'s `ORDER` (the place is part of the rules: it orders the role list and
the hooks that answer together), add the role's texts to the rule set's catalogs (`make
messages`, then `rulesets/alchemists/locales/{de,ru}/LC_MESSAGES/alchemists.po`) and write
its scenarios in `tests/scenarios/alchemists/`. Nothing else needs to change. (A role of a
package of its own comes after the rules' roles instead, through its entry point;
docs/extending.md: adding a role.)

The texts below are marked `N_` as in a real role: `babel.cfg` keeps this file out of the
catalogs, its copy is extracted.

Below, a made-up town role, the "watcher", who each night learns whether his target acted.
"""

from __future__ import annotations

from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NC_, player, to_player
from core.engine.ruleset import ActionSpec, RoleSpec

from ..common import AT_NIGHT, TOWN
from ..hooks import ACTION_NAMES, Role, register
from ..night import ROLE_ACTS, Night, NightStep, Rite, resolves

# 1. The role's actions: the engine checks targets, stages and slots from these.
WATCH = ActionSpec(ActionId("watch"), AT_NIGHT, self_ok=False)
ACTION_NAMES["watch"] = N_("Watch")  # its button

# 2. The role's data: side, actions, name, card, and its place in a setup (AL-SIZE):
#    "required" (exactly once), "optional" (at most once) or "filler"; `canonical` copies in
#    the canonical game; `left_out` > 0 drops it, in that order, from a default deal that
#    holds more roles than players;
#    `team` shares a team chat (see `hooks.Team`, `bodyguard.py`).
ROLE = register(Role(
    RoleSpec(RoleId("watcher"), TOWN, (WATCH,)),
    name=N_("Watcher"),
    role_was=NC_("role was", "the Watcher"),  # in running text: "Ann was the Watcher"
    card=N_("You are the Watcher. Each night you learn whether one player acted."),
    about=N_("Each night learns whether one player acted."),  # the card told to the group
    setup="optional",
    canonical=0,  # not one of the source's canonical fifteen
))

# 3. Where the action resolves in the night's order. Pick the `NightStep` whose comment says
#    what the action uses (a new kind of effect may need a new step in `night.NightStep`,
#    commented with what it sets and uses; that is the one shared file a new role may need).
ROLE_ACTS["watcher", "watch"] = NightStep.XING_CHECK
#    (and, if envy may copy it: `COPYABLE["watcher"] = Copyable("watch", NightStep.X)`)


# 4. What the action does when it resolves: `night.reach` applies the dome and the mirror;
#    the board knows blocks, protection and redirection (`core.engine.resolution`).
def watch(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    reached = night.reach(it, targets[0])
    if reached is None:
        return
    acted = any(actor == reached for actor, _ in night.game.state.subs)
    night.game.tell(to_player(it.actor), N_("{name} acted tonight.") if acted else
                    N_("{name} did not act tonight."), name=player(targets[0]))


# 5. The handler at the step: it resolves tonight's intents of its kind due there with the
#    effect (a role that does more at its step writes its own handler, `@NIGHT.at(step)`).
#    Kinds sharing a step resolve by the place their handlers take there (here 1: after
#    xing's checks and the copies of them, in place 0; a place taken twice is refused).
resolves(NightStep.XING_CHECK, "watch", watch, place=1)


# 6. Anything else the role adds plugs into `hooks`: its own actions when they differ from
#    the card (`OWN_ACTIONS`), actions gained in play (`GAINED_ACTIONS`), refusals
#    (`CHECKS`), replies to a submission (`ACCEPTED`), what happens at the start
#    (`AT_START`), at a removal (`ON_REMOVED`), after the day's executions
#    (`AFTER_EXECUTIONS`), when a day begins or closes, shields against night deaths
#    (`night.SHIELDS`), owed reactions (`REACTIONS`, `OWED_ACTIONS`).


# 7. What the role remembers about a player during a game (a power spent, a choice) is kept on
#    him, never in module globals (a state is saved and replayed): declare each fact once,
#    here, as a typed `Slot` -- its stored key, unique in the rule set, and what it reads as
#    while unset -- and read and write it only through it (`core/engine/role_state.py`):
#
# from core.engine.role_state import Slot
# WATCHED_LAST: Slot[PlayerId | None] = Slot("watched_last", None)
#
#     if WATCHED_LAST.get(p) == targets[0]: ...       # in a check (`CHECKS`)
#     WATCHED_LAST.set(watcher, reached)              # when the action resolves
