"""What the Alchemists' group is told, checked on the messages' keys and parameters (never the
rendered text): crimson's explosion names who died with him, a `take` never names pride, a
backfire's void vote is "no vote today", and the final count says who carries penalty votes
(rules §5, AL-BACKFIRE, AL-MISS)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.engine import Act, Close, GameSetup, Vote
from core.engine.game import Game
from core.engine.log_codec import decode, encode
from core.engine.messages import GROUP, Message, Ref, Text, player, role
from core.i18n import Renderer
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.alchemists.roles import CANONICAL

# seats of the canonical deal: p0 father, p1 lust, p2 envy, p3 pride, p4 ishvalan, p5 crimson,
# p6 greed, p7 xing, p8 bodyguard, p9 linker, p10 crystal, p11-p14 alchemists
FATHER, LUST, PRIDE, ISHVALAN, CRIMSON, XING = "p0", "p1", "p3", "p4", "p5", "p7"
EVERYONE = tuple(f"p{i}" for i in range(len(CANONICAL)))

EXPLOSION_VICTIMS = "The explosion takes {names} with him."
DIED_AS_WELL = "{name} has died as well."
NO_VOTE_TODAY = "{name} has no vote today: it counts for nothing, but must still be cast."
WEIGHS_DIFFERENTLY = "{name}'s vote weighs differently today."
PENALTIES = "The count includes {votes} against {names}, who did not vote."


def game(**options: Any) -> Game:
    settings = {"stone_backfire": "never", "missed_vote_votes": 0, "missed_votes_modkill": 0,
                "early_close": False, **options}
    players = tuple((pid, pid.upper()) for pid in EVERYONE)
    return Game(ALCHEMISTS, GameSetup("alchemists", players, roles=CANONICAL,
                                      options=tuple(settings.items())))


def refs(value: Any) -> set[Ref]:
    """Every game object a message parameter names (lists and pairs included)."""
    if isinstance(value, Ref):
        return {value}
    if isinstance(value, (tuple, list)):
        return set().union(*(refs(v) for v in value)) if value else set()
    return set()


def named(message: Message) -> set[Ref]:
    return refs(tuple(message.text.params.values()))


def group(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.audience == GROUP]


def everyone_votes(g: Game, target: str, *, but: tuple[str, ...] = ()) -> None:
    for pid in EVERYONE:
        if g.state.players[pid].alive and pid not in but:
            g.apply(Vote(pid, target if pid != target else FATHER))


def test_the_explosion_names_the_original_xing_and_father_without_their_sides():
    g = game()
    g.apply(Close())  # night 1, nobody acts
    everyone_votes(g, CRIMSON)
    told = group(g.apply(Close()).messages)
    victims = [m for m in told if m.text.key == EXPLOSION_VICTIMS]
    assert len(victims) == 1
    assert set(victims[0].text.params["names"]) == {player(XING), player(FATHER)}
    # crimson's own reveal says "loner" (AL-REVEAL); the two he takes have no side told
    assert {r for m in told for r in named(m) if r.kind == "side"} == {Ref("side", "loner")}
    assert g.state.players[XING].cause == g.state.players[FATHER].cause == "exploded"


def test_a_take_by_day_names_the_taken_player_and_never_pride():
    g = game()
    g.apply(Act(PRIDE, "search", (CRIMSON,)))
    g.apply(Close())  # pride absorbs crimson and gains `take`
    everyone_votes(g, PRIDE)
    g.apply(Close())  # pride is executed, with no standing choice: asked in the reactions
    assert str(g.state.phase) == "day 1 reactions"
    g.apply(Act(PRIDE, "take", ("p12",)))
    told = group(g.apply(Close()).messages)
    assert [m.text.params for m in told if m.text.key == DIED_AS_WELL] == [{"name": player("p12")}]
    assert g.state.players["p12"].cause == "taken"
    assert not any(player(PRIDE) in named(m) or role("pride") in named(m) for m in told)


def test_a_take_at_night_is_one_more_body_in_the_morning_post():
    g = game()
    g.apply(Act(PRIDE, "search", (CRIMSON,)))
    g.apply(Close())
    g.apply(Close())  # day 1: nobody executed
    g.apply(Act(PRIDE, "take", ("p12",)))  # a standing choice
    g.apply(Act(ISHVALAN, "kill", (PRIDE,)))
    told = group(g.apply(Close()).messages)
    assert g.state.players["p12"].cause == "taken"
    naming_p12 = [m for m in told if player("p12") in named(m)]
    assert len(naming_p12) == 1  # the morning post, where pride is one more body
    assert set(naming_p12[0].text.params["names"]) == {player(PRIDE), player("p12")}
    assert not any(role("pride") in named(m) for m in told)
    assert not any(m.text.key == DIED_AS_WELL for m in told)


def stone_night(action: str, target: str, backfire: str) -> list[Message]:
    """Night 2's morning: the alchemist p11 holds the Stone (it appears after night 1's two
    deaths) and uses `action` on `target`."""
    g = game(stone_backfire=backfire, stone_after_deaths=2, stone_holder="p11")
    g.apply(Act(FATHER, "kill", ("p12",)))
    g.apply(Act(ISHVALAN, "kill", ("p13",)))
    g.apply(Close())
    g.apply(Close())  # day 1
    g.apply(Act("p11", action, (target,)))
    return group(g.apply(Close()).messages)


def test_a_backfire_that_voids_a_vote_says_there_is_no_vote_today():
    told = stone_night("stone_block", LUST, "always")
    assert [m.text.params for m in told if m.text.key == NO_VOTE_TODAY] == [{"name": player("p11")}]
    assert not any(m.text.key == WEIGHS_DIFFERENTLY for m in told)


def test_a_vote_minus_says_only_that_the_vote_weighs_differently():
    told = stone_night("stone_vote_minus", "p14", "never")
    weighs = [m.text.params for m in told if m.text.key == WEIGHS_DIFFERENTLY]
    assert weighs == [{"name": player("p14")}]
    assert not any(m.text.key == NO_VOTE_TODAY for m in told)


def test_the_final_count_says_who_carries_penalty_votes_and_how_many():
    g = game(missed_vote_votes=2)
    g.apply(Close())
    everyone_votes(g, "p14", but=("p9", "p12"))
    told = group(g.apply(Close()).messages)
    penalties = [m.text for m in told if m.text.key == PENALTIES]
    assert len(penalties) == 1
    assert penalties[0].plural is not None
    assert penalties[0].count == 2  # the sentence agrees with the two players it names
    assert penalties[0].params["names"] == (player("p9"), player("p12"))
    votes = penalties[0].params["votes"]  # and says how many penalty votes each carries
    assert isinstance(votes, Text) and votes.count == 2 and votes.plural is not None


@pytest.mark.parametrize(("locale", "one", "several"), [
    ("en", "The count includes three penalty votes against P9, who did not vote.",
     "The count includes one penalty vote against each of the two players who did not vote: "
     "P9 and P12."),
    ("de", "P9 hat nicht abgestimmt und bekommt dafür drei Strafstimmen angerechnet.",
     "Zwei von euch haben nicht abgestimmt und bekommen dafür je eine Strafstimme "
     "angerechnet: P9 und P12."),
    ("ru", "В подсчёте — три штрафных голоса против игрока, который не проголосовал: P9.",
     "В подсчёте — один штрафной голос против каждого из 2 игроков, которые не "
     "проголосовали: P9 и P12."),
])
def test_the_penalty_sentence_counts_players_and_votes_apart(locale, one, several):
    def penalty_text(votes: int, missing: tuple[str, ...]) -> str:
        g = game(missed_vote_votes=votes)
        g.apply(Close())
        everyone_votes(g, "p14", but=missing)
        [text] = [m.text for m in g.apply(Close()).messages if m.text.key == PENALTIES]
        names = {pid: g.name(pid) for pid in EVERYONE}
        return Renderer(locale, ALCHEMISTS.vocabulary, names.__getitem__,
                        ruleset="alchemists").render(text)
    assert penalty_text(3, ("p9",)) == one
    assert penalty_text(1, ("p9", "p12")) == several


def test_a_day_without_misses_tells_no_penalty():
    g = game(missed_vote_votes=2)
    g.apply(Close())
    everyone_votes(g, "p14")
    assert not any(m.text.key == PENALTIES for m in g.apply(Close()).messages)


def test_a_counted_phrase_survives_the_outbox():
    """The penalty sentence is stored as JSON on its way to the chat: its inner phrase comes
    back as the phrase it was."""
    g = game(missed_vote_votes=2)
    g.apply(Close())
    everyone_votes(g, "p14", but=("p9",))
    [text] = [m.text for m in g.apply(Close()).messages if m.text.key == PENALTIES]
    stored = json.loads(json.dumps(encode(dict(text.params))))
    assert decode(stored) == dict(text.params)
