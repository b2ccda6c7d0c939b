"""Two players called Kim Lee, neither with a username: whoever picks one of them from
Telegram's @-list sends a `text_mention` naming that exact account, and the bot takes that
Kim — in a vote, in a night action typed in private, in a host's power. The same words typed
without a pick are a real ambiguity, asked back."""

from __future__ import annotations

from core.engine import Act
from core.storage.models import LogEntry, Seat

from .fake_botapi import FakeUser
from .harness import NAMES, OffsetClock, Table, start_payload


async def open_kim_table(api, db_url: str) -> tuple[Table, FakeUser, FakeUser]:
    """Six players with names of their own, and two called Kim Lee (no usernames)."""
    from adapters.telegram.adapter import TelegramAdapter, TelegramSettings
    from core.service import RateLimits
    from core.service.runtime import Runtime

    api.privacy = False
    users = {name: api.user(name) for name in NAMES[:6]}
    kims = (api.user("Kim", last_name="Lee"), api.user("Kim", last_name="Lee"))
    group = api.group("Ponyville Game Night", members=[*users.values(), *kims],
                      bot_admin=True, supergroup=True)
    adapter = TelegramAdapter(TelegramSettings(token=api.token, base_url=api.base_url,
                                               poll_timeout=1, limits=RateLimits()))
    clock = OffsetClock()
    runtime = Runtime(db_url, [adapter], clock=clock, seed=5, tick=0.05)
    await runtime.start()
    table = Table(api, runtime, clock, group, users)
    await table.host.send("/newgame changelings", chat=group)
    await table.settle()
    payload = start_payload(table.group_messages()[-1])
    for user in [*list(users.values())[1:], *kims]:
        await user.start(payload)
    await table.host.start()
    await table.settle()
    await table.host.send("/option random_lovers false", chat=group)
    await table.host.send("/startgame", chat=group)
    await table.settle()
    return table, kims[0], kims[1]


async def seat_of(table: Table, user: FakeUser) -> str:
    row = await table.game_row()
    seat = await Seat.get(game_id=row.id, identity__ref=str(user.id), active=True)
    return seat.pid


async def game_of(table: Table):
    return await table.runtime.service.games.load(await table.game_row())


async def test_a_vote_by_a_pick_from_the_at_list_names_that_kim(api, db_url):
    table, first, second = await open_kim_table(api, db_url)
    try:
        bob, cid = table.users["Bob"], table.users["Cid"]
        await bob.send("/vote Kim Lee", chat=table.group, picked=[("Kim Lee", second)])
        await cid.send("/vote Kim Lee", chat=table.group)  # typed: either Kim
        await table.settle()
        game = await game_of(table)
        assert game.state.votes == {await seat_of(table, bob): await seat_of(table, second)}
        assert api.sent_to(cid)[-1].text.startswith("“Kim Lee” matches several players")
        await cid.send("/vote Kim Lee", chat=table.group, picked=[("Kim Lee", first)])
        await table.settle()
        game = await game_of(table)
        assert game.state.votes[await seat_of(table, cid)] == await seat_of(table, first)
    finally:
        await table.stop()


async def test_a_night_action_and_a_host_power_by_a_pick_from_the_at_list(api, db_url):
    table, first, second = await open_kim_table(api, db_url)
    try:
        for _ in range(4):  # the election closes, then whatever it owes: the night comes
            game = await game_of(table)
            if game.state.phase.kind == "night":
                break
            await table.let_time_pass(400)
        assert game.state.phase.kind == "night"
        kim = await seat_of(table, second)
        pids = {await seat_of(table, user): user for user in table.users.values()}
        # someone with an action on one player that may name the second Kim now
        actor, action = next((pid, spec.id) for pid, user in pids.items()
                             for spec in game.ruleset.offers(game, game.state.players[pid])
                             if spec.targets == 1 and game.check(
                                 Act(pid, spec.id, (kim,), None, None)) is None)
        await pids[actor].send(f"/{action} Kim Lee", picked=[("Kim Lee", second)])
        await table.settle()
        last = (await LogEntry.all().order_by("-id").first()).command
        assert (last["type"], last.get("by"), last.get("targets")) == ("Act", actor, [kim])

        await table.host.send("/modkill Kim Lee", chat=table.group,
                              picked=[("Kim Lee", first)])
        await table.settle()
        players = (await game_of(table)).state.players
        assert not players[await seat_of(table, first)].alive
        assert players[kim].alive
    finally:
        await table.stop()
