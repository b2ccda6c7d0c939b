"""Mare Do Well writes an anonymous letter each night (step 11): its target carries extra
votes in the next day's vote (two when more than 12 players count, CH-COUNT, else one)."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import GROUP, N_, NC_, player
from core.engine.ruleset import ActionSpec, RoleSpec

from ..hooks import DAY_BEGINS, MORNING_NOTES, define_role, duty, for_role
from ..night import NIGHT, NightStep, subs_for
from ..standing import is_counted
from ..state import changelings_state
from ..vocabulary import NIGHT as WHOLE_NIGHT
from ..vocabulary import PONIES, Stage


@event_kind("letter")
@dataclass(frozen=True, slots=True)
class Letter(Event):
    """Mare Do Well's letter weighs on a player's next vote count."""

    target: PlayerId
    weight: int

LETTER = ActionSpec(ActionId("letter"), WHOLE_NIGHT, harmful=True, text_max=500)
duty(Stage.DAWN, LETTER)

ROLE = define_role(
    RoleSpec(RoleId("mare_do_well"), PONIES, (LETTER,)),
    name=N_("Mare Do Well"),
    role_was=NC_("role was", "the Mare Do Well"),
    card=N_("You are Mare Do Well. Each night you write an anonymous letter naming a player, "
            "who then carries extra votes in the next day's vote."),
    about=N_("Each night Mare Do Well writes an anonymous letter naming a player, who then "
             "carries extra votes in the next day's vote."),
    actions={"letter": N_("Letter")},
)


@NIGHT.at(NightStep.MARE_DO_WELL)
@for_role("mare_do_well")
def write_letter(game: Game) -> None:
    state = changelings_state(game)
    state.letter = None
    for sub in subs_for(game, LETTER.id):
        target = game.state.players[sub.targets[0]]
        if not target.alive:
            continue
        counted = sum(1 for p in game.state.players.values() if is_counted(p))
        weight = 2 if counted > 12 else 1
        state.letter = (target.pid, weight, sub.text)
        game.record(Letter(target=target.pid, weight=weight))


@MORNING_NOTES.add
@for_role("mare_do_well")
def publish_letter(game: Game) -> None:
    letter = changelings_state(game).letter
    if letter is not None:
        target, weight, text = letter
        game.tell_n(GROUP, "An anonymous letter names {name}: {count:w} vote against them today.",
                    "An anonymous letter names {name}: {count:w} votes against them today.",
                    weight, name=player(target))
        if text:
            game.tell(GROUP, N_("The letter reads: “{text}”"), text=text)


@DAY_BEGINS.add
@for_role("mare_do_well")
def letter_weighs(game: Game) -> None:
    state = changelings_state(game)
    if state.letter is not None:
        target, weight, _ = state.letter
        game.state.vote_extra[target] = weight
        state.letter = None
