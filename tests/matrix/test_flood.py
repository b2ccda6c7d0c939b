"""Synapse's real rate limit: the bot's account gets a tight `rc_message` override (the admin
API), the adapter's own pacing is off, and a burst of answers must still all arrive: every
M_LIMIT_EXCEEDED becomes a TransientError with Synapse's `retry_after_ms`, which the outbox
waits out (nio itself never sleeps on a 429 here).

The limit is one message a second with no burst (Synapse takes whole numbers; 0 is no limit):
with four a second and bursts of two, a loaded machine answered the six commands too slowly
for any to be refused, and the test proved nothing (two of three runs at load 12 failed)."""

from __future__ import annotations

from core.storage.models import Outbox

from .harness import open_table


async def test_m_limit_exceeded_is_waited_out_and_nothing_is_lost(synapse, register, clients,
                                                                  tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2)
    try:
        admin = synapse.register(f"admin-{table.bot['user_id'][1:].split(':')[0]}", admin=True)
        synapse.http("POST", f"/_synapse/admin/v1/users/{table.bot['user_id']}/override_ratelimit",
                     {"messages_per_second": 1, "burst_count": 1}, token=admin["access_token"])
        for _ in range(6):
            await table.host.say(table.room, "!help")
        await table.settle(timeout=30)
        answers = [t for t in table.group_texts() if t.startswith("Commands in the group")]
        assert len(answers) == 6
        assert await Outbox.filter(attempts__gt=0).exists()  # some had to wait
        assert not await Outbox.exclude(status="sent").exists()
    finally:
        await table.stop()
