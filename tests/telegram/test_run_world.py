"""`nightfall run` as a process, talked to only over HTTP as Telegram would, in the world
Telegram really is: a group text that starts with "@", a game in a forum topic, a group
upgraded under a running sign-up, a send answered too late, an anonymous admin's vote, the
bot kicked from a group."""

from __future__ import annotations

import asyncio
import os
import signal

from tests.bot_run import NIGHTFALL, UNLIMITED, free_port, wait_healthy, write_config


async def test_run_keeps_up_with_telegram_as_it_is(api, tmp_path):
    port = free_port()
    config = write_config(tmp_path / "nightfall.toml",
                          database=f"sqlite://{tmp_path / 'bot.sqlite3'}", port=port,
                          telegram={"api_url": api.base_url, "request_timeout": 1.5,
                                    "rates": UNLIMITED})
    api.privacy = False  # the bot sees every message, so free text reaches it as well
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await wait_healthy(f"http://127.0.0.1:{port}/healthz")
        ann, bob, cid = api.user("Ann"), api.user("Bob", username="bob"), api.user("Cid")
        for user in (ann, bob, cid):
            await user.start()
        basic = api.group("Game night", members=[ann, bob, cid])

        # a group text that starts with "@": the bot stays awake
        await bob.send("@bob are you coming tonight?", chat=basic)
        await ann.send("/newgame changelings", chat=basic)
        await api.wait_for(lambda: any("opens a game" in m.text for m in api.messages(basic)))
        assert api.pending_updates == 0

        # the group is upgraded under the sign-up: it goes on in the new chat
        upgraded = basic.upgrade(by=ann)
        await bob.send("/join", chat=upgraded)
        await api.wait_for(lambda: any("Bob" in m.text and "(2 players)" in m.text
                                       for m in api.messages(upgraded)), timeout=15)

        # an anonymous admin's vote is answered in the group, and nobody is seated
        upgraded.make_admin(cid)
        await cid.send("/vote Ann", chat=upgraded, anonymous=True)
        await api.wait_for(lambda: any("not started" in m.text
                                       for m in api.messages(upgraded)), timeout=15)

        # a game in a forum topic talks in its topic, and a late answer doubles nothing
        dot, eve = api.user("Dot"), api.user("Eve")
        await dot.start()
        forum = api.group("Everfree", members=[dot, eve], supergroup=True, forum=True)
        topic = forum.create_topic("Alchemy", by=dot)
        api.delay_next("sendMessage", 3.0)
        await dot.send("/newgame alchemists", chat=topic)
        await api.wait_for(lambda: topic.messages(), timeout=15)
        await asyncio.sleep(4)
        assert len([m for m in api.history(topic) if m.get("event") == "sent"]) == 1
        assert all(m.get("message_thread_id") == topic.thread_id for m in topic.messages())
        assert not forum.general.messages()

        # the bot kicked from the forum: its host hears of it privately
        forum.kick_bot()
        await api.wait_for(lambda: any("removed from Everfree" in m.text
                                       for m in api.sent_to(dot)), timeout=15)
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()[-2000:]
    assert "Traceback" not in stderr.decode(), stderr.decode()[-2000:]
