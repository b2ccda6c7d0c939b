"""The pony game's informed players, role by role (rulesets/changelings/agents): each choice
follows from what the player knows — his card, his checks, the claims board, his foresight."""

from __future__ import annotations

import random

from core.balance.agents import Keyboard, Policy
from core.balance.view import Claim, Public, View
from core.engine import Act, Vote
from core.engine.ids import PlayerId, RoleId
from rulesets.changelings.agents.reading import FORESIGHT
from rulesets.changelings.agents.table import Table

P = [PlayerId(f"p{i}") for i in range(1, 9)]
CARDS = ["researcher", "pony", "pony", "pinkie_sense", "mare_do_well", "drama_queen",
         "changeling", "liar"]


def table(stage: str, claims: tuple[Claim, ...] = ()) -> Table:
    public = Public(living=list(P), stage=stage, day=3,
                    in_play=frozenset(RoleId(r) for r in CARDS if r != "pony"))
    views = {pid: View(pid, public, RoleId(card)) for pid, card in zip(P, CARDS, strict=True)}
    views[P[6]].fellows = {P[7]}
    views[P[7]].fellows = {P[6]}
    for claim in claims:
        public.board.post(claim)
    # no fake claims of the hive's own: each test posts the claims it is about
    return Table(views, public, random.Random(1), 0.0, Policy(fake=0.0), lambda: [])


def keyboard(offers: dict[PlayerId, set[str]]) -> Keyboard:
    """What the bot offers each player now (nothing to whoever is not named)."""
    return lambda pid: frozenset(offers.get(pid, set()))


REAL = Claim(P[0], RoleId("researcher"), ((P[6], RoleId("changeling")),), 2)


def test_the_researcher_claims_once_he_found_a_changeling() -> None:
    t = table("vote")
    t.views[P[0]].learned[P[6]] = "changeling"
    moves = list(t.moves(keyboard({})))
    assert t.public.board.claims[P[0]].says(P[6]) == "changeling"
    assert Vote(P[1], P[6]) in moves and Vote(P[0], P[6]) in moves


def test_the_town_votes_the_accused_and_the_named_pony_knows_a_fake() -> None:
    fake = Claim(P[7], RoleId("researcher"), ((P[2], RoleId("changeling")),), 3)
    t = table("vote", (fake,))
    moves = list(t.moves(keyboard({})))
    assert Vote(P[1], P[2]) in moves  # he cannot tell the fake
    assert Vote(P[2], P[7]) in moves  # p3 knows himself a pony: the claimer lies


def test_pinkie_guards_the_claimer_she_foresaw_taken() -> None:
    t = table("dawn", (REAL,))
    t.views[P[3]].notes[FORESIGHT] = P[0]
    moves = list(t.moves(keyboard({P[3]: {"prevent", "prank"}})))
    assert Act(P[3], "prevent", ()) in moves


def test_pinkie_pranks_and_the_mare_letters_the_accused() -> None:
    t = table("dawn", (REAL,))
    moves = list(t.moves(keyboard({P[3]: {"prank"}})))
    assert Act(P[3], "prank", (P[6],)) in moves
    t = table("dusk", (REAL,))
    moves = list(t.moves(keyboard({P[4]: {"letter"}})))
    assert Act(P[4], "letter", (P[6],)) in moves


def test_the_drama_queen_chases_the_claims_accused() -> None:
    t = table("reactions", (REAL,))
    moves = list(t.moves(keyboard({P[5]: {"chase"}})))
    assert Act(P[5], "chase", (P[6],)) in moves


def test_the_mayor_breaks_a_tie_on_the_accused() -> None:
    t = table("reactions", (REAL,))
    t.public.tally = {P[2]: 3, P[6]: 3, P[1]: 1}
    moves = list(t.moves(keyboard({P[1]: {"tiebreak"}})))
    assert Act(P[1], "tiebreak", (P[6],)) in moves
    hive = list(t.moves(keyboard({P[7]: {"tiebreak"}})))
    assert Act(P[7], "tiebreak", (P[2],)) in hive  # a changeling mayor spares his own


def test_the_hive_agrees_on_the_claimed_researcher_and_the_liar_fakes() -> None:
    t = table("dusk", (REAL,))
    offers = {P[6]: {"abduct"}, P[7]: {"abduct", "fake"}}
    moves = list(t.moves(keyboard(offers)))
    assert Act(P[6], "abduct", (P[0],)) in moves and Act(P[7], "abduct", (P[0],)) in moves
    fake = next(m for m in moves if isinstance(m, Act) and m.action == "fake")
    assert fake.role in t.public.in_play and fake.role not in ("researcher", "changeling")
