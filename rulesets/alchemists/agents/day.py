"""The homunculus game's days: xing's claim and the hive's fake one, the town's one bandwagon
(AL-TIE: two tied at 7+ alive both die, three nobody), every living player's vote (AL-MISS),
and pride's owed `take`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from core.balance.agent_table import aimed
from core.balance.agents import Keyboard
from core.balance.reads import pick
from core.balance.view import Claim, View
from core.engine import Command, Vote
from core.engine.ids import PlayerId, RoleId

from ..roles.pride import TAKE
from .knowledge import (
    HOMUNCULI,
    LONER,
    TOWN,
    XING,
    accused,
    any_claimers,
    category,
    cleared,
    known_false,
    mine,
)

if TYPE_CHECKING:
    from .table import Table

CATEGORIES = frozenset({HOMUNCULI, TOWN, LONER})


def talk(t: Table) -> None:
    public = t.public
    if t.policy.claims and not t.policy.theory:
        for pid in public.living:
            view = t.views[pid]
            if mine(view) == TOWN:
                _report(t, view)
        _fake_claim(t)
    public.board.focus = t.focus(cleared)
    if t.policy.claims and not t.policy.theory:
        _loner_claim(t)


def _report(t: Table, view: View) -> None:
    """Xing (or the bodyguard become xing) claims once he found a homunculus or a loner, once a
    claim accuses him, once the bandwagon is on him, or from `claim_day`."""
    public, board = t.public, t.public.board
    results = tuple((pid, RoleId(seen)) for pid, seen in view.learned.items()
                    if seen in CATEGORIES)
    if not results:
        return
    found = any(category(s) != TOWN and pid in public.living for pid, s in results)
    threatened = any(c.says(view.me) not in (None, TOWN) for c in board.claims.values())
    wanted = board.focus == view.me or (t.policy.claim_day and public.day >= t.policy.claim_day)
    if view.me in board.claims or found or threatened or wanted:
        board.post(Claim(view.me, XING, results, public.day))


def _fake_claim(t: Table) -> None:
    """Father sends one of his own to claim xing on day 2, or against a real claim, naming the
    claimer (or a drawn non-homunculus) as a homunculus."""
    public, board = t.public, t.public.board
    head = t.head()
    if not t.fake or head is None or public.day < 2:
        return
    band = t.band(head)
    if any(c in band for c in board.claims if c in public.living):
        return
    real = [c.claimer for c in board.claims.values() if c.claimer in public.living]
    others = [pid for pid in public.living if pid not in band]
    if not others:
        return
    claimer = max(band & set(public.living), key=public.living.index)
    target = real[0] if real else t.own(head).choice(others)
    board.post(Claim(claimer, XING, ((target, RoleId(HOMUNCULI)),), public.day))


def _loner_claim(t: Table) -> None:
    """The ishvalan, by his own choice (half as often as the hive fakes), claims xing when the
    day's bandwagon turns on him, naming a drawn player as a homunculus."""
    public, board = t.public, t.public.board
    focus = board.focus
    if focus is None or focus not in public.living or focus in board.claims:
        return
    view = t.views[focus]
    if view.card != "ishvalan" or t.own(view).random() >= t.policy.fake / 2:
        return
    others = [pid for pid in public.living if pid != focus]
    if others:
        named = t.own(view).choice(others)
        board.post(Claim(focus, XING, ((named, RoleId(HOMUNCULI)),), public.day))


def votes(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    """Everyone votes: a missed vote costs penalty votes, then the game (AL-MISS)."""
    focus = t.public.board.focus
    head = t.head()
    band = t.band(head) if head is not None else set()
    plan = _band_vote(t, head, band) if head is not None else None
    for pid in t.public.living:
        view = t.views[pid]
        side = mine(view)
        if t.policy.theory:
            target = focus
        elif side == HOMUNCULI and plan is not None:
            target = plan
        else:
            target = town_target(t, view)
            if side != TOWN and (target == pid or target is None):
                target = _scapegoat(t, view, {pid})
        if target is not None and (pid, target) in t.public.links:
            target = _scapegoat(t, view, {pid, target})
        if target is not None:
            yield Vote(pid, target)


def town_target(t: Table, view: View, dice: random.Random | None = None) -> PlayerId | None:
    """A homunculus its checks or trusted claims name, then a loner, then a claimer known
    false, else the bandwagon (not himself: then a drawn suspect)."""
    for wanted in (HOMUNCULI, LONER):
        named = accused(view, wanted)
        if named:
            return pick(named, t.coin)
    living = set(t.public.living)
    false = [c.claimer for c in t.public.board.claims.values()
             if c.claimer in living and c.claimer != view.me and known_false(view, c)]
    if false:
        return pick(false, t.coin)
    focus = t.public.board.focus
    if focus is not None and focus != view.me:
        return focus
    options = [pid for pid in t.public.living if pid != view.me]
    return (dice or t.own(view)).choice(options) if options else None


def _band_vote(t: Table, head: View, band: set[PlayerId]) -> PlayerId | None:
    """With the town while it is after someone else, else against a claimer or a drawn one."""
    town = town_target(t, View(PlayerId(""), t.public), t.own(head))
    if town is not None and town not in band:
        return town
    return _scapegoat(t, head, band)


def _scapegoat(t: Table, view: View, spare: set[PlayerId]) -> PlayerId | None:
    claimers = [pid for pid in any_claimers(view) if pid not in spare]
    if claimers:
        return claimers[0]
    options = [pid for pid in t.public.living if pid not in spare]
    return t.own(view).choice(options) if options else None


def reactions(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    """Pride's owed `take`: a claimed xing, else a drawn player."""
    for pid, view in t.views.items():
        if TAKE.id in keyboard(pid):
            yield from aimed(pid, TAKE.id, take_target(t, view))


def take_target(t: Table, view: View) -> PlayerId | None:
    band = t.band(view)
    claimers = [pid for pid in any_claimers(view) if pid not in band]
    options = [pid for pid in t.public.living if pid not in band]
    if claimers:
        return claimers[0]
    return t.own(view).choice(options) if options else None



