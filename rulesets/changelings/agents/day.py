"""The pony game's days: the mayor election, the talk (claims and the bandwagon), the votes,
and the choices owed after the verdict (tie-break, chase, successor)."""

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

from ..mayor import SUCCESSOR, TIEBREAK
from ..roles.drama_queen import CHASE
from .knowledge import (
    RESEARCHER,
    accused,
    cleared,
    hostile,
    known_false,
    liars,
    on_team,
    researcher_claimers,
    trusted,
)
from .reading import CHANGELING

if TYPE_CHECKING:
    from .table import Table

PONY = RoleId("pony")


def election(t: Table) -> Iterator[Command]:
    """Day 1: the town rallies behind one drawn candidate; the changelings behind their
    leader (CH-MAYOR: plurality)."""
    living = t.public.living
    candidate = living[int(t.coin * len(living))]
    lead = t.leader()
    for pid in living:
        view = t.views[pid]
        if on_team(view) and lead is not None and not t.policy.theory:
            yield Vote(pid, lead.me)
        else:
            yield Vote(pid, candidate)


# ---------------------------------------------------------------------- talk
def talk(t: Table) -> None:
    """Before the votes: the researcher claims when it pays, the changelings may fake-claim
    (or counter-claim), then the table settles on its bandwagon."""
    public = t.public
    if t.policy.claims and not t.policy.theory and RESEARCHER in public.in_play:
        for pid in public.living:
            view = t.views[pid]
            if view.card == RESEARCHER or (pid in public.board.claims and on_team(view)):
                _report(t, view)
        _fake_claim(t)
    public.board.focus = t.focus(cleared)


def _report(t: Table, view: View) -> None:
    """The researcher claims (or adds to his claim): once he found a living changeling, once a
    claim accuses him, once the bandwagon is on him, or from `claim_day`. Exchanged, he goes on
    claiming, now to the hive's profit."""
    public = t.public
    board = public.board
    mine = board.claims.get(view.me)
    if on_team(view):  # a claimer who is a changeling now (exchanged, or the fake claimer)
        if mine is not None:
            board.post(_faked(t, view, mine))
        return
    results = tuple((pid, RoleId(role)) for pid, role in view.learned.items())
    found = any(hostile(role) and pid in public.living for pid, role in results)
    threatened = any(c.says(view.me) is not None and hostile(c.says(view.me) or "")
                     for c in board.claims.values())
    wanted = board.focus == view.me or (t.policy.claim_day and public.day >= t.policy.claim_day)
    if mine is not None or found or threatened or wanted:
        board.post(Claim(view.me, RESEARCHER, results, public.day))


def _fake_claim(t: Table) -> None:
    """The hive's fake researcher: on day 2, or against a real claim, naming the claimer (or a
    pony) as a changeling (AIWolf's sample werewolf)."""
    public, board = t.public, t.public.board
    if not t.fake or any(on_team(t.views[c]) for c in board.claims if c in public.living):
        return
    real = [c for c in board.claims.values() if c.claimer in public.living]
    if public.day < 2 and not real:
        return
    team = t.team()
    if not team:
        return
    claimer = team[-1]
    target = real[0].claimer if real else _pony(t, claimer)
    if target is not None:
        board.post(Claim(claimer.me, RESEARCHER, ((target, CHANGELING),), public.day))


def _faked(t: Table, view: View, claim: Claim) -> Claim:
    """A fake claimer's next "result": a living pony named as a changeling."""
    named = {pid for pid, _ in claim.results}
    living = [pid for pid in t.public.living if pid not in named]
    target = _pony(t, view, living)
    if target is None or claim.day == t.public.day:
        return claim
    return Claim(claim.claimer, claim.role, (*claim.results, (target, CHANGELING)), t.public.day)


def _pony(t: Table, view: View, among: list[PlayerId] | None = None) -> PlayerId | None:
    """A living non-changeling as the team knows it (a drawn one)."""
    options = [pid for pid in (among if among is not None else t.public.living)
               if pid != view.me and pid not in view.fellows and pid != view.partner]
    return t.own(view).choice(options) if options else None


# ---------------------------------------------------------------------- votes
def votes(t: Table) -> Iterator[Command]:
    focus = t.public.board.focus
    if t.policy.theory:
        for pid in t.public.living:
            if focus is not None:
                yield Vote(pid, focus)
        return
    plan = _team_vote(t)
    for pid in t.public.living:
        view = t.views[pid]
        target = plan if on_team(view) and plan is not None else town_target(t, view)
        if target is not None and target != view.partner:
            yield Vote(pid, target)


def town_target(t: Table, view: View, dice: random.Random | None = None) -> PlayerId | None:
    """A pony's vote: his own found changeling, the accused of claims he trusts, a claimer he
    knows to be false, else the bandwagon (unless he knows it innocent)."""
    living = t.public.living
    own = [pid for pid in living if hostile(view.learned.get(pid, ""))]
    if own:
        return pick(own, t.coin)
    named = accused(view, trusted(view))
    if named:
        return pick(named, t.coin)
    false = liars(view)
    if false:
        return pick(false, t.coin)
    focus = t.public.board.focus
    if focus is not None and focus != view.me and not _innocent(view, focus):
        return focus
    options = [pid for pid in living if pid != view.me and not _innocent(view, pid)]
    return (dice or t.own(view)).choice(options) if options else None


def _innocent(view: View, pid: PlayerId) -> bool:
    seen = view.learned.get(pid)
    return (seen is not None and not hostile(seen)) or pid == view.partner


def _team_vote(t: Table) -> PlayerId | None:
    """The hive votes as one: with the town when it is after a pony, else against a claimer
    or a drawn pony (so that their votes do not split)."""
    lead = t.leader()
    if lead is None:
        return None
    town = town_target(t, _townsman(t), t.own(lead))
    if town is not None and town not in lead.fellows and town != lead.me:
        return town
    claimers = [pid for pid in researcher_claimers(lead) if pid not in lead.fellows]
    return claimers[0] if claimers else _pony(t, lead)


def _townsman(t: Table) -> View:
    """What an ordinary pony sees: the table's knowledge without the hive's own."""
    return View(PlayerId(""), t.public)


# ---------------------------------------------------------------------- after the verdict
def reactions(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    """The owed choices, each answered by whoever owes it."""
    for pid, view in t.views.items():
        offered = keyboard(pid)
        if TIEBREAK.id in offered:
            yield from aimed(pid, TIEBREAK.id, _tiebreak(t, view))
        if CHASE.id in offered:
            yield from aimed(pid, CHASE.id, chase_target(t, view))
        if SUCCESSOR.id in offered:
            yield from aimed(pid, SUCCESSOR.id, _successor(t, view))


def _tiebreak(t: Table, view: View) -> PlayerId | None:
    tally = t.public.tally
    living = set(t.public.living)
    top = max((n for pid, n in tally.items() if pid in living), default=0)
    tied = [pid for pid, n in tally.items() if n == top and pid in living]
    if not tied:
        return None
    if on_team(view):
        ponies = [pid for pid in tied if pid not in view.fellows and pid != view.me]
        claimers = [pid for pid in ponies if pid in t.public.board.claims]
        return (claimers or ponies or tied)[0]
    town = town_target(t, view)
    if town in tied:
        return town
    innocent = [pid for pid in tied if pid != view.me and not _innocent(view, pid)]
    return t.own(view).choice(innocent or tied)


def chase_target(t: Table, view: View) -> PlayerId | None:
    """The drama queen's chase: the accused of a claim she trusts, a false claimer, else the
    bandwagon or a drawn suspect."""
    target = town_target(t, view)
    if target == view.me or target not in t.public.living:
        options = [pid for pid in t.public.living if pid != view.me]
        return t.own(view).choice(options) if options else None
    return target


def _successor(t: Table, view: View) -> PlayerId | None:
    living = [pid for pid in t.public.living if pid != view.me]
    if not living:
        return None
    if on_team(view):
        fellows = [pid for pid in living if pid in view.fellows]
        return (fellows or living)[0]
    claimers = [c.claimer for c in trusted(view) if c.claimer in living
                and not known_false(view, c)]
    return claimers[0] if claimers else t.own(view).choice(living)
