"""The town's skill fitted from a chat's own finished games (core/balance/calibrate.py), on
synthetic histories against a made-up table whose ponies' rate rises with skill: a chat
that always loses fits low, one that always wins fits high, a chat winning as a regular
table would fits near it, and the fit never falls when the town wins more. Also the table's
interpolation between presets, the skill words a host types, and the fit's line."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.balance.advice import advise
from core.balance.calibrate import ENOUGH, GRID, Calibration, calibrate, chance, curve
from core.balance.estimate import Estimate
from core.balance.history import Finished, finished, history
from core.balance.presets import ORDERED, Preset, nearest
from core.balance.render import calibration_text, skill_title
from core.balance.setups import Setup, setup_of
from core.balance.tables import Cell, Table, between
from core.balance.tally import Skill
from core.engine.game import Game
from core.engine.outcome import GameSetup
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.service.commands.typed_values import read_skill, skill_choices
from core.simulate import play_random_game

from .test_balance_advisor import fake_play

COUNTS = range(7, 13)
#: the ponies' rate at the regular preset per count; each preset step adds 10 points
BASE = {7: 0.30, 8: 0.40, 9: 0.50, 10: 0.45, 11: 0.55, 12: 0.60}
GAMES = 4000


def deal(players: int) -> Setup:
    return setup_of("changelings", players, None, {})


def rate(players: int, r: float) -> float:
    return BASE[players] + (r - 0.3) / 0.15 * 0.10


def made_table(rates=rate) -> Table:
    table = Table("changelings")
    for n in COUNTS:
        for preset in Preset:
            won = round(GAMES * rates(n, preset.r))
            table.add(Cell(n, deal(n).key(), preset,
                           Estimate(GAMES, {"ponies": won, "changelings": GAMES - won}, 4.0),
                           True))
    return table


def games(results: list[tuple[int, bool]]) -> list[Finished]:
    """A chat's history: (player count, whether the ponies won) per game, the deal dealt."""
    return [Finished("changelings", deal(n), ("ponies",) if won else ("changelings",))
            for n, won in results]


def at_skill(r: float, count: int, seed: int = 1) -> list[Finished]:
    """`count` games won as often as the table says a town of skill `r` wins."""
    rng = random.Random(seed)
    results = []
    for i in range(count):
        n = COUNTS[i % len(COUNTS)]
        results.append((n, rng.random() < rate(n, r)))
    return games(results)


TABLE = made_table()


# ---------------------------------------------------------------- the fit
def test_too_few_games_fit_nothing():
    assert calibrate(at_skill(0.3, ENOUGH - 1), TABLE, "ponies") is None
    assert calibrate(at_skill(0.3, ENOUGH), TABLE, "ponies") is not None


def test_a_chat_that_always_loses_fits_low_and_one_that_always_wins_high():
    lost = calibrate(games([(COUNTS[i % 6], False) for i in range(40)]), TABLE, "ponies")
    won = calibrate(games([(COUNTS[i % 6], True) for i in range(40)]), TABLE, "ponies")
    assert lost is not None and won is not None
    assert lost.skill == GRID[0] and lost.preset is Preset.NEW and lost.won == 0
    assert won.skill >= 0.55 and won.preset is Preset.SHARP and won.won == 40
    assert lost.high < won.low  # the intervals say so too


@pytest.mark.parametrize("true", [0.15, 0.3, 0.45])
def test_a_chat_fits_near_the_skill_it_plays_at(true):
    fit = calibrate(at_skill(true, 400, seed=int(true * 100)), TABLE, "ponies")
    assert fit is not None
    assert abs(fit.skill - true) <= 0.06
    assert fit.low <= true <= fit.high
    assert fit.high - fit.low < 0.2  # 400 games: about ±0.07
    assert fit.games == 400 and fit.by_deal == 0 and fit.left_out == 0


def test_the_interval_narrows_with_more_games():
    few = calibrate(at_skill(0.3, 40), TABLE, "ponies")
    many = calibrate(at_skill(0.3, 400), TABLE, "ponies")
    assert few is not None and many is not None
    assert many.high - many.low < few.high - few.low


def test_a_setup_without_cells_is_read_at_its_counts_deal_and_a_count_without_any_left_out():
    custom = Setup("changelings", tuple(sorted(["changeling"] * 2 + ["researcher"]
                                              + ["pony"] * 5)))
    outside = deal(20)
    chat = [*at_skill(0.3, ENOUGH), Finished("changelings", custom, ("ponies",)),
            Finished("changelings", outside, ("ponies",)), Finished("changelings", None, ()),
            Finished("alchemists", None, ("town",))]
    fit = calibrate(chat, TABLE, "ponies")
    assert fit is not None
    assert fit.games == ENOUGH + 1 and fit.by_deal == 1 and fit.left_out == 2


def test_noisy_cells_are_pooled_to_rise_with_skill():
    noisy = made_table(lambda n, r: {0.15: 0.50, 0.3: 0.40, 0.45: 0.70}[r])
    low, mid, high = curve(noisy, deal(9).key(), "ponies") or (0, 0, 0)
    assert low == pytest.approx(mid) == pytest.approx(0.45, abs=0.001)
    assert high == pytest.approx(0.70, abs=0.001)
    assert curve(noisy, "no such setup", "ponies") is None


def test_the_chance_is_linear_between_presets_continued_beyond_and_kept_inside():
    points = (0.2, 0.3, 0.5)
    assert chance(points, 0.15) == pytest.approx(0.2)
    assert chance(points, 0.375) == pytest.approx(0.4)
    assert chance(points, 0.05) == pytest.approx(0.2 - 0.1 / 0.15 * 0.1)
    assert chance(points, 0.6) == pytest.approx(0.7)
    assert chance((0.0, 0.5, 1.0), 0.6) == 0.99 and chance((0.0, 0.5, 1.0), 0.05) == 0.01


@settings(max_examples=60, deadline=None)
@given(results=st.lists(st.tuples(st.sampled_from(list(COUNTS)), st.booleans()),
                        min_size=ENOUGH, max_size=70),
       flip=st.integers(min_value=0), rates=st.lists(
           st.floats(min_value=0.0, max_value=1.0), min_size=18, max_size=18))
def test_the_fit_never_falls_when_the_town_wins_more(results, flip, rates):
    """Any table, however noisy its cells (they need not rise with skill), and any history:
    turning one lost game into a won one never lowers the fitted skill, nor its bounds."""
    noisy = made_table(lambda n, r: rates[(n - 7) * 3 + ORDERED.index(nearest(r))])
    lost = [i for i, (_, won) in enumerate(results) if not won]
    if not lost:
        return
    i = lost[flip % len(lost)]
    more = [*results[:i], (results[i][0], True), *results[i + 1:]]
    before, after = calibrate(games(results), noisy, "ponies"), calibrate(games(more), noisy,
                                                                        "ponies")
    assert before is not None and after is not None
    assert after.skill >= before.skill
    assert after.low >= before.low and after.high >= before.high


def test_a_fitted_skill_is_assumed_within_the_presets():
    def fit(skill):
        return Calibration(skill, skill, skill, ENOUGH, 0, 0, 0)
    assert fit(0.32).assumed == Skill(0.32) and fit(0.32).preset is Preset.REGULAR
    assert fit(0.3).assumed is Preset.REGULAR
    assert fit(0.08).assumed is Preset.NEW and fit(0.6).assumed is Preset.SHARP
    assert fit(0.38).preset is Preset.SHARP and fit(0.22).preset is Preset.NEW


# ---------------------------------------------------------------- the chat's games
def test_a_finished_game_is_read_as_it_was_dealt():
    ruleset = load_ruleset("changelings")
    game = play_random_game(ruleset, 9, seed=5)
    read = finished(game.setup, game.state.winners or ())
    dealt = sorted(p.role for p in Game(ruleset, game.setup).state.players.values())
    assert read.setup is not None and list(read.setup.roles) == dealt
    assert read.setup.options == ()  # early_close changes no simulated game
    assert read.winners == tuple(game.state.winners or ())
    broken = GameSetup("changelings", game.setup.players[:3], seed=5)  # too few to deal
    assert finished(broken, ("ponies",)).setup is None
    past = history([read, Finished("changelings", None, ("ponies",)),
                    Finished("alchemists", None, ("town",))], "changelings", "ponies")
    assert past.games == 2 and past.won == ("ponies" in read.winners) + 1


# ---------------------------------------------------------------- the table between presets
def test_a_table_is_interpolated_between_presets_and_held_beyond_them():
    key = deal(9).key()
    new, regular = TABLE.get(key, Preset.NEW), TABLE.get(key, Preset.REGULAR)
    assert TABLE.at(key, Preset.SHARP) == TABLE.get(key, Preset.SHARP)
    middle = TABLE.at(key, Skill(0.225))
    assert middle is not None and middle.games == GAMES
    assert middle.rate("ponies") == pytest.approx(0.45, abs=0.001)
    assert TABLE.at(key, Skill(0.05)) == new and TABLE.at(key, Skill(0.3)) == regular
    assert TABLE.at("no such setup", Skill(0.2)) is None
    mixed = between(Estimate(100, {"ponies": 40}, 3.0), Estimate(400, {"ponies": 200}, 5.0),
                    0.5)
    assert mixed.games == 100 and mixed.wins == {"ponies": 45} and mixed.mean_days == 4.0


def test_an_advice_at_a_fitted_skill_interpolates_the_table_or_plays_at_that_skill():
    setup = deal(9)
    told = advise(setup, Skill(0.34), TABLE)
    assert told is not None and told.skill == Skill(0.34)
    assert told.estimate.rate("ponies") == pytest.approx(rate(9, 0.34), abs=0.001)
    assert [p for p, _ in told.spread] == list(ORDERED)  # the presets' spread, all three
    skills = set()

    def play(s, skill, games, seed):
        skills.add(skill)
        return fake_play(s, skill, games, seed)
    played = advise(setup, Skill(0.34), Table("changelings"), play, seconds=20)
    assert played is not None and played.estimate.share("ponies").half_width <= 0.02
    assert skills == {0.34, *(p.r for p in Preset)}  # the advice at 0.34, the spread at each


# ---------------------------------------------------------------- words
@pytest.mark.parametrize(("typed", "skill"), [
    ("sharp", "sharp"), ("Scharfsinnig", "sharp"), ("опытный", "sharp"), ("NEU", "new"),
    ("neue Runde", "new"), ("новички", "new"), ("eingespielt", "regular"),
    ("сыгранный стол", "regular"), ("regular", "regular")])
def test_a_skill_is_read_in_every_language(typed, skill):
    assert read_skill(typed) == skill


def test_unknown_skill_words_are_not_read():
    assert read_skill("tomorrow") is None and read_skill("") is None


@pytest.mark.parametrize(("locale", "said"), [
    ("en", "new, regular, or sharp"), ("de", "neu, eingespielt oder scharfsinnig"),
    ("ru", "новички, сыгранный или опытный")])
def test_the_skill_choices_in_the_readers_words(locale, said):
    renderer = Renderer(locale, {}, str)
    assert renderer.listed([str(renderer.value(c)) for c in skill_choices()], "or") == said


def test_the_fit_in_words():
    fit = Calibration(0.32, 0.18, 0.47, 41, 22, 3, 0)
    ruleset = load_ruleset("changelings")
    en = Renderer("en", ruleset.vocabulary, str, ruleset="changelings")
    assert en.render(calibration_text(fit, "changelings")) == (
        "This chat plays like a regular table: fitted skill 32 % (95 % bounds 18–47 %), "
        "from 41 finished games of Changelings.")
    assert en.render(skill_title(fit.assumed)) == "this chat's skill (32 %)"
    assert en.render(skill_title(Preset.NEW)) == "new table"
    de = Renderer("de", ruleset.vocabulary, str, ruleset="changelings")
    assert "wie eine eingespielte Runde" in de.render(calibration_text(fit, "changelings"))
    ru = Renderer("ru", ruleset.vocabulary, str, ruleset="changelings")
    said = ru.render(calibration_text(fit, "changelings"))
    assert "играют как сыгранный стол" in said and "по 41 доигранной партии" in said
