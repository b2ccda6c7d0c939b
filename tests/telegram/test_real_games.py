"""Whole games in the groups Telegram really has: two games at once in two topics of one
forum, a basic group upgraded to a supergroup in the middle of a game, and a new bot's
defaults (privacy mode on, not an admin, a basic group) — each played to the end through the
real PTB stack against the fake Bot API."""

from __future__ import annotations

import random

import pytest

from core.storage.models import GameRecord, Outbox

from .harness import NAMES, OffsetClock, Table, living, open_table, play_round, sign_up

RULESETS = ("changelings", "alchemists")
SETTINGS = {"changelings": ("/option random_lovers false",), "alchemists": ()}
UNFINISHED = ("pending", "sending", "failed", "unknown", "lost")  # "norights" waits


def ballot(message) -> bool:
    return any("callback_data" in b for row in message.buttons for b in row)


class ChatTable(Table):
    """A table whose game is the one in its own chat (one of several on one bot)."""

    chat_ref: str = ""

    async def game_row(self) -> GameRecord | None:
        return await GameRecord.filter(chat__ref=self.chat_ref).order_by("-id").first()


async def play_all(tables: list[Table], seed: int, max_rounds: int = 150) -> list[GameRecord]:
    """Every table plays its round; when nobody anywhere can act, the clock runs on."""
    rng = random.Random(seed)
    longest = 660.0
    for _ in range(max_rounds):
        await tables[0].settle()
        rows = [await t.game_row() for t in tables]
        if all(r is not None and r.status != "running" for r in rows):
            return [r for r in rows if r is not None]
        acted = False
        for table, row in zip(tables, rows, strict=True):
            if row is not None and row.status == "running":
                acted = await play_round(table, rng) or acted
        if not acted:
            await tables[0].let_time_pass(longest)
    raise AssertionError("the games did not end")


async def assert_clean_end(api, row: GameRecord) -> None:
    assert row.status == "ended"
    assert api.unknown_methods == [] and api.internal_errors == []
    assert api.violations == []
    assert not await Outbox.filter(game_id=row.id, status__in=UNFINISHED).exists()


async def test_two_games_in_two_topics_of_one_forum(api, tmp_path):
    """A game belongs to the topic where /newgame was sent: its ballot, announcements and
    results go there and nowhere else, while another topic holds another game."""
    from adapters.telegram.adapter import TelegramAdapter, TelegramSettings
    from core.service import RateLimits
    from core.service.runtime import Runtime

    users = [api.user(name) for name in (*NAMES, "Max", "Ned", "Oda", "Pam", "Quin")]
    group = api.group("Everfree Forum", members=users, supergroup=True, forum=True,
                      bot_admin=True)
    ponies = group.create_topic("Ponyville", by=users[0])
    alchemy = group.create_topic("The Laboratory", by=users[8])
    clock = OffsetClock()
    adapter = TelegramAdapter(TelegramSettings(token=api.token, base_url=api.base_url,
                                               poll_timeout=1, limits=RateLimits()))
    runtime = Runtime(f"sqlite://{tmp_path / 'forum.sqlite3'}", [adapter], clock=clock,
                      seed=3, tick=0.05)
    await runtime.start()
    tables = []
    for topic, people in ((ponies, users[:8]), (alchemy, users[8:17])):
        table = ChatTable(api, runtime, clock, topic, {u.first_name: u for u in people})
        table.chat_ref = f"{group.id}#{topic.thread_id}"
        tables.append(table)
    try:
        await sign_up(tables[0], "changelings", *SETTINGS["changelings"])
        await sign_up(tables[1], "alchemists")
        for table in tables:
            assert len(await living(table)) == len(table.users)
        rows = await play_all(tables, seed=8)
        for row in rows:
            await assert_clean_end(api, row)
        assert {r.ruleset for r in rows} == {"changelings", "alchemists"}
        pony_texts = " ".join(m.text for m in api.messages(ponies))
        lab_texts = " ".join(m.text for m in api.messages(alchemy))
        assert "Ponyville" in pony_texts and "Changeling" in pony_texts
        strays = [m.text for m in api.messages(alchemy) if "Changeling" in m.text]
        assert not strays and "Philosopher's Stone" in lab_texts, strays
        assert not api.messages(group.general)  # nothing strayed into General
        for topic in (ponies, alchemy):
            assert all(m.get("message_thread_id") == topic.thread_id
                       for m in api.messages(topic))
    finally:
        await runtime.stop()


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_a_basic_group_upgraded_in_the_middle_of_a_game(api, tmp_path, ruleset):
    """The group gets a new id; the game, its ballot and the chat's language follow it and
    it is played to the end there."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 9, privacy=True,
                             bot_admin=False, supergroup=False)
    try:
        await table.host.send("/language de", chat=table.group)
        await sign_up(table, ruleset, *SETTINGS[ruleset])
        old = table.group
        ballot_open = any(ballot(m) for m in api.messages(old))
        table.group = old.upgrade(by=table.host)
        await table.settle()
        row = await table.game_row()
        assert row is not None and row.status == "running"
        chat = await row.chat
        assert chat.ref == str(table.group.id) and chat.locale == "de"
        if ballot_open:  # the ballot is posted anew in the new chat, its buttons working
            assert any(ballot(m) for m in api.messages(table.group))
        await table.host.send("/status", chat=table.group)
        await table.settle()
        assert any("Phase" in m.text for m in api.messages(table.group)[-3:])
        rows = await play_all([table], seed=len(ruleset))
        await assert_clean_end(api, rows[0])
        assert not [e for e in api.errors if e.method != "getUpdates"
                    and "upgraded" in e.description and e.params.get("chat_id") ==
                    table.group.id]
    finally:
        await table.runtime.stop()


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_a_new_bot_in_a_new_group_plays_a_whole_game(api, tmp_path, ruleset):
    """Privacy mode on, a plain member of a basic group: commands and buttons reach the bot,
    the game is played to the end, and muting is skipped with one private word to the host."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 9, privacy=True,
                             bot_admin=False, supergroup=False)
    try:
        await table.host.send("hello everypony", chat=table.group)  # never reaches the bot
        await sign_up(table, ruleset, *SETTINGS[ruleset])
        rows = await play_all([table], seed=len(ruleset) + 1)
        await assert_clean_end(api, rows[0])
        notices = [m for m in api.sent_to(table.host) if "cannot mute" in m.text]
        assert len(notices) == 1
        assert await Outbox.filter(status="norights").exists()  # kept for when rights come
    finally:
        await table.runtime.stop()
