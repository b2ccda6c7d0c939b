"""The summary's lines from the story of random games of both rule sets, in en, de and ru:
every player with role, side and fate, the lovers, each day's links, the lines of succession
and the Stone's holders, each in the game's own words where it has them."""

from __future__ import annotations

import pytest

from core.engine.registry import load_ruleset
from core.engine.story import Bond, Line, LineWords
from core.simulate import play_random_game
from core.story import Story, story_of
from core.story.summary import TEXTS, summary_texts
from core.story.texts import Words
from rulesets.alchemists.story import STONE, SUCCESSIONS
from rulesets.changelings.story import MAYORS

LOCALES = ("en", "de", "ru")
SEEDS = range(8)


def holders(story: Story, words: LineWords) -> list[str]:
    """The names of the rule set's line told in these words (none if it was not told)."""
    return [pid for extra in story.extras if isinstance(extra, Line) and extra.words == words
            for pid in extra.holders]


def bonds(story: Story) -> list[Bond]:
    return [extra for extra in story.extras if isinstance(extra, Bond)]


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
            assert words.word("side_label", p.side) in line  # a loner is labelled a loner
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
        for bond in bonds(ch):
            found["lovers"] = True
            assert (f"{ch.player(bond.first).name} and {ch.player(bond.second).name} "
                    "were lovers") in text
        mayors = holders(ch, MAYORS)
        if mayors:
            found["mayor"] = True
            assert ", ".join(ch.player(pid).name for pid in mayors) in text
            assert "mayor's sash" in text  # the pony game's words
        al = story_of(play_random_game(load_ruleset("alchemists"), 12, seed))
        text = "\n".join(told(al, "en"))
        for bond in bonds(al):
            found["linked"] = True
            assert bond.during is not None and bond.during.kind == "day"
            assert (f"Day {bond.during.number}: {al.player(bond.first).name} and "
                    f"{al.player(bond.second).name} were bound by a link.") in text
        father = holders(al, SUCCESSIONS["father"])
        if len(father) > 1:
            found["heirs"] = True
            assert ", ".join(al.player(pid).name for pid in father) in text
        else:  # the Father alone is told by his own line, with his role
            assert "mantle" not in text
        stone = holders(al, STONE)
        if stone:
            found["stone"] = True
            assert ", ".join(al.player(pid).name for pid in stone) in text
    assert all(found.values()), found


def test_a_rule_set_voices_only_the_players_lines_the_core_tells() -> None:
    assert set(load_ruleset("alchemists").story_texts) <= set(TEXTS)
    assert set(load_ruleset("changelings").story_texts) <= set(TEXTS)
