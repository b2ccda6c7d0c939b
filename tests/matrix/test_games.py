"""Whole games of both rule sets in one Matrix room with eight or more players and their
private rooms: the real matrix-nio stack against a real Synapse. Day votes are poll answers,
night actions numbers, keycap reactions or option labels in the private rooms. Each game is
also checked for secrets read early in the group room (see test_secrecy.py)."""

from __future__ import annotations

import pytest

from adapters.matrix.adapter import MatrixAdapter
from adapters.matrix.protocol import polls
from core.storage.models import Outbox
from tests.role_cards import is_role_card
from tests.secrecy import assert_no_early_secrets

from .harness import living, open_table, play_to_the_end, sign_up
from .test_encryption import chose

GAMES = [
    ("changelings", 8, ("!option random_lovers false",)),
    ("alchemists", 9, ()),
]


@pytest.mark.parametrize(("ruleset", "players", "settings"), GAMES,
                         ids=[f"{r}-{n}" for r, n, _ in GAMES])
async def test_a_whole_game_is_played_through_polls_and_private_rooms(
        synapse, register, clients, tmp_path, ruleset, players, settings):
    table = await open_table(synapse, register, clients,
                             f"sqlite://{tmp_path / 'mx.sqlite3'}", players)
    try:
        await sign_up(table, ruleset, *settings)
        assert len(await living(table)) == players
        for name, player in table.players.items():  # a role card in each private room
            assert player.dm is not None, name
            assert any(is_role_card(t) for e in player.from_bot(player.dm)
                       for t in [e.get("content", {}).get("body", "")]), name
        bot = table.bot["user_id"]
        direct = synapse.http("GET", f"/_matrix/client/v3/user/{bot}/account_data/m.direct",
                              token=table.bot["access_token"])
        assert all(direct[p.user_id] == [p.dm] for p in table.players.values())
        row = await play_to_the_end(table, seed=players)
        noted = [p for p in table.players.values() if any(
            chose(str(e["content"].get("body", "")), ruleset) for e in p.from_bot(p.dm))]
        assert noted  # private choices are confirmed in the private room
        assert row.status == "ended"
        assert not await Outbox.filter(status__in=["pending", "sending", "failed",
                                                   "unknown"]).exists()
        game = await table.runtime.service.games.load(row)
        assert game.state.winners
        final = " ".join(table.group_texts())
        assert " win" in final.lower() or " won" in final.lower()
        assert all(f"{p.name} was" in final for p in game.state.players.values())
        # nothing secret was read before its time
        await assert_no_early_secrets(set(table.group_texts()), row,
                                      MatrixAdapter.wording)
    finally:
        await table.stop()


async def test_a_game_of_21_players_to_the_end_by_poll_answers_and_text_votes(
        synapse, register, clients, tmp_path):
    """21 players: each ballot is two polls (at most 20 answers each); the day votes are poll
    answers in either poll, stable and unstable, and `!vote NAME` texts, to the end."""
    table = await open_table(synapse, register, clients,
                             f"sqlite://{tmp_path / 'mx.sqlite3'}", 21)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        assert len(await living(table)) == 21
        row = await play_to_the_end(table, seed=21, text_votes=True)
        assert row.status == "ended"
        assert not await Outbox.filter(status__in=["pending", "sending", "failed",
                                                   "unknown"]).exists()
        game = await table.runtime.service.games.load(row)
        assert game.state.winners
        group = table.group()
        by_players = [e for e in group if e.get("sender") != table.bot["user_id"]]
        answered = {e["type"] for e in by_players if e["type"] in polls.RESPONSE_TYPES}
        assert answered == set(polls.RESPONSE_TYPES)  # both forms were sent
        assert any(e["content"].get("body", "").startswith("!vote ") for e in by_players)
        starts = [e for e in table.host.from_bot(table.room) if e["type"] == polls.START]
        assert all(len(polls.answers(e["content"])) <= polls.MAX_ANSWERS for e in starts)
        # nothing secret was read before its time (Derpy's escape is public by the rules)
        await assert_no_early_secrets(set(table.group_texts()), row,
                                      MatrixAdapter.wording)
        assert any(polls.question(e["content"]).endswith("(2/2)")
                   for e in starts)  # the first ballots were split
    finally:
        await table.stop()
