"""The love poison picks two players in the first night who fall in love (step 12, CH-LOVE);
without a love poison dealt, the option `random_lovers` pairs two random players."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NC_
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from ..hooks import ACTION_CHECKS, define_role, duty
from ..night import NIGHT, NightStep, subs_for
from ..standing import make_lovers
from ..state import EXCHANGED_FROM, changelings_state
from ..vocabulary import NIGHT as WHOLE_NIGHT
from ..vocabulary import PONIES, Stage

LOVE = ActionSpec(ActionId("love"), WHOLE_NIGHT, targets=2)
duty(Stage.DAWN, LOVE)

ROLE = define_role(
    RoleSpec(RoleId("love_poison"), PONIES, (LOVE,)),
    name=N_("Love Poison"),
    role_was=NC_("role was", "the Love Poison"),
    card=N_("You are the Love Poison. In the first night you pick two players who fall in "
            "love; if one of them leaves, the other follows, heartbroken."),
    about=N_("In the first night the Love Poison makes two players fall in love; if one of "
             "them leaves the game, the other follows, heartbroken."),
    actions={"love": N_("Love spell")},
)


@ACTION_CHECKS.at("love")
def check_love(game: Game, p: Player, targets: tuple[PlayerId, ...],
               _: str | None) -> Refused | None:
    if game.state.phase.number != 1:
        return FIRST_NIGHT_ONLY
    if changelings_state(game).lovers_chosen:
        return ALREADY_CHOSEN
    return None


# made once (see hooks.ActionCheck): `offers` asks this check for the love poison every night
FIRST_NIGHT_ONLY = Refused(N_("The love poison works only in the first night."))
ALREADY_CHOSEN = Refused(N_("The lovers are already chosen."))


@NIGHT.at(NightStep.LOVE_POISON)
def love_step(game: Game) -> None:
    state = changelings_state(game)
    if state.night.number != 1 or state.lovers_chosen:
        return
    poisons = [p for p in game.state.players.values()
               if "love_poison" in (p.role, EXCHANGED_FROM.get(p))]
    if poisons:
        state.lovers_chosen = True
        for sub in subs_for(game, LOVE.id):
            a, b = (game.state.players[t] for t in sub.targets)
            if a.alive and b.alive:
                make_lovers(game, a.pid, b.pid)
        return
    if game.state.options.get("random_lovers"):
        living = game.state.living()
        if len(living) >= 2:
            a, b = game.rng.sample(living, 2)
            make_lovers(game, a.pid, b.pid)
