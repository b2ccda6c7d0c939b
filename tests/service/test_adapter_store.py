"""The store an adapter is handed: JSON values by namespace and key, each platform its own,
and the platform messages behind our edited-in-place messages, by chat and key."""

from __future__ import annotations

from core.service.rows.adapter_tables import TableStore
from core.storage.db import open_db


async def test_values_are_kept_by_platform_namespace_and_key(db_url):
    await open_db(db_url)
    matrix, telegram = TableStore("matrix"), TableStore("telegram")
    await matrix.put("dm", "@bot:a", {"@ann:a": "!room:a"})
    await matrix.put("dm", "@bot:b", {})
    await matrix.put("sync", "@bot:a", "s123_4")  # a bare string stays a string
    await telegram.put("dm", "@bot:a", "not matrix's")
    assert await matrix.get("sync", "@bot:a") == "s123_4"
    assert await matrix.scan("dm") == [("@bot:a", {"@ann:a": "!room:a"}), ("@bot:b", {})]
    await matrix.put("dm", "@bot:a", {})  # replaced in place, keeping its order
    assert [key for key, _ in await matrix.scan("dm")] == ["@bot:a", "@bot:b"]
    await matrix.delete("dm", "@bot:b")
    assert await matrix.get("dm", "@bot:b") is None
    assert await telegram.get("dm", "@bot:a") == "not matrix's"
    long_key = "!" + "x" * 300
    await matrix.put("mute", long_key, {"level": 50})  # longer than the column: hashed
    assert await matrix.get("mute", long_key) == {"level": 50}


async def test_platform_messages_are_kept_by_chat_and_key(db_url):
    await open_db(db_url)
    store = TableStore("telegram")
    await store.keep_message("-100", "ballot-1-2", [10, 11])
    await store.keep_message("-100", "signup-1", [9])
    await store.keep_message("-100#5", "signup-2", [12], {"note": "a topic"})
    assert (await store.message("-100", "ballot-1-2")).ids == (10, 11)
    assert (await store.message("-100#5", "signup-2")).detail == {"note": "a topic"}
    assert await TableStore("matrix").message("-100", "ballot-1-2") is None
    await store.drop_messages("-100")  # the chat moved: its ids mean nothing now
    assert await store.message("-100", "signup-1") is None
    assert await store.message("-100#5", "signup-2") is not None  # a thread is its own chat
