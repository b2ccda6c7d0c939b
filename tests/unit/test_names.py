"""Names as people type them (issue: a host's first game): the closest match wins, and only
a real ambiguity is asked back with the candidates."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.service.messages import texts
from core.service.telling.names import NameProblem, Roster, resolve, shown_names

PLAYERS = {"p1": "Bob", "p2": "bob", "p3": "🦄Twilight", "p4": "Dot", "p5": "Dottie",
           "p6": "Ann-Marie"}
ROSTER = Roster({pid: (name, None) for pid, name in PLAYERS.items()})


@pytest.mark.parametrize(("typed", "pid"), [
    ("Bob", "p1"), ("bob", "p2"),  # an exact match wins over one in another case
    ("Dot,", "p4"), ("Dot.", "p4"), ("dot", "p4"),  # punctuation typed after a name
    ("twilight", "p3"), ("Twi", "p3"), ("🦄Twilight", "p3"),  # the emoji left out
    ("ann marie", "p6"), ("Ann", "p6"),
])
def test_the_closest_match_wins(typed, pid):
    assert resolve(typed, PLAYERS) == pid
    assert ROSTER.resolve(typed) == pid  # also where Bob and bob are shown apart


@pytest.mark.parametrize(("typed", "candidates"), [
    ("BOB", ("Bob", "bob")), ("Do", ("Dot", "Dottie"))])
def test_a_real_ambiguity_is_asked_back_with_the_candidates(typed, candidates):
    with pytest.raises(NameProblem) as asked:
        resolve(typed, PLAYERS)
    assert asked.value.text.key == texts.SEVERAL_CALLED
    assert asked.value.text.params["names"] == candidates


def test_nobody_and_nothing():
    with pytest.raises(NameProblem) as nobody:
        resolve("Zed", PLAYERS)
    assert nobody.value.text.key == texts.NOBODY_CALLED
    with pytest.raises(NameProblem) as empty:
        resolve(" , ", PLAYERS)
    assert empty.value.text.key == texts.NAME_NEEDED


def test_players_who_share_a_name_are_shown_apart_and_named_by_username():
    roster = Roster({"p1": ("Ann", None), "p2": ("Ann", "ann_k"), "p3": ("Bob", "bobby")})
    assert roster.shown == {"p1": "Ann (1)", "p2": "Ann (@ann_k)", "p3": "Bob"}
    assert roster.resolve("@ann_k") == "p2" and roster.resolve("Ann (1)") == "p1"
    assert roster.resolve("@bobby") == "p3"


@given(st.dictionaries(st.sampled_from([f"p{i}" for i in range(1, 13)]),
                       st.text(min_size=1, max_size=12), min_size=1))
def test_every_shown_name_names_its_player(people):
    shown = shown_names({pid: (name, None) for pid, name in people.items()})
    assert len({name.strip().casefold() for name in shown.values()}) == len(shown)
    for pid, name in shown.items():
        if name.strip().rstrip(",.;:!?").strip():
            assert resolve(name, shown) == pid, (name, shown)


@pytest.mark.parametrize("typed", ["Gus\ufeff", "B\u200bob", "Аnn-Marie", "D0t"])
def test_names_that_only_look_like_a_players_are_nobody(typed):
    with pytest.raises(NameProblem):
        resolve(typed, {**PLAYERS, "p7": "Gus"})
