"""`/balance` in the lobby: the tables' answer at once with the chat's own history, and from
enough finished games the skill they fit and the answer at it; a custom list estimated in
the worker (announced, then posted outside the command), the balance line in the sign-up
after `/setroles` and `/option`, the skill typed in every language, and the refusals. A
table with made-up but precise cells stands in for the shipped one, and the worker plays
random games for a few seconds, so that nothing here waits on the informed players."""

from __future__ import annotations

import secrets

import pytest

import core.balance.answer as answer
from core.balance.calibrate import ENOUGH
from core.balance.estimate import Estimate
from core.balance.presets import Preset
from core.balance.setups import setup_of
from core.balance.tables import Cell, Table
from core.balance.tally import Players
from core.engine.log_codec import command_to_json, setup_to_json
from core.engine.registry import load_ruleset
from core.simulate import play_random_game
from core.storage.models import GameRecord, LogEntry

from .helpers import PLAYERS, open_chat, the_game
from .test_admin import a_finished_game

RATES = {Preset.NEW: 0.40, Preset.REGULAR: 0.52, Preset.SHARP: 0.63}


@pytest.fixture
def table(monkeypatch):
    """Every preset of the 7-player deal, 3,000 games each: precise enough to show."""
    made = Table("changelings")
    deal = setup_of("changelings", 7, None, {})
    for preset, rate in RATES.items():
        won = round(3000 * rate)
        made.add(Cell(7, deal.key(), preset,
                      Estimate(3000, {"ponies": won, "changelings": 3000 - won - 30,
                                      "lovers": 30}, 3.4), True))
    monkeypatch.setattr(answer, "shipped", lambda ruleset_id: made)
    return made


async def signed_up(db_url, locale="en"):
    chat = await open_chat(db_url, locale)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    return chat


async def test_the_tables_answer_at_once(db_url, table):
    chat = await signed_up(db_url)
    said = "\n".join(await chat("Bob: /balance"))
    assert "Balance of Changelings for 7 players: Researcher, Anti-Hate-Shield, " \
           "and 2 × Changeling." in said
    assert "Informed play, regular table: the ponies 52 % (± 2), the changelings 47 % (± 2), " \
           "and the lovers 1 % (± 1) — a fair fight for the herd." in said
    assert "Win rate of the ponies by the table's skill: new table 40 % (± 2), regular table " \
           "52 % (± 2), and sharp table 63 % (± 2)." in said
    assert "From 3000 simulated games; on average a game ends on day 3." in said
    assert "This role list is within the target: no change needed." in said
    assert "This chat has not finished a game of Changelings yet." in said
    said = "\n".join(await chat("Bob: /balance new"))
    assert "Informed play, new table: the ponies 40 % (± 2)" in said
    assert "tilted towards the changelings" in said
    await chat.session.stop()


async def test_in_german_and_russian(db_url, table):
    chat = await signed_up(db_url, "de")
    said = "\n".join(await chat("Bob: /balance"))
    assert "Kräfteverhältnis Changelings mit 7 Spielern:" in said
    assert "ein fairer Wettstreit für die ganze Herde" in said
    said = "\n".join(await chat("Bob: /balance scharfsinnig"))
    assert "Mit informierten Spielern, scharfsinnige Runde: Ponys 63 % (± 2)" in said
    said = "\n".join(await chat("Bob: /balance 7 neue Runde"))
    assert "Mit informierten Spielern, neue Runde: Ponys 40 % (± 2)" in said
    said = "\n".join(await chat("Bob: /balance morgen"))
    assert "Können der Runde: neu, eingespielt oder scharfsinnig (zum Beispiel /balance 12 " \
           "scharfsinnig)." in said
    await chat("Ann: /language ru")
    said = "\n".join(await chat("Bob: /balance sharp"))
    assert "Осмысленная игра, опытный стол: Понивилль 63 % (± 2)" in said
    assert "чаша весов клонится, сильнее Понивилль" in said
    said = "\n".join(await chat("Bob: /balance новички 7"))
    assert "Осмысленная игра, новички: Понивилль 40 % (± 2)" in said
    said = "\n".join(await chat("Bob: /balance завтра"))
    assert "новички, сыгранный или опытный (например, /balance 12 опытный)" in said
    await chat.session.stop()


async def test_the_chats_own_games_beside_the_prediction(db_url, table):
    chat, _ = await a_finished_game(db_url)  # its group kept its roles and options: back
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /setroles default", "Ann: /option random_lovers true")
    said = "\n".join(await chat("Bob: /balance"))
    assert "This chat's finished games of Changelings: 1, the ponies won 100 %." in said
    await chat.session.stop()


async def finished_games(row: GameRecord, ponies_won: int, lost: int, seed: int = 0) -> None:
    """Random 7-player games of Changelings stored as this chat's finished games, the first
    seeds from `seed` on that the ponies won and that they lost (the service replays their
    logs)."""
    ruleset = load_ruleset("changelings")
    wanted = {True: ponies_won, False: lost}
    while any(wanted.values()):
        game = play_random_game(ruleset, 7, seed)
        seed += 1
        won = "ponies" in (game.state.winners or ())
        if not wanted[won]:
            continue
        wanted[won] -= 1
        record = await GameRecord.create(
            chat_id=row.chat_id, host_id=row.host_id, ruleset="changelings", status="ended",
            setup=setup_to_json(game.setup), archive_token=secrets.token_urlsafe(16))
        await LogEntry.bulk_create([
            LogEntry(game_id=record.id, seq=i, command=command_to_json(command), events=[])
            for i, (command, _) in enumerate(game.log, 1)])


async def test_enough_finished_games_fit_the_chats_skill(db_url, table):
    assert 20 < ENOUGH <= 40
    chat = await signed_up(db_url)
    lobby = await the_game()
    await finished_games(lobby, 11, 9)  # fewer than ENOUGH: the history alone
    said = "\n".join(await chat("Bob: /balance"))
    assert "This chat's finished games of Changelings: 20, the ponies won 55 %." in said
    assert "plays like" not in said and "Informed play, regular table" in said
    await finished_games(lobby, 11, 9, seed=1000)  # 40 games: ENOUGH to fit
    said = "\n".join(await chat("Bob: /balance"))
    assert "This chat's finished games of Changelings: 40, the ponies won 55 %." in said
    assert "This chat plays like a regular table: fitted skill 33 % (95 % bounds 17–49 %), " \
           "from 40 finished games of Changelings." in said
    assert "Informed play, this chat's skill (33 %): the ponies 54 % (± 2)" in said
    assert "Win rate of the ponies by the table's skill: new table 40 % (± 2), regular table " \
           "52 % (± 2), and sharp table 63 % (± 2)." in said  # the presets' spread stays
    said = "\n".join(await chat("Bob: /balance new"))  # the host's word goes first
    assert "Informed play, new table: the ponies 40 % (± 2)" in said
    assert "This chat plays like a regular table" in said
    said = "\n".join(await chat("Ann: /option random_lovers true"))
    assert "Balance with 7 players, this chat's skill (33 %): the ponies 54 % (± 2)" in said
    await chat("Ann: /language de")
    said = "\n".join(await chat("Bob: /balance"))
    assert "Die Runde in diesem Chat spielt wie eine eingespielte Runde: geschätztes Können " \
           "33 %" in said
    assert "Mit informierten Spielern, Können dieser Runde (33 %): Ponys 54 % (± 2)" in said
    await chat.session.stop()


async def test_a_custom_list_is_estimated_in_a_worker_and_posted_when_done(db_url, table):
    chat = await signed_up(db_url)
    service = chat.session.service
    service.balance.seconds, service.balance.players_play = 3, Players.RANDOM
    said = "\n".join(await chat("Ann: /setroles changeling, changeling, researcher, pony, "
                                "pony, pony, pony"))
    assert "Balance: this role list is not in the precomputed tables; /balance estimates " \
           "it with simulated games (up to 30 seconds)." in said  # in the edited sign-up
    said = "\n".join(await chat("Bob: /balance"))
    assert "Estimating the balance with simulated games, up to 3 seconds …" in said
    assert "Balance of" not in said
    await service.balance.settled()
    await chat.session.pump()
    said = "\n".join(chat.new())
    assert "Balance of Changelings for 7 players: Researcher and 2 × Changeling." in said
    assert "Informed play, regular table: the ponies" in said
    assert "This chat has not finished a game of Changelings yet." in said
    await chat.session.stop()


async def test_the_sign_up_shows_the_balance_after_a_change(db_url, table):
    chat = await signed_up(db_url)
    said = "\n".join(await chat("Ann: /option random_lovers true"))
    assert "Balance with 7 players, regular table: the ponies 52 % (± 2), the changelings " \
           "47 % (± 2), and the lovers 1 % (± 1) — a fair fight for the herd. More: /balance." \
           in said
    await chat.session.stop()


async def test_refusals(db_url, table):
    chat = await open_chat(db_url)
    said = "\n".join(await chat("Ann: /balance"))
    assert "There is no game in this chat." in said
    await chat("Ann: /newgame changelings")
    said = "\n".join(await chat("Ann: /balance 40", "Ann: /balance tomorrow"))
    assert "The balance advisor counts 6 to 30 players" in said
    assert "Write /balance, or /balance with a player count and a table's skill: new, regular, " \
           "or sharp (for example /balance 12 sharp)." in said
    said = "\n".join(await chat("Ann: /setroles changeling, pony, pony, pony, pony, pony",
                                "Ann: /balance"))
    assert "The rules do not allow this role list with these options" in said
    await chat.session.stop()
