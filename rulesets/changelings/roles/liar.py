"""The liar (CH-LIAR), a member of the team: once per game (within one night the last choice
counts) he picks a special pony role that the researcher sees when checking him (step 1)."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NC_, Ref, RefKind, role, to_player
from core.engine.refusals import Refused
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from ..hooks import ACTION_CHECKS, ROLES, SEEN_AS, define_role, duty, for_role
from ..night import NIGHT, NightStep, subs_for
from ..state import changelings_state
from ..team import ACTIONS
from ..vocabulary import CHANGELINGS, DUSK, PONIES, Stage


@event_kind("faked")
@dataclass(frozen=True, slots=True)
class Faked(Event):
    """The liar chose the role he shows to checks tonight."""

    liar: PlayerId
    role: RoleId | None

FAKE = ActionSpec(ActionId("fake"), DUSK, targets=0, takes_role=True)
duty(Stage.DUSK, FAKE)

ROLE = define_role(
    RoleSpec(RoleId("liar"), CHANGELINGS, (*ACTIONS, FAKE)),
    name=N_("Liar"),
    role_was=NC_("role was", "the Liar"),
    card=N_("You are the Liar, a changeling. Once per game you may pick a pony role that the "
            "Researcher will see when checking you."),
    about=N_("The Liar is a changeling who, once per game, picks a pony role that the "
             "Researcher will see when checking them."),
    actions={"fake": N_("Fake a role")},
)
# the role the researcher sees him as (his last choice that night; none: his own) and the
# night he chose it, after which he fakes no more
FAKED_ROLE: Slot[RoleId | None] = Slot("fake", None)
FAKED_NIGHT: Slot[int | None] = Slot("fake_night", None)


def fakeable(role_id: RoleId) -> bool:
    """The pony-side special roles the liar may pretend to be."""
    spec = ROLES.get(role_id)
    return spec is not None and spec.side == PONIES and spec.special


@ACTION_CHECKS.at("fake")
def check_fake(game: Game, p: Player, targets: tuple[PlayerId, ...],
               role_id: RoleId | None) -> Refused | None:
    used = FAKED_NIGHT.get(p)
    if used is not None and used != game.state.phase.number:
        return Refused(N_("You can fake a role only once per game."))
    if role_id is not None and not fakeable(role_id):
        return Refused(N_("You can only pretend to be a special pony role."))
    return None


@NIGHT.at(NightStep.LIAR)
@for_role("liar")
def fake_a_role(game: Game) -> None:
    for sub in subs_for(game, FAKE.id):
        liar = game.state.players[sub.actor]
        FAKED_ROLE.set(liar, sub.role)
        FAKED_NIGHT.set(liar, changelings_state(game).night.number)
        game.record(Faked(liar=liar.pid, role=sub.role))
        # the role inside the sentence, in its running-text form ("as the Stalker");
        # `fake` carries it as the plain role fact, which the text does not print
        fake = sub.role or ""
        game.tell(to_player(liar.pid), N_("From now on, the Researcher sees you as {role}."),
                  role=Ref(RefKind.ROLE_WAS, fake), fake=role(fake))


@SEEN_AS.at("liar")
def seen_by_a_check(target: Player, by_researcher: bool) -> str:
    """The fake only to the researcher, once faked."""
    if by_researcher:
        return FAKED_ROLE.get(target) or "liar"
    return target.role
