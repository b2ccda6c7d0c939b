"""What the homunculi who serve father share (lust, envy, pride): the kill `request` they send
him, and AL-FATHER's leaderless band — with father and pride dead they make no requests and
kill by agreement instead."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId
from core.engine.messages import N_, Ref, RefKind, player, to_player
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player, Submission

from ..actions import KILL
from ..common import AT_NIGHT, father
from ..hooks import ACCEPTED, ACTION_NAMES, CHECKS
from ..voice import said

REQUEST = ActionSpec(ActionId("request"), AT_NIGHT, harmful=True)
ACTION_NAMES["request"] = N_("Request a kill")


def leaderless_or_own(spec: RoleSpec) -> Callable[[Game, Player], Sequence[ActionSpec]]:
    """The role's own actions while there is a father; without one, the same but the request,
    and the band's kill."""
    leaderless = (*(a for a in spec.actions if a.id != "request"), KILL)

    def actions(game: Game, p: Player) -> Sequence[ActionSpec]:
        return leaderless if father(game) is None else spec.actions

    return actions


def check_request(game: Game, p: Player, spec: ActionSpec, targets: tuple[PlayerId, ...]) -> None:
    """A request never names its sender (rules §5 [revised]): every other self-targeted kill
    is refused, and so is asking for one's own death."""
    if targets and targets[0] == p.pid:
        raise Refused(N_("You cannot name yourself for “{action}”."),
                      action=Ref(RefKind.ACTION, spec.id))


def forward_request(game: Game, p: Player, sub: Submission) -> bool:
    """The bot forwards a request to father with the sender's name."""
    head = father(game)
    if head is not None:
        game.tell(to_player(head.pid), said(game, "REQUEST", head.pid),
                  name=player(p.pid), target=player(sub.targets[0]))
    return True


CHECKS["request"] = check_request
ACCEPTED["request"] = forward_request
