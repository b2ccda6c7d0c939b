"""The undecryptable events the Matrix adapter holds for their room key are capped per
sender: one person whose client never shares keys (or who floods an encrypted room) holds
at most PER_SENDER events, the oldest dropped first with one log line, and cannot push out
anybody else's. The cap is a pure structure (adapters/matrix/protocol/held.py), tested as one, and
through `Crypto.hold` with a real nio client's Olm machine (no server needed: nio decrypts
locally, and these events have no key to be found)."""

from __future__ import annotations

import logging

from nio import AsyncClient, AsyncClientConfig

from adapters.matrix.client.crypto import Crypto, close_store, open_store
from adapters.matrix.protocol.held import PER_SENDER, Held, HeldEvents


def encrypted(n: int, sender: str) -> dict[str, object]:
    """An m.room.encrypted event of a Megolm session nobody gave the bot."""
    return {"type": "m.room.encrypted", "event_id": f"$ev{n}-{sender}", "sender": sender,
            "origin_server_ts": 1_700_000_000_000 + n,
            "content": {"algorithm": "m.megolm.v1.aes-sha2", "sender_key": "x" * 43,
                        "device_id": "PHONE", "session_id": f"s-{sender}",
                        "ciphertext": "AwgAEnAc"}}


def held(n: int, sender: str) -> Held:
    return Held("!room:test", encrypted(n, sender), float(n))


def test_one_sender_holds_at_most_his_cap_oldest_dropped_once_logged(caplog):
    events = HeldEvents()
    with caplog.at_level(logging.WARNING, logger="adapters.matrix.protocol.held"):
        dropped = [d for n in range(100) for d in events.add(f"$ev{n}", held(n, "@eve:test"))]
    assert len(events) == events.of("@eve:test") == PER_SENDER == 20
    assert dropped == [f"$ev{n}" for n in range(80)]  # the oldest went first
    assert [e for e, _ in events.items()] == [f"$ev{n}" for n in range(80, 100)]
    assert len([r for r in caplog.records if "@eve:test" in r.getMessage()]) == 1


def test_a_flooding_sender_does_not_push_out_the_others():
    events = HeldEvents()
    events.add("$ann", held(0, "@ann:test"))
    for n in range(1, 500):
        events.add(f"$ev{n}", held(n, "@eve:test"))
    assert "$ann" in events and events.of("@ann:test") == 1
    assert len(events) == PER_SENDER + 1


def test_the_total_stays_bounded_and_released_events_make_room():
    events = HeldEvents(per_sender=3, total=5)
    for n in range(4):
        for sender in ("@a:t", "@b:t"):
            events.add(f"$ev{n}{sender}", held(n, sender))
    assert len(events) == 5  # 3 + 3 capped per sender, then 5 in all
    events.remove("$ev3@a:t")
    assert events.of("@a:t") == 1 and len(events) == 4
    events.add("$ev4@a:t", held(4, "@a:t"))
    assert events.of("@a:t") == 2


async def test_crypto_holds_no_more_than_the_cap_of_one_sender(tmp_path):
    store = tmp_path / "store"
    open_store(str(store))
    client = AsyncClient("http://127.0.0.1:9", "@bot:test", device_id="BOTDEVICE",
                         store_path=str(store),
                         config=AsyncClientConfig(store_sync_tokens=True, encryption_enabled=True))
    client.restore_login("@bot:test", "BOTDEVICE", "token")  # loads the Olm machine
    try:
        crypto = Crypto(client)
        for n in range(60):
            crypto.hold("!room:test", encrypted(n, "@eve:test"))
        crypto.hold("!room:test", encrypted(0, "@ann:test"))
        assert crypto.held == PER_SENDER + 1
        ready, given_up = crypto.release()  # no key came: they still wait
        assert ready == [] and given_up == [] and crypto.held == PER_SENDER + 1
        crypto.wait = -1.0
        ready, given_up = crypto.release()  # waited too long: named to the adapter
        assert ready == [] and len(given_up) == PER_SENDER + 1 and crypto.held == 0
    finally:
        await client.close()
        close_store(client)
