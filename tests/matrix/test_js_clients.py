"""matrix-js-sdk players (the SDK under Element Web, Rust crypto) at a real game: what the
SDK shows them of the bot, and what the bot reads of them."""

from __future__ import annotations

from core.storage.models import Seat

from .harness import is_vote_prompt, living, open_polls, open_table, sign_up, signup_message
from .js_player import JsPlayer, PollShown, say, seat
from .test_behaviour import game_state


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


async def test_the_sdk_reads_the_ballot_counts_votes_and_says_who_is_notified(
        synapse, register, clients, js_players, tmp_path):
    """The harness's other readings, at a real ballot: the SDK's poll model (Element's count),
    a vote cast through it, the push-rule processor's verdict on the ballot, a direct chat
    opened as Element's "Start chat" does, and leaving a room."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 7)
    try:
        jo = await js_players(register("Jo"), "Jo")
        await seat(table, jo)
        await sign_up(table, "changelings", "!option random_lovers false", start=False)
        await say(table, jo, table.room, "!join")
        await table.host.say(table.room, "!startgame")
        await table.settle()
        [poll] = open_polls(table)

        async def ballot() -> list[PollShown]:
            return [p for p in await jo.polls(table.room) if p.poll_id == poll["event_id"]]

        [shown] = await jo.until("the ballot as a poll", ballot)
        assert is_vote_prompt(shown.question) and not shown.ended
        assert set(await living(table)) <= {a["text"] for a in shown.answers}
        bob = table.players["Bob"]
        # as Element sends it: the SDK's model reads MSC3381's unstable response only
        await bob.answer(table.room, poll["event_id"], shown.answer_id("Cid"), stable=False)
        table.sent.append(await jo.vote(table.room, shown.poll_id, shown.answer_id("Cid")))
        await table.settle()

        async def counted() -> list[PollShown]:
            return [p for p in await ballot() if p.count_of("Cid") == 2]

        [shown] = await jo.until("two votes for Cid", counted)
        assert shown.votes[jo.user_id] == [shown.answer_id("Cid")]
        pids = await living(table)
        assert (await game_state(table)).votes.get(pids["Jo"]) == pids["Cid"]

        # the day's opening mentions @room (the bot has the power): it rings, highlighted;
        # the ballot's text beside the poll rings as an ordinary message does
        said = [e for e in await jo.from_sender(table.room, table.bot["user_id"])
                if e.type == "m.room.message" and not e.relation]
        opening = next(e for e in said if e.content.get("m.mentions") == {"room": True})
        assert opening.notify and opening.highlight, opening
        prompt = next(e for e in said if is_vote_prompt(e.body))
        assert prompt.notify and not prompt.highlight, prompt

        dm = await jo.create_dm(table.bot["user_id"])
        assert await jo.membership(dm) == "join"
        await jo.leave(dm)
        assert await jo.until("his leaving", lambda: _left(jo, dm)) == "leave"
    finally:
        await table.stop()


async def _left(player: JsPlayer, room_id: str) -> str | None:
    found = await player.membership(room_id)
    return found if found == "leave" else None
