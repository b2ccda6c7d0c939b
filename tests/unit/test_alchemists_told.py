"""What each Alchemists player is told where a scenario's `told` (which compares only the
players, roles and sides a message names) cannot see it: the words of the reveal, the order
of the explosion's dead, the refusal of a request for one's own death, and the finished Stone
(issue 27, problem 9; rules AL-REVEAL, §5, AL-FINISHED, all [revised])."""

from __future__ import annotations

from typing import Any

import pytest

from core.engine import Act, Close, GameSetup, Refused, Vote
from core.engine.game import Game
from core.engine.messages import GROUP, Message, Ref, Text, ToPlayer, player, side
from core.i18n import Renderer
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.alchemists.flavour import EXECUTED_REVEALED
from rulesets.alchemists.roles import CANONICAL

from .test_alchemists_messages import EVERYONE, EXPLOSION_VICTIMS, everyone_votes

# the canonical deal's seats (see test_alchemists_messages)
FATHER, LUST, ISHVALAN, CRIMSON, GREED, XING = "p0", "p1", "p4", "p5", "p6", "p7"

RECEIVED = ("The Philosopher's Stone is yours. Each night you may use one of its powers besides "
            "your own; it may turn against you.")
RECEIVED_FINISHED = ("The Philosopher's Stone is yours, and it is finished. Each night you may "
                     "use one of its powers besides your own; it no longer turns against you.")
FINISHED = ("Five or fewer are left alive. The Stone has taken in the souls of the dead: it is "
            "finished, and it no longer turns against you.")
STONE_TEXTS = {RECEIVED, RECEIVED_FINISHED, FINISHED}


def canonical(seed: int = 0, **options: Any) -> Game:
    settings = {"stone_backfire": "never", "missed_vote_votes": 0, "missed_votes_modkill": 0,
                "early_close": False, "stone_after_deaths": 5, **options}
    players = tuple((pid, pid.upper()) for pid in EVERYONE)
    return Game(ALCHEMISTS, GameSetup("alchemists", players, seed=seed, roles=CANONICAL,
                                      options=tuple(settings.items())))


def render(text: Text, locale: str) -> str:
    return Renderer(locale, ALCHEMISTS.vocabulary, str.upper, ruleset="alchemists").render(text)


# ------------------------------------------------------------------ AL-REVEAL [revised]
def executed_reveal(victim: str) -> Text:
    """Day 1 of the canonical fifteen: `victim` is executed with 15 alive (side published)."""
    g = canonical()
    g.apply(Close())
    everyone_votes(g, victim)
    told = [m.text for m in g.apply(Close()).messages if m.audience == GROUP]
    [reveal] = [t for t in told if t.key in EXECUTED_REVEALED]
    return reveal


@pytest.mark.parametrize("loner", [ISHVALAN, CRIMSON, GREED])
def test_an_executed_loner_is_published_as_a_loner_not_by_his_own_side(loner):
    reveal = executed_reveal(loner)
    assert reveal.params["published"] == side("loner")
    assert reveal.params["side"] == Ref("check", "loner")  # the words xing's check uses
    assert "ishvalan" not in {v.value for v in reveal.params.values() if isinstance(v, Ref)}


@pytest.mark.parametrize(("victim", "published"), [(LUST, "homunculi"), ("p12", "town")])
def test_homunculi_and_town_are_published_as_a_check_shows_them(victim, published):
    assert executed_reveal(victim).params["published"] == side(published)


@pytest.mark.parametrize(("locale", "words"), [
    ("en", {"loner": " a loner.", "town": " on the town's side.", "homunculi": " a homunculus."}),
    ("de", {"loner": " ein Einzelgänger.", "town": " auf der Seite der Stadt.",
            "homunculi": " ein Homunculus."}),
    ("ru", {"loner": "P5 — одиночка.", "town": "P5 — на стороне города.",
            "homunculi": "P5 — гомункул."}),
])
def test_every_reveal_sentence_reads_well_for_each_published_side(locale, words):
    """Each of the six variants ends in the side's predicate form ("was a loner", "war ein
    Einzelgänger", "— одиночка"), never a bare side name, in each language."""
    for key in EXECUTED_REVEALED:
        for published, ending in words.items():
            text = Text(key, {"name": player("p5"), "side": Ref("check", published),
                              "published": side(published)})
            rendered = render(text, locale)
            assert rendered.endswith(ending), rendered
            assert rendered.count("P5") == 2 and "{" not in rendered


# ------------------------------------------------------------------ crimson's explosion
def explosion_order(seed: int) -> tuple[tuple[Ref, ...], list[str]]:
    g = canonical(seed)
    g.apply(Close())
    everyone_votes(g, CRIMSON)
    messages = g.apply(Close()).messages
    [victims] = [m.text for m in messages if m.text.key == EXPLOSION_VICTIMS]
    left = [pid for pid, cause in g.state.removals if cause == "exploded"]
    return victims.params["names"], left


def test_the_explosion_names_its_dead_in_random_order_from_the_games_seed():
    """A fixed order (xing, then father) told the table which body was father [revised]."""
    orders = {seed: explosion_order(seed) for seed in range(12)}
    told = {names for names, _ in orders.values()}
    assert told == {(player(XING), player(FATHER)), (player(FATHER), player(XING))}
    for seed, (names, left) in orders.items():
        assert [r.value for r in names] == left  # they leave in the order they are named
        assert explosion_order(seed)[0] == names  # the same seed, the same order


# ------------------------------------------------------------------ the request
@pytest.mark.parametrize(("locale", "said"), [
    ("en", "You cannot name yourself for “Request a kill”."),
    ("de", "Bei „Opfer vorschlagen“ kannst du dich nicht selbst nennen."),
    ("ru", "«Заявка на убийство»: себя назвать нельзя."),
])
def test_a_request_for_ones_own_death_is_refused_naming_the_action(locale, said):
    g = canonical()
    with pytest.raises(Refused) as refused:
        g.apply(Act(LUST, "request", (LUST,)))
    assert refused.value.text.params == {"action": Ref("action", "request")}
    assert render(refused.value.text, locale) == said
    assert (LUST, "request") not in g.state.subs


# ------------------------------------------------------------------ AL-FINISHED [revised]
# nine players: p0 father, p1 ishvalan, p2 xing, p3 crystal, p4-p8 plain alchemists
SMALL = ("father", "ishvalan", "xing", "crystal", *["alchemist"] * 5)
HOLDER = "p4"


def small(**options: Any) -> Game:
    settings = {"stone_backfire": "never", "missed_vote_votes": 0, "missed_votes_modkill": 0,
                "early_close": False, "stone_holder": HOLDER, **options}
    players = tuple((f"p{i}", f"P{i}") for i in range(len(SMALL)))
    return Game(ALCHEMISTS, GameSetup("alchemists", players, roles=SMALL,
                                      options=tuple(settings.items())))


def stone_texts(messages: list[Message], pid: str) -> list[str]:
    return [m.text.key for m in messages
            if m.audience == ToPlayer(pid) and m.text.key in STONE_TEXTS]


def execute(g: Game, target: str) -> list[Message]:
    for p in g.state.living():
        g.apply(Vote(p.pid, target if p.pid != target else "p0"))
    return g.apply(Close()).messages


def night(g: Game, *kills: tuple[str, str]) -> list[Message]:
    for by, target in kills:
        g.apply(Act(by, "kill", (target,)))
    return g.apply(Close()).messages


def test_the_holder_is_told_after_the_morning_post_that_the_stone_is_finished():
    g = small(stone_after_deaths=1)
    assert stone_texts(night(g, ("p0", "p5")), HOLDER) == [RECEIVED]  # 8 alive
    execute(g, "p6")  # 7 alive
    messages = night(g, ("p0", "p7"), ("p1", "p8"))  # 5 alive: finished during the night
    assert ALCHEMISTS.fact(g, "stone") == {"holder": HOLDER, "finished": True}
    assert stone_texts(messages, HOLDER) == [FINISHED]
    morning = next(i for i, m in enumerate(messages)
                   if m.audience == GROUP and player("p8") in m.text.params.get("names", ()))
    told = next(i for i, m in enumerate(messages) if m.text.key == FINISHED)
    assert told > morning  # the morning post first, then the holder's notice
    assert all(m.audience == ToPlayer(HOLDER) for m in messages if m.text.key == FINISHED)
    assert not stone_texts(g.apply(Close()).messages, HOLDER)  # told once


def test_a_stone_that_appears_finished_is_received_as_finished():
    g = small(stone_after_deaths=5)
    night(g, ("p0", "p5"), ("p1", "p6"))  # 7 alive
    execute(g, "p7")  # 6 alive
    messages = night(g, ("p0", "p8"))  # 5 alive: the Stone appears at once, finished
    assert ALCHEMISTS.fact(g, "stone") == {"holder": HOLDER, "finished": True}
    assert stone_texts(messages, HOLDER) == [RECEIVED_FINISHED]


def test_a_finished_stone_passed_at_night_is_received_as_finished():
    g = small(stone_after_deaths=1)
    night(g, ("p0", "p5"))
    execute(g, "p6")
    night(g, ("p0", "p7"), ("p1", "p8"))  # 5 alive, finished, the holder told
    g.apply(Close())  # day 2: nobody executed
    messages = night(g, ("p0", HOLDER))  # father kills the holder and takes the Stone
    assert ALCHEMISTS.fact(g, "stone") == {"holder": "p0", "finished": True}
    assert stone_texts(messages, "p0") == [RECEIVED_FINISHED]


def test_a_holder_whose_execution_finishes_the_stone_hands_it_on_finished():
    g = small(stone_after_deaths=1)
    night(g, ("p0", "p5"))  # 8 alive
    execute(g, "p6")  # 7 alive
    night(g, ("p0", "p7"))  # 6 alive
    messages = execute(g, HOLDER)  # 5 alive: finished as the Stone passes at random
    holder = ALCHEMISTS.fact(g, "stone")["holder"]
    assert holder not in (None, HOLDER) and ALCHEMISTS.fact(g, "stone")["finished"]
    assert stone_texts(messages, holder) == [RECEIVED_FINISHED]
