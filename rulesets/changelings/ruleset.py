"""The Changelings rule set: the hooks the engine calls, wired to the rules' modules. What a
role adds (its actions' checks, its part of a removal, the vote or the end) comes from its
module in `roles/` through `hooks.py`; the night is walked step by step in `night.py`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NOTED, Purpose, Ref, dealt, player, to_player
from core.engine.phase import Phase, PhaseKind
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, Ruleset, SetupError, TeamChat
from core.engine.state import Player, Submission
from core.engine.story import StoryExtension
from core.engine.voice import Prompt
from core.engine.windows import pace_table

from . import day, night, opening, options, team
from . import roles as _roles  # noqa: F401 - importing it registers every role
from .balance import BALANCE
from .deal import check_roles, deal_roles
from .end import check_end
from .hooks import (
    ACTION_CHECKS,
    ACTION_NAMES,
    AFTER_ACT,
    CHANGELING_ROLES,
    EXTRA_ABILITIES,
    OWED_ACTIONS,
    ROLE_ABOUT,
    ROLE_CARDS,
    ROLE_CATALOGS,
    ROLE_IN_TEXT,
    ROLE_NAMES,
    ROLES,
    SHOWN_AS,
    STAGE_DUTIES,
    STARTED,
    ActionCheck,
)
from .powers import (
    IN_STAGE,
    ONLY_PASS,
    PASS,
    STANDING,
    extra_now,
    extras_for,
    in_stage,
    with_checks,
)
from .removal import on_removed
from .standing import make_lovers, mayor, partner_of, side_of, take_office, tell_fellows
from .standing import team as changeling_team
from .state import PONY_KIND, ChangelingsState, changelings_state
from .story import STORY_HEADINGS, STORY_TEXTS, VOTE_TITLES, ChangelingsStory
from .vocabulary import (
    CAUSE_NAMES,
    CAUSES,
    KIND_NAMES,
    RULES_SUMMARY,
    SIDE_FORMS,
    SIDE_NAMES,
    SIDES,
    STAGE_NAMES,
    VOTING,
    WINDOW_NAMES,
    WINDOWS,
    Stage,
)
from .voice import VOICE

# globals: in Python 3.11 `Enum.MEMBER` costs ten global reads; asked at every vote and close
_VOTE, _REACTIONS, _NOTED, _NIGHT = Stage.VOTE, Stage.REACTIONS, Purpose.NOTED, PhaseKind.NIGHT
_ELECTION, _DUSK, _DAWN = Stage.ELECTION, Stage.DUSK, Stage.DAWN
# the statuses asked here, at every action, vote and window, are `vocabulary.Status`'s values
# written as literals: a constant loads faster than a global (0.15 % of a game, callgrind)
# the "Noted" every action is answered with, in this game's voice (`Prompt`: made once)
_NOTED_TOLD = Prompt(VOICE, "NOTED", NOTED)
_EXTRAS = EXTRA_ABILITIES.handlers  # by stage: what a role adds (asked in every `offers`)
# read at every action: the engine's `pass`, each action's check and what follows it
_PASS_ID, _CHECKS, _AFTER = PASS.id, ACTION_CHECKS.handlers, AFTER_ACT.handlers


@event_kind("active")
@dataclass(frozen=True, slots=True)
class Active(Event):
    """A player acted: his inactivity count starts again."""

    player: PlayerId


PONY_KINDS = tuple(KIND_NAMES)


class Changelings(Ruleset):
    id = "changelings"
    locales_dir = Path(__file__).resolve().parent / "locales"
    role_catalogs = ROLE_CATALOGS  # filled by importing `roles/`
    voice = VOICE  # the core's prompts in this game's words (voice.py)
    story_texts = STORY_TEXTS  # the summary's lines in this game's words (story.py)
    story_headings = STORY_HEADINGS  # the story's headings in this game's words (story.py)
    roles = ROLES  # filled by importing `roles/`
    sides = SIDES
    causes = CAUSES
    balance, min_players, max_players = BALANCE, 6, 30  # BALANCE: the advisor's target
    extra_actions = (*OWED_ACTIONS, PASS.id)
    option_choices: dict[str, tuple[str, ...]] = dict(options.CHOICES)  # noqa: RUF012
    option_about, option_words = options.ABOUT, options.WORDS
    vocabulary: dict[str, dict[str, str]] = {  # noqa: RUF012
        **SIDE_FORMS, "role": ROLE_NAMES, "side": SIDE_NAMES, "cause": CAUSE_NAMES,
        "option": options.ABOUT, "option_name": options.NAMES, "role_was": ROLE_IN_TEXT,
        # a role as /roles and /role show it to the group (the core's ROLE_LINE "{card}"): the
        # third-person ROLE_ABOUT; the card a player is dealt ("You are …") is `dealt`
        "card": ROLE_ABOUT, "dealt": ROLE_CARDS, "kind": KIND_NAMES, "window": WINDOW_NAMES,
        "action": {**ACTION_NAMES, PASS.id: N_("Pass")},
        "vote_title": VOTE_TITLES, "stage": STAGE_NAMES, "option_value": options.VALUES}
    windows, pace = WINDOWS, pace_table(WINDOWS)
    pace_options = {"forum": {"inactivity_hours": 24}}  # noqa: RUF012 - CH-INACT's default
    summary, title = RULES_SUMMARY, N_("Changelings")
    aliases = ("Changelinge",)  # German players' word: the side's name, not the game's title
    default_options: dict[str, Any] = {  # noqa: RUF012
        "random_lovers": True, "inactivity_hours": 0, "fanatic_uses": "night", "changelings": 0,
        "early_close": True}

    def new_state(self) -> ChangelingsState:
        return ChangelingsState()

    def deal(self, count: int, options: dict[str, Any], rng: random.Random) -> list[RoleId]:
        return deal_roles(count, int(options.get("changelings") or 0), rng)

    def check_setup(self, roles: Sequence[RoleId], options: dict[str, Any]) -> None:
        if options.get("fanatic_uses") not in ("night", "game"):
            raise SetupError("Option {option} has a wrong value.", option="fanatic_uses")
        check_roles(roles, int(options.get("changelings") or 0))

    # ------------------------------------------------------------------ start
    def start(self, game: Game, setup: dict[str, Any], start_phase: str | None) -> None:
        players = game.state.players
        lovers = setup.get("lovers")
        if lovers is not None and (
                len(lovers) != 2 or lovers[0] == lovers[1] or not set(lovers) <= set(players)):
            raise SetupError("The lovers must be two different players.")
        opening.announce(game)
        for p in players.values():
            shown = SHOWN_AS.get(p.role, p.role)
            # the role card alone (a line "Your role: X." before it said it twice), as a
            # reference for the told and secrecy checks; a pony's kind in the same message
            if shown == "pony":
                kind = game.rng.choice(PONY_KINDS)
                PONY_KIND.set(p, kind)
                game.tell(to_player(p.pid), N_("{dealt}\n\nYour kind: {kind}."),
                          kind=Ref("kind", kind), dealt=dealt(shown))
            else:
                game.tell(to_player(p.pid), N_("{dealt}"), dealt=dealt(shown))
        members = changeling_team(game)
        for p in players.values():
            if p.role in CHANGELING_ROLES:  # `is_changeling`, inlined: each player at the start
                fellows = [other for other in members if other.pid != p.pid]
                for other in fellows:
                    game.learn(p.pid, other.pid, other.role)
                tell_fellows(game, p, fellows)
            started = STARTED.handlers.get(p.role)
            if started is not None:
                started(game, p)
        if lovers is not None:  # after the cards: a mixed pair's new goal follows its card
            make_lovers(game, lovers[0], lovers[1])
        first_mayor = setup.get("mayor")
        if first_mayor is not None:
            if first_mayor not in players:
                raise SetupError("The mayor must be a player.")
            take_office(game, players[first_mayor])
        self._enter(game, start_phase)

    def _enter(self, game: Game, start_phase: str | None) -> None:
        if start_phase is None:
            day.begin_election(game)
            return
        try:
            phase = Phase.parse(start_phase)
        except ValueError as err:
            raise SetupError("Unknown phase: {phase}.", phase=start_phase) from err
        if phase.kind == PhaseKind.NIGHT and phase.stage in (Stage.DUSK, Stage.DAWN, Stage.NONE):
            # "night N" is its dusk; a start at dawn finds the dusk passed with nobody acting
            night.begin_night(game, phase.number)
            if phase.stage == Stage.DAWN:
                night.resolve_dusk(game)
                game.set_phase(Phase.of(PhaseKind.NIGHT, phase.number, Stage.DAWN))
        elif phase.kind == PhaseKind.DAY and phase.stage == Stage.VOTE and phase.number >= 2:
            day.begin_day(game, phase.number)
        elif phase == Phase(PhaseKind.DAY, 1, Stage.ELECTION):
            day.begin_election(game)
        else:
            raise SetupError("A game can start only at an election, a vote or a night.")

    # ------------------------------------------------------------------ player commands
    def abilities(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """His role's powers and the mayor's while in the game, the choice owed to him, what
        a role adds (the drama queen's chase at dawn), and `pass`, in this order."""
        s = game.state
        reactions = s.reactions  # the first is `game.current_owed()`
        extras = _EXTRAS.get(s.phase.stage)
        if not reactions and (extras is None or not extras_for(extras, p.role)):  # most often
            return STANDING[p.role]["mayor" in p.statuses] if p.alive else ONLY_PASS
        found = list(STANDING[p.role]["mayor" in p.statuses][:-1]) if p.alive else []
        if reactions and reactions[0].player == p.pid:
            spec = OWED_ACTIONS[reactions[0].kind]
            if spec not in found:
                found.append(spec)
        for only, more in extras or ():
            if only is None or only == p.role:
                found += more(game, p)
        found.append(PASS)
        return found

    def offers(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """The abilities usable now: a spent power (its check refuses it) is neither offered
        nor waited for."""
        s = game.state
        stage = s.phase.stage
        checked: Sequence[tuple[ActionSpec, ActionCheck | None]] | None
        if p.alive and not s.reactions and (
                stage not in _EXTRAS or not extra_now(game, p, _EXTRAS[stage])):
            # the common case of `abilities` (nothing owed, no role adds a power now; the
            # drama queen's chase is asked of her at dawn), from the table made for it
            try:
                found, checked = IN_STAGE[stage][p.role]["mayor" in p.statuses]
            except KeyError:
                found, checked = in_stage(p.role, "mayor" in p.statuses, stage)
            if checked is None:  # no power of them may be spent
                return found
        else:
            checked = with_checks(self.abilities(game, p), stage)
        usable_now = []
        for spec, check in checked:  # a power not spent: its check, asked without targets,
            if check is None or check(game, p, (), None) is None:  # allows it
                usable_now.append(spec)
        return usable_now

    def prompted(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """The mayor's standing powers are not pushed at him; an owed choice is. An action
        sent already this night (the love poison's `love` at dusk) is not asked again at
        dawn."""
        owed = game.current_owed()
        sent = game.state.subs
        return [spec for spec in self.offers(game, p) if spec.id != PASS.id and (
            p.pid, spec.id) not in sent and (
            spec.id not in ("tiebreak", "successor")
            or (owed is not None and owed.player == p.pid and owed.kind == spec.id))]

    def may_act_removed(self, game: Game, p: Player, action: ActionId) -> bool:
        owed = game.current_owed()
        return (owed is not None and owed.player == p.pid and owed.kind == action) or (
            action == PASS.id and owed is not None and owed.player == p.pid)

    def check_act(self, game: Game, p: Player, spec: ActionSpec, targets: tuple[PlayerId, ...],
                  text: str | None, role_id: RoleId | None) -> None:
        if spec.id == _PASS_ID and not self.may_act_removed(game, p, _PASS_ID) and not [
                s for s in self.offers(game, p) if s.id != _PASS_ID]:
            raise Refused(N_("There is nothing for you to pass now."))
        partner = partner_of(game, p.pid) if spec.harmful else None
        if partner is not None and partner in targets:
            raise Refused(N_("You cannot act against {name}: you are in love."),
                          name=player(partner))
        check = _CHECKS.get(spec.id)
        if check is not None:
            refusal = check(game, p, targets, role_id)
            if refusal is not None:
                # a fresh one: raising the one this frame holds would tie it and its
                # traceback into a cycle, left for the garbage collector
                raise Refused.saying(refusal.text)

    def after_act(self, game: Game, sub: Submission) -> None:
        s = game.state
        p = s.players[sub.actor]
        action = sub.action
        reactions = s.reactions  # the first is `game.current_owed()`
        if (reactions and s.phase.stage == _REACTIONS
                and reactions[0].player == p.pid and action in (reactions[0].kind, _PASS_ID)):
            pass  # an answer to the owed choice counts when the prompt closes (CH-REACT)
        elif action == _PASS_ID:
            for key in [k for k in s.subs if k[0] == p.pid and k[1] != "pass"]:
                del s.subs[key]
        else:
            follows = _AFTER.get(action)
            if follows is not None:
                follows(game, p, sub)
        game.tell(to_player(p.pid), _NOTED_TOLD.told(s.phase, p.pid), purpose=_NOTED)

    def voting_open(self, game: Game) -> bool:
        return game.state.phase.stage in VOTING

    def check_vote(self, game: Game, voter: Player, target: Player | None) -> None:
        if "voiceless" in voter.statuses:
            raise Refused(N_("You have lost your voice and cannot vote."))
        # `partner_of`, written out, the pair asked before the stage: at every vote of every
        # day, and most voters are in none
        state: ChangelingsState = game.state.rs
        lovers, pid = state.lovers, voter.pid
        if target is not None and lovers is not None and pid in lovers and (
                lovers[1] if lovers[0] == pid else lovers[0]) == target.pid and \
                game.state.phase.stage == _VOTE:
            raise Refused(N_("You cannot vote against {name}: you are in love."),
                          name=player(target.pid))

    def on_activity(self, game: Game, p: Player) -> None:
        if "inactive" in p.statuses:
            p.statuses.discard("inactive")
            game.record(Active(player=p.pid))

    # ------------------------------------------------------------------ windows
    def window_complete(self, game: Game) -> bool:
        state = game.state
        stage = state.phase.stage
        if stage == Stage.ELECTION:
            return all(p.pid in state.votes for p in state.living()
                       if "inactive" not in p.statuses)
        if stage == Stage.REACTIONS:  # answered or passed; the mayor's other powers do not count
            owed = game.current_owed()
            return owed is not None and ((owed.player, owed.kind) in state.subs
                                         or (owed.player, "pass") in state.subs)
        duties = STAGE_DUTIES.get(stage)
        if duties is None:
            return False
        # acted in the stage: sent one of its actions, or passed in it (naming a successor
        # or a pass from the other stage does not count)
        submitted = {sub.actor for sub in state.subs.values() if sub.action in duties}
        passed = {sub.actor for sub in state.subs.values() if sub.action == PASS.id} & state.acted
        for p in state.living():
            if "inactive" in p.statuses or p.pid in submitted or p.pid in passed:
                continue
            if any(spec.id in duties for spec in self.offers(game, p)):
                return False
        return True

    def close(self, game: Game) -> None:
        state = game.state
        stage = state.phase.stage
        if stage == _ELECTION:
            day.close_election(game)
        elif stage == _VOTE:
            day.close_vote(game)
        elif stage == _REACTIONS:
            owed = game.current_owed()
            if owed is not None:
                day.answer(game, owed, day.answer_of(game, owed))
        elif stage == _DUSK:
            night.resolve_dusk(game)
            if not check_end(game):
                game.set_phase(Phase.of(_NIGHT, state.phase.number, _DAWN))
        elif stage == _DAWN:
            night.resolve_dawn(game)
            night.morning_post(game)
            if not check_end(game):
                state.subs = {}
                day.begin_day(game, state.phase.number + 1)

    # ------------------------------------------------------------------ removals, host
    def on_removed(self, game: Game, p: Player, cause: str) -> None:
        on_removed(game, p, cause)

    def after_host_removal(self, game: Game, p: Player) -> None:
        check_end(game)

    def side_of(self, game: Game, p: Player) -> str:
        return side_of(game, p)

    def story(self, game: Game) -> StoryExtension[Game]:
        return ChangelingsStory()

    def fact(self, game: Game, key: str) -> Any:
        state = changelings_state(game)
        if key == "mayor":
            office = mayor(game)
            return office.pid if office else None
        if key == "lovers":
            return set(state.lovers) if state.lovers else None
        if key == "foresight":
            return dict(state.night.foresight)
        raise KeyError(key)

    def whisper_recipients(self, game: Game, p: Player, to: PlayerId | None) -> list[PlayerId]:
        return team.whisper_recipients(game, p, to)

    def team_members(self, game: Game, team: str) -> list[PlayerId]:
        return [p.pid for p in changeling_team(game)] if team == "changelings" else []

    def team_chats(self, game: Game) -> list[TeamChat]:
        return team.team_chats(game)
