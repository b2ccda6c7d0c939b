"""Hostile input through the real Telegram stack (hypothesis): forged and replayed callback
data, strangers, huge and control-character texts, names that only look like players' names,
commands in the wrong chat, a group the bot has no game in. None of it crashes anything,
changes the game, or goes unanswered: every command gets a private answer, every pressed
button a notice."""

from __future__ import annotations

import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.storage.models import LogEntry

from .fake_botapi import FakeBotAPI
from .harness import open_table, sign_up

CONTROL = "".join(chr(c) for c in range(1, 32) if chr(c) not in "\n\t") + "\u200b\u202e\ufeff"
LOOKALIKES = ("Аnn", "B\u200bob", "Сid", "D0t", "Eve\u0301", "Fаy")  # Cyrillic А/С, ZWSP, zero

FREE_TEXT = ("@bob are you coming tonight?", "@", "@ ", "/", "/ vote Ann", "/@", "/vote@",
             "/vote@otherbot Ann", "/start@nightfall_test_bot", "@nightfall_test_bot vote Ann",
             "🦄", "Ann!!!", "vote Ann", "\u200b/vote Ann")

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",))
                | st.sampled_from(CONTROL), min_size=1, max_size=300)
huge = st.integers(min_value=1000, max_value=4096).map(lambda n: ("ж\u0007" * n)[:n])
forged = st.binary(min_size=1, max_size=64).map(lambda b: b.hex()[:64]) | st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=1,
    max_size=64)

ACTIONS = st.one_of(
    st.tuples(st.just("stranger-group"), st.sampled_from(
        ["/vote Ann", "/startgame", "/pause", "/modkill Bob", "/unvote", "/early", "/join"])),
    st.tuples(st.just("stranger-private"), texts | huge),
    st.tuples(st.just("stranger-press"), st.just("")),
    st.tuples(st.just("forged-press"), forged),
    st.tuples(st.just("stale-join"), st.just("")),
    st.tuples(st.just("wrong-chat"), st.sampled_from(
        ["/startgame", "/newgame", "/vote Bob", "/setroles pony"])),
    st.tuples(st.just("group-in-private"), st.sampled_from(["/abduct Bob", "/check Ann"])),
    st.tuples(st.just("lookalike"), st.sampled_from(LOOKALIKES)),
    st.tuples(st.just("other-group"), st.sampled_from(["/vote Ann", "/status", "/endgame"])),
    # free text in the group, as people write it: never answered, never a command, and a
    # player's only counts as his activity
    st.tuples(st.just("free-text"), texts | st.sampled_from(FREE_TEXT)),
    st.tuples(st.just("stranger-free-text"), texts | st.sampled_from(FREE_TEXT)),
)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=st.lists(ACTIONS, min_size=12, max_size=24))
async def test_hostile_updates_change_nothing_and_are_answered(tmp_path_factory, caplog, actions):
    caplog.set_level(logging.ERROR)
    api = FakeBotAPI(privacy=False)  # the bot reads the whole group, free text included
    await api.start()
    table = await open_table(api, f"sqlite://{tmp_path_factory.mktemp('h') / 'h.sqlite3'}", 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        signup = next(m for m in table.group_messages() if m.buttons and "url" in m.buttons[0][0])
        join_token = signup.buttons[0][0]["url"].rsplit("=", 1)[1]
        ballot = next(m for m in reversed(table.group_messages()) if m.button(text="Bob"))
        stranger = api.user("Zed")
        table.group.add_member(stranger, announce=False)
        await stranger.start()
        other = api.group("Elsewhere", members=[stranger, table.users["Bob"]],
                          supergroup=True, bot_admin=True)
        bob = table.users["Bob"]
        await table.settle()
        before = len([e for e in await LogEntry.all() if e.command.get("type") != "Say"])

        for kind, value in actions:
            sender = bob if kind in ("forged-press", "stale-join", "wrong-chat",
                                     "group-in-private", "lookalike", "other-group",
                                     "free-text") \
                else stranger
            answers_before = len(api.sent_to(sender))
            query = None
            if kind == "stranger-group":
                await stranger.send(value, chat=table.group)
            elif kind == "stranger-private":
                await stranger.send(value)
            elif kind == "stranger-press":
                query = await stranger.press(ballot, ballot.button(text="Cid")["callback_data"])
            elif kind == "forged-press":
                query = await bob.press_forged(table.group, ballot.message_id, value)
            elif kind == "stale-join":
                await bob.start(join_token)
            elif kind == "wrong-chat":
                await bob.send(value)
            elif kind == "group-in-private":
                await bob.send(value, chat=table.group)
            elif kind == "lookalike":
                await bob.send(f"/vote {value}", chat=table.group)
            elif kind in ("free-text", "stranger-free-text"):
                if value.startswith("/") and not value.startswith(FREE_TEXT):
                    value = "." + value  # a command would be answered: this is chatter
                await sender.send(value[:4096], chat=table.group)
            else:
                await bob.send(value, chat=other)
            await table.settle()
            if query is not None:
                assert api.answer_for(query), (kind, value)  # a notice says why
            elif kind not in ("free-text", "stranger-free-text"):
                assert len(api.sent_to(sender)) > answers_before, (kind, value)
            assert api.pending_updates == 0  # nothing stalls the bot

        # the game did not change (a player's chatter is logged only as his activity)
        changed = [e for e in await LogEntry.all() if e.command.get("type") != "Say"]
        assert len(changed) == before
        assert api.unknown_methods == [] and api.internal_errors == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
            [r.getMessage() for r in caplog.records]
    finally:
        await table.stop()
        await api.stop()
