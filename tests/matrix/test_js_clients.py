"""matrix-js-sdk players (the SDK under Element Web, Rust crypto) at a real game: what the
SDK shows them of the bot, and what the bot reads of them."""

from __future__ import annotations

from core.storage.models import Seat

from .harness import open_table, signup_message
from .js_player import say, seat


async def test_a_js_sdk_player_reads_the_sign_up_and_joins_the_game(
        synapse, register, clients, js_players, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2)
    try:
        jo = await js_players(register("Jo"), "Jo")
        await seat(table, jo)
        await table.host.say(table.room, "!newgame changelings")
        await table.settle()
        signup = signup_message(table)
        shown = await jo.until("the sign-up",
                               lambda: jo.from_sender(table.room, table.bot["user_id"]))
        assert signup["event_id"] in {e.event_id for e in shown}
        await say(table, jo, table.room, "!join")
        await table.settle()
        assert await Seat.filter(identity__ref=jo.user_id, active=True).exists()
    finally:
        await table.stop()
