"""The pony game's nights: the hive's one agreed abduction (or its exchange), the checks, the
shield, and each special role's own use of its power (rules §4–5)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from core.balance.agent_table import aimed
from core.balance.agents import Exchange, Keyboard
from core.balance.view import View
from core.engine import Act, Command
from core.engine.ids import ActionId, PlayerId, RoleId

from ..roles.drama_queen import CHASE
from ..roles.fanatic import FANATIC
from ..roles.liar import FAKE
from ..roles.love_poison import LOVE
from ..roles.mare_do_well import LETTER
from ..roles.pinkie_sense import PRANK, PREVENT
from ..roles.researcher import CHECK
from ..roles.shield import SHIELD
from ..team import ABDUCT, EXCHANGE
from .day import chase_target
from .knowledge import RESEARCHER, accused, hostile, liars, on_team, researcher_claimers, trusted
from .reading import FORESIGHT

if TYPE_CHECKING:
    from .table import Table

# pony-side roles worth the hive's night before a plain pony, most dangerous first
THREATS = tuple(RoleId(r) for r in ("researcher", "shield", "pinkie_sense", "drama_queen",
                                    "fanatic", "mare_do_well"))
PONY_SPECIALS = tuple(RoleId(r) for r in (
    "shield", "love_poison", "drama_queen", "pinkie_sense", "stalker", "fanatic", "derpy",
    "mare_do_well", "lucky"))


# the cards with a night power of their own (the others' keyboards are not asked)
DUSK_CARDS = frozenset(RoleId(r) for r in ("researcher", "queen", "shield", "liar", "love_poison",
                                           "mare_do_well", "fanatic"))
DAWN_CARDS = frozenset(RoleId(r) for r in ("pinkie_sense", "drama_queen"))


def dusk(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    yield from _hive(t, keyboard)
    if t.policy.theory:
        return
    for pid in t.public.living:
        view = t.views[pid]
        if view.card not in DUSK_CARDS:
            continue
        offered = keyboard(pid)
        if not offered:
            continue
        card = view.card
        if CHECK.id in offered:
            yield from aimed(pid, CHECK.id, _check_target(t, view))
        if SHIELD.id in offered:
            yield Act(pid, SHIELD.id, (_shield_target(t, view),))
        if FAKE.id in offered and card == "liar":
            yield Act(pid, FAKE.id, (), None, _fake_role(t, view))
        if LOVE.id in offered:
            others = [p for p in t.public.living if p != pid]
            if len(others) >= 2:
                yield Act(pid, LOVE.id, tuple(t.own(view).sample(others, 2)))
        if LETTER.id in offered:
            yield from aimed(pid, LETTER.id, _suspect(t, view))
        if FANATIC.id in offered and _fanatic_pays(t, view):
            yield Act(pid, FANATIC.id, ())


def dawn(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    """Pinkie guards a claimer she foresaw taken (or herself), else pranks an accused; the
    abducted drama queen chases."""
    if t.policy.theory:
        return
    for pid, view in t.views.items():
        if view.card not in DAWN_CARDS:
            continue
        offered = keyboard(pid)
        if CHASE.id in offered:
            yield from aimed(pid, CHASE.id, chase_target(t, view))
        if PREVENT.id in offered or PRANK.id in offered:
            seen = view.notes.get(FORESIGHT)
            guard = set(researcher_claimers(view)) | {pid}
            if PREVENT.id in offered and seen is not None and seen in guard:
                yield Act(pid, PREVENT.id, ())
            elif PRANK.id in offered:
                target = _suspect(t, view)
                if target is not None and target != pid:
                    yield Act(pid, PRANK.id, (target,))
            view.notes[FORESIGHT] = None


# ---------------------------------------------------------------------- the hive
def _hive(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    """CH-AGREE: the leader plans, every member sends the same (action, target)."""
    lead = t.leader()
    if lead is None:
        return
    offered = keyboard(lead.me)
    if ABDUCT.id not in offered:
        return
    team = t.team()
    known = {pid for v in team for pid in (v.me, *v.fellows)}
    ponies = [pid for pid in t.public.living if pid not in known]
    if not ponies:
        return
    if t.policy.theory:
        action, target = ABDUCT.id, t.rng.choice(ponies)
    else:
        action, target = _plan(t, lead, team, ponies, EXCHANGE.id in offered)
    for member in team:
        if target != member.partner:
            yield Act(member.me, action, (target,))


def _plan(t: Table, lead: View, team: list[View], ponies: list[PlayerId],
          may_exchange: bool) -> tuple[ActionId, PlayerId]:
    """A claimed researcher first, then the most dangerous role a fellow's check found, else
    a drawn pony; the exchange when the policy says (night 1, or a found researcher)."""
    learned: dict[PlayerId, str] = {}
    for member in team:  # what the queen's checks told the team chat
        learned.update(member.learned)
    claimers = [pid for pid in researcher_claimers(lead) if pid in ponies]
    found = sorted((pid for pid in ponies if learned.get(pid) in THREATS),
                   key=lambda pid: THREATS.index(RoleId(learned[pid])))
    exchange = t.policy.exchange
    if may_exchange and exchange is not Exchange.NEVER:
        researcher = [pid for pid in ponies if learned.get(pid) == RESEARCHER]
        if researcher:
            return EXCHANGE.id, researcher[0]
        if exchange is Exchange.NIGHT_ONE:
            return EXCHANGE.id, (claimers or found or [t.own(lead).choice(ponies)])[0]
    if claimers:
        return ABDUCT.id, claimers[0]
    if found:
        return ABDUCT.id, found[0]
    return ABDUCT.id, t.own(lead).choice(ponies)


# ---------------------------------------------------------------------- pony-side powers
def _check_target(t: Table, view: View) -> PlayerId | None:
    """An unchecked living player; claimers first (the researcher tests a rival claim, the
    queen hunts the real one)."""
    unchecked = [pid for pid in t.public.living if pid != view.me and pid not in view.learned
                 and pid not in view.fellows]
    if not unchecked:
        return None
    claimers = [pid for pid in unchecked if pid in t.public.board.claims]
    return claimers[0] if claimers else t.own(view).choice(unchecked)


def _shield_target(t: Table, view: View) -> PlayerId:
    """The claimed researcher he trusts, else a drawn player; never last night's again."""
    last = t.shielded.get(view.me)
    claimers = [pid for pid in researcher_claimers(view) if pid != last]
    if claimers:
        target = claimers[0]
    else:
        options = [pid for pid in t.public.living if pid != last]
        target = t.own(view).choice(options)
    t.shielded[view.me] = target
    return target


def _fake_role(t: Table, view: View) -> RoleId:
    """A pony-side special in play the researcher will believe (CH-LIAR)."""
    in_play = [r for r in PONY_SPECIALS if r in t.public.in_play]
    return t.own(view).choice(in_play or list(PONY_SPECIALS))


def _suspect(t: Table, view: View) -> PlayerId | None:
    """Whom the Mare Do Well letters and Pinkie pranks: the accused of a claim she trusts,
    else a claimer she knows false; nobody on a hunch. A changeling holding the power (he
    was exchanged) names a claimer instead."""
    if on_team(view):
        claimers = [pid for pid in researcher_claimers(view) if pid not in view.fellows]
        return claimers[0] if claimers else None
    named = accused(view, trusted(view)) or liars(view)
    return named[0] if named else None


def _fanatic_pays(t: Table, view: View) -> bool:
    """The fanatic strikes blindly: worth it once the changelings still hiding are at least a
    third of the others (announced count less the published ones)."""
    if on_team(view):
        return True
    public = t.public
    caught = sum(1 for role in public.revealed.values() if hostile(role))
    hiding = max(public.hiding - caught, 0)
    others = len(public.living) - 1
    return others > 0 and 3 * hiding >= others
