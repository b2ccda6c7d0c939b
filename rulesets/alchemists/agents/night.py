"""The homunculus game's night (one window): every role's own power and the Stone's. The
homunculi send their requests first; father answers once they have reached him (the bot
forwards them), so his choice is made from what he was told."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from core.balance.agent_table import aimed
from core.balance.agents import Keyboard
from core.balance.view import View
from core.engine import Act, Command
from core.engine.ids import ActionId, PlayerId

from ..actions import CHECK, HEAL, KILL, LINK, SEARCH
from ..roles._homunculi import REQUEST as REQUEST_KILL
from ..roles.envy import COPY
from ..roles.father import CHOOSE, FATHER_KILL
from ..roles.lust import BLOCK
from ..roles.pride import TAKE
from ..stone_actions import STONE_ACTIONS
from .day import take_target
from .knowledge import HOMUNCULI, LONER, TOWN, accused, any_claimers, known, mine, xing_claimers
from .reading import FINISHED, REQUEST, STONE

if TYPE_CHECKING:
    from .table import Table

BACKFIRE_BEARABLE = 0.35  # the Stone's holder risks a roll up to this chance
# the Stone's powers the agents use, as stone_actions.py declares them
STONE_CHECK, STONE_HEAL, STONE_KILL = (STONE_ACTIONS[ActionId(f"stone_{power}")].id
                                       for power in ("check", "heal", "kill"))


def night(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    if t.policy.theory:  # information off: father alone kills a drawn outsider
        yield from _theory(t, keyboard)
        return
    fathers: list[View] = []
    for pid in list(t.public.living):
        view = t.views[pid]
        offered = keyboard(pid)
        if CHOOSE.id in offered:
            fathers.append(view)
            continue
        yield from _own_power(t, view, offered)
        yield from _stone(t, view, offered)
    for view in fathers:  # after the requests reached him
        yield from _father(t, view)
        yield from _stone(t, view, keyboard(view.me))
        for key in [k for k in view.notes if k.startswith(REQUEST)]:
            del view.notes[key]


def _theory(t: Table, keyboard: Keyboard) -> Iterator[Command]:
    for pid in t.public.living:
        offered = keyboard(pid)
        if CHOOSE.id in offered or (KILL.id in offered and mine(t.views[pid]) == HOMUNCULI):
            view = t.views[pid]
            yield from aimed(pid, KILL.id, _drawn(t, view, _others(t, view, t.band(view))))
            return


def _others(t: Table, view: View, spare: set[PlayerId] | None = None) -> list[PlayerId]:
    spare = spare or set()
    return [pid for pid in t.public.living if pid != view.me and pid not in spare]


def _drawn(t: Table, view: View, options: list[PlayerId]) -> PlayerId | None:
    return t.own(view).choice(options) if options else None


def _own_power(t: Table, view: View, offered: frozenset[ActionId]) -> Iterator[Command]:
    me = view.me
    side = mine(view)
    band = t.band(view) if side == HOMUNCULI else {me}
    if REQUEST_KILL.id in offered:
        yield from aimed(me, REQUEST_KILL.id, _first(any_claimers(view), band)
                         or _drawn(t, view, _others(t, view, band)))
    if CHECK.id in offered:
        unchecked = [pid for pid in _others(t, view) if known(view, pid) is None]
        claimers = [pid for pid in unchecked if pid in t.public.board.claims]
        yield from aimed(me, CHECK.id, claimers[0] if claimers else _drawn(t, view, unchecked))
    if HEAL.id in offered:
        yield Act(me, HEAL.id, ((_first(xing_claimers(view), set()) or me),))
    if LINK.id in offered:
        claimers = xing_claimers(view)
        if claimers:
            yield Act(me, LINK.id, (me, claimers[0]))
    if BLOCK.id in offered:
        yield from aimed(me, BLOCK.id, _first(any_claimers(view), band)
                         or _drawn(t, view, _others(t, view, band)))
    if COPY.id in offered:
        claimers = [pid for pid in any_claimers(view) if pid not in band]
        others = [pid for pid in _others(t, view, band) if pid not in claimers[:1]]
        if claimers and others:  # envy borrows xing's check
            yield Act(me, COPY.id, (claimers[0], t.own(view).choice(others)))
    if SEARCH.id in offered:
        yield from _search(t, view, band)
    if KILL.id in offered:
        yield from aimed(me, KILL.id, _kill_target(t, view, band))
    if TAKE.id in offered:
        yield from aimed(me, TAKE.id, take_target(t, view))


def _first(options: list[PlayerId], spare: set[PlayerId]) -> PlayerId | None:
    return next((pid for pid in options if pid not in spare), None)


def _search(t: Table, view: View, band: set[PlayerId]) -> Iterator[Command]:
    """Pride looks for crimson, crimson for the ishvalan (a loner a claim named first), greed
    for xing (the claimed one first)."""
    card = view.card
    if card == "crimson":
        target = _first(accused(view, LONER), {view.me})
    elif card == "greed":
        target = _first(any_claimers(view), {view.me})
    else:
        target = None
    yield from aimed(view.me, SEARCH.id, target or _drawn(
        t, view, [pid for pid in _others(t, view, band) if known(view, pid) is None]))


def _kill_target(t: Table, view: View, band: set[PlayerId]) -> PlayerId | None:
    """The ishvalan (and a leaderless band, by agreement: the same target for all) kills the
    claimed xing or the strongest claimer first."""
    if mine(view) == HOMUNCULI:  # leaderless: the band's one plan
        lead = min(band & set(t.public.living), key=t.public.living.index)
        view = t.views[lead]
    return _first(any_claimers(view), band) or _drawn(t, view, _others(t, view, band))


def _father(t: Table, view: View) -> Iterator[Command]:
    """Father carries out a request that hits a claimer (never greed or one of his own),
    else names a claimer himself, else a request that hits an outsider, else his own pick."""
    band = t.band(view)
    spare = band | {pid for pid, seen in view.learned.items() if seen == "greed"}
    requests = {key[len(REQUEST):]: target for key, target in view.notes.items()
                if key.startswith(REQUEST) and target is not None}
    claimers = [pid for pid in any_claimers(view) if pid not in spare]
    for sender, target in requests.items():
        if target in claimers:
            yield Act(view.me, CHOOSE.id, (PlayerId(sender),))
            return
    if claimers:
        yield Act(view.me, FATHER_KILL.id, (claimers[0],))
        return
    for sender, target in requests.items():
        if target not in spare:
            yield Act(view.me, CHOOSE.id, (PlayerId(sender),))
            return
    own = _drawn(t, view, _others(t, view, spare))
    if own is not None:
        yield Act(view.me, FATHER_KILL.id, (own,))


def _stone(t: Table, view: View, offered: frozenset[ActionId]) -> Iterator[Command]:
    """The Stone's holder weighs its backfire (25 % + 10 points a death since it came to
    him): while it is bearable or finished, the town checks and heals the claimed xing, a
    hostile holder kills a claimer; never the same power two nights in a row (AL-REPEAT)."""
    if STONE_CHECK not in offered:
        return
    finished = view.notes.get(FINISHED) == view.me
    deaths = max(view.counts.get(STONE, len(t.public.living)) - len(t.public.living), 0)
    if not finished and 0.25 + 0.1 * deaths > BACKFIRE_BEARABLE:
        return
    last = t.stone_used.get(view.me)
    night_no = t.public.day
    side = mine(view)
    choice: tuple[ActionId, tuple[PlayerId, ...]] | None = None
    claimers = xing_claimers(view)
    if side == TOWN:
        unchecked = [pid for pid in _others(t, view) if known(view, pid) is None]
        if claimers and (last is None or last[0] != STONE_HEAL):
            choice = (STONE_HEAL, (claimers[0],))
        elif unchecked:
            choice = (STONE_CHECK, (t.own(view).choice(unchecked),))
    else:
        spare = t.band(view) if side == HOMUNCULI else {view.me}
        target = _first(any_claimers(view), spare) or _drawn(t, view, _others(t, view, spare))
        if target is not None:
            choice = (STONE_KILL, (target,))
    if choice is None or (last is not None and last[0] == choice[0]):
        return
    t.stone_used[view.me] = (choice[0], night_no)
    yield Act(view.me, choice[0], choice[1])
