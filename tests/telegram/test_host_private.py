"""A host who plays and is abducted is muted in the group like every dead player — Telegram
then refuses his posts there — and hosts on from his private chat with the bot: through the
real python-telegram-bot stack against the fake Bot API, his /announce written privately is
posted in the group."""

from __future__ import annotations

import pytest

from .harness import open_table, sign_up

ROLES = "/setroles changeling,changeling,researcher,shield,pony,pony,pony"
TOLD = ("You are out of the game, but you are still its host: write your host powers to me "
        "here (/pause, /resume, /extend, /force, /modkill, /replace, /announce). /help lists "
        "them.")


async def test_an_abducted_host_announces_from_his_private_chat(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 7, seed=7)
    try:
        await sign_up(table, "changelings", "/option random_lovers false", ROLES)
        host = table.host
        service = table.runtime.service
        assert service is not None
        row = await table.game_row()
        assert row is not None
        cast = {p.name: p.role for p in (await service.games.load(row)).state.players.values()}
        assert cast[host.first_name] != "changeling"  # (the deal of seed 7)
        await table.let_time_pass(3600)  # the election closes; night 1 falls
        for name in (n for n, role in cast.items() if role == "changeling"):
            await table.users[name].send(f"/abduct {host.first_name}")
            await table.settle()
        await table.let_time_pass(3600)  # the night closes: the host is taken

        assert table.group.status(host) == "restricted" and not table.group.can_send(host)
        with pytest.raises(AssertionError):  # Telegram lets a muted member post nothing
            await host.send("/announce Tea at noon", chat=table.group)
        told = [m.text for m in api.sent_to(host)]
        assert told.count(TOLD) == 1

        await host.send("/announce Tea at noon")
        await table.settle()
        group = [m.text for m in table.group_messages()]
        assert group[-1] == "Announcement from the host: Tea at noon"
        assert api.sent_to(host)[-1].text == TOLD  # nothing refused
        assert api.unknown_methods == [] and api.internal_errors == []
    finally:
        await table.stop()
