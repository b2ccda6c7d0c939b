"""Invariants of random legal games of both rule sets, played through the real engine."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.engine import Act, Close, MarkEarly, Modkill, Refused, Replace, Resume, Say, Vote
from core.engine.game import Game, replay
from core.simulate import MAX_WINDOWS, drive_window, new_game, play_random_game
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.alchemists.end import winners as alchemists_winners
from rulesets.changelings import RULESET
from rulesets.changelings.roles import CHANGELING_ROLES

seeds = st.integers(min_value=0, max_value=2**31)
sizes = st.integers(min_value=6, max_value=18)
tables = st.one_of(
    st.tuples(st.just(RULESET), st.integers(min_value=6, max_value=18)),
    st.tuples(st.just(ALCHEMISTS), st.integers(min_value=9, max_value=20)),
)
GAMES = settings(max_examples=40, deadline=None)


def commands_of(game: Game) -> list[object]:
    return [command for command, _ in game.log]


@GAMES
@given(seed=seeds, table=tables)
def test_every_game_ends_within_a_bounded_number_of_windows(seed, table):
    ruleset, players = table
    game = play_random_game(ruleset, players, seed)
    assert game.state.phase.kind == "ended", f"still {game.state.phase} after {MAX_WINDOWS}"
    assert game.state.winners is not None


@GAMES
@given(seed=seeds, table=tables)
def test_nobody_removed_ever_acts_or_returns(seed, table):
    ruleset, players = table
    played = play_random_game(ruleset, players, seed)
    game = Game(ruleset, played.setup)
    removed: set[str] = set()
    for command in commands_of(played):
        actor = getattr(command, "by", None)
        if isinstance(command, (Vote, MarkEarly, Say)):
            assert actor not in removed, f"{actor} acted after leaving: {command}"
        if isinstance(command, Act) and actor in removed:
            assert ruleset.may_act_removed(game, game.state.players[actor], command.action), (
                f"{actor} acted after leaving: {command}")
        game.apply(command)
        gone = {p.pid for p in game.state.players.values() if not p.alive}
        assert removed <= gone, f"{removed - gone} came back"
        removed = gone


def oracle_winners(game: Game) -> list[str]:
    """CH-END, written again from the rules page, for the final state."""
    living = [p for p in game.state.players.values() if p.alive]
    if not living:
        return []
    lovers = game.state.rs.lovers
    mixed = bool(lovers) and (
        (game.state.players[lovers[0]].role in CHANGELING_ROLES)
        != (game.state.players[lovers[1]].role in CHANGELING_ROLES))
    if mixed and {p.pid for p in living} == set(lovers):
        return ["lovers"]
    if not any(p.role in CHANGELING_ROLES for p in living):
        return ["ponies"]
    return ["changelings"]


@GAMES
@given(seed=seeds, players=sizes)
def test_winners_follow_ch_end(seed, players):
    game = play_random_game(RULESET, players, seed)
    assert game.state.winners == oracle_winners(game)
    if game.state.winners == ["changelings"]:
        counted = [p for p in game.state.players.values()
                   if p.alive and not {"inactive", "voiceless"} & p.statuses]
        pair = game.state.rs.lovers or ()
        mixed = len({game.state.players[x].role in CHANGELING_ROLES for x in pair}) == 2
        lovers = set(pair) if mixed else set()
        changelings = [p for p in counted if p.role in CHANGELING_ROLES and p.pid not in lovers]
        others = [p for p in counted if p.role not in CHANGELING_ROLES]
        assert len(changelings) >= len(others)


@GAMES
@given(seed=seeds, table=tables)
def test_replaying_the_log_gives_the_same_state(seed, table):
    ruleset, players = table
    game = play_random_game(ruleset, players, seed)
    again = replay(ruleset, game.setup, commands_of(game))
    assert again.snapshot() == game.snapshot()
    assert [o for _, o in again.log] == [o for _, o in game.log]


@GAMES
@given(seed=seeds, table=tables)
def test_the_same_seed_gives_the_same_transcript(seed, table):
    ruleset, players = table
    first = play_random_game(ruleset, players, seed)
    second = play_random_game(ruleset, players, seed)
    assert first.opening == second.opening
    assert [o.messages for _, o in first.log] == [o.messages for _, o in second.log]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, table=tables, noise=st.integers(min_value=0, max_value=2**31))
def test_a_refused_command_changes_nothing(seed, table, noise):
    """Throw random (mostly illegal) commands at games in progress; refusals change nothing."""
    ruleset, players = table
    game = new_game(ruleset, players, seed)
    rng = random.Random(noise)
    pids = [*game.state.players, "nobody"]
    actions = sorted(ruleset.action_ids())
    roles = sorted(ruleset.roles)
    for _ in range(30):
        if game.state.phase.kind == "ended":
            break
        for _ in range(8):
            command = rng.choice([
                Vote(rng.choice(pids), rng.choice([*pids, None])),
                Act(rng.choice(pids), rng.choice(actions),
                    tuple(rng.sample(pids, rng.randint(0, 2))),
                    rng.choice([None, "x" * rng.randint(0, 600)]),
                    rng.choice([None, *roles])),
                MarkEarly(rng.choice(pids)),
                Modkill(rng.choice(pids)),
                Replace(rng.choice(pids), rng.choice(["", "P1", "Newcomer"])),
                Resume(),
            ])
            before = game.snapshot()
            try:
                game.apply(command)
            except Refused as refusal:
                assert game.snapshot() == before, f"{command} was refused but changed the game"
                assert refusal.text.key, "a refusal carries a reason"
        drive_window(game, rng)
        if game.state.phase.kind != "ended":
            game.apply(Close())


@GAMES
@given(seed=seeds, players=st.integers(min_value=9, max_value=20))
def test_alchemist_winners_follow_al_end(seed, players):
    """At the end, AL-END holds for the final state; co-winners are alive (greed) or outlived
    the ishvalan (crimson)."""
    game = play_random_game(ALCHEMISTS, players, seed)
    won = game.state.winners
    assert won == alchemists_winners(game)
    living_roles = {p.role for p in game.state.players.values() if p.alive}
    if "greed" in won:
        assert "greed" in living_roles
    if "crimson" in won:
        assert "crimson" in living_roles and "ishvalan" not in living_roles
    if "town" in won:
        assert not living_roles & {"father", "lust", "envy", "pride", "ishvalan"}
    if "ishvalan" in won:
        assert "ishvalan" in living_roles and len(living_roles) <= 2
