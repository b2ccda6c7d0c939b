"""A restart of the bot in the middle of a game: the new process reads on from the sync
token stored with the game data, so nothing the players did is handed to the service twice
and nothing done while the bot was away is lost (not even more than one sync's timeline
holds: the gap is read from /messages)."""

from __future__ import annotations

from core.storage.models import LogEntry, ProcessedUpdate

from .harness import living, open_poll, open_table, play_to_the_end, poll_answers, sign_up


async def test_a_restarted_bot_continues_without_repeating_or_losing_anything(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8,
                             seed=11)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        poll = open_poll(table)
        assert poll is not None
        answers = {label: aid for aid, label in poll_answers(poll["content"])}
        names = list(table.players)
        for name in names[:3]:
            await table.players[name].answer(table.room, poll["event_id"], answers["Dot"])
        await table.settle()
        assert await table.kept.load("sync", table.bot["user_id"])
        handed_before = len(table.handed)

        await table.stop()  # while the bot is away, five more votes and some talk
        for name in names[3:]:
            player = table.players[name]
            await player.say(table.room, f"{name} was here")
            await player.answer(table.room, poll["event_id"], answers["Eve"], stable=False)
        # the new process logs in by password (a new device) and reads far fewer events
        # per sync than happened meanwhile: a gap
        await table.start(timeline_limit=3, access_token=None, device_id=None,
                          password=table.bot["password"])
        await table.settle()

        assert table.adapter.backfilled >= 10 - 3  # all but the newest three were fetched
        assert len(table.handed) == len(set(table.handed))  # nothing handed twice
        assert len(table.handed) - handed_before == 10  # and nothing lost
        assert await ProcessedUpdate.filter(platform="matrix").count() == len(table.handed)
        assert await table.kept.load("device", table.bot["user_id"])  # kept for the next login
        pids = await living(table)
        votes = [e.command for e in await LogEntry.all().order_by("seq")
                 if e.command["type"] == "Vote"]
        assert [(v["by"], v["target"]) for v in votes] == [
            (pids[name], pids["Dot"] if name in names[:3] else pids["Eve"]) for name in names]
        said = [e.command for e in await LogEntry.all() if e.command["type"] == "Say"]
        assert len(said) == 5

        row = await play_to_the_end(table, seed=11)  # and the game goes on to its end
        assert row.status == "ended"
        assert len(table.handed) == len(set(table.handed))
    finally:
        await table.stop()


async def test_an_event_the_service_failed_on_is_read_again(synapse, register, clients,
                                                           tmp_path):
    """A hand-over that fails (the database went away) keeps the sync token: the next sync
    reads the event again, and the command is applied once."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2)
    try:
        service = table.runtime.service
        original = service.handle
        failed: list[str] = []

        async def flaky(incoming):
            if not failed:
                failed.append(incoming.update_id)
                raise RuntimeError("the database went away")
            return await original(incoming)

        service.handle = flaky
        await table.host.say(table.room, "!help")
        await table.settle()
        answers = [t for t in table.group_texts() if t.startswith("Commands in the group")]
        assert len(answers) == 1
        assert table.handed.count(failed[0]) == 2
    finally:
        await table.stop()
