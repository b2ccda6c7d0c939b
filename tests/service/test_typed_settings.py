"""Settings a host types in his language, checked against the sign-up (issue 32, problem 6):
option values, on/off and the pace in German and Russian as in English, rule sets by their
names in any language; each refusal names what is allowed in the host's language; an option
that fits no game the sign-up may still become is refused at once with the numbers, one that
needs more players than have come is shown in the sign-up and refused at /startgame."""

from __future__ import annotations

import pytest

from .helpers import PLAYERS, open_chat, the_game


@pytest.mark.parametrize(("locale", "off", "on", "quick", "forum"), [
    ("de", "aus", "ja", "schnell", "Forum"),
    ("ru", "нет", "вкл", "быстрый", "форум"),
    ("en", "no", "on", "fast", "slow"),
])
async def test_values_in_the_hosts_language(db_url, locale, off, on, quick, forum):
    chat = await open_chat(db_url, locale)
    await chat("Ann: /newgame changelings", "Bob: /join")
    assert not any(line.startswith("[to Ann]") for line in await chat(
        f"Ann: /option random_lovers {off}", f"Ann: /option early_close {on}",
        f"Ann: /pace {forum} Europe/Moscow"))
    row = await the_game()
    assert row.settings["options"] == {"random_lovers": False, "early_close": True}
    assert (row.settings["pace"], row.settings["tz"]) == ("forum", "Europe/Moscow")
    await chat(f"Ann: /pace {quick}")
    assert (await the_game()).settings["pace"] == "quick"


async def test_a_choice_by_the_words_the_bot_shows(db_url):
    chat = await open_chat(db_url, "de")
    await chat("Ann: /newgame changelings")
    await chat("Ann: /option fanatic_uses Einmal pro Spiel")
    assert (await the_game()).settings["options"] == {"fanatic_uses": "game"}


@pytest.mark.parametrize(("locale", "ruleset", "lines", "options"), [
    ("de", "changelings", ("/option wechselbälger 2", "/option Anzahl der Changelinge 2",
                           "/option Zufällige Verliebte aus", "/option fanatiker einmal pro "
                           "Spiel"), {"changelings": 2, "random_lovers": False,
                                      "fanatic_uses": "game"}),
    ("ru", "changelings", ("/option подменыши 2", "/option случайные влюблённые нет",
                           "/option часов до неактивности 5"),
     {"changelings": 2, "random_lovers": False, "inactivity_hours": 5}),
    ("ru", "alchemists", ("/option отдача всегда", "/option Смертей до появления Камня 4",
                          "/option роли объявляются да"),
     {"stone_backfire": "always", "stone_after_deaths": 4, "roles_public": True}),
    ("de", "alchemists", ("/option rückschlag nie", "/option Träger des Steins Bob"),
     {"stone_backfire": "never", "stone_holder": "Bob"}),
])
async def test_options_by_the_names_the_bot_shows_or_a_short_word(db_url, locale, ruleset,
                                                                   lines, options):
    chat = await open_chat(db_url, locale)
    await chat(f"Ann: /newgame {ruleset}", "Bob: /join")
    for line in lines:
        assert not any(out.startswith("[to Ann]") for out in await chat(f"Ann: {line}")), line
    assert (await the_game()).settings["options"] == options


async def test_each_refusal_names_the_allowed_values_in_the_hosts_language(db_url):
    chat = await open_chat(db_url, "de")
    await chat("Ann: /newgame changelings")
    assert await chat("Ann: /option random_lovers vielleicht") == [
        "[to Ann] Zufällige Verliebte kennt nur diese Werte: an oder aus."]
    assert await chat("Ann: /option fanatic_uses nie") == [
        "[to Ann] Schläge des Fanatikers kennt nur diese Werte: einmal pro Nacht oder einmal pro "
        "Spiel."]
    refused = await chat("Ann: /option inactivity_hours bald")
    assert refused[0].startswith("[to Ann] Stunden bis zur Inaktivität erwartet eine ganze "
                                 "Zahl. Stunden (0 = aus): ")
    assert await chat("Ann: /option gibtsnicht 1") == [
        "[to Ann] Changelings hat keine Option gibtsnicht. Die Optionen: Zufällige "
        "Verliebte, Stunden bis zur Inaktivität, Schläge des Fanatikers, Anzahl der "
        "Changelinge und Vorzeitiges Ende der Nacht."]
    assert await chat("Ann: /pace gemütlich") == [
        "[to Ann] Mögliche Tempi: schnell oder Forum, jeweils optional gefolgt von einer Zeitzone "
        "wie Europe/Berlin."]
    assert (await the_game()).settings["options"] == {}


async def test_an_option_that_fits_no_game_is_refused_with_the_numbers(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    assert await chat("Ann: /option changelings 9") == [
        "[to Ann] number of changelings: 9 fits no game of 7 to 30 players. "
        "Possible: 0, 2–4."]
    assert (await the_game()).settings["options"] == {}


async def test_a_count_checked_again_as_players_come_and_go(db_url):
    """Three changelings need seven players: taken while the sign-up may still grow, shown
    in the sign-up while too few have come, and /startgame refuses with the numbers."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:6]))
    taken = " ".join(await chat("Ann: /option changelings 3"))
    warning = ("⚠ number of changelings: 3 needs at least 7 players; signed up: 6. The game "
               "cannot start like this.")
    assert warning in taken
    assert await chat("Ann: /startgame") == [
        "[to Ann] The game cannot start yet: number of changelings: 3 needs at least 7 "
        "players, and 6 have signed up. Wait for more, or change it with /option "
        "changelings VALUE."]
    assert warning not in " ".join(await chat("Gus: /join"))
    assert (await the_game()).settings["options"] == {"changelings": 3}
    # the sign-up is edited: the warning is gone, and comes back when a player leaves
    assert "⚠ number of changelings: 3 needs at least 7 players; signed up: 6." in " ".join(
        await chat("Bob: /leave"))
    await chat("Bob: /join")
    assert "The game begins" in " ".join(await chat("Ann: /startgame"))


async def test_a_role_list_of_the_wrong_length_is_refused_at_start_with_the_numbers(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:6]),
               "Ann: /setroles changeling, pony")
    assert await chat("Ann: /startgame") == [
        "[to Ann] The game cannot start: the role list has 2 roles, but 6 have signed up "
        "(one role per player). Change it with /setroles, or write /setroles default for "
        "the rules' deal."]


@pytest.mark.parametrize(("typed", "ruleset"), [
    ("alchemisten", "alchemists"), ("Алхимики", "alchemists"), ("Changelings", "changelings"),
    ("чейнджлинги", "changelings"), ("ALCHEMISTS", "alchemists")])
async def test_rule_sets_by_their_names_in_any_language(db_url, typed, ruleset):
    chat = await open_chat(db_url, "de")
    await chat(f"Ann: /newgame {typed}")
    assert (await the_game()).ruleset == ruleset
    await chat("Ann: /ruleset " + ("Alchemisten" if ruleset == "changelings" else "Changelings"))
    assert (await the_game()).ruleset != ruleset


async def test_an_unknown_role_is_answered_with_the_games_roles(db_url):
    chat = await open_chat(db_url, "de")
    await chat("Ann: /newgame alchemists")
    refused = await chat("Ann: /setroles Vater, Koch")
    assert refused[0].startswith("[to Ann] In diesem Spiel gibt es keine Rolle namens Koch. "
                                 "Die ") and "Rollen: " in refused[0] and "Vater" in refused[0]
    assert (await the_game()).settings["roles"] is None


async def test_archive_chats_on_and_off_in_the_hosts_language(db_url):
    chat = await open_chat(db_url, "ru")
    await chat("Ann: /newgame")
    await chat("Ann: /archivechats да")
    assert (await the_game()).settings["archive_team_chats"] is True
    await chat("Ann: /archivechats выкл")
    assert (await the_game()).settings["archive_team_chats"] is False
