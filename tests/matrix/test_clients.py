"""Matrix as players use it (issue 16): ballots every poll-capable client shows (asserted
against what their sources read, see client_shapes.py), notifications for what a player must
act on (Synapse's own push rule evaluation, read back from /notifications), commands typed
with `!`, ballots of more than 20 answers, and keycap reactions on a poll."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from core.storage.models import LogEntry

from ..role_cards import is_role_card
from .client_shapes import element_web_poll, element_x_poll, ends, fluffychat_poll
from .harness import (
    KEYCAPS,
    Player,
    Table,
    is_vote_prompt,
    living,
    open_polls,
    open_table,
    options,
    poll_answers,
    sign_up,
)
from .js_player import say, seat
from .test_behaviour import game_state


def bot_messages(player: Player, room_id: str | None) -> list[dict[str, Any]]:
    return [e for e in player.from_bot(room_id) if e.get("type") == "m.room.message"]


def ballot_text(table: Table) -> dict[str, Any]:
    """The text message the bot posts beside a ballot's polls (its first version)."""
    return next(e for e in reversed(bot_messages(table.host, table.room))
                if is_vote_prompt(e["content"]["body"]) and "m.new_content" not in e["content"])


def notifications(table: Table, player: Player) -> list[dict[str, Any]]:
    """What Synapse's push rules decided to notify the player of (what reaches a phone)."""
    return table.synapse.http("GET", "/_matrix/client/v3/notifications",
                              token=player.client.access_token)["notifications"]


def highlighted(notification: dict[str, Any]) -> bool:
    return any(isinstance(a, dict) and a.get("set_tweak") == "highlight"
               and a.get("value", True) for a in notification["actions"])


async def test_ballots_are_polls_that_element_x_fluffychat_and_element_web_show(
        synapse, register, clients, tmp_path):
    """The ballot is `org.matrix.msc3381.poll.start` (what Element X and FluffyChat render),
    with a text fallback; a text message lists the candidates and `!vote NAME` for clients
    without polls; answers count in both forms; the poll end says the result."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        [poll] = open_polls(table)
        names = set(await living(table))
        for read in (element_x_poll, fluffychat_poll, element_web_poll):
            question, answers = read(poll)
            assert is_vote_prompt(question) and "!vote NAME" in question
            assert names <= {label for _, label in answers}
        fallback = poll["content"]["org.matrix.msc1767.text"]
        assert poll["content"]["body"] == fallback
        assert all(name in fallback for name in names)
        text = ballot_text(table)  # for Cinny, Nheko and any client without polls
        assert all(name in text["content"]["body"] for name in names)
        assert "!vote NAME" in text["content"]["body"]

        answers = {label: aid for aid, label in element_x_poll(poll)[1]}
        bob, cid, dot = (table.players[n] for n in ("Bob", "Cid", "Dot"))
        await bob.answer(table.room, poll["event_id"], answers["Eve"], stable=False)
        await cid.answer(table.room, poll["event_id"], answers["Eve"], stable=True)
        await dot.send(table.room, "m.poll.response", {  # the stable type, MSC3381's keys
            "m.relates_to": {"rel_type": "m.reference", "event_id": poll["event_id"]},
            "m.poll.response": {"answers": [answers["Fay"]]}})
        await table.settle()
        pids = await living(table)
        assert (await game_state(table)).votes == {
            pids["Bob"]: pids["Eve"], pids["Cid"]: pids["Eve"], pids["Dot"]: pids["Fay"]}

        await table.let_time_pass(400)
        [end] = [e for e in table.host.from_bot(table.room)
                 if e["type"] in ("m.poll.end", "org.matrix.msc3381.poll.end")]
        result = ends(end, poll)
        assert "The vote is closed." in result and "Final count" in result
        assert "Eve (2)" in result and "Fay (1)" in result
        assert end["content"]["body"] == result
    finally:
        await table.stop()


async def test_the_game_count_answers_the_ended_poll_and_typed_votes_are_marked(
        synapse, register, clients, js_players, tmp_path):
    """Issue 30, problem 6, read by matrix-js-sdk (Jo, a js-sdk player): the SDK's `Poll`
    model counts an ended poll from its answers alone, each sender's newest before the end,
    as Element Web's MPollBody shows it (Element X counts alike) — blind to a vote typed as
    `!vote`. So the game's count comes as a quiet reply to the poll (MPollEndBody shows the
    end's own text only when the poll cannot be found), saying that typed votes count; the
    end's text says it too; a typed vote that counted is marked ✅ at once (a refused one is
    not: its refusal comes privately)."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8)
    try:
        jo = await js_players(register("Jo"), "Jo")
        await seat(table, jo)
        await sign_up(table, "changelings", "!option random_lovers false", start=False)
        await say(table, jo, table.room, "!join")
        await table.settle()
        [private] = await jo.until("his private room", jo.invites)
        await jo.join(private["room_id"])
        await table.host.say(table.room, "!startgame")
        await table.settle()
        [poll] = open_polls(table)
        answers = {label: aid for aid, label in element_x_poll(poll)[1]}
        bob, cid, dot, eve = (table.players[n] for n in ("Bob", "Cid", "Dot", "Eve"))
        for player in (bob, dot, eve):  # as Element, Element X and FluffyChat answer
            await player.answer(table.room, poll["event_id"], answers["Cid"], stable=False)
        table.sent.append(await jo.vote(table.room, poll["event_id"], answers["Cid"]))
        await table.settle()
        typed = await say(table, jo, table.room, "!vote Eve")  # Jo moves his vote by command
        wrong = await cid.say(table.room, "!vote Nobody")  # refused
        await eve.answer(table.room, poll["event_id"], answers["Withdraw my vote"],
                         stable=False)
        await table.settle()

        async def marked() -> list[str]:
            return [e.content["m.relates_to"]["key"] for e in await jo.timeline(table.room)
                    if e.type == "m.reaction" and e.sender == table.bot["user_id"]
                    and e.content["m.relates_to"]["event_id"] == typed]

        assert await jo.until("the mark on his typed vote", marked) == ["✅"]
        assert not any(e["type"] == "m.reaction" and e["content"]["m.relates_to"]["event_id"]
                       == wrong for e in table.host.from_bot(table.room))

        await table.let_time_pass(400)

        async def ended() -> list[Any]:
            return [p for p in await jo.polls(table.room)
                    if p.poll_id == poll["event_id"] and p.ended]

        [shown] = await jo.until("the ended poll", ended)
        assert shown.count_of("Cid") == 3 and shown.count_of("Withdraw my vote") == 1
        assert sum(shown.counts.values()) == 4  # Element's figures: not the game's count

        async def replies() -> list[Any]:
            return [e for e in await jo.from_sender(table.room, table.bot["user_id"])
                    if (e.content.get("m.relates_to") or {}).get("m.in_reply_to")
                    == {"event_id": poll["event_id"]}]

        [reply] = await jo.until("the game's count under the poll", replies)
        said = reply.body
        assert "Final count: Cid (2), Eve (1)." in said
        assert "That is the game's official count. Votes written as !vote NAME count too" \
            in said and "the poll's own figures show poll answers alone" in said
        assert reply.content["msgtype"] == "m.notice" and reply.content["m.mentions"] == {}
        assert not reply.notify  # quiet (the SDK's push rules): the result that follows rings
        [end] = [e for e in await jo.from_sender(table.room, table.bot["user_id"])
                 if e.event_id == shown.end_event_id]
        assert end.content["org.matrix.msc1767.text"] == said
        assert ends(next(e for e in table.host.from_bot(table.room)
                         if e["event_id"] == end.event_id), poll) == said
    finally:
        await table.stop()


async def test_role_cards_prompts_and_the_vote_opening_notify(synapse, register, clients,
                                                              tmp_path):
    """`.m.rule.suppress_notices` silences `m.notice`: the role card and the vote's opening
    are `m.text` with `m.mentions` (the reader; `@room` where the bot's power level allows
    it), and Synapse notifies the players of them; chatter stays quiet."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 6)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        bob = table.players["Bob"]
        events = {n["event"]["event_id"]: n for n in notifications(table, bob)
                  if n["event"]["sender"] == table.bot["user_id"]}
        card = next(e for e in bot_messages(bob, bob.dm)
                    if is_role_card(e["content"]["body"]))
        assert card["content"]["msgtype"] == "m.text"
        assert card["content"]["m.mentions"] == {"user_ids": [bob.user_id]}
        assert card["event_id"] in events and highlighted(events[card["event_id"]])
        opening = ballot_text(table)
        assert opening["content"]["m.mentions"] == {"room": True}  # the bot has power 100
        assert opening["event_id"] in events and highlighted(events[opening["event_id"]])
        for event_id in events:  # nothing else the bot sent was loud: no notice notifies
            event = next((e for e in table.host.from_bot(table.room) + bob.from_bot(bob.dm)
                          if e["event_id"] == event_id), None)
            assert event is None or event["content"].get("msgtype") != "m.notice", event

        # a vote's tally (an edit) and the "noted" answers are no news: nobody is pinged
        before = len(notifications(table, table.host))
        [poll] = open_polls(table)
        answers = {label: aid for aid, label in element_x_poll(poll)[1]}
        await bob.answer(table.room, poll["event_id"], answers["Cid"])
        await table.settle()
        assert len(notifications(table, table.host)) == before
        tally = bot_messages(table.host, table.room)[-1]
        assert tally["content"]["msgtype"] == "m.text"  # the ballot's message keeps its type
        assert tally["content"]["m.new_content"]["m.mentions"] == {}

        # without the power for @room (notifications.room), the opening is a plain message
        levels = await table.host.client.room_get_state_event(table.room,
                                                              "m.room.power_levels")
        users = {**levels.content["users"], table.bot["user_id"]: 0}
        await table.host.client.room_put_state(table.room, "m.room.power_levels",
                                               {**levels.content, "users": users})
        await table.let_time_pass(400)  # the day closes, the night's prompts come
        prompts = [(p, e) for p in table.players.values() for e in bot_messages(p, p.dm)
                   if options(e) and "m.new_content" not in e["content"]]
        assert prompts
        for player, prompt in prompts:
            assert prompt["content"]["msgtype"] == "m.text"
            assert prompt["content"]["m.mentions"] == {"user_ids": [player.user_id]}
            assert prompt["event_id"] in {n["event"]["event_id"]
                                          for n in notifications(table, player)}
        while not open_polls(table):
            await table.let_time_pass(400)
        assert ballot_text(table)["content"]["m.mentions"] == {}
    finally:
        await table.stop()


async def test_the_bots_texts_say_bang_commands_and_slash_still_works(synapse, register,
                                                                      clients, tmp_path):
    """Element takes `/join` as its own command: the bot's texts say `!join`, `!vote NAME`
    on Matrix (and leave what is no command alone); a `/join` a client lets through works."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3)
    try:
        ann, bob = table.players["Ann"], table.players["Bob"]
        await ann.say(table.room, "!help")
        await ann.say(table.room, "!help 1")
        await ann.say(table.room, "!newgame changelings")
        await table.settle()
        await bob.say(table.room, "/join")  # as typed in a client that lets it through
        await ann.say(table.room, "!pace slowly")
        await table.settle()
        group = [e["content"]["body"] for e in bot_messages(ann, table.room)]
        overview = next(t for t in group if t.startswith("Commands in the group"))
        assert "!help" in overview and "/help" not in overview
        helped = next(t for t in group if t.startswith("1 — Playing"))  # !help 1
        assert "!join" in helped and "!vote NAME" in helped and "!leave" in helped
        assert "/vote" not in helped and "de|ru|en" in helped
        signup = next(t for t in group if "opens a game" in t)
        assert "!join" in signup and "!startgame" in signup and "/join" not in signup
        assert any("(2 players)" in t and "Bob" in t for t in table.group_texts())
        private = [e["content"]["body"] for e in bot_messages(ann, ann.dm)]
        assert any("Europe/Berlin" in t for t in private)  # no command: left alone
    finally:
        await table.stop()


async def test_a_ballot_of_more_than_twenty_answers_is_two_polls(synapse, register, clients,
                                                                 tmp_path):
    """Clients show 20 answers of a poll (ruma truncates, matrix-js-sdk slices): with 21
    players the ballot is two polls, and the last candidate and "Withdraw my vote" can be
    picked; a vote by text works as well."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 21)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        ballot = open_polls(table)
        assert len(ballot) == 2
        shown = [answer for poll in ballot for answer in element_x_poll(poll)[1]]
        assert all(len(element_web_poll(poll)[1]) == len(element_x_poll(poll)[1])
                   for poll in ballot)  # nothing cut
        alive = list(await living(table))
        labels = [label for _, label in shown]
        assert set(alive) <= set(labels) and labels[-1] == "Withdraw my vote"
        assert all(len(element_x_poll(poll)[1]) <= 20 for poll in ballot)
        assert "22" in ballot_text(table)["content"]["body"]  # every option, numbered
        last = alive[-1]
        where = {label: (poll, aid) for poll in ballot for aid, label in element_x_poll(poll)[1]}
        bob, cid, dot = (table.players[n] for n in ("Bob", "Cid", "Dot"))
        await bob.answer(table.room, where[last][0]["event_id"], where[last][1])
        await cid.say(table.room, f"!vote {last}")
        await dot.answer(table.room, where[last][0]["event_id"], where[last][1])
        await table.settle()
        withdraw = where["Withdraw my vote"]
        await dot.answer(table.room, withdraw[0]["event_id"], withdraw[1], stable=False)
        await table.settle()
        pids = await living(table)
        assert (await game_state(table)).votes == {pids["Bob"]: pids[last],
                                                   pids["Cid"]: pids[last]}
    finally:
        await table.stop()


async def test_keycap_reactions_on_a_poll_answer_it(synapse, register, clients, tmp_path):
    """Every client can react: a keycap on a poll picks its n-th answer; on the ballot's
    text message, its n-th option."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        [poll] = open_polls(table)
        order = [label for _, label in poll_answers(poll["content"])]
        bob, dot = table.players["Bob"], table.players["Dot"]
        before = await LogEntry.all().count()
        await bob.react(table.room, poll["event_id"], KEYCAPS[order.index("Cid")])
        await table.settle()
        pids = await living(table)
        assert (await game_state(table)).votes == {pids["Bob"]: pids["Cid"]}
        await dot.react(table.room, ballot_text(table)["event_id"],
                        KEYCAPS[order.index("Eve")])
        await table.settle()
        assert (await game_state(table)).votes == {pids["Bob"]: pids["Cid"],
                                                   pids["Dot"]: pids["Eve"]}
        assert await LogEntry.all().count() == before + 2
    finally:
        await table.stop()


def asked(event: dict[str, Any], player: Player) -> bool:
    """An `m.text` that mentions the player by his user id, with his name a pill (a link
    to his Matrix ID) in the HTML body: how a message asks one person to act."""
    body = event["content"]
    return body.get("msgtype") == "m.text" and \
        body.get("m.mentions") == {"user_ids": [player.user_id]} and \
        body.get("format") == "org.matrix.custom.html" and \
        f'<a href="https://matrix.to/#/{player.user_id}">{player.name}</a>' in \
        body.get("formatted_body", "")


async def until(table: Table, check: Any, timeout: float = 30.0) -> Any:
    """Wait (the bot's sync loop and outbox running) until `check()` gives something."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await table.settle()
        found = check()
        if found:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError("never happened")


async def test_what_asks_a_player_to_act_in_the_group_mentions_and_notifies_him(
        synapse, register, clients, tmp_path):
    """Issue 27, problem 7: the group's "your private room is waiting" and "I cannot write
    to you privately" ask one player to act: an `m.text` mentioning him (a pill), which
    Synapse's push rules notify him of (the room's other news stays quiet for him); the
    latter tells him Matrix's way back (a 1️⃣ reaction and an invitation), which works."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3,
                             invite_wait=1.0)
    try:
        ann, bob = table.host, table.players["Bob"]
        bob.accepts = False  # his client shows the invitation; he does not open it
        await ann.say(table.room, "!newgame changelings")
        await table.settle()
        await bob.say(table.room, "!join")

        def group_event(start: str) -> dict[str, Any] | None:
            return next((e for e in bot_messages(ann, table.room)
                         if e["content"].get("body", "").startswith(start)), None)

        waiting = await until(table, lambda: group_event("Bob, your private room"))
        rung = {n["event"]["event_id"]: n for n in notifications(table, bob)}
        assert asked(waiting, bob), waiting
        assert waiting["event_id"] in rung and highlighted(rung[waiting["event_id"]])
        signup = group_event("Ann opens a game")
        assert signup is not None and signup["event_id"] not in rung  # no news for Bob

        for command in ("!leave", "!join"):  # he rejects the invitation, is invited once
            room_id = table.adapter.directory.by_user[bob.user_id][-1]  # more, rejects again
            await bob.client.room_leave(room_id)
            await until(table, lambda room_id=room_id: table.adapter.state.membership(
                room_id, bob.user_id) == "leave")
            await bob.say(table.room, command)  # answered privately: where he cannot read
            await table.settle()
        closed = await until(table, lambda: group_event("Bob, I cannot write to you"))
        body = closed["content"]["body"]
        assert "React to this message with 1️⃣" in body and "invit" in body
        assert "button" not in body and "Start" not in body
        assert asked(closed, bob), closed
        rung = {n["event"]["event_id"]: n for n in notifications(table, bob)}
        assert closed["event_id"] in rung and highlighted(rung[closed["event_id"]])

        bob.accepts = True  # he does as told: what waited for him follows
        await bob.react(table.room, closed["event_id"], KEYCAPS[0])
        await until(table, lambda: sum(e["content"].get("body", "").startswith("You are in!")
                                       for room in bob.rooms
                                       for e in bot_messages(bob, room)) == 2)
    finally:
        await table.stop()
