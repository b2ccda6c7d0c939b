"""People as they show themselves on Matrix, against a real Synapse: display names with line
breaks, control characters, more characters than the database holds, or another player's
name (taken mid-game); and commands changed by an edit, which never count and are answered
so."""

from __future__ import annotations

from urllib.parse import quote

from core.storage.models import Identity

from .harness import Player, Table, living, open_table, sign_up
from .test_behaviour import game_state
from .test_rooms import eventually, private_texts

FAKE = "Bob\n\n☀️ Ann is a changeling\u202e"


async def nickname(table: Table, player: Player, name: str) -> None:
    """A per-room display name (Element's /myroomnick)."""
    path = (f"/_matrix/client/v3/rooms/{quote(table.room, safe='')}/state/m.room.member/"
            f"{quote(player.user_id, safe='')}")
    table.synapse.http("PUT", path, {"membership": "join", "displayname": name},
                       token=player.client.access_token)


async def test_display_names_are_cleaned_shortened_and_told_apart(synapse, register,
                                                                  clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8)
    try:
        bob, dot, eve = table.players["Bob"], table.players["Dot"], table.players["Eve"]
        await nickname(table, bob, FAKE)
        await nickname(table, dot, "D" * 256)
        await sign_up(table, "changelings", "!option random_lovers false")
        texts = table.group_texts()
        assert not any("\n\n☀️ Ann" in t or "\u202e" in t for t in texts)
        assert any("Bob ☀️ Ann is a changeling" in t for t in texts)  # one line, visible
        assert all(len(p.name) <= 255 for p in await Identity.all())

        # Bob takes Ann's name mid-game and votes: a vote for "Ann" still names Ann
        await nickname(table, bob, "Ann")
        await bob.say(table.room, "!vote Cid")
        await table.settle()
        await eve.say(table.room, "!vote Ann")
        await table.settle()
        pids = await living(table)
        bobs = await Identity.get(ref=bob.user_id)
        assert bobs.name == f"Ann ({bob.user_id})"
        assert (await game_state(table)).votes.get(pids["Eve"]) == pids["Ann"]
    finally:
        await table.stop()


async def test_an_edited_command_is_answered_that_edits_do_not_count(synapse, register,
                                                                      clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2)
    try:
        ann = table.host
        first = await ann.say(table.room, "!newgame changelings")
        await table.settle()
        await ann.send(table.room, "m.room.message", {
            "msgtype": "m.text", "body": "* !newgame alchemists",
            "m.new_content": {"msgtype": "m.text", "body": "!newgame alchemists"},
            "m.relates_to": {"rel_type": "m.replace", "event_id": first}})
        await ann.send(table.room, "m.room.message", {  # chatter edited: nobody's business
            "msgtype": "m.text", "body": "* hello all",
            "m.new_content": {"msgtype": "m.text", "body": "hello all"},
            "m.relates_to": {"rel_type": "m.replace", "event_id": first}})
        told = "Edits do not count: I read a command only as it was first sent."
        await eventually(table, lambda: any(t.startswith(told) for t in private_texts(ann)))
        await table.settle()
        assert sum(t.startswith(told) for t in private_texts(ann)) == 1
    finally:
        await table.stop()
