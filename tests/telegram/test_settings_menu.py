"""The settings menu on Telegram, through the real PTB stack against the strict fake Bot API:
/config in the group sends the host an inline keyboard in his private chat; each press edits
that one message in place; a non-admin cannot open it, and a stranger's press, a stale menu's
press and a forged callback change nothing."""

from __future__ import annotations

from .fake_botapi import MessageView
from .harness import Table, open_table, start_payload


async def open_lobby(table: Table) -> None:
    """The host opens sign-up and two players join (everybody has started the bot)."""
    host = table.host
    await host.send("/newgame changelings", chat=table.group)
    await table.settle()
    payload = start_payload(table.group_messages()[-1])
    for user in list(table.users.values())[1:]:
        await user.start(payload)
    await host.start()
    await table.settle()


def menu_of(table: Table, name: str) -> MessageView:
    return next(m for m in reversed(table.api.sent_to(table.users[name]))
                if m.button(text="« Back") or m.button(text="Close"))


async def press(table: Table, name: str, label: str) -> str:
    query = await table.users[name].press(menu_of(table, name), text=label)
    await table.settle()
    return query


async def test_the_menu_is_one_message_edited_in_place(api, db_url):
    table = await open_table(api, db_url, 3)
    try:
        await open_lobby(table)
        ann = table.users["Ann"]
        await ann.send("/config", chat=table.group)
        await table.settle()
        menu = menu_of(table, "Ann")
        assert menu.text.startswith("Settings of the next game in Ponyville Game Night")
        labels = [b["text"] for row in menu.buttons for b in row]
        assert labels == ["✓ For this group from now on", "This game only", "Rule set",
                          "Language", "Pace", "Time zone", "Timers", "Roles", "Options", "Close"]
        await press(table, "Ann", "Options")
        await press(table, "Ann", "early end of the night: on")
        assert [b["text"] for b in menu_of(table, "Ann").buttons[0]] == ["on", "off", "« Back"]
        query = await press(table, "Ann", "off")
        assert api.answer_for(query) == "✓ Saved."
        edited = menu_of(table, "Ann")
        assert edited.message_id == menu.message_id and edited.edited
        assert edited.text.startswith("✓ Saved.")
        assert edited.button(text="early end of the night: off") is not None
        row = await table.game_row()
        assert row is not None and row.settings["options"] == {"early_close": False}
        # the group sees it in the sign-up, edited in place, as after /option
        assert any("opens a game" in m.text and m.edited and "Changed from the defaults: "
                   "early end of the night: off." in m.text for m in table.group_messages())
        await press(table, "Ann", "« Back")
        await press(table, "Ann", "Roles")
        await press(table, "Ann", "+ Changeling")
        await press(table, "Ann", "+ Researcher")
        row = await table.game_row()
        assert row is not None and row.settings["roles"] == ["changeling", "researcher"]
        assert "The 2 roles to deal: Changeling and Researcher" in menu_of(table, "Ann").text
        # still one menu message in Ann's private chat
        assert sum(1 for m in api.sent_to(ann) if m.button(text="« Back")) == 1
        await press(table, "Ann", "« Back")
        await press(table, "Ann", "Close")
        closed = api.sent_to(ann)[-1]
        assert closed.message_id == menu.message_id and not closed.buttons
    finally:
        await table.stop()


async def test_only_host_and_admins_and_no_stale_or_forged_press(api, db_url):
    table = await open_table(api, db_url, 7)
    try:
        await open_lobby(table)
        ann, bob, cid = table.users["Ann"], table.users["Bob"], table.users["Cid"]
        await bob.send("/config", chat=table.group)
        await table.settle()
        assert api.sent_to(bob)[-1].text == "Only the host can do that."
        assert not any(m.button(text="Close") for m in api.sent_to(bob))
        table.group.make_admin(cid)  # an admin of the group may open it
        await cid.send("/config", chat=table.group)
        await table.settle()
        assert menu_of(table, "Cid").text.startswith("Settings of the next game")
        await ann.send("/config", chat=table.group)
        await table.settle()
        first = menu_of(table, "Ann")
        options = first.button(text="Options")["callback_data"]
        # Bob presses Ann's button (a client replaying her callback data in his chat)
        foreign = await bob.press_forged(bob, first.message_id, options)
        forged = await ann.press_forged(ann, first.message_id, "menu-forged-token")
        await table.settle()
        assert api.answer_for(foreign) == "This button is not for you."
        assert api.answer_for(forged) == "This button is not valid."
        # a second /config: the first menu is stale
        await press(table, "Ann", "Options")
        early = menu_of(table, "Ann").button(text="early end of the night: on")
        stale_data = early["callback_data"]
        await ann.send("/config", chat=ann)
        await table.settle()
        stale = await ann.press_forged(ann, first.message_id, stale_data)
        await table.settle()
        assert api.answer_for(stale) == "This button is from an earlier phase and no longer works."
        row = await table.game_row()
        assert row is not None and row.settings["options"] == {}
        # after the start, every menu is stale
        await press(table, "Ann", "Roles")
        added = menu_of(table, "Ann").button(text="+ Pony")["callback_data"]
        await ann.send("/startgame", chat=table.group)
        await table.settle()
        row = await table.game_row()
        assert row is not None and row.status == "running"
        late = await ann.press_forged(ann, menu_of(table, "Ann").message_id, added)
        await table.settle()
        assert api.answer_for(late) == "This button is from an earlier phase and no longer works."
        row = await table.game_row()
        assert row is not None and row.settings["roles"] is None
    finally:
        await table.stop()


async def test_this_game_only_and_the_timer_from_the_private_chat(api, db_url):
    """Issue 31: the menu's first buttons choose whether its changes are the group's or this
    game's alone (the sign-up says which are this game's); /timer in the host's private
    chat sets a timer of the game he hosts, the group told, the host answered there."""
    table = await open_table(api, db_url, 3)
    try:
        await open_lobby(table)
        ann = table.users["Ann"]
        await ann.send("/config", chat=table.group)
        await table.settle()
        labels = [b["text"] for row in menu_of(table, "Ann").buttons for b in row]
        assert labels[:2] == ["✓ For this group from now on", "This game only"]
        await press(table, "Ann", "This game only")
        menu = menu_of(table, "Ann")
        assert menu.edited and "Each change is for this game only" in menu.text
        assert menu.button(text="✓ This game only") is not None
        await press(table, "Ann", "Options")
        await press(table, "Ann", "early end of the night: on")
        await press(table, "Ann", "off")
        row = await table.game_row()
        assert row is not None and row.settings["once"] == ["early_close"]
        assert any(m.edited and "For this game only (the group keeps its own): early end of "
                   "the night." in m.text for m in table.group_messages())
        await ann.send("/timer vote 10m", chat=ann)
        await table.settle()
        assert api.sent_to(ann)[-1].text == "Timer set. vote: 10 minutes."
        assert table.group_messages()[-1].text == "Timer set. vote: 10 minutes."
        row = await table.game_row()
        assert row is not None and row.settings["timers"] == {"quick": {"vote": 600}}
    finally:
        await table.stop()
