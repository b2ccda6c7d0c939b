"""Leaving the group is leaving the game, on Telegram (issue 30, problem 4): the real
python-telegram-bot stack against the fake Bot API, which says so as Telegram does — a
`left_chat_member` service message in any group, and a `chat_member` update to a bot that is
an admin there and asked for it in `allowed_updates`. Both say the same: the service applies
it once.

A player who leaves mid-game is out once the grace time passed, and the group is told once;
coming back within it keeps him in; one whom an admin removes is out at once; leaving during
the sign-up drops the sign-up."""

from __future__ import annotations

import pytest

from core.service.games.deadline_times import GameDefaults
from core.service.messages import texts
from core.storage.models import Seat

from .harness import Table, confirm, living, open_table, sign_up

GRACE = 60.0
GRACE_TOLD = texts.LEFT_CHAT_GRACE[0].split("{count}")[0]
PLAYERS = 7


async def cause_of(table: Table, name: str) -> str | None:
    row = await table.game_row()
    assert row is not None and table.runtime.service is not None
    state = (await table.runtime.service.games.load(row)).state
    return next(p.cause for p in state.players.values() if p.name == name)


def told_group(table: Table, since: int, name: str) -> list[str]:
    return [m.text for m in table.group_messages()[since:] if name in m.text and "group" in m.text]


def signup_text(table: Table) -> str:
    return next(m.text for m in reversed(table.group_messages())
                if m.button(text="Join") is not None)


def private(table: Table, name: str) -> list[str]:
    return [m.text for m in table.api.sent_to(table.users[name])]


@pytest.mark.parametrize("bot_admin", [True, False], ids=["admin", "member"])
async def test_a_player_who_leaves_the_group_is_out_after_the_grace_time(api, tmp_path,
                                                                         bot_admin):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", PLAYERS,
                             bot_admin=bot_admin, defaults=GameDefaults(leave_grace=GRACE))
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        before = len(table.group_messages())
        table.group.remove_member(table.users["Fay"])
        await table.settle()
        [warning] = [t for t in private(table, "Fay") if GRACE_TOLD in t]  # told once
        assert "invite link" in warning  # how to come back, in Telegram's words
        assert "Fay" in await living(table)
        await table.let_time_pass(GRACE + 1)
        assert "Fay" not in await living(table)
        assert await cause_of(table, "Fay") == "left_chat"
        assert len(told_group(table, before, "Fay")) == 1
    finally:
        await table.stop()


async def test_coming_back_within_the_grace_time_keeps_the_player(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", PLAYERS,
                             defaults=GameDefaults(leave_grace=GRACE))
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        fay = table.users["Fay"]
        table.group.remove_member(fay)
        await table.settle()
        table.group.add_member(fay)
        await table.settle()
        assert private(table, "Fay").count(texts.BACK_IN_TIME) == 1
        await table.let_time_pass(GRACE + 1)
        assert "Fay" in await living(table)
    finally:
        await table.stop()


@pytest.mark.parametrize("ban", [True, False], ids=["banned", "removed"])
async def test_a_player_an_admin_removes_is_out_at_once(api, tmp_path, ban):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 9,
                             defaults=GameDefaults(leave_grace=GRACE))
    try:  # the alchemists' game (9 at least) says it in its own voice, without the role
        await sign_up(table, "alchemists" if ban else "changelings")
        before = len(table.group_messages())
        table.group.kick_member(table.users["Gus"], ban=ban)
        await table.settle()
        assert "Gus" not in await living(table)
        assert await cause_of(table, "Gus") == "kicked"
        told = [m.text for m in table.group_messages()[before:] if "Gus" in m.text]
        assert len(told) == 1, told
        # the dead are muted, but not one an admin put out: a restriction would replace
        # his ban; nor is he "unmuted" when the game ends
        await table.host.send("/endgame", chat=table.group)
        await table.settle()
        await confirm(table, table.host)
        assert (await table.game_row()).status != "running"
        assert table.group.status(table.users["Gus"]) == ("kicked" if ban else "left")
    finally:
        await table.stop()


async def test_leaving_during_the_signup_drops_it(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 3)
    try:
        host, bob = table.host, table.users["Bob"]
        await host.send("/newgame changelings", chat=table.group)
        await table.settle()
        await bob.send("/join", chat=table.group)
        await table.settle()
        assert await Seat.filter(identity__ref=str(bob.id), active=True).exists()
        assert "Bob" in signup_text(table)
        table.group.remove_member(bob)
        await table.settle()
        assert not await Seat.filter(identity__ref=str(bob.id), active=True).exists()
        assert "Bob" not in signup_text(table)  # the sign-up's list, edited
    finally:
        await table.stop()
