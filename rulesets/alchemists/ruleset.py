"""The Alchemists rule set: the hooks the engine calls, wired to the rules' modules."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from core.engine.game import Game
from core.engine.messages import GROUP, N_, NOTED, player, role, to_player
from core.engine.phase import Phase
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, Ruleset, SetupError, TeamChat
from core.engine.state import Player, Submission

from . import day, night, options
from . import stone as stone_rules
from .common import als, father, homunculi, linked_partners, side_of
from .end import check_end
from .removal import introduce_father, on_removed
from .roles import (
    ACTION_NAMES,
    CANONICAL,
    CAUSE_NAMES,
    CAUSES,
    CHECK,
    CHECK_NAMES,
    CHOOSE,
    FATHER_KILL,
    KILL,
    LONERS,
    OPTIONAL,
    PACE,
    PASS,
    REQUIRED,
    ROLE_CARDS,
    ROLE_NAMES,
    ROLES,
    RULES_SUMMARY,
    SEARCH,
    SIDE_NAMES,
    SIDES,
    STONE_ACTIONS,
    TAKE,
)
from .state import AlchemistsState

# Optional roles left out, in this order, when fewer than 11 play (AL-SIZE) [decision].
LEAVE_OUT = ("linker", "envy")
# Standing powers that differ from the role card: pride become father keeps his search; with
# father and pride gone the homunculi make no requests and kill by agreement (AL-FATHER).
_FATHER_WAS_PRIDE = (CHOOSE, FATHER_KILL, SEARCH)
_LEADERLESS = {role_id: (*(a for a in ROLES[role_id].actions if a.id != "request"), KILL)
               for role_id in ("lust", "envy", "pride")}
_STONE_SPECS = tuple(STONE_ACTIONS.values())


class Alchemists(Ruleset):
    id = "alchemists"
    roles = ROLES
    sides = SIDES
    causes = CAUSES
    min_players, max_players = 9, 20
    extra_actions = ("take", "pass", "kill", "choose", *STONE_ACTIONS)
    option_choices = options.CHOICES
    option_about = options.ABOUT
    vocabulary = {"role": ROLE_NAMES, "side": SIDE_NAMES, "cause": CAUSE_NAMES,  # noqa: RUF012
                  "option": options.ABOUT, "card": ROLE_CARDS,
                  "check": CHECK_NAMES, "action": ACTION_NAMES}
    pace = PACE
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
    def deal(self, count: int, options: dict[str, Any], rng: random.Random) -> list[str]:
        specials = [r for r in CANONICAL if r != "alchemist"]
        for left_out in LEAVE_OUT[: max(0, len(specials) - count)]:
            specials.remove(left_out)
        roles = specials + ["alchemist"] * (count - len(specials))
        rng.shuffle(roles)
        return roles

    def check_setup(self, roles: Sequence[str], options: dict[str, Any]) -> None:
        counts = Counter(roles)
        for needed in REQUIRED:
            if counts[needed] != 1:
                raise SetupError("Every game needs exactly one {role}.", role=needed)
        for optional in OPTIONAL:
            if counts[optional] > 1:
                raise SetupError("There can be only one {role}.", role=optional)
        if options.get("stone_backfire") not in ("random", "always", "never"):
            raise SetupError("Option {option} has a wrong value.", option="stone_backfire")
        if options.get("early_votes_needed") not in ("majority", "all"):
            raise SetupError("Option {option} has a wrong value.", option="early_votes_needed")
        if options.get("stone_after_deaths") and options["stone_after_deaths"] < 1:
            raise SetupError("Option {option} has a wrong value.", option="stone_after_deaths")

    def start(self, game: Game, setup: dict[str, Any], start_phase: str | None) -> None:
        if setup:
            raise SetupError("This game has no starting statuses.")
        state = als(game)
        players = game.state.players
        for p in players.values():
            if p.role == "father":
                state.original_father = p.pid
            elif p.role == "xing":
                state.original_xing = p.pid
        k = game.state.options.get("stone_after_deaths") or game.rng.choice((3, 4, 5))
        state.stone.threshold = int(k)
        in_play = sorted({p.role for p in players.values()}, key=list(ROLES).index)
        if game.state.options.get("roles_public"):
            game.tell(GROUP, N_("A game of Alchemists begins with {count} players. Roles in "
                                "play: {roles}."), count=len(players),
                      roles=tuple(role(r) for r in in_play))
        else:
            game.tell(GROUP, N_("A game of Alchemists begins with {count} players. The roles "
                                "in play are secret."), count=len(players))
        game.tell(GROUP, N_("Play from your main account. No private talk outside the team "
                            "chats, no screenshots, no insults."))
        for p in players.values():
            game.tell(to_player(p.pid), N_("Your role: {role}."), role=role(p.role))
            game.tell(to_player(p.pid), ROLE_CARDS[p.role])
        self._introductions(game)
        self._enter(game, start_phase)

    def _introductions(self, game: Game) -> None:
        """Rules §2: who is told whom at the start, each recorded as learned (the role told)."""
        players = game.state.players.values()
        head = next((p for p in players if p.role == "father"), None)
        if head is not None:
            for h in homunculi(game):
                if h.pid != head.pid:
                    game.learn(h.pid, head.pid, head.role)
                    game.tell(to_player(h.pid), N_("{name} is Father."), name=player(head.pid))
            introduce_father(game, head)
        xing = next((p for p in players if p.role == "xing"), None)
        guard = next((p for p in players if p.role == "bodyguard"), None)
        if xing is not None and guard is not None:
            game.learn(xing.pid, guard.pid, guard.role)
            game.learn(guard.pid, xing.pid, xing.role)
            game.tell(to_player(xing.pid), N_("{name} is your bodyguard."), name=player(guard.pid))
            game.tell(to_player(guard.pid), N_("{name} is the Xing Alchemist you guard."),
                      name=player(xing.pid))

    def _enter(self, game: Game, start_phase: str | None) -> None:
        if start_phase is None:
            night.begin_night(game, 1)
            return
        try:
            phase = Phase.parse(start_phase)
        except ValueError as err:
            raise SetupError("Unknown phase: {phase}.", phase=start_phase) from err
        if phase.kind == "night" and not phase.stage:
            night.begin_night(game, phase.number)
        elif phase.kind == "day" and phase.stage == "vote":
            day.begin_day(game, phase.number)
        else:
            raise SetupError("A game can start only at a night or a day vote.")

    # ------------------------------------------------------------------ player commands
    def abilities(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        state = als(game)
        reactions = game.state.reactions  # the first is `game.current_owed()`
        stage = game.state.phase.stage
        # pride dead by day (executed) is asked in the reactions window, after a night death
        # during the next day's vote; a modkill owes nothing (rules §10)
        take_owed = (bool(reactions) and reactions[0].player == p.pid
                     and stage == "reactions") or (
            state.take_owed_next_day == p.pid and stage == "vote")
        if not p.alive:
            return [TAKE] if take_owed else []
        if p.role == "father" and p.counters.get("was_pride"):
            own = _FATHER_WAS_PRIDE
        elif p.role in _LEADERLESS and father(game) is None:
            own = _LEADERLESS[p.role]
        else:
            own = ROLES[p.role].actions
        if not take_owed and not p.counters and state.stone.holder != p.pid:
            return (*own, PASS)  # most players: nothing owed, won or held
        found = [TAKE, *own] if take_owed else list(own)
        if p.role == "greed" and p.counters.get("check_from", 1 << 30) <= game.state.phase.number:
            found.append(CHECK)
        if p.counters.get("take") and TAKE not in found:
            found.append(TAKE)
        if state.stone.holder == p.pid:
            found += _STONE_SPECS
        found.append(PASS)
        return found

    def offers(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        if game.state.phase.kind == "night":
            return self.abilities(game, p)  # the night has one stage, and it allows them all
        return super().offers(game, p)

    def prompted(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """Pride's standing `take` is not pushed at him by night; an owed one is."""
        owed = game.current_owed()
        is_owed = (owed is not None and owed.player == p.pid) or (
            als(game).take_owed_next_day == p.pid)
        return [spec for spec in self.offers(game, p) if spec.id != "pass" and (
            spec.id != "take" or is_owed)]

    def _night_slots(self, game: Game, p: Player) -> set[str]:
        """The night actions a player is waited for, one per slot (rules §3): each of his
        role's actions (lust: her request and her block; a homunculus: his request too;
        father: his answer, `choose` or `kill`), and the Stone's, one for all its powers.
        Pride's standing `take` may be named at any time and is not waited for."""
        return {spec.slot_id for spec in self.offers(game, p) if spec.id not in ("pass", "take")}

    def _outstanding(self, game: Game, p: Player) -> set[str]:
        """The night actions this player has neither sent nor passed."""
        subs = game.state.subs
        if (p.pid, "pass") in subs:
            return set()
        return {slot for slot in self._night_slots(game, p) if (p.pid, slot) not in subs}

    def waiting_for(self, game: Game) -> list[str]:
        """At night, whoever still owes one of his night actions (or a pass) is reminded —
        the same players the night's early close waits for."""
        if game.state.phase.kind != "night":
            return super().waiting_for(game)
        return [p.pid for p in game.state.living() if self._outstanding(game, p)]

    def may_act_removed(self, game: Game, p: Player, action: str) -> bool:
        return action == "take" and TAKE in self.abilities(game, p)

    def check_act(self, game: Game, p: Player, spec: ActionSpec, targets: tuple[str, ...],
                  text: str | None, role_id: str | None) -> None:
        if spec.id == "pass" and not [s for s in self.offers(game, p) if s.id != "pass"]:
            raise Refused(N_("There is nothing for you to pass now."))
        if spec.id == "choose":
            chosen = game.state.players[targets[0]]
            if (chosen.pid == p.pid or side_of(chosen) != "homunculi"
                    or (chosen.pid, "request") not in game.state.subs):
                raise Refused(N_("{name} has sent you no request tonight."),
                              name=player(chosen.pid))
        elif spec.id.startswith("stone_"):
            used = als(game).stone.used.get(p.pid)
            if used == (spec.id, game.state.phase.number - 1):
                raise Refused(N_("The Stone will not do the same thing two nights in a row."))
        elif spec.id == "take" and game.current_owed() is None and (
                als(game).take_owed_next_day != p.pid and not p.alive):
            raise Refused(N_("You cannot take anyone now."))

    def after_act(self, game: Game, sub: Submission) -> None:
        p = game.state.players[sub.actor]
        stage = game.state.phase.stage
        if sub.action == "take":
            if stage == "reactions":
                return  # the answer counts when the prompt closes
            if not p.alive:  # owed since a night death: applies at once
                als(game).take_owed_next_day = None
                day.settle_take(game, p.pid, sub.targets[0])
                _close_if_early(game)
                return
            p.counters["take_target"] = sub.targets[0]
        elif sub.action == "request":
            head = father(game)
            if head is not None:
                game.tell(to_player(head.pid), N_("{name} asks for {target}'s death."),
                          name=player(p.pid), target=player(sub.targets[0]))
        elif sub.action == "pass":
            for key in [k for k in game.state.subs if k[0] == p.pid and k[1] != "pass"]:
                del game.state.subs[key]
        game.tell(to_player(p.pid), NOTED)

    def voting_open(self, game: Game) -> bool:
        return game.state.phase.stage == "vote"

    def check_vote(self, game: Game, voter: Player, target: Player | None) -> None:
        if "early" in voter.statuses:
            raise Refused(N_("Your vote is early and can no longer change."))
        if target is not None and target.pid in linked_partners(game, voter.pid):
            raise Refused(N_("You are linked with {name} today and cannot vote against them."),
                          name=player(target.pid))

    def early_votes_open(self, game: Game) -> bool:
        return voting_day_allows_early(game)

    def check_early(self, game: Game, voter: Player) -> None:
        if not voting_day_allows_early(game):
            raise Refused(N_("Early votes are allowed from day 3 on."))
        if not voter.alive:
            raise Refused(N_("You are no longer in the game."))
        if voter.pid not in game.state.votes:
            raise Refused(N_("Vote first, then mark your vote as early."))
        if "early" in voter.statuses:
            raise Refused(N_("Your vote is already early."))

    def after_vote(self, game: Game, voter: str) -> None:
        if game.state.phase.stage == "vote":
            als(game).vote_log.append((voter, game.state.votes.get(voter)))
            _close_if_early(game)

    def whisper_recipients(self, game: Game, p: Player, to: str | None) -> list[str]:
        """Rules §8: homunculi ↔ father (father answers one named homunculus), the homunculi's
        own chat once father and pride are gone, xing ↔ bodyguard, absorbed ↔ absorber."""
        allowed = _whisper_partners(game, p)
        if to is not None:
            if to not in allowed:
                raise Refused(N_("You cannot reach {name} through me."), name=player(to))
            return [to]
        if p.alive and p.role == "father" and len(allowed) > 1:
            raise Refused(N_("Name the homunculus your message is for: write @NAME and then "
                             "your message."))
        if not allowed:
            raise Refused(N_("You have nobody to talk to in private right now."))
        return allowed

    def team_chats(self, game: Game) -> list[TeamChat]:
        """Rules §8 as chats: xing and the bodyguard; the homunculi once father and pride
        are gone (not before: they must not learn each other); each absorbed player with the
        living absorber. The dead in none of these watch from their side's spectators' chat
        (town, homunculi, loners), as the source forbids cross-faction talk even after death;
        a member who leaves the game leaves the team chat too [decision: the dead must not
        coach the living], except an absorbed player, whom the rules let keep talking."""
        s = game.state
        state = als(game)
        guard = tuple(p.pid for p in s.living() if p.role in ("xing", "bodyguard"))
        nest = () if father(game) is not None else tuple(p.pid for p in homunculi(game))
        chats = [TeamChat("guard", GUARD_TITLE, GUARD_ABOUT, guard),
                 TeamChat("homunculi", NEST_TITLE, NEST_ABOUT, nest)]
        paired: set[str] = set()
        for victim, absorber in state.absorbed_by.items():
            members = (absorber, victim) if s.players[absorber].alive else ()
            paired.update(members)
            chats.append(TeamChat(f"absorbed-{victim}", ABSORBED_TITLE, ABSORBED_ABOUT,
                                  members))
        for side_id, title in SPECTATOR_TITLES.items():
            watchers = tuple(p.pid for p in s.players.values() if not p.alive
                             and p.pid not in paired and _spectator_side(p) == side_id)
            chats.append(TeamChat(f"spectators-{side_id}", title, SPECTATORS_ABOUT, watchers))
        return chats

    # ------------------------------------------------------------------ windows
    def window_complete(self, game: Game) -> bool:
        s = game.state
        if s.phase.kind == "night":
            # rules §3 [revised]: every night action of every living player, or his pass
            return not any(self._outstanding(game, p) for p in s.living())
        if s.phase.stage == "reactions":
            owed = game.current_owed()
            return owed is not None and owed.player in s.acted
        return False

    def close(self, game: Game) -> None:
        s = game.state
        if s.phase.kind == "night":
            night.resolve_night(game)
            night.morning_post(game)
            if not check_end(game):
                stone_rules.at_phase_end(game)
                day.begin_day(game, s.phase.number)
        elif s.phase.stage == "vote":
            day.close_day(game)
        elif s.phase.stage == "reactions":
            owed = game.current_owed()
            if owed is not None:
                sub = s.subs.get((owed.player, "take"))
                s.reactions.pop(0)
                s.subs = {}
                s.acted = set()
                day.settle_take(game, owed.player, sub.targets[0] if sub else None)
                day.continue_reactions(game, s.phase.number)

    # ------------------------------------------------------------------ removals, facts
    def on_removed(self, game: Game, p: Player, cause: str) -> None:
        on_removed(game, p, cause)

    def after_host_removal(self, game: Game, p: Player) -> None:
        if not check_end(game):
            _close_if_early(game)

    def on_replaced(self, game: Game, p: Player) -> None:
        """AL-MISS [revised]: the replacement is the source's alternative to the modkill, so
        the newcomer starts with no misses."""
        als(game).misses.pop(p.pid, None)

    def side_of(self, game: Game, p: Player) -> str:
        return side_of(p)

    def statuses_of(self, game: Game, p: Player) -> set[str]:
        found = set(p.statuses)
        state = als(game)
        if any(p.pid in pair for pair in state.links):
            found.add("linked")
        if game.state.vote_weights.get(p.pid) == 0:
            found.add("vote_void")
        if state.stone.holder == p.pid:
            found.add("stone")
        return found

    def fact(self, game: Game, key: str) -> Any:
        if key == "stone":
            stone = als(game).stone
            return {"holder": stone.holder, "finished": stone.finished}
        raise KeyError(key)


GUARD_TITLE = N_("The Xing Alchemist and his bodyguard")
GUARD_ABOUT = N_("Only the Xing Alchemist and his bodyguard can read this room. Guard your "
                 "secrets well.")
NEST_TITLE = N_("The homunculi's nest")
NEST_ABOUT = N_("Father is gone. Only the homunculi who are left can read this room: agree "
                "on tonight's victim here, then send it to me in private.")
ABSORBED_TITLE = N_("Inside the absorber")
ABSORBED_ABOUT = N_("The absorbed one speaks here with the one who absorbed them. Nobody else "
                    "can read this room.")
SPECTATOR_TITLES = {"town": N_("The fallen of the town (spectators)"),
                    "homunculi": N_("The fallen homunculi (spectators)"),
                    "loners": N_("The fallen loners (spectators)")}
SPECTATORS_ABOUT = N_("The dead of this game watch from here, among their own side. Say "
                      "nothing to the living until the game is over.")


def _spectator_side(p: Player) -> str:
    side = side_of(p)
    return "loners" if side in LONERS else side


def _whisper_partners(game: Game, p: Player) -> list[str]:
    state = als(game)
    found: list[str] = []
    if p.alive and side_of(p) == "homunculi":
        head = father(game)
        if head is None or head.pid == p.pid:
            found += [h.pid for h in homunculi(game) if h.pid != p.pid]
        else:
            found.append(head.pid)
    if p.alive and p.role in ("xing", "bodyguard"):
        found += [o.pid for o in game.state.living()
                  if o.pid != p.pid and o.role in ("xing", "bodyguard")]
    absorber = state.absorbed_by.get(p.pid)
    if absorber is not None and game.state.players[absorber].alive:
        found.append(absorber)
    if p.alive:
        found += [victim for victim, by in state.absorbed_by.items() if by == p.pid]
    return found


def _close_if_early(game: Game) -> None:
    """AL-EARLY: the day closes at once when more than half of the living hold early votes;
    a vote, or a removal by day that leaves fewer living players, can make it so."""
    if game.state.phase.stage == "vote" and day.early_majority(game):
        game.event("closed_early", phase=game.state.phase)
        day.close_day(game)


def voting_day_allows_early(game: Game) -> bool:
    return game.state.phase.stage == "vote" and game.state.phase.number >= 3
