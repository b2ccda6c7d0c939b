"""The two-stage night (rules §4): dusk resolves steps 1–6, dawn steps 7–12.

Each step reads the submissions collected by the engine (last submission wins) and skips actors
who have left at an earlier step (CH-LAPSE), with the two exceptions the rules name.
"""

from __future__ import annotations

from enum import IntEnum

from core.engine.game import Game
from core.engine.messages import GROUP, N_, player, role, to_player
from core.engine.phase import Phase
from core.engine.state import Player, Submission

from . import flavour
from . import standing as st
from .removal import announce_removal, redirect_luck, strike
from .state import Night


class NightStep(IntEnum):
    """The source's order. Each step names what it sets and what it uses."""

    LIAR = 1  # sets the liar's fake role (used by step 2)
    RESEARCHER = 2  # uses the fake; may turn the confused changeling (fails step 4)
    SHIELD = 3  # sets the night's protection (used by steps 4 and 6)
    CHANGELINGS = 4  # fixes the abduction (CH-AGREE) or performs the exchange
    QUEEN = 5  # checks; may awaken the confused changeling
    LUCKY_VS_CHANGELINGS = 6  # may redirect the pending abduction
    PINKIE = 7  # prevent or prank; then the abduction takes effect
    DRAMA_QUEEN = 8  # the abducted drama queen's chase
    FANATIC = 9  # a random removal
    LUCKY_OTHER = 10  # redirects held pranks, chases and fanatic strikes
    MARE_DO_WELL = 11  # the letter and its vote weight for the next day
    LOVE_POISON = 12  # the lovers (night 1)


def subs_for(game: Game, action: str) -> list[Submission]:
    """Submissions of an action by actors still in the game, in seat order."""
    players = game.state.players
    found = [s for s in game.state.subs.values() if s.action == action and players[s.actor].alive]
    if len(found) > 1:  # most actions have one submission or none a night
        found.sort(key=lambda s: players[s.actor].seat)
    return found


def seen_role(target: Player, by_researcher: bool) -> str:
    """The role a check shows (CH-LIAR: the fake only to the researcher, once faked)."""
    if target.role == "liar" and by_researcher:
        return str(target.counters.get("fake") or "liar")
    return target.role


def begin_night(game: Game, number: int) -> None:
    state = st.cs(game)
    state.night = Night(number=number)
    game.state.subs = {}
    game.set_phase(Phase.of("night", number, "dusk"))
    hours = game.state.options.get("inactivity_hours")
    if hours:
        for p in game.state.living():
            if "inactive" not in p.statuses and game.state.clock - p.last_active >= hours * 3600:
                p.statuses.add("inactive")
                game.event("inactive", player=p.pid)
                game.tell(GROUP, N_("{name} has been inactive too long and no longer counts "
                                    "until they act again."), name=player(p.pid))
    game.narrate(GROUP, flavour.NIGHT_FALLS, number=number)


# ----------------------------------------------------------------------------- dusk
def resolve_dusk(game: Game) -> None:
    night = st.cs(game).night
    _liar(game, night.number)
    _checks(game, "researcher")
    _shield(game, night)
    _changelings(game, night)
    _checks(game, "queen")
    _lucky_vs_abduction(game, night)
    # pinkie foresees only an abduction that will take effect: not one on a changeling (the
    # team's target awakened by the queen this very night is one now)
    pending = night.abduction
    if pending is not None and st.is_changeling(game.state.players[pending]):
        pending = None
    for p in game.state.living():
        if p.role == "pinkie_sense" and st.passive_works(p):
            night.foresight[p.pid] = pending
            if pending:
                game.tell(to_player(p.pid), N_("Your Pinkie Sense tingles: {name} will be "
                                               "abducted tonight."), name=player(pending))
            else:
                game.tell(to_player(p.pid), N_("Your Pinkie Sense is quiet tonight."))
    if night.abduction:
        target = game.state.players[night.abduction]
        if target.role == "drama_queen" and st.passive_works(target):
            night.chase_owed = target.pid
            game.tell(to_player(target.pid), N_("The changelings are coming for you! Before dawn "
                                                "you may name a player who runs away with you."))


def _liar(game: Game, number: int) -> None:
    for sub in subs_for(game, "fake"):
        liar = game.state.players[sub.actor]
        liar.counters["fake"] = sub.role
        liar.counters["fake_night"] = number
        game.event("faked", liar=liar.pid, role=sub.role)
        game.tell(to_player(liar.pid), N_("From now on the Researcher sees you as: {role}."),
                  role=role(sub.role or ""))


def _checks(game: Game, checker_role: str) -> None:
    night = st.cs(game).night
    for sub in subs_for(game, "check"):
        checker = game.state.players[sub.actor]
        target = game.state.players[sub.targets[0]]
        if checker.role != checker_role or not target.alive:
            continue
        by_researcher = checker_role == "researcher"
        seen = seen_role(target, by_researcher)
        game.tell(to_player(checker.pid), N_("Your check: {name} is {role}."),
                  name=player(target.pid), role=role(seen))
        if target.role == "confused_changeling":
            _confused_checked(game, night, target, by_researcher)
        # recorded after an awakening, which tells the team of its newcomer: the queen's
        # answer stays the role as it was when her step began
        game.learn(checker.pid, target.pid, seen)


def _confused_checked(game: Game, night: Night, target: Player, by_researcher: bool) -> None:
    """CH-CONF: the researcher turns him, the queen awakens him, both in one night: he flees."""
    if target.pid in night.turned_now:
        if not by_researcher:
            game.remove(target, "fled")
        return
    if target.counters.get("turned"):
        return
    if by_researcher:
        target.counters["turned"] = True
        night.turned_now.add(target.pid)
        night.team_fails = True
        game.event("turned", player=target.pid)
    else:
        awaken(game, target)


def awaken(game: Game, p: Player) -> None:
    p.role = "changeling"
    game.event("awakened", player=p.pid)
    game.tell(to_player(p.pid), N_("You wake up: you were a changeling all along! You now play "
                                   "with the changelings."))
    st.join_team(game, p)


def _shield(game: Game, night: Night) -> None:
    by_shield = {s.actor: s.targets[0] for s in subs_for(game, "shield")}
    for p in game.state.living():
        if p.role == "shield":
            target = by_shield.get(p.pid)
            p.counters["shield_last"] = [target, night.number] if target else None
            if target and game.state.players[target].alive:
                night.shielded.add(target)


def _changelings(game: Game, night: Night) -> None:
    """CH-AGREE: exactly one distinct (action, target) among the team's last submissions."""
    members = {p.pid for p in st.team(game)}
    subs = [sub for (actor, slot), sub in game.state.subs.items()
            if slot == "team" and actor in members]
    choices = {(s.action, s.targets[0]) for s in subs}
    if not choices:
        return
    if len(choices) > 1:
        st.tell_team(game, N_("You did not agree on one target, so nothing happens tonight."))
        game.event("disagreed")
        return
    action, target_id = choices.pop()
    target = game.state.players[target_id]
    if not target.alive:
        return
    if night.team_fails:
        if target.pid in night.turned_now and action == "abduct":
            game.remove(target, "fled")
        st.tell_team(game, N_("Something went wrong tonight: your plan failed."))
        return
    if target.pid in night.shielded:
        game.event("shielded", target=target.pid)
        return
    if action == "exchange":
        _exchange(game, target)
        return
    night.abduction = target.pid
    last = max((s for s in subs if s.targets[0] == target.pid), key=lambda s: s.seq)
    night.abduction_text = last.text
    game.event("abduction_fixed", target=target.pid)


def _exchange(game: Game, target: Player) -> None:
    """CH-EXCH: the target becomes a changeling and keeps his statuses; nothing is published.

    He loses any special role at step 4, so what he sent for its later steps (a prank, the
    fanatic's strike, a letter, the love poison's pair) lapses; a love poison's lapsed pair is
    not replaced by a random one, as the role was dealt.
    """
    st.cs(game).exchange_used = True
    for key in [k for k in game.state.subs if k[0] == target.pid]:
        del game.state.subs[key]
    target.counters["exchanged_from"] = target.role
    if target.role == "confused_changeling" and not target.counters.get("turned"):
        awaken(game, target)
        return
    target.role = "changeling"
    game.event("exchanged", player=target.pid)
    game.narrate(to_player(target.pid), flavour.EXCHANGED)
    st.tell_team(game, N_("The exchange worked: {name} is one of you now."),
                 name=player(target.pid))
    st.join_team(game, target)


def _lucky_vs_abduction(game: Game, night: Night) -> None:
    if not night.abduction:
        return
    target = game.state.players[night.abduction]
    if target.role != "lucky" or not st.passive_works(target) or target.counters.get("luck_spent"):
        return
    lovers_of_changelings: set[str] = set()
    for member in st.team(game):
        partner = st.partner_of(game, member.pid)
        if partner:
            lovers_of_changelings.add(partner)
    exclude = frozenset({p.pid for p in st.team(game)} | night.shielded | lovers_of_changelings)
    victim = redirect_luck(game, target, "abducted", target.pid, exclude)
    night.abduction = victim.pid if victim else None


# ----------------------------------------------------------------------------- dawn
def resolve_dawn(game: Game) -> None:
    night = st.cs(game).night
    _pinkie(game, night)
    _abduction_takes_effect(game, night)
    _chase(game, night)
    for sub in subs_for(game, "fanatic"):
        fanatic = game.state.players[sub.actor]
        fanatic.counters["fanatic_used"] = True
        pool = [p for p in game.state.living() if p.pid != fanatic.pid]
        if pool:
            strike(game, game.rng.choice(pool), "fanatic", fanatic.pid, hold=True)
    for lucky_id, why, actor in night.held:
        lucky = game.state.players[lucky_id]
        if not lucky.alive:
            continue
        if lucky.counters.get("luck_spent"):
            game.remove(lucky, why)
        else:
            redirect_luck(game, lucky, why, actor)
    _letter(game)
    _love(game, night)


def _pinkie(game: Game, night: Night) -> None:
    for sub in sorted((s for s in game.state.subs.values() if s.action in ("prevent", "prank")),
                      key=lambda s: game.state.players[s.actor].seat):
        pinkie = game.state.players[sub.actor]
        if not pinkie.alive:
            continue
        if sub.action == "prevent":  # used up only when it stopped an abduction
            if night.abduction is not None and not st.is_changeling(
                    game.state.players[night.abduction]):
                pinkie.counters["prevent_used"] = True
                game.event("prevented", target=night.abduction)
                night.abduction = None
                night.chase_owed = None
                game.tell(to_player(pinkie.pid), N_("You stopped the abduction in time!"))
        else:
            pinkie.counters["prank_used"] = True
            target = game.state.players[sub.targets[0]]
            if target.alive:
                strike(game, target, "pranked", pinkie.pid, hold=True)


def _abduction_takes_effect(game: Game, night: Night) -> None:
    if night.abduction is None:
        return
    target = game.state.players[night.abduction]
    if not target.alive or st.is_changeling(target):
        night.chase_owed = None
        return
    if target.role == "derpy" and st.passive_works(target) and not target.counters.get("escaped"):
        target.counters["escaped"] = True
        if "mayor" not in target.statuses:
            target.statuses.add("voiceless")
        night.released.append(target.pid)
        game.event("released", player=target.pid)
        return
    if target.role == "confused_changeling" and not target.counters.get("turned"):
        awaken(game, target)
        return
    game.remove(target, "abducted")


def _chase(game: Game, night: Night) -> None:
    queen_id = night.chase_owed
    night.chase_owed = None  # settled at step 8: no longer owed (CH-END)
    if queen_id is None or game.state.players[queen_id].alive:
        return
    sub = game.state.subs.get((queen_id, "chase"))
    if sub is None:
        return
    target = game.state.players[sub.targets[0]]
    if target.alive:
        strike(game, target, "chased", queen_id, hold=True)


def _letter(game: Game) -> None:
    state = st.cs(game)
    state.letter = None
    for sub in subs_for(game, "letter"):
        target = game.state.players[sub.targets[0]]
        if not target.alive:
            continue
        counted = sum(1 for p in game.state.players.values() if st.is_counted(p))
        weight = 2 if counted > 12 else 1
        state.letter = (target.pid, weight, sub.text)
        game.event("letter", target=target.pid, weight=weight)


def _love(game: Game, night: Night) -> None:
    state = st.cs(game)
    if night.number != 1 or state.lovers_chosen:
        return
    poisons = [p for p in game.state.players.values()
               if "love_poison" in (p.role, p.counters.get("exchanged_from"))]
    if poisons:
        state.lovers_chosen = True
        for sub in subs_for(game, "love"):
            a, b = (game.state.players[t] for t in sub.targets)
            if a.alive and b.alive:
                st.make_lovers(game, a.pid, b.pid)
        return
    if game.state.options.get("random_lovers"):
        living = game.state.living()
        if len(living) >= 2:
            a, b = game.rng.sample(living, 2)
            st.make_lovers(game, a.pid, b.pid)


def morning_post(game: Game) -> None:
    state = st.cs(game)
    night = state.night
    for pid, why in night.gone:
        announce_removal(game, pid, why)
    for pid in night.released:
        game.tell(GROUP, N_("The changelings dragged {name} away in the night, but let them go "
                            "again. {name} has lost their voice."), name=player(pid))
    if not night.gone and not night.released:
        game.narrate(GROUP, flavour.MORNING_QUIET)
    heir = night.new_mayor
    if heir is not None and game.state.players[heir].alive and \
            "mayor" in game.state.players[heir].statuses:
        game.tell(GROUP, N_("{name} is the new mayor."), name=player(heir))
    if night.abduction_text and any(w == "abducted" for _, w in night.gone):
        game.tell(GROUP, N_("A witness reports: “{text}”"), text=night.abduction_text)
    if state.letter is not None:
        target, weight, text = state.letter
        game.tell_n(GROUP, "An anonymous letter names {name}: {count} vote against them today.",
                    "An anonymous letter names {name}: {count} votes against them today.",
                    weight, name=player(target))
        if text:
            game.tell(GROUP, N_("The letter reads: “{text}”"), text=text)
