"""Flavour with memory (issue 33): every list drawn from a per-game shuffle bag (no variant
again before the list is spent, the same on a replay, the game's own generator untouched),
the day's opener drawn knowing its dawn, and enough variants everywhere — four or more for
every announcement, three or more for every prompt — distinct in every language."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Sequence
from itertools import pairwise
from types import ModuleType

import pytest
from babel.messages.pofile import read_po

from core.engine.game import Game, replay
from core.engine.messages import Message
from core.engine.registry import load_ruleset
from core.engine.state import GameState, canonical
from core.engine.variety import draw
from core.simulate import new_game, play_random_game
from rulesets.alchemists import flavour as al_flavour
from rulesets.alchemists import voice as al_voice
from rulesets.alchemists.roles.crimson import EXPLOSION
from rulesets.changelings import flavour as ch_flavour
from rulesets.changelings import voice as ch_voice

RULESETS = ("changelings", "alchemists")
FLAVOUR = {"changelings": ch_flavour, "alchemists": al_flavour}


def fresh_state(seed: int = 7) -> GameState:
    return new_game(load_ruleset("alchemists"), 9, seed).state


# -- the bag ---------------------------------------------------------------------------------

def test_a_bag_tells_every_variant_once_before_any_again() -> None:
    state = fresh_state()
    drawn = [draw(state, "list", 5) for _ in range(20)]
    for start in range(0, 20, 5):
        assert sorted(drawn[start:start + 5]) == [0, 1, 2, 3, 4], drawn
    assert all(a != b for a, b in pairwise(drawn))  # not even across a round's end


def test_a_bag_is_the_games_and_leaves_the_games_generator_alone() -> None:
    one, two, other = fresh_state(7), fresh_state(7), fresh_state(8)
    rng = one.rng.getstate()
    first = [draw(one, "list", 6) for _ in range(12)]
    assert one.rng.getstate() == rng
    assert first == [draw(two, "list", 6) for _ in range(12)]
    assert first != [draw(other, "list", 6) for _ in range(12)]
    assert [draw(one, "another", 6) for _ in range(6)] != first[:6]


def test_what_the_moment_rules_out_is_never_drawn() -> None:
    state = fresh_state()
    drawn = [draw(state, "list", 4, frozenset({0, 1})) for _ in range(12)]
    assert set(drawn) == {2, 3}


def test_a_replay_draws_the_same_bags() -> None:
    for ruleset_id in RULESETS:
        ruleset = load_ruleset(ruleset_id)
        game = play_random_game(ruleset, 12, 5)
        again = replay(ruleset, game.setup, [command for command, _ in game.log])
        assert game.state.bags and canonical(again.state) == canonical(game.state)


# -- whole games -----------------------------------------------------------------------------

def group_keys(game: Game) -> Iterator[str]:
    messages: list[Message] = list(game.opening.messages)
    for _, outcome in game.log:
        messages += outcome.messages
    return (m.text.key for m in messages if m.audience.kind == "group")


def games(ruleset_id: str, seeds: Sequence[int] = tuple(range(1, 13))) -> Iterator[Game]:
    ruleset = load_ruleset(ruleset_id)
    for seed in seeds:
        yield play_random_game(ruleset, 9 + seed % 8, seed)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_nightfalls_do_not_repeat_before_the_list_is_spent(ruleset_id: str) -> None:
    falls = FLAVOUR[ruleset_id].NIGHT_FALLS
    for game in games(ruleset_id):
        told = [key for key in group_keys(game) if key in falls]
        for start in range(0, len(told), len(falls)):
            one_round = told[start:start + len(falls)]
            assert len(set(one_round)) == len(one_round), told


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_days_opener_knows_its_dawn(ruleset_id: str) -> None:
    """After a quiet morning: no motif of it again, no loss mourned; after a morning with
    the night's losses: no calm praised."""
    flavour = FLAVOUR[ruleset_id]
    motifs = flavour.MOTIFS
    quiet = set(flavour.MORNING_QUIET)
    losses = set(morning_losses(flavour))
    openers = set(flavour.DAY_BEGINS)
    pairs = 0
    for game in games(ruleset_id):
        dawn: str | None = None
        for key in group_keys(game):
            if key in quiet or key in losses:
                dawn = key
            elif key in openers and dawn is not None:
                pairs += 1
                assert not motifs.get(dawn, frozenset()) & motifs.get(key, frozenset()), (
                    dawn, key)
                mood = "loss" if dawn in quiet else "calm"
                assert mood not in motifs.get(key, ()), (dawn, key)
                dawn = None
    assert pairs > 20


def morning_losses(flavour: ModuleType) -> Iterator[str]:
    """The texts a morning with the night's losses opens with."""
    if hasattr(flavour, "MORNING_DEAD"):
        yield from (pair[0] for pair in flavour.MORNING_DEAD)
    else:
        yield from (text for texts in flavour.REMOVED.values() for text in texts)


# -- enough variants, in every language ------------------------------------------------------

def announcements(ruleset_id: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every list of a rule set's flavour module (and the crimson's explosion): the major
    announcements, each told from its bag."""
    flavour = FLAVOUR[ruleset_id]
    for name, value in vars(flavour).items():
        if name.isupper() and name != "MOTIFS":
            if isinstance(value, dict):
                yield from ((f"{name}[{key}]", texts) for key, texts in value.items())
            elif isinstance(value, tuple):
                yield name, value
    if ruleset_id == "alchemists":
        yield "EXPLOSION", EXPLOSION


def prompts(ruleset_id: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every prompt and nightly note a rule set voices: the core's and its own."""
    voice = ch_voice if ruleset_id == "changelings" else al_voice
    yield from voice.VOICE.items()
    yield from voice.OWN.items()
    for name, pairs in getattr(voice, "COUNTED", {}).items():
        yield name, tuple(pair[0] for pair in pairs)


def msgid(text: str | tuple[str, str]) -> str:
    return text if isinstance(text, str) else text[0]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_announcement_has_four_variants_and_every_prompt_three(ruleset_id: str) -> None:
    short = [(name, len(set(texts))) for name, texts in announcements(ruleset_id)
             if len(set(texts)) < 4]
    short += [(name, len(set(texts))) for name, texts in prompts(ruleset_id)
              if len(set(texts)) < 3]
    assert not short


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("lang", ["de", "ru"])
def test_the_variants_differ_in_every_language(ruleset_id: str, lang: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.locales_dir is not None
    with (ruleset.locales_dir / lang / "LC_MESSAGES" / f"{ruleset_id}.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for name, texts in (*announcements(ruleset_id), *prompts(ruleset_id)):
        said = []
        for text in texts:
            message = catalog.get(msgid(text))
            assert message is not None and message.string, (name, text)
            said.append(message.string if isinstance(message.string, str)
                        else message.string[0])
        assert len(set(said)) == len(said), (name, said)


def test_every_narrated_list_is_a_known_announcement() -> None:
    """The lists the engine draws from in whole games are those counted above (a list added
    elsewhere is counted too, or this test says where it is)."""
    known = {msgid(texts[0]) for r in RULESETS for _, texts in announcements(r)}
    seen: set[str] = set()
    original = draw

    def watching(state: GameState, key: str, count: int,
                 avoid: Collection[int] = ()) -> int:
        seen.add(key)
        return original(state, key, count, avoid)

    import core.engine.table as table
    table.draw = watching  # type: ignore[assignment]
    try:
        for ruleset_id in RULESETS:
            for _ in games(ruleset_id, tuple(random.Random(3).sample(range(100, 999), 4))):
                pass
    finally:
        table.draw = original
    assert seen and seen <= known, seen - known
