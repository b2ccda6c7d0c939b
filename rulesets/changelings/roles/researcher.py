"""The researcher checks one other player each dusk and learns his role (step 2). The queen
checks the same way at step 5, so the check itself lives here."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import ActionId, RoleId
from core.engine.messages import N_, NC_, player, role, role_was, to_player
from core.engine.ruleset import ActionSpec, RoleSpec

from ..hooks import CHECKED, SEEN_AS, define_role, duty, for_role
from ..night import NIGHT, NightStep, subs_for
from ..vocabulary import DUSK, PONIES, Stage
from ..voice import said

CHECK = ActionSpec(ActionId("check"), DUSK, self_ok=False)
duty(Stage.DUSK, CHECK)

ROLE = define_role(
    RoleSpec(RoleId("researcher"), PONIES, (CHECK,)),
    name=N_("Researcher"),
    role_was=NC_("role was", "the Researcher"),
    card=N_("You are the Researcher. Each night you check one other player and learn their "
            "role."),
    about=N_("Each night the Researcher checks one other player and learns their role."),
    actions={"check": N_("Check")},
)


def check_step(game: Game, checker_role: RoleId) -> None:
    """Every check sent by a living player of `checker_role`, in seat order."""
    for sub in subs_for(game, CHECK.id):
        checker = game.state.players[sub.actor]
        target = game.state.players[sub.targets[0]]
        if checker.role != checker_role or not target.alive:
            continue
        by_researcher = checker_role == "researcher"
        seen_as = SEEN_AS.handlers.get(target.role)
        seen = seen_as(target, by_researcher) if seen_as is not None else target.role
        game.tell(to_player(checker.pid), said(game, "CHECK_RESULT", checker.pid),
                  name=player(target.pid), role=role_was(seen), seen=role(seen))
        checked = CHECKED.handlers.get(target.role)
        if checked is not None:
            checked(game, target, by_researcher)
        # recorded after an awakening, which tells the team of its newcomer: the queen's
        # answer stays the role as it was when her step began
        game.learn(checker.pid, target.pid, seen)


@NIGHT.at(NightStep.RESEARCHER)
@for_role("researcher")
def researcher_checks(game: Game) -> None:
    check_step(game, ROLE.id)
