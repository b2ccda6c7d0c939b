"""The host's settings menu (/config) through the service and the console: its pages, each
change made by the lobby's own command (same checks, same refusals), the menu edited in
place, and presses that change nothing (another person's, a stale menu's, after the start)."""

from __future__ import annotations

from core.service.messages.button_commands import MenuSet, MenuShow, from_json, to_json

from .helpers import PLAYERS, open_chat, the_game


def test_menu_commands_round_trip_through_the_one_codec():
    for command in (MenuShow("main", 3, "menu-1-3-ab"), MenuShow("option", 3, "r", "early_close"),
                    MenuSet("add", "pony", 3, "r"), MenuSet("option", "off", 3, "r", "x")):
        assert from_json(to_json(command)) == command


async def test_the_host_changes_settings_through_the_menu(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    opened = " ".join(await chat("Ann: /config"))
    assert "[to Ann] Settings of the next game" in opened
    assert "[Rule set] [Language] [Pace] [Time zone] [Timers] [Roles] [Options] [Close]" \
        in opened
    # an option: its page offers its allowed values; the change is the /option command's
    await chat("Ann> [Options]")
    page = " ".join(await chat("Ann> [Random lovers: on]"))
    assert "[on] [off] [« Back]" in page
    changed = " ".join(await chat("Ann> [off]"))
    # the group sees it in the sign-up, edited (the console prints the line it added)
    assert "[group] Changed from the defaults: random lovers: off." in changed
    assert "✓ Saved." in changed
    row = await the_game()
    assert row.settings["options"] == {"random_lovers": False}
    # roles, one press each, by number as on Matrix (the first button adds the first role)
    await chat("Ann> [« Back]", "Ann> [Roles]")
    await chat("Ann> [+ Changeling]", "Ann> [+ Changeling]", "Ann> [+ Pony]")
    row = await the_game()
    assert row.settings["roles"] == ["changeling", "changeling", "pony"]
    await chat("Ann> [− Changeling]")
    assert (await the_game()).settings["roles"] == ["changeling", "pony"]
    await chat("Ann> [Default deal]")
    assert (await the_game()).settings["roles"] is None
    # pace and time zone: the /pace command's
    await chat("Ann> [« Back]", "Ann> [Pace]", "Ann> [forum]")
    await chat("Ann> [Time zone]", "Ann> [Europe/Moscow]")
    row = await the_game()
    assert (row.settings["pace"], row.settings["tz"]) == ("forum", "Europe/Moscow")
    # the rule set: its own roles and options
    await chat("Ann> [Rule set]", "Ann> [Alchemists]")
    row = await the_game()
    assert row.ruleset == "alchemists" and row.settings["options"] == {}
    closed = " ".join(await chat("Ann> [Close]"))
    assert "The settings menu is closed." in closed


async def test_presses_that_change_nothing(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    refused = " ".join(await chat("Bob: /config"))
    assert "Only the host can do that." in refused and "Settings of" not in refused
    await chat("Ann: /config", "Ann> [Options]")
    old = chat.session.adapter.keyboards["Ann"]
    # a second /config makes the first menu stale
    await chat("Ann: /config")
    current = chat.session.adapter.keyboards["Ann"]
    # another person pressing the host's button: refused
    chat.session.adapter.keyboards["Bob"] = current
    assert "not for you" in " ".join(await chat("Bob> [Options]"))
    chat.session.adapter.keyboards["Ann"] = old
    assert "no longer works" in " ".join(await chat("Ann> [Random lovers: on]"))
    assert (await the_game()).settings["options"] == {}
    # once the game has started the menu is stale, and /config is refused
    chat.session.adapter.keyboards["Ann"] = current
    await chat("Ann> [Roles]")
    await chat("Ann: /startgame")
    assert "no longer works" in " ".join(await chat("Ann> [+ Pony]"))
    assert (await the_game()).settings["roles"] is None
    assert "only before the game starts" in " ".join(await chat("Ann: /config"))
    assert "You host no game in sign-up" in " ".join(await chat("Ann> /config"))


async def test_ruleset_command_is_the_hosts_and_starts_from_the_new_defaults(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", "Bob: /join", "Ann: /option random_lovers false",
               "Ann: /setroles changeling, pony")
    assert "Only the host can do that." in " ".join(await chat("Bob: /ruleset alchemists"))
    assert "There is no rule set called chess" in " ".join(await chat("Ann: /ruleset chess"))
    assert (await the_game()).ruleset == "changelings"
    changed = " ".join(await chat("Ann: /ruleset alchemists"))
    assert "the next game is Alchemists" in changed
    row = await the_game()
    assert row.ruleset == "alchemists"
    assert row.settings["roles"] is None and row.settings["options"] == {}


async def test_each_windows_timer_is_set_from_the_menu_within_its_bounds(db_url):
    """The timers page lists the rule set's windows with what each lasts; a window's page
    offers the lengths within its bounds (quick pace) or clock times (forum pace), each press
    the /timer command's, so the sign-up and the group's settings follow."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    await chat("Ann: /config")
    timers = " ".join(await chat("Ann> [Timers]"))
    assert "Choose the window whose timer to change:" in timers
    assert "[vote: 4 minutes]" in timers
    page = " ".join(await chat("Ann> [vote: 4 minutes]"))
    assert "/timer vote TIME" in page
    assert "[1 minute] [2 minutes]" in page and "[1 day] [« Back]" in page
    changed = " ".join(await chat("Ann> [10 minutes]"))
    assert "✓ Saved." in changed and "[vote: 10 minutes]" in changed  # back on the timers page
    row = await the_game()
    assert row.settings["timers"] == {"quick": {"vote": 600}}
    # at the forum pace the same window's page offers clock times in the game's zone
    await chat("Ann> [« Back]", "Ann> [Pace]", "Ann> [forum]")
    await chat("Ann> [Timers]")
    forum = " ".join(await chat("Ann> [vote: until 19:30 (Europe/Berlin)]"))
    assert "[21:00]" in forum and "minute" not in forum.split("Until which time")[1]
    await chat("Ann> [21:00]")
    row = await the_game()
    assert row.settings["timers"] == {"quick": {"vote": 600}, "forum": {"vote": "21:00"}}


async def test_the_menu_offers_this_game_only_and_the_next_game_forgets_it(db_url):
    """Issue 31: a setting made for one game only is possible from the menu and said so; the
    group's next game starts with the group's own settings."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    opened = " ".join(await chat("Ann: /config"))
    assert "Each change is kept for this group's next games." in opened
    assert "[✓ For this group from now on] [This game only]" in opened
    await chat("Ann> [Options]", "Ann> [Random lovers: on]", "Ann> [off]")  # the group's
    await chat("Ann> [« Back]")
    once = " ".join(await chat("Ann> [This game only]"))
    assert "Each change is for this game only" in once
    assert "[For this group from now on] [✓ This game only]" in once
    await chat("Ann> [Options]", "Ann> [early end of the night: on]")
    changed = " ".join(await chat("Ann> [off]"))
    assert "[group] For this game only (the group keeps its own): early end of the night." \
        in changed
    await chat("Ann> [« Back]", "Ann> [Timers]", "Ann> [vote: 4 minutes]", "Ann> [10 minutes]")
    row = await the_game()
    assert row.settings["options"] == {"random_lovers": False, "early_close": False}
    assert set(row.settings["once"]) == {"early_close", "timer:vote"}
    status = " ".join(await chat("Ann: /status"))
    assert "For this game only (the group keeps its own): early end of the night and vote." \
        in status
    # the next game: the group's setting, not this game's own
    await chat("Ann: /endgame", "Ann> [End the game]")
    await chat("Ann: /newgame changelings")
    row = await the_game()
    assert row.settings["options"] == {"random_lovers": False}
    assert "timers" not in row.settings and not row.settings.get("once")


async def test_the_stone_holder_is_chosen_among_those_signed_up(db_url):
    """Issue 31: an option whose value names a player (the alchemists' Stone holder) by
    button: the players signed up, or drawn; the game gives the Stone to that seat."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame alchemists", *(f"{p}: /join" for p in (*PLAYERS[1:], "Hal", "Ivy")))
    await chat("Ann: /config", "Ann> [Options]")
    page = " ".join(await chat("Ann> [holder of the Stone: none]"))
    assert "[Ann] [Bob] [Cid] [Dot] [Eve] [Fay] [Gus] [Hal] [Ivy] [drawn at random] [« Back]" \
        in page
    await chat("Ann> [Cid]")
    assert (await the_game()).settings["options"] == {"stone_holder": "Cid"}
    assert "[holder of the Stone: Cid]" in " ".join(await chat("Ann> [« Back]", "Ann> [Options]"))
    refused = await chat("Ann: /option stone_holder Xavier")
    assert refused == ["[to Ann] holder of the Stone takes the name of a player who has signed "
                       "up (Ann, Bob, Cid, Dot, Eve, Fay, Gus, Hal, or Ivy); write /option "
                       "stone_holder alone to have it drawn."]
    # the named player leaves: the sign-up says so, and the game does not start without him
    left = " ".join(await chat("Cid: /leave", "Jon: /join"))
    assert "⚠ holder of the Stone: Cid is no longer signed up." in left
    assert (await chat("Ann: /startgame"))[0].startswith(
        "[to Ann] The game cannot start: holder of the Stone names Cid, who is no longer "
        "signed up.")
    await chat("Cid: /join", "Ann: /startgame")
    row = await the_game()
    assert row.status == "running"
    game = await chat.session.service.games.load(row)
    cid = next(p.pid for p in game.state.players.values() if p.name == "Cid")
    assert game.state.options["stone_holder"] == cid


async def test_a_player_named_by_an_option_is_never_kept_for_the_group(db_url):
    """A Stone holder names a player of this game: made for this game only, whatever the
    host said, and the group's next game does not start with it."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame alchemists", "Bob: /join")
    said = " ".join(await chat("Ann: /option stone_holder bob"))
    assert "For this game only (the group keeps its own): holder of the Stone." in said
    assert (await the_game()).settings["options"] == {"stone_holder": "Bob"}
    await chat("Ann: /endgame", "Ann> [End the game]", "Ann: /newgame alchemists")
    assert (await the_game()).settings["options"] == {}


async def test_a_count_offers_the_values_that_fit(db_url):
    """The number of changelings' page offers the counts a game may have (0: by the rules),
    not its neighbours 1 and -1; a count most values of which fit offers one less and one
    more."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    await chat("Ann: /config", "Ann> [Options]")
    page = " ".join(await chat("Ann> [number of changelings: 0]"))
    assert "[0] [2] [3] [4] [« Back]" in page
    await chat("Ann> [3]")
    assert (await the_game()).settings["options"] == {"changelings": 3}
    page = " ".join(await chat("Ann> [hours until inactive: 0]"))
    assert "[1] [« Back]" in page
