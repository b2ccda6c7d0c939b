"""What a simulated homunculus-game player can conclude from his `View`: what he knows of
others' sides (xing's categories: homunculi, town, loner), which claims he knows to be false,
whom the claims he trusts accuse."""

from __future__ import annotations

from core.balance.view import Claim, Public, View
from core.engine.ids import PlayerId, RoleId

HOMUNCULI, TOWN, LONER = "homunculi", "town", "loner"
XING = RoleId("xing")
HOMUNCULUS_ROLES = frozenset({"father", "lust", "envy", "pride"})
LONER_ROLES = frozenset({"ishvalan", "crimson", "greed"})


def category(role_or_side: str) -> str:
    """A role, a side or a check's answer, as xing's check says it."""
    if role_or_side in HOMUNCULUS_ROLES or role_or_side == HOMUNCULI:
        return HOMUNCULI
    if role_or_side in LONER_ROLES or role_or_side == LONER:
        return LONER
    return TOWN


def mine(view: View) -> str:
    return category(view.card)


def known(view: View, pid: PlayerId) -> str | None:
    """What this player knows of another's category: a check, an introduction, the group."""
    if pid == view.me:
        return mine(view)
    seen = view.learned.get(pid) or view.public.revealed.get(pid)
    return category(seen) if seen is not None else None


def refuted(public: Public, claim: Claim) -> bool:
    shown = public.revealed.get(claim.claimer)
    if shown is not None and category(shown) != TOWN:
        return True
    return any(public.revealed.get(pid) is not None
               and category(public.revealed[pid]) != category(said)
               for pid, said in claim.results)


def known_false(view: View, claim: Claim) -> bool:
    if claim.claimer == view.me:
        return False
    if refuted(view.public, claim) or view.card == claim.role:
        return True
    if known(view, claim.claimer) not in (None, TOWN):
        return True
    return any(known(view, pid) not in (None, category(said)) for pid, said in claim.results)


def trusted(view: View) -> list[Claim]:
    return [c for c in view.public.board.claims.values() if not known_false(view, c)]


def xing_claimers(view: View) -> list[PlayerId]:
    living = set(view.public.living)
    return [c.claimer for c in trusted(view) if c.claimer in living and c.claimer != view.me]


def any_claimers(view: View) -> list[PlayerId]:
    """Every living claimer but himself, true or false: a hostile player's targets."""
    living = set(view.public.living)
    return [c for c in view.public.board.claims if c in living and c != view.me]


def accused(view: View, wanted: str) -> list[PlayerId]:
    """The living the trusted claims (or his own checks) name as `wanted`, in seat order."""
    named = {pid for c in trusted(view) for pid, said in c.results if category(said) == wanted}
    named |= {pid for pid, seen in view.learned.items() if category(seen) == wanted
              and wanted != TOWN}
    return [pid for pid in view.public.living if pid in named and pid != view.me]


def cleared(public: Public) -> set[PlayerId]:
    out: set[PlayerId] = set()
    for claim in public.board.claims.values():
        if not refuted(public, claim):
            out.add(claim.claimer)
            out.update(pid for pid, said in claim.results if category(said) == TOWN)
    return out
