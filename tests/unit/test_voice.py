"""Each game's voice for the prompts a player reads every night and day: three variants or
more of each, translated into every language with the core text's placeholders, and
turned on night by night, the same way on every replay."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from babel.messages.pofile import read_po

from core.engine.messages import NOTED
from core.engine.registry import load_ruleset
from core.engine.voice import EXTRA_PROMPTS, PROMPTS, pick
from core.service.messages import texts

RULESETS = ["changelings", "alchemists"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CORE = {name: getattr(texts, name, NOTED) for name in (*PROMPTS, *EXTRA_PROMPTS)}


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_voiced_prompt_is_a_core_text():
    assert all(name == "NOTED" or hasattr(texts, name) for name in (*PROMPTS, *EXTRA_PROMPTS))


@pytest.mark.parametrize("name", EXTRA_PROMPTS)
def test_the_alchemists_voice_the_texts_of_every_window_three_ways(name):
    variants = load_ruleset("alchemists").voice.get(name, ())
    assert len(set(variants)) >= 3 and CORE[name] not in variants, name


def test_the_alchemists_own_nightly_texts_vary_by_night():
    from rulesets.alchemists.voice import OWN

    for name, variants in OWN.items():
        told = {pick(OWN, name, variants[0], night, "p1", "night") for night in range(1, 4)}
        assert len(variants) >= 3 and len(told) == 3, name


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("name", PROMPTS)
def test_every_prompt_has_three_variants_in_each_game_voice(ruleset_id, name):
    variants = load_ruleset(ruleset_id).voice.get(name, ())
    assert len(set(variants)) >= 3, f"{ruleset_id} gives {name} {len(variants)} variants"
    assert CORE[name] not in variants  # the voice's own words, not the core's dry text


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("lang", ["de", "ru"])
def test_every_variant_is_translated_with_the_core_texts_placeholders(ruleset_id, lang):
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.locales_dir is not None
    with (ruleset.locales_dir / lang / "LC_MESSAGES" / f"{ruleset.id}.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for name, variants in ruleset.voice.items():
        wanted = placeholders(CORE[name.split("/")[0]])  # "PICK_FIRST/copy": one action's
        for variant in variants:
            assert placeholders(variant) == wanted, variant
            message = catalog.get(variant)
            assert message is not None and message.string and not message.fuzzy, variant
            assert placeholders(message.string) == wanted, (variant, message.string)


def test_the_two_voices_do_not_share_words():
    changelings, alchemists = (load_ruleset(r).voice for r in RULESETS)
    for name in PROMPTS:
        assert not set(changelings[name]) & set(alchemists[name]), name


def test_a_player_reads_another_variant_each_night_and_the_same_on_replay():
    voice = {"ACTION_PROMPT": ("a", "b", "c")}
    nights = [pick(voice, "ACTION_PROMPT", "core", night, 7, "p3") for night in range(1, 8)]
    assert all(one != next_ for one, next_ in pairwise(nights))
    assert set(nights) == {"a", "b", "c"}
    assert nights == [pick(voice, "ACTION_PROMPT", "core", night, 7, "p3")
                      for night in range(1, 8)]


def test_a_voice_without_the_prompt_tells_the_core_text():
    assert pick({}, "ACTION_PROMPT", "Your choice: {action}.", 2, 7, "p3") == \
        "Your choice: {action}."


def test_the_engine_tells_a_player_the_variant_pick_gives_him():
    """`Prompt` (the engine's "Noted" and the changelings' proposals) works its starts out on
    its own for speed; it must tell each reader in each phase what `pick` gives for him, with
    the rule set's own stages (a `StrEnum`) as well as the core's."""
    from core.engine.phase import Phase, PhaseKind, Stage
    from core.engine.voice import Prompt
    from rulesets.changelings.vocabulary import Stage as PonyStage

    voice = {"NOTED": ("a", "b", "c", "d")}
    prompt = Prompt(voice, "NOTED", NOTED)
    for kind, stage in [(PhaseKind.NIGHT, Stage.NONE), (PhaseKind.DAY, PonyStage.VOTE),
                        (PhaseKind.NIGHT, PonyStage.DUSK)]:
        for number in range(1, 6):
            phase = Phase(kind, number, stage)
            for pid in ("p1", "p2", "p11"):
                assert prompt.told(phase, pid) == pick(voice, "NOTED", NOTED, number, pid,
                                                       kind, stage), (phase, pid)
    assert Prompt({}, "NOTED", NOTED).told(Phase(PhaseKind.DAY, 2), "p1") == NOTED
