"""Rules §8, communication: the team chats the rules give (the roles' own teams, the
homunculi's nest once father and pride are gone, absorbed ↔ absorber, the dead's spectator
chats per side) and who hears a private message sent through the bot."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import N_, player
from core.engine.refusals import Refused
from core.engine.ruleset import TeamChat
from core.engine.state import Player

from .common import HOMUNCULI, LONERS, father, homunculi, side_of, state_of
from .hooks import ROLES, TEAMS

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


def team_of(p: Player) -> str | None:
    return ROLES[p.role].team


def team_chats(game: Game) -> list[TeamChat]:
    """The roles' teams (xing and the bodyguard); the homunculi once father and pride are
    gone (not before: they must not learn each other); each absorbed player with the living
    absorber. The dead in none of these watch from their side's spectators' chat (town,
    homunculi, loners), as the source forbids cross-faction talk even after death; a member
    who leaves the game leaves the team chat too [decision: the dead must not coach the
    living], except an absorbed player, whom the rules let keep talking."""
    s = game.state
    state = state_of(game)
    chats = [TeamChat(team.key, team.title, team.about,
                      tuple(p.pid for p in s.living() if team_of(p) == team.key))
             for team in TEAMS.values()]
    nest = () if father(game) is not None else tuple(p.pid for p in homunculi(game))
    chats.append(TeamChat("homunculi", NEST_TITLE, NEST_ABOUT, nest))
    paired: set[PlayerId] = set()
    for victim, absorber in state.absorbed_by.items():
        members = (absorber, victim) if s.players[absorber].alive else ()
        paired.update(members)
        chats.append(TeamChat(f"absorbed-{victim}", ABSORBED_TITLE, ABSORBED_ABOUT, members))
    for side_id, title in SPECTATOR_TITLES.items():
        watchers = tuple(p.pid for p in s.players.values() if not p.alive
                         and p.pid not in paired and _spectator_side(p) == side_id)
        chats.append(TeamChat(f"spectators-{side_id}", title, SPECTATORS_ABOUT, watchers))
    return chats


def whisper_recipients(game: Game, p: Player, to: PlayerId | None) -> list[PlayerId]:
    """Homunculi ↔ father (father answers one named homunculus), the homunculi's own chat
    once father and pride are gone, team mates, absorbed ↔ absorber."""
    allowed = _partners(game, p)
    if to is not None:
        if to not in allowed:
            raise Refused(N_("You cannot reach {name} through me."), name=player(to))
        return [to]
    if p.alive and father(game) is p and len(allowed) > 1:
        raise Refused(N_("Name the homunculus your message is for: write @NAME and then "
                         "your message."))
    if not allowed:
        raise Refused(N_("You have nobody to talk to in private right now."))
    return allowed


def _spectator_side(p: Player) -> str:
    side = side_of(p)
    return "loners" if side in LONERS else side


def _partners(game: Game, p: Player) -> list[PlayerId]:
    state = state_of(game)
    found: list[PlayerId] = []
    if p.alive and side_of(p) == HOMUNCULI:
        head = father(game)
        if head is None or head.pid == p.pid:
            found += [h.pid for h in homunculi(game) if h.pid != p.pid]
        else:
            found.append(head.pid)
    team = team_of(p)
    if p.alive and team is not None:
        found += [o.pid for o in game.state.living() if o.pid != p.pid and team_of(o) == team]
    absorber = state.absorbed_by.get(p.pid)
    if absorber is not None and game.state.players[absorber].alive:
        found.append(absorber)
    if p.alive:
        found += [victim for victim, by in state.absorbed_by.items() if by == p.pid]
    return found
