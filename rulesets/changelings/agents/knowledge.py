"""What a simulated pony-game player can conclude from his `View`: his side, which claims on
the board he knows to be false, whom the claims he trusts accuse or clear."""

from __future__ import annotations

from collections.abc import Iterable

from core.balance.view import Claim, Public, View
from core.engine.ids import PlayerId, RoleId

from .reading import TEAM_ROLES

RESEARCHER = RoleId("researcher")


def on_team(view: View) -> bool:
    """Whether he knows himself a changeling (dealt, exchanged or awakened)."""
    return view.card in TEAM_ROLES


def hostile(role: RoleId | str) -> bool:
    """Whether a role, as a check or a claim names it, is on the changelings' side."""
    return role in TEAM_ROLES


def refuted(public: Public, claim: Claim) -> bool:
    """Whether the table can see that the claim is false: the claimer's published role is
    another, a player it names was published on the other side, the claimed role is not in
    play, or another player was published holding it."""
    revealed = public.revealed
    shown = revealed.get(claim.claimer)
    if shown is not None and shown != claim.role:
        return True
    if public.in_play and claim.role not in public.in_play:
        return True
    for pid, role in claim.results:
        seen = revealed.get(pid)
        if seen is not None and hostile(seen) != hostile(role):
            return True
    return any(role == claim.role and pid != claim.claimer for pid, role in revealed.items())


def known_false(view: View, claim: Claim) -> bool:
    """Whether this player knows the claim to be false: the table sees it, or it contradicts
    his own side, his own checks, or his own role (a second researcher)."""
    if claim.claimer == view.me:
        return False
    if refuted(view.public, claim):
        return True
    if view.card == claim.role:
        return True
    mine = on_team(view)
    for pid, role in claim.results:
        if pid == view.me and hostile(role) != mine:
            return True
        if mine and pid != view.me and hostile(role) != (pid in view.fellows):
            return True
        seen = view.learned.get(pid)
        if seen is not None and hostile(seen) != hostile(role):
            return True
    return False


def trusted(view: View) -> list[Claim]:
    return [c for c in view.public.board.claims.values() if not known_false(view, c)]


def accused(view: View, claims: Iterable[Claim]) -> list[PlayerId]:
    """The living these claims name as changelings, in seat order."""
    living = view.public.living
    named = {pid for c in claims for pid, role in c.results if hostile(role)}
    return [pid for pid in living if pid in named and pid != view.me]


def cleared(public: Public) -> set[PlayerId]:
    """Who the claims the table cannot refute clear, and those claimers themselves."""
    out: set[PlayerId] = set()
    for claim in public.board.claims.values():
        if not refuted(public, claim):
            out.add(claim.claimer)
            out.update(pid for pid, role in claim.results if not hostile(role))
    return out


def liars(view: View) -> list[PlayerId]:
    """The living claimers this player knows to be false."""
    living = set(view.public.living)
    return [c.claimer for c in view.public.board.claims.values()
            if c.claimer in living and known_false(view, c)]


def researcher_claimers(view: View) -> list[PlayerId]:
    """The living claimed researchers this player does not know to be false."""
    living = set(view.public.living)
    return [c.claimer for c in trusted(view) if c.role == RESEARCHER and c.claimer in living
            and c.claimer != view.me]
