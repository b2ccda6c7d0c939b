"""The Alchemists rule set: the hooks the engine calls, wired to the rules' modules — the
roles (`roles/`, one module each, plugged in through `hooks.py` and the night's steps), and
the shared mechanics: the night (`night.py`, `actions.py`), the Stone (`stone.py`,
`stone_actions.py`), the day's vote (`day.py`), removals (`removal.py`), the end
(`end.py`) and the team chats (`chats.py`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import GROUP, N_, NOTED, Purpose, dealt, player, role, to_player
from core.engine.phase import Phase, PhaseKind
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, Ruleset, SetupError, TeamChat
from core.engine.state import Player, Submission
from core.engine.statuses import Status as CoreStatus
from core.engine.story import StoryExtension
from core.engine.voice import Prompt
from core.engine.windows import WindowSpec, pace_table

from . import chats, day, night, options
from . import stone as stone_rules
from .actions import PASS
from .balance import BALANCE
from .common import (
    CAUSE_NAMES,
    CAUSES,
    CHECK_NAMES,
    SIDE_FORMS,
    SIDE_NAMES,
    SIDES,
    STAGE_NAMES,
    Stage,
    side_of,
    state_of,
    statuses_of,
)
from .deal import check_setup, deal_roles
from .end import check_end
from .hooks import (
    ACCEPTED,
    ACTION_NAMES,
    AT_START,
    CHECKS,
    GAINED_ACTIONS,
    OWED_ACTIONS,
    OWN_ACTIONS,
    REACTIONS,
    STANDING,
)
from .removal import on_removed
from .roles import (
    ROLE_ABOUT,
    ROLE_CARDS,
    ROLE_CATALOGS,
    ROLE_IN_TEXT,
    ROLE_NAMES,
    ROLE_SPECS,
)
from .state import AlchemistsState
from .stone_actions import STONE_SPECS
from .story import STORY_HEADINGS, STORY_TEXTS, AlchemistsStory
from .voice import VOICE

# read as a global: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked at every vote and action
_VOTE, _NIGHT, _NOTED = Stage.VOTE, PhaseKind.NIGHT, Purpose.NOTED
_REACTIONS = Stage.REACTIONS  # and at every window's close
_PASS_ID = PASS.id  # (an attribute's read, at every action)
_EARLY = CoreStatus.EARLY.value
# the "Noted" every action is answered with, in this game's voice (`Prompt`: made once)
_NOTED_TOLD = Prompt(VOICE, "NOTED", NOTED)


# A living player's abilities when nothing is owed to him, his role has no `OWN_ACTIONS` and he
# has gained nothing in play nor holds the Stone — most players, most nights: made once per
# role, not a list at every ask (every player is offered his every night, and every action
# he sends is validated against them). Each role module registered its `OWN_ACTIONS` as the
# role list was made.
_PLAIN = {role_id: (*spec.actions, PASS) for role_id, spec in ROLE_SPECS.items()
          if role_id not in OWN_ACTIONS}

# Deadlines per window (rules §3): seconds at the quick pace, a clock time in the game's time
# zone at the forum pace; the host may set his own with /timer (within the default bounds).
WINDOWS = (
    WindowSpec("night", N_("night"), 90, "10:00"),
    WindowSpec("vote", N_("vote"), 240, "20:00"),
    WindowSpec("reactions", N_("after the verdict"), 45, 1800),
)
RULES_SUMMARY = N_(
    "Homunculi led by Father hunt the State Alchemists; the Ishvalan, the Crimson Alchemist "
    "and Greed play alone. Each night the roles act, each day everyone must vote and the one "
    "with most votes is executed. The Philosopher's Stone appears after the first deaths and "
    "grants one more power each night, at a price.")


class Alchemists(Ruleset):
    id = "alchemists"
    locales_dir = Path(__file__).resolve().parent / "locales"
    role_catalogs = ROLE_CATALOGS
    voice = VOICE  # the core's prompts in this game's words (voice.py)
    story_texts = STORY_TEXTS  # the summary's lines in this game's words (story.py)
    story_headings = STORY_HEADINGS  # the story's headings in this game's words (story.py)
    roles = ROLE_SPECS
    sides = SIDES
    causes = CAUSES
    balance = BALANCE  # what the balance advisor aims at (balance.py)
    min_players, max_players = 9, 20
    extra_actions = tuple(map(ActionId, ACTION_NAMES))  # every action, gained and owed too
    option_choices = options.CHOICES
    option_about = options.ABOUT
    option_words = options.WORDS
    vocabulary: dict[str, dict[str, str]] = {  # noqa: RUF012
        **SIDE_FORMS, "role": ROLE_NAMES, "side": SIDE_NAMES, "cause": CAUSE_NAMES,
        "option": options.ABOUT, "option_name": options.NAMES, "role_was": ROLE_IN_TEXT,
        "card": ROLE_CARDS, "dealt": ROLE_CARDS, "about": ROLE_ABOUT, "check": CHECK_NAMES,
        "action": ACTION_NAMES,
        "stage": STAGE_NAMES, "option_value": options.VALUES,
        "window": {w.id: w.label for w in WINDOWS}}
    windows = WINDOWS
    pace = pace_table(WINDOWS)
    summary = RULES_SUMMARY
    title = N_("Alchemists")
    player_options = ("stone_holder",)
    default_options: dict[str, Any] = {  # noqa: RUF012
        "stone_backfire": "random",
        "stone_after_deaths": 0,
        "stone_holder": "",
        "missed_vote_votes": 2,
        "missed_votes_modkill": 2,
        "early_votes_needed": "majority",
        "early_close": True,
        "roles_public": True,
    }

    def new_state(self) -> AlchemistsState:
        return AlchemistsState()

    # ------------------------------------------------------------------ setup
    def deal(self, count: int, options: dict[str, Any], rng: random.Random) -> list[RoleId]:
        return deal_roles(count, rng)

    def check_setup(self, roles: Sequence[RoleId], options: dict[str, Any]) -> None:
        check_setup(roles, options)

    def start(self, game: Game, setup: dict[str, Any], start_phase: str | None) -> None:
        if setup:
            raise SetupError("This game has no starting statuses.")
        state = state_of(game)
        players = game.state.players
        k = game.state.options.get("stone_after_deaths") or game.rng.choice((3, 4, 5))
        state.stone.threshold = int(k)
        in_play = sorted({p.role for p in players.values()}, key=list(ROLE_SPECS).index)
        if game.state.options.get("roles_public"):
            game.tell(GROUP, N_("A game of Alchemists begins with {count:w} players. Roles in "
                                "play: {roles}."), count=len(players),
                      roles=tuple(map(role, in_play)))
        else:
            game.tell(GROUP, N_("A game of Alchemists begins with {count:w} players. The roles "
                                "in play are secret."), count=len(players))
        game.tell(GROUP, N_("Play from your main account. No private talk outside the team "
                            "chats, no screenshots, no insults."))
        for p in players.values():
            # the role card alone: it names the role (a line "Your role: X." before it said
            # it twice); a reference, so the told and secrecy checks see the role
            game.tell(to_player(p.pid), N_("{dealt}"), dealt=dealt(p.role))
        for introduce in AT_START:  # rules §2: who is told whom
            introduce(game)
        self._enter(game, start_phase)

    def _enter(self, game: Game, start_phase: str | None) -> None:
        if start_phase is None:
            night.begin_night(game, 1)
            return
        try:
            phase = Phase.parse(start_phase)
        except ValueError as err:
            raise SetupError("Unknown phase: {phase}.", phase=start_phase) from err
        if phase.kind == PhaseKind.NIGHT and not phase.stage:
            night.begin_night(game, phase.number)
        elif phase.kind == PhaseKind.DAY and phase.stage == Stage.VOTE:
            day.begin_day(game, phase.number)
        else:
            raise SetupError("A game can start only at a night or a day vote.")

    # ------------------------------------------------------------------ player commands
    def abilities(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """What is owed to him (even dead), his role's actions (as they stand now), what he
        has gained in play, the Stone's powers if he holds it, and `pass`."""
        s = game.state
        owing = OWED_ACTIONS.get(s.phase.stage)  # None every night: nothing is owed then
        if owing is None and p.alive and not p.counters:  # most players, most of the time
            own = OWN_ACTIONS.get(p.role)
            if s.rs.stone.holder != p.pid:
                return _PLAIN[p.role] if own is None else (*own(game, p), PASS)
            return (*(ROLE_SPECS[p.role].actions if own is None else own(game, p)),
                    *STONE_SPECS, PASS)
        found: list[ActionSpec] = []
        for owed in owing or ():
            found += owed(game, p)
        if not p.alive:
            return found
        own = OWN_ACTIONS.get(p.role)
        found += own(game, p) if own is not None else ROLE_SPECS[p.role].actions
        if p.counters:  # what is gained in play is kept there (GAINED_ACTIONS)
            for gained in GAINED_ACTIONS:
                for spec in gained(game, p):
                    if spec not in found:
                        found.append(spec)
        if s.rs.stone.holder == p.pid:
            found += STONE_SPECS
        found.append(PASS)
        return found

    def offers(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        s = game.state
        if s.phase.kind == _NIGHT:  # the night has one stage, and it allows them all
            if (p.alive and not p.counters and p.role in _PLAIN and s.rs.stone.holder != p.pid
                    and s.phase.stage not in OWED_ACTIONS):
                return _PLAIN[p.role]  # `abilities`' most common answer (a call less)
            return self.abilities(game, p)
        return Ruleset.offers(self, game, p)  # not super(): no proxy made per player

    def prompted(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """A standing action (pride's `take`) is put in front of him only when its role says
        so (an owed one is; by night it is not)."""
        return [spec for spec in self.offers(game, p) if spec.id != PASS.id and (
            spec.id not in STANDING or STANDING[spec.id](game, p))]

    def _night_slots(self, game: Game, p: Player) -> set[str]:
        """The night actions a player is waited for, one per slot (rules §3): each of his
        role's actions (lust: her request and her block; a homunculus: his request too;
        father: his answer, `choose` or `kill`), and the Stone's, one for all its powers.
        A standing action may be sent at any time and is not waited for."""
        return {spec.slot_id for spec in self.offers(game, p)
                if spec.id != PASS.id and spec.id not in STANDING}

    def _outstanding(self, game: Game, p: Player) -> set[str]:
        """The night actions this player has neither sent nor passed."""
        subs = game.state.subs
        if (p.pid, "pass") in subs:
            return set()
        return {slot for slot in self._night_slots(game, p) if (p.pid, slot) not in subs}

    def waiting_for(self, game: Game) -> list[PlayerId]:
        """At night, whoever still owes one of his night actions (or a pass) is reminded —
        the same players the night's early close waits for."""
        if game.state.phase.kind != PhaseKind.NIGHT:
            return super().waiting_for(game)
        return [p.pid for p in game.state.living() if self._outstanding(game, p)]

    def may_act_removed(self, game: Game, p: Player, action: ActionId) -> bool:
        """What is owed to a player who has left (pride's `take`)."""
        return any(spec.id == action for spec in self.abilities(game, p))

    def check_act(self, game: Game, p: Player, spec: ActionSpec, targets: tuple[PlayerId, ...],
                  text: str | None, role_id: RoleId | None) -> None:
        action = spec.id
        if action == _PASS_ID:
            for offered in self.offers(game, p):
                if offered.id != _PASS_ID:
                    break
            else:
                raise Refused(N_("There is nothing for you to pass now."))
        check = CHECKS.get(action)
        if check is not None:
            check(game, p, spec, targets)

    def after_act(self, game: Game, sub: Submission) -> None:
        s = game.state
        pid = sub.actor
        if sub.action == _PASS_ID:
            for key in [k for k in s.subs if k[0] == pid and k[1] != "pass"]:
                del s.subs[key]
        accepted = ACCEPTED.get(sub.action)
        if accepted is None or accepted(game, s.players[pid], sub):
            game.tell(to_player(pid), _NOTED_TOLD.told(s.phase, pid), purpose=_NOTED)

    def voting_open(self, game: Game) -> bool:
        return game.state.phase.stage == _VOTE

    def check_vote(self, game: Game, voter: Player, target: Player | None) -> None:
        if _EARLY in voter.statuses:
            raise Refused(N_("Your vote is early and can no longer change."))
        if target is None:
            return
        links = game.state.rs.links  # today's (`state_of`, inlined: every vote; mostly none)
        if links and ((voter.pid, target.pid) in links or (target.pid, voter.pid) in links):
            raise Refused(N_("You are linked with {name} today and cannot vote against them."),
                          name=player(target.pid))

    def early_votes_open(self, game: Game) -> bool:
        return day.early_votes_allowed(game)

    def check_early(self, game: Game, voter: Player) -> None:
        if not day.early_votes_allowed(game):
            raise Refused(N_("Early votes are allowed from day 3 on."))
        if not voter.alive:
            raise Refused(N_("You are no longer in the game."))
        if voter.pid not in game.state.votes:
            raise Refused(N_("Vote first, then mark your vote as early."))
        if _EARLY in voter.statuses:
            raise Refused(N_("Your vote is already early."))

    def after_vote(self, game: Game, voter: PlayerId) -> None:
        if game.state.phase.stage == _VOTE:
            state: AlchemistsState = game.state.rs  # `state_of`, inlined: after every vote
            state.vote_log.append((voter, game.state.votes.get(voter)))
            # `day.close_if_early`, its stage known: nobody is early before day 3
            if game.state.phase.number >= 3 and day.early_majority(game):
                day.close_early(game)

    def whisper_recipients(self, game: Game, p: Player, to: PlayerId | None) -> list[PlayerId]:
        return chats.whisper_recipients(game, p, to)

    def team_chats(self, game: Game) -> list[TeamChat]:
        return chats.team_chats(game)

    # ------------------------------------------------------------------ windows
    def window_complete(self, game: Game) -> bool:
        s = game.state
        if s.phase.kind == PhaseKind.NIGHT:
            # rules §3 [revised]: every night action of every living player, or his pass
            return not any(self._outstanding(game, p) for p in s.living())
        if s.phase.stage == Stage.REACTIONS:
            owed = game.current_owed()
            return owed is not None and owed.player in s.acted
        return False

    def close(self, game: Game) -> None:
        s = game.state
        if s.phase.kind == _NIGHT:
            night.resolve_night(game)
            night.morning_post(game)
            if not check_end(game):
                stone_rules.at_phase_end(game)
                day.begin_day(game, s.phase.number)
        elif s.phase.stage == _VOTE:
            day.close_day(game)
        elif s.phase.stage == _REACTIONS:
            owed = game.current_owed()
            if owed is not None:
                sub = s.subs.get((owed.player, owed.kind))
                s.reactions.pop(0)
                s.subs = {}
                s.acted = set()
                REACTIONS[owed.kind].settle(game, owed.player, sub.targets[0] if sub else None)
                day.continue_reactions(game, s.phase.number)

    # ------------------------------------------------------------------ removals, facts
    def on_removed(self, game: Game, p: Player, cause: str) -> None:
        on_removed(game, p, cause)

    def after_host_removal(self, game: Game, p: Player) -> None:
        if not check_end(game):
            day.close_if_early(game)

    def on_replaced(self, game: Game, p: Player) -> None:
        """AL-MISS [revised]: the replacement is the source's alternative to the modkill, so
        the newcomer starts with no misses."""
        state_of(game).misses.pop(p.pid, None)

    def side_of(self, game: Game, p: Player) -> str:
        return side_of(p)

    def statuses_of(self, game: Game, p: Player) -> set[str]:
        return statuses_of(game, p)

    def story(self, game: Game) -> StoryExtension[Game]:
        return AlchemistsStory(game)

    def fact(self, game: Game, key: str) -> Any:
        if key == "stone":
            stone = state_of(game).stone
            return {"holder": stone.holder, "finished": stone.finished}
        if key == "links":  # the day's links (the story of a game shows them)
            return list(state_of(game).links)
        raise KeyError(key)
