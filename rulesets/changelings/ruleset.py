"""The Changelings rule set: the hooks the engine calls, wired to the rules' modules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from core.engine.game import Game
from core.engine.messages import GROUP, N_, NOTED, Ref, player, role, to_player
from core.engine.phase import Phase
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, Ruleset, SetupError, TeamChat
from core.engine.state import Player, Submission

from . import day, night, options
from . import standing as st
from .deal import check_roles, deal_roles
from .end import check_end
from .removal import on_removed
from .roles import (
    ACTION_NAMES,
    ALWAYS,
    CAUSE_NAMES,
    CAUSES,
    CHASE,
    FAKEABLE,
    KIND_NAMES,
    PACE,
    PASS,
    ROLE_CARDS,
    ROLE_NAMES,
    ROLES,
    RULES_SUMMARY,
    SIDE_NAMES,
    SIDES,
    SUCCESSOR,
    TIEBREAK,
)
from .state import ChangelingsState

PONY_KINDS = tuple(KIND_NAMES)
TEAM_TITLE = N_("The changelings' hive")
TEAM_ABOUT = N_("Only the changelings of this game can read this room. Plot away: what "
                "you agree on here, send to me in private.")
SPECTATORS_TITLE = N_("The ponies' cloud (spectators)")
SPECTATORS_ABOUT = N_("Everypony who has left the game watches from here. Please don't tell "
                      "the living anything until the game is over.")
_ONLY_PASS = (PASS,)
_ROLE_ORDER = {role_id: i for i, role_id in enumerate(ROLES)}
_OWED_SPECS = {"tiebreak": TIEBREAK, "chase": CHASE, "successor": SUCCESSOR}
# What a living player may send while nothing is owed to anybody: his role's powers, the
# mayor's office, `pass`; by (role, is mayor), so the common case builds no list.
_STANDING = {
    (role_id, mayor): ((spec.actions + ((TIEBREAK, SUCCESSOR) if mayor else ()) + _ONLY_PASS)
                       if spec.actions or mayor else _ONLY_PASS)  # `offers` spots _ONLY_PASS
    for role_id, spec in ROLES.items() for mayor in (False, True)
}
# Actions whose actor must still send something before a night stage may close early.
STAGE_DUTIES = {"dusk": ("check", "shield", "abduct", "exchange", "fake"),
                "dawn": ("prevent", "prank", "chase", "fanatic", "letter", "love")}


class Changelings(Ruleset):
    id = "changelings"
    roles = ROLES
    sides = SIDES
    causes = CAUSES
    min_players, max_players = 6, 30
    extra_actions = ("tiebreak", "successor", "chase", "pass")
    option_choices = options.CHOICES
    option_about = options.ABOUT
    vocabulary = {"role": ROLE_NAMES, "side": SIDE_NAMES, "cause": CAUSE_NAMES,  # noqa: RUF012
                  "option": options.ABOUT, "card": ROLE_CARDS,
                  "kind": KIND_NAMES, "action": ACTION_NAMES}
    pace = PACE
    pace_options = {"forum": {"inactivity_hours": 24}}  # noqa: RUF012 - CH-INACT's default
    summary = RULES_SUMMARY
    title = N_("Changelings")
    default_options: dict[str, Any] = {  # noqa: RUF012
        "random_lovers": True,
        "inactivity_hours": 0,
        "fanatic_uses": "night",
        "changelings": 0,
        "early_close": True,
    }

    def new_state(self) -> ChangelingsState:
        return ChangelingsState()

    def deal(self, count: int, options: dict[str, Any], rng: random.Random) -> list[str]:
        return deal_roles(count, int(options.get("changelings") or 0), rng)

    def check_setup(self, roles: Sequence[str], options: dict[str, Any]) -> None:
        if options.get("fanatic_uses") not in ("night", "game"):
            raise SetupError("Option {option} has a wrong value.", option="fanatic_uses")
        check_roles(roles, int(options.get("changelings") or 0))

    # ------------------------------------------------------------------ start
    def start(self, game: Game, setup: dict[str, Any], start_phase: str | None) -> None:
        players = game.state.players
        lovers = setup.get("lovers")
        if lovers is not None:
            if len(lovers) != 2 or lovers[0] == lovers[1] or not set(lovers) <= set(players):
                raise SetupError("The lovers must be two different players.")
            st.make_lovers(game, lovers[0], lovers[1])
        specials = sorted({p.role for p in players.values() if ROLES[p.role].special},
                          key=_ROLE_ORDER.__getitem__)
        if specials:
            game.tell(GROUP, N_("A new game of Changelings begins with {count} players. Special "
                                "roles in play: {roles}."), count=len(players),
                      roles=tuple(role(r) for r in specials))
        else:  # an empty list would print as a bare dot
            game.tell(GROUP, N_("A new game of Changelings begins with {count} players, and "
                                "no special roles are in play."), count=len(players))
        for p in players.values():
            shown = "pony" if p.role == "confused_changeling" else p.role
            if shown == "pony":
                kind = game.rng.choice(PONY_KINDS)
                p.counters["kind"] = kind
                game.tell(to_player(p.pid), N_("Your role: {role} ({kind})."),
                          role=role(shown), kind=Ref("kind", kind))
            else:
                game.tell(to_player(p.pid), N_("Your role: {role}."), role=role(shown))
            game.tell(to_player(p.pid), ROLE_CARDS[shown])
        team = st.team(game)
        for p in players.values():
            if st.is_changeling(p):
                for other in team:
                    if other.pid != p.pid:
                        game.learn(p.pid, other.pid, other.role)
                        game.tell(to_player(p.pid), N_("{name} is one of your fellow changelings "
                                                       "({role})."), name=player(other.pid),
                                  role=role(other.role))
            if p.role == "stalker":
                for other in players.values():
                    if other.role == "confused_changeling":
                        game.learn(p.pid, other.pid, other.role)
                        game.tell(to_player(p.pid), N_("{name} is the confused changeling."),
                                  name=player(other.pid))
        mayor = setup.get("mayor")
        if mayor is not None:
            if mayor not in players:
                raise SetupError("The mayor must be a player.")
            st.take_office(game, players[mayor])
        self._enter(game, start_phase)

    def _enter(self, game: Game, start_phase: str | None) -> None:
        if start_phase is None:
            day.begin_election(game)
            return
        try:
            phase = Phase.parse(start_phase)
        except ValueError as err:
            raise SetupError("Unknown phase: {phase}.", phase=start_phase) from err
        if phase.kind == "night" and phase.stage in ("dusk", "dawn", ""):
            # "night N" is its dusk; a start at dawn finds the dusk passed with nobody acting
            night.begin_night(game, phase.number)
            if phase.stage == "dawn":
                night.resolve_dusk(game)
                game.set_phase(Phase.of("night", phase.number, "dawn"))
        elif phase.kind == "day" and phase.stage == "vote" and phase.number >= 2:
            day.begin_day(game, phase.number)
        elif phase == Phase("day", 1, "election"):
            day.begin_election(game)
        else:
            raise SetupError("A game can start only at an election, a vote or a night.")

    # ------------------------------------------------------------------ player commands
    def abilities(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        if not game.state.reactions and st.cs(game).night.chase_owed is None:
            # most players, most of the time
            return _STANDING[p.role, "mayor" in p.statuses] if p.alive else _ONLY_PASS
        found = list(ROLES[p.role].actions) if p.alive else []
        if "mayor" in p.statuses and p.alive:
            found += [TIEBREAK, SUCCESSOR]
        owed = game.current_owed()
        if owed is not None and owed.player == p.pid:
            spec = _OWED_SPECS[owed.kind]
            if spec not in found:
                found.append(spec)
        if st.cs(game).night.chase_owed == p.pid and game.state.phase.stage == "dawn":
            found.append(CHASE)
        found.append(PASS)
        return found

    def offers(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """The abilities usable now: a spent power (its check refuses it) is neither offered
        nor waited for."""
        stage = game.state.phase.stage
        checks = _ACTION_CHECKS
        if p.alive and not game.state.reactions and st.cs(game).night.chase_owed is None:
            # the common case of `abilities`, from the table made for it (any window stage)
            standing = _STANDING_IN_STAGE.get((p.role, "mayor" in p.statuses, stage))
            if standing is not None:
                found, spendable = standing
                if not spendable:
                    return found
                return [spec for spec in found
                        if spec.id not in checks or checks[spec.id](game, p, (), None) is None]
        found = self.abilities(game, p)
        if found is _ONLY_PASS:
            return found
        return [spec for spec in found if stage in spec.stages and (
            spec.id not in checks or checks[spec.id](game, p, (), None) is None)]

    def prompted(self, game: Game, p: Player) -> Sequence[ActionSpec]:
        """The mayor's standing powers are not pushed at him; an owed choice is. An action
        sent already this night (the love poison's `love` at dusk) is not asked again at
        dawn."""
        owed = game.current_owed()
        sent = game.state.subs
        return [spec for spec in self.offers(game, p) if spec.id != "pass" and (
            p.pid, spec.id) not in sent and (
            spec.id not in ("tiebreak", "successor")
            or (owed is not None and owed.player == p.pid and owed.kind == spec.id))]

    def may_act_removed(self, game: Game, p: Player, action: str) -> bool:
        owed = game.current_owed()
        return (owed is not None and owed.player == p.pid and owed.kind == action) or (
            action == "pass" and owed is not None and owed.player == p.pid)

    def check_act(self, game: Game, p: Player, spec: ActionSpec, targets: tuple[str, ...],
                  text: str | None, role_id: str | None) -> None:
        if spec.id == "pass" and not self.may_act_removed(game, p, "pass") and not [
                s for s in self.offers(game, p) if s.id != "pass"]:
            raise Refused(N_("There is nothing for you to pass now."))
        partner = st.partner_of(game, p.pid) if spec.harmful else None
        if partner is not None and partner in targets:
            raise Refused(N_("You cannot act against {name}: you are in love."),
                          name=player(partner))
        check = _ACTION_CHECKS.get(spec.id)
        reason = check(game, p, targets, role_id) if check is not None else None
        if reason is not None:
            key, params = reason
            raise Refused(key, **params)

    def after_act(self, game: Game, sub: Submission) -> None:
        p = game.state.players[sub.actor]
        owed = game.current_owed()
        if (game.state.phase.stage == "reactions" and owed is not None
                and owed.player == p.pid and sub.action in (owed.kind, "pass")):
            pass  # an answer to the owed choice counts when the prompt closes (CH-REACT)
        elif sub.action == "pass":
            for key in [k for k in game.state.subs if k[0] == p.pid and k[1] != "pass"]:
                del game.state.subs[key]
        elif sub.action == "tiebreak":
            st.cs(game).tiebreak_pick = sub.targets[0]
        elif sub.action == "successor":
            st.cs(game).successor = sub.targets[0]
        elif sub.action in ("abduct", "exchange"):
            key = (N_("{name} wants to abduct {target}.") if sub.action == "abduct"
                   else N_("{name} wants to exchange {target}."))
            for member in st.team(game):
                if member.pid != p.pid:
                    game.tell(to_player(member.pid), key, name=player(p.pid),
                              target=player(sub.targets[0]))
        game.tell(to_player(p.pid), NOTED)

    def voting_open(self, game: Game) -> bool:
        return game.state.phase.stage in ("election", "vote")

    def check_vote(self, game: Game, voter: Player, target: Player | None) -> None:
        if "voiceless" in voter.statuses:
            raise Refused(N_("You have lost your voice and cannot vote."))
        if (target is not None and game.state.phase.stage == "vote"
                and st.partner_of(game, voter.pid) == target.pid):
            raise Refused(N_("You cannot vote against {name}: you are in love."),
                          name=player(target.pid))

    def on_activity(self, game: Game, p: Player) -> None:
        if "inactive" in p.statuses:
            p.statuses.discard("inactive")
            game.event("active", player=p.pid)

    # ------------------------------------------------------------------ windows
    def window_complete(self, game: Game) -> bool:
        s = game.state
        stage = s.phase.stage
        if stage == "election":
            return all(p.pid in s.votes for p in s.living() if "inactive" not in p.statuses)
        if stage == "reactions":  # answered or passed; the mayor's other powers do not count
            owed = game.current_owed()
            return owed is not None and ((owed.player, owed.kind) in s.subs
                                         or (owed.player, "pass") in s.subs)
        duties = STAGE_DUTIES.get(stage)
        if duties is None:
            return False
        # acted in the stage: sent one of its actions, or passed in it (naming a successor
        # or a pass from the other stage does not count)
        submitted = {sub.actor for sub in s.subs.values() if sub.action in duties}
        passed = {sub.actor for sub in s.subs.values() if sub.action == "pass"} & s.acted
        for p in s.living():
            if "inactive" in p.statuses or p.pid in submitted or p.pid in passed:
                continue
            if any(spec.id in duties for spec in self.offers(game, p)):
                return False
        return True

    def close(self, game: Game) -> None:
        s = game.state
        stage = s.phase.stage
        if stage == "election":
            day.close_election(game)
        elif stage == "vote":
            day.close_vote(game)
        elif stage == "reactions":
            owed = game.current_owed()
            if owed is not None:
                day.answer(game, owed, day.answer_of(game, owed))
        elif stage == "dusk":
            night.resolve_dusk(game)
            if not check_end(game):
                game.set_phase(Phase.of("night", s.phase.number, "dawn"))
        elif stage == "dawn":
            night.resolve_dawn(game)
            night.morning_post(game)
            if not check_end(game):
                game.state.subs = {}
                day.begin_day(game, s.phase.number + 1)

    # ------------------------------------------------------------------ removals, host
    def on_removed(self, game: Game, p: Player, cause: str) -> None:
        on_removed(game, p, cause)

    def after_host_removal(self, game: Game, p: Player) -> None:
        check_end(game)

    def side_of(self, game: Game, p: Player) -> str:
        return st.side_of(game, p)

    def fact(self, game: Game, key: str) -> Any:
        state = st.cs(game)
        if key == "mayor":
            mayor = st.mayor(game)
            return mayor.pid if mayor else None
        if key == "lovers":
            return set(state.lovers) if state.lovers else None
        if key == "foresight":
            return dict(state.night.foresight)
        raise KeyError(key)

    def whisper_recipients(self, game: Game, p: Player, to: str | None) -> list[str]:
        """The changelings' team chat: every other living changeling hears it."""
        if not p.alive or not st.is_changeling(p):
            raise Refused(N_("Only the changelings have a team chat."))
        mates = [m.pid for m in st.team(game) if m.pid != p.pid]
        if to is not None and to not in mates:
            raise Refused(N_("{name} is not in your team chat."), name=player(to))
        if not mates:
            raise Refused(N_("Nobody else is left in your team chat."))
        return [to] if to is not None else mates

    def team_members(self, game: Game, team: str) -> list[str]:
        return [p.pid for p in st.team(game)] if team == "changelings" else []

    def team_chats(self, game: Game) -> list[TeamChat]:
        """The changelings' team chat (the living changelings: a newcomer by exchange or
        awakening joins, the removed leave) and one spectators' chat for everybody who has
        left the game [decision: the rules are silent on the dead; one room for all of them,
        as they can no longer change anything and are muted in the group]."""
        dead = tuple(p.pid for p in game.state.players.values() if not p.alive)
        return [TeamChat("changelings", TEAM_TITLE, TEAM_ABOUT,
                         tuple(p.pid for p in st.team(game))),
                TeamChat("spectators", SPECTATORS_TITLE, SPECTATORS_ABOUT, dead)]


# ---------------------------------------------------------------------- per-action checks
# Each returns the reason for a refusal (msgid, parameters) instead of raising it: `offers`
# asks them for every player in every window, and most answers for a spent power are a
# refusal that is never shown.
Refusal = tuple[str, dict[str, Any]] | None


def _check_shield(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    last = p.counters.get("shield_last")
    if targets and last and last[0] == targets[0] and last[1] == game.state.phase.number - 1:
        return N_("You cannot shield the same player two nights in a row."), {}
    return None


def _check_team_target(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    if targets and st.is_changeling(game.state.players[targets[0]]):
        return N_("{name} is one of your own."), {"name": player(targets[0])}
    return None


def _check_exchange(game: Game, p: Player, targets: tuple[str, ...], r: str | None) -> Refusal:
    if st.cs(game).exchange_used:
        return N_("Your team has already used its exchange."), {}
    return _check_team_target(game, p, targets, r)


def _check_love(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    if game.state.phase.number != 1:
        return N_("The love poison works only in the first night."), {}
    if st.cs(game).lovers_chosen:
        return N_("The lovers are already chosen."), {}
    return None


def _check_prevent(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    if p.counters.get("prevent_used"):
        return N_("You have already prevented an abduction in this game."), {}
    if not st.cs(game).night.foresight.get(p.pid):
        return N_("You foresaw no abduction tonight, so there is nothing to prevent."), {}
    return None


def _check_prank(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    if p.counters.get("prank_used"):
        return N_("You have already played your prank in this game."), {}
    return None


def _check_chase(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    owed = game.current_owed()
    night_owed = st.cs(game).night.chase_owed == p.pid and game.state.phase.stage == "dawn"
    if not night_owed and not (owed and owed.kind == "chase" and owed.player == p.pid):
        return N_("You can only chase when you are abducted or banished."), {}
    return None


def _check_fanatic(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    if game.state.options.get("fanatic_uses") == "game" and p.counters.get("fanatic_used"):
        return N_("You have already struck in this game."), {}
    return None


def _check_fake(game: Game, p: Player, targets: tuple[str, ...], role_id: str | None) -> Refusal:
    used = p.counters.get("fake_night")
    if used is not None and used != game.state.phase.number:
        return N_("You can fake a role only once per game."), {}
    if role_id is not None and role_id not in FAKEABLE:
        return N_("You can only pretend to be a special pony role."), {}
    return None


def _check_tiebreak(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    if game.state.phase.stage != "reactions":
        return None
    owed = game.current_owed()
    if owed is None or owed.kind != "tiebreak" or owed.player != p.pid:
        return N_("There is no tie for you to break."), {}
    if targets and targets[0] not in owed.options:
        return N_("{name} is not among the tied players."), {"name": player(targets[0])}
    return None


def _check_successor(game: Game, p: Player, targets: tuple[str, ...], _: str | None) -> Refusal:
    owed = game.current_owed()
    if owed is not None and owed.kind == "successor" and owed.player == p.pid:
        return None
    if not p.alive or "mayor" not in p.statuses:
        return N_("Only the mayor names a successor."), {}
    return None


_ACTION_CHECKS = {
    "shield": _check_shield,
    "abduct": _check_team_target,
    "exchange": _check_exchange,
    "love": _check_love,
    "prevent": _check_prevent,
    "prank": _check_prank,
    "chase": _check_chase,
    "fanatic": _check_fanatic,
    "fake": _check_fake,
    "tiebreak": _check_tiebreak,
    "successor": _check_successor,
}


def _in_stage(standing: tuple[ActionSpec, ...], stage: str) -> tuple[tuple[ActionSpec, ...], bool]:
    """The standing powers that may be sent in this stage, in order, and whether any of them
    can be spent (then its check is asked each time it would be offered)."""
    found = tuple(spec for spec in standing if stage in spec.stages)
    return found, any(spec.id in _ACTION_CHECKS for spec in found)


# `_STANDING` per window stage, for `offers`.
_STANDING_IN_STAGE = {(role_id, mayor, stage): _in_stage(standing, stage)
                      for (role_id, mayor), standing in _STANDING.items() for stage in ALWAYS}
