"""The summary's lines from the story of random games of both rule sets, in en, de and ru:
every player with role, side and fate, the lovers, each day's links, the lines of succession
and the Stone's holders, each in the game's own words where it has them."""

from __future__ import annotations

import pytest

from core.engine.registry import load_ruleset
from core.simulate import play_random_game
from core.story import Story, story_of
from core.story.summary import TEXTS, summary_texts
from core.story.texts import Words

LOCALES = ("en", "de", "ru")
SEEDS = range(8)


def told(story: Story, locale: str) -> list[str]:
    words = Words(story, locale)
    return [words.renderer.render(text) for block in summary_texts(story) for text in block]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
def test_every_player_is_told_with_role_side_and_fate(ruleset: str, locale: str) -> None:
    for seed in SEEDS:
        story = story_of(play_random_game(load_ruleset(ruleset), 12, seed))
        words = Words(story, locale)
        lines = told(story, locale)
        for p, line in zip(story.players, lines, strict=False):  # by seat, first
            assert line.startswith(p.name)
            assert words.word("side", p.side) in line
            if p.fate is not None:
                assert words.word("cause", p.fate.cause) in line
                assert str(p.fate.when.number) in line
        assert not any("{" in line for line in lines)  # every placeholder filled
        assert len("\n\n".join(lines)) < 4096  # a 12-player game's fits one Telegram message


def test_the_lovers_the_mayors_links_heirs_and_the_stone_are_told() -> None:
    found = dict.fromkeys(("lovers", "mayor", "linked", "heirs", "stone"), False)
    for seed in SEEDS:
        ch = story_of(play_random_game(load_ruleset("changelings"), 12, seed))
        text = "\n".join(told(ch, "en"))
        for first, second in ch.lovers:
            found["lovers"] = True
            assert f"{ch.player(first).name} and {ch.player(second).name} were lovers" in text
        mayors = ch.succession.get("mayor", [])
        if mayors:
            found["mayor"] = True
            assert ", ".join(ch.player(pid).name for pid in mayors) in text
            assert "mayor's sash" in text  # the pony game's words
        al = story_of(play_random_game(load_ruleset("alchemists"), 12, seed))
        text = "\n".join(told(al, "en"))
        for day, (first, second) in al.links:
            found["linked"] = True
            assert (f"Day {day.number}: {al.player(first).name} and {al.player(second).name}"
                    " were bound by a link.") in text
        father = al.succession["father"]
        if len(father) > 1:
            found["heirs"] = True
            assert ", ".join(al.player(pid).name for pid in father) in text
        else:  # the Father alone is told by his own line, with his role
            assert "mantle" not in text
        if al.stone_holders:
            found["stone"] = True
            assert ", ".join(al.player(pid).name for pid in al.stone_holders) in text
    assert all(found.values()), found


def test_a_line_a_rule_set_has_no_words_for_is_told_plainly() -> None:
    assert "linked" not in load_ruleset("changelings").story_texts
    assert set(load_ruleset("alchemists").story_texts) <= set(TEXTS)
    assert set(load_ruleset("changelings").story_texts) <= set(TEXTS)
